// Dump.swift
//
// A `dump` written on RuntimeMetadata's value walker, producing the text the standard library's
// Mirror-based `dump(_:)` produces (stdlib/public/core/Dump.swift: the bullets, the element
// counts of tuples and collections, `super:` sections, ` #N` identities of objects and
// metatypes, and the `maxDepth` and `maxItems` cut-offs), from the walker's cached per-type plans
// instead of a `Mirror` per value. The walk keeps its own stack of frames, one per value whose
// children are being written, each holding its place as a position
// (ValueWalker.node(forChildAt:of:) reads the child there), so any depth of nesting dumps
// without running out of the thread's stack, and a child is read only when its line is written.
// A stored property, tuple element or array element of the commonest leaf types is written from
// its typed value, without an `Any` or a node of its own.

internal import RuntimeMetadata

/// Dumps a value's contents to a stream, as the standard library's `dump(_:to:)` does, read
/// through RuntimeMetadata's `ValueWalker` instead of `Mirror`.
///
/// The output is the standard library's, character for character: custom mirrors
/// (`CustomReflectable`, as `Date`, `URL` and `Data` have) are honoured, as `Mirror` honours
/// them, and descriptions come from `CustomDebugStringConvertible`, `CustomStringConvertible`
/// and `TextOutputStreamable` in that order. Two differences remain, both for values `Mirror`
/// itself handles unsafely: a function stored at its declaration's abstraction prints as
/// `(Function)` without being copied, and a value nested deeper than the thread's stack
/// allows is dumped where `Mirror`'s recursion would crash.
///
/// ```swift
/// var text = ""
/// ValueDump.dump(order, to: &text)
/// ```
/// - Parameters:
///   - value: The value to dump.
///   - target: The stream to write to.
///   - name: A label for the value.
///   - indent: The number of spaces to indent every line with.
///   - maxDepth: The deepest level whose children are listed.
///   - maxItems: The most lines to write before eliding the rest.
/// - Returns: `value`, unchanged.
@discardableResult
public func dump<T, TargetStream: TextOutputStream>(
    _ value: T,
    to target: inout TargetStream,
    name: String? = nil,
    indent: Int = 0,
    maxDepth: Int = .max,
    maxItems: Int = .max
) -> T {
    dump(value, to: &target, name: name, indent: indent, maxDepth: maxDepth, maxItems: maxItems, options: [])
}

/// Dumps a value's contents to a stream, as ``dump(_:to:name:indent:maxDepth:maxItems:)`` does,
/// with options that depart from the standard library's text on purpose.
///
/// ``DumpOptions/stable`` makes the text the same in every process, so that a snapshot test
/// can keep it: dictionary and set entries sorted by their dumped keys, and types in anonymous
/// contexts named without the contexts' addresses. `Swift.dump` writes neither so.
///
/// ```swift
/// var text = ""
/// ValueDump.dump(state, to: &text, options: .stable)
/// ```
/// - Parameters:
///   - value: The value to dump.
///   - target: The stream to write to.
///   - name: A label for the value.
///   - indent: The number of spaces to indent every line with.
///   - maxDepth: The deepest level whose children are listed.
///   - maxItems: The most lines to write before eliding the rest.
///   - options: How the text departs from the standard library's.
/// - Returns: `value`, unchanged.
@discardableResult
public func dump<T, TargetStream: TextOutputStream>(
    _ value: T,
    to target: inout TargetStream,
    name: String? = nil,
    indent: Int = 0,
    maxDepth: Int = .max,
    maxItems: Int = .max,
    options: DumpOptions
) -> T {
    var dumper = Dumper(maxItems: maxItems, options: options)
    dumper.dump(value, name: name, indent: indent, maxDepth: maxDepth, to: &target)
    return value
}

/// How a dump departs from the standard library's text.
public struct DumpOptions: OptionSet, Hashable, Sendable {
    /// The options' bits.
    public let rawValue: Int

    /// Options from their bits.
    /// - Parameter rawValue: The bits.
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Dictionary entries sorted by the dumped text of their keys, set elements by their own
    /// dumped text, instead of the hashing order, which changes from one process to the next.
    /// Entries whose texts are equal keep their relative order.
    public static let sortsUnorderedCollections = DumpOptions(rawValue: 1 << 0)

    /// Types in anonymous contexts (private and local types) named `(unknown context)` where
    /// the runtime writes the context's address, `(unknown context at $7f3a…)`, which changes
    /// from one process to the next.
    public static let portableTypeNames = DumpOptions(rawValue: 1 << 1)

    /// Both: a text that is the same in every process, for snapshot tests.
    public static let stable: DumpOptions = [.sortsUnorderedCollections, .portableTypeNames]
}

/// Dumps a value's contents to standard output, as the standard library's `dump(_:)` does.
///
/// As ``dump(_:to:name:indent:maxDepth:maxItems:)``, written to standard output.
/// - Parameters:
///   - value: The value to dump.
///   - name: A label for the value.
///   - indent: The number of spaces to indent every line with.
///   - maxDepth: The deepest level whose children are listed.
///   - maxItems: The most lines to write before eliding the rest.
/// - Returns: `value`, unchanged.
@discardableResult
public func dump<T>(
    _ value: T,
    name: String? = nil,
    indent: Int = 0,
    maxDepth: Int = .max,
    maxItems: Int = .max
) -> T {
    var text = ""
    dump(value, to: &text, name: name, indent: indent, maxDepth: maxDepth, maxItems: maxItems)
    print(text, terminator: "")
    return value
}

/// One dump: its item budget, the identities it has numbered, and its work stack.
///
/// The stack holds a frame per value whose children are still to be written, and per `super:`
/// section still to be written. A frame is taken off the stack and its children written, the
/// frame's node held in a local, until a child needs frames of its own: the frame goes back
/// under them, its place kept as a position. When the item budget runs out at a child, the
/// standard library writes how many of the child's siblings are left and skips them, and so
/// does the dumper, by dropping the frame.
///
/// The dumper's helpers take the node and the text as arguments rather than reading them
/// through `self`: a value that holds an `Any` is copied to call a method on it through a
/// mutating method's `self`.
private struct Dumper {
    /// A value whose children are being written, or a `super:` section to write.
    struct Frame {
        enum Kind {
            /// Children read from the node one at a time, at positions `first..<end`: stored
            /// properties (one class level's), tuple elements, a payload, array elements.
            case parts
            /// Set and dictionary elements or custom mirror children, gathered into
            /// `Dumper.gathered[first..<end]` when the node's line was written.
            case gathered
            /// The `some` of an optional holding a withheld function: one child.
            case withheldSome
            /// A class level's `super:` section: `level` indexes the node's class hierarchy.
            case superclass
            /// A custom mirror's `super:` section: the mirror `level` superclass mirrors above
            /// the node's custom mirror.
            case mirrorSuperclass
        }

        var kind: Kind
        var node: ValueNode?
        var first = 0
        var next = 0
        var end = 0
        var level = 0
        /// The indentation and the depth limit of the frame's lines.
        var indent: Int
        var maxDepth: Int
    }

    /// A gathered child: a collection element or a custom mirror's child, never a withheld
    /// function. A tuple, so that its value can be moved out of it.
    typealias Gathered = (label: String?, value: Any)

    var maxItemCounter: Int
    var visitedItems: [ObjectIdentifier: Int] = [:]
    var frames: [Frame] = []
    var gathered: [Gathered] = []
    let walker = ValueWalker(honorsCustomReflectable: true)

    /// How the text departs from the standard library's.
    let options: DumpOptions

    init(maxItems: Int, options: DumpOptions = []) {
        maxItemCounter = maxItems
        self.options = options
    }

    mutating func dump<TargetStream: TextOutputStream>(
        _ value: Any,
        name: String?,
        indent: Int,
        maxDepth: Int,
        to target: inout TargetStream
    ) {
        // The lines are written to a buffer of this function's own, and passed to the stream
        // in chunks: one `write` per chunk rather than one per piece of a line. The buffer
        // starts small, as most dumps are a few lines, and grows up to a chunk.
        var text = TextBuffer(capacity: 2048, portableTypeNames: options.contains(.portableTypeNames))
        writeValue(value, label: name, indent: indent, maxDepth: maxDepth, to: &text)
        while let frame = frames.popLast() {
            // Each frame is moved into the function that writes it: copied, it would copy its
            // node's value.
            switch frame.kind {
            case .parts: writeParts(consume frame, to: &text)
            case .gathered: writeGathered(consume frame, to: &text)
            case .withheldSome: writeWithheldSome(consume frame, to: &text)
            case .superclass: writeSuperclass(consume frame, to: &text)
            case .mirrorSuperclass: writeMirrorSuperclass(consume frame, to: &text)
            }
            if text.count >= Self.chunkSize { target.write(text.take()) }
        }
        if text.count > 0 { target.write(text.take()) }
    }

    /// The text written before it is passed to the stream.
    private static var chunkSize: Int { 16 * 1024 }

    /// Writes a frame's stored properties, tuple elements or payload, until they end, the item
    /// budget runs out, or one of them has children to write first.
    private mutating func writeParts(_ frame: consuming Frame, to target: inout TextBuffer) {
        guard var node = frame.node.take() else { return }
        var position = frame.next
        while position < frame.end {
            guard maxItemCounter > 0 else {
                elide(count: frame.end - frame.first, offset: position - frame.first, indent: frame.indent, to: &target)
                return
            }
            if writeLeaf(ofChildAt: position, in: node, indent: frame.indent, to: &target) {
                position += 1
                continue
            }
            // The child's own node, read without a `ValueChild`: its label and declared type
            // are the parent's to give.
            let label = node.label(ofChildAt: position)
            let child = walker.node(forChildAt: position, of: node)
            // Only a function stored at its declaration's abstraction, or a noncopyable part,
            // has no node.
            let declaredType = child == nil ? node.declaredType(ofChildAt: position) : nil
            if let declaredType, !declaredType.isCopyable {
                writeNoncopyable(label: label, type: declaredType, indent: frame.indent, to: &target)
                position += 1
                continue
            }
            let isOptionalFunction = declaredType?.kind == .optional
            position += 1
            // Pushed before the child, with its node moved in, so that the child's frames come
            // first and this one resumes after them; taken back when the child has none.
            frame.next = position
            frame.node = consume node
            let indent = frame.indent
            let maxDepth = frame.maxDepth
            let mark = frames.count
            push(frame)
            if let child = consume child {
                writeNode(child, label: label, indent: indent, maxDepth: maxDepth, to: &target)
            } else {
                writeWithheldFunction(
                    label: label,
                    isOptional: isOptionalFunction,
                    indent: indent,
                    maxDepth: maxDepth,
                    to: &target
                )
            }
            if frames.count > mark + 1 { return }
            frame = frames.removeLast()
            guard let resumed = frame.node.take() else { return }
            node = resumed
        }
    }

    /// Pushes a frame; the stack's first push makes room for sixteen, so that a dump does not
    /// grow it one frame at a time.
    private mutating func push(_ frame: consuming Frame) {
        if frames.capacity == 0 { frames.reserveCapacity(16) }
        frames.append(frame)
    }

    /// Writes a frame's gathered children, as ``writeParts(_:to:)`` writes parts.
    private mutating func writeGathered(_ frame: consuming Frame, to target: inout TextBuffer) {
        var position = frame.next
        while position < frame.end {
            guard maxItemCounter > 0 else {
                elide(count: frame.end - frame.first, offset: position - frame.first, indent: frame.indent, to: &target)
                break
            }
            // Moved out: the gathered copy is not needed again.
            var child: Gathered = (label: nil, value: ())
            swap(&child, &gathered[position])
            let (label, value) = child
            position += 1
            // Pushed before the child, as in `writeParts`; left under the child's frames even
            // when no child is left, to remove the gathered children after the child's own.
            frame.next = position
            let indent = frame.indent
            let maxDepth = frame.maxDepth
            let mark = frames.count
            push(frame)
            writeValue(consume value, label: label, indent: indent, maxDepth: maxDepth, to: &target)
            if frames.count > mark + 1 { return }
            frame = frames.removeLast()
        }
        // The frame is over, and so are the frames that gathered after it.
        gathered.removeSubrange(frame.first...)
    }

    /// The `some` line of an optional holding a withheld function.
    private mutating func writeWithheldSome(_ frame: consuming Frame, to target: inout TextBuffer) {
        guard maxItemCounter > 0 else {
            elide(count: 1, offset: 0, indent: frame.indent, to: &target)
            return
        }
        writeWithheldFunction(
            label: "some",
            isOptional: false,
            indent: frame.indent,
            maxDepth: frame.maxDepth,
            to: &target
        )
    }

    /// The line of a stored property or tuple element declared as one of the commonest leaf
    /// types (`ValueNode.leafSummary(ofChildAt:type:)`), written from its typed value without a
    /// node; `false`, with nothing written, for other types.
    private mutating func writeLeaf(
        ofChildAt position: Int,
        in node: borrowing ValueNode,
        indent: Int,
        to target: inout TextBuffer
    ) -> Bool {
        guard let type = node.declaredType(ofChildAt: position),
            let summary = node.leafSummary(ofChildAt: position, type: type)
        else { return false }
        maxItemCounter -= 1
        target.writeLineStart(indent: indent, bullet: .leaf, label: node.label(ofChildAt: position))
        summary.write(to: &target)
        target.writeNewline()
        return true
    }

    /// The standard library's note for the children the item budget leaves out, indented two
    /// spaces more than the children.
    private func elide(count: Int, offset: Int, indent: Int, to target: inout TextBuffer) {
        target.writeIndent(indent + 2)
        let remainder = count - offset
        target.write("(")
        target.write(remainder)
        if offset > 0 { target.write(" more") }
        target.write(remainder == 1 ? " child)\n" : " children)\n")
    }

    /// One value's line; frames for its children and its `super:` section follow it.
    private mutating func writeValue(
        _ value: consuming Any,
        label: String?,
        indent: Int,
        maxDepth: Int,
        to target: inout TextBuffer
    ) {
        guard maxItemCounter > 0 else { return }
        writeNode(walker.node(for: consume value), label: label, indent: indent, maxDepth: maxDepth, to: &target)
    }

    /// The identity `Swift.dump` numbers a line with: a class instance's, or a metatype's,
    /// also where optionals wrap the metatype, as `dump` finds it by `value as? Any.Type`,
    /// which looks through optionals (stdlib/public/core/Dump.swift). The cast is not made:
    /// the optionals are unwrapped only where their declared wrapped type can hold a metatype.
    private func identifier(of node: borrowing ValueNode) -> ObjectIdentifier? {
        guard node.style == .optional else { return node.objectIdentifier }
        guard let wrapped = node.declaredType(ofChildAt: 0) else { return nil }
        switch wrapped.kind {
        case .metatype, .existentialMetatype, .existential, .optional: break
        default: return nil
        }
        var current = walker.node(forChildAt: 0, of: node)
        while let unwrapped = current, unwrapped.style == .optional {
            current = walker.node(forChildAt: 0, of: unwrapped)
        }
        guard let unwrapped = current else { return nil }
        switch unwrapped.type.kind {
        case .metatype, .existentialMetatype: return unwrapped.objectIdentifier
        default: return nil
        }
    }

    /// One node's line; frames for its children and its `super:` section follow it.
    private mutating func writeNode(
        _ node: consuming ValueNode,
        label: String?,
        indent: Int,
        maxDepth: Int,
        to target: inout TextBuffer
    ) {
        guard maxItemCounter > 0 else { return }
        maxItemCounter -= 1
        // A class instance's own line counts its own class's properties; its superclasses' go
        // under their `super:` lines.
        let parts: Range<Int>
        let count: Int
        switch node.style {
        case .class:
            parts = node.classHierarchy.first.map { node.childIndices(declaredBy: $0) } ?? 0..<0
            count = parts.count
        case .struct, .tuple, .enum, .optional:
            count = node.childCount
            parts = 0..<count
        case .leaf:
            count = 0
            parts = 0..<0
        case .collection, .dictionary, .set, .custom:
            count = node.childCount
            // An array's elements are read by position, as parts are; other collections' and
            // custom mirrors' children are gathered first.
            parts = node.hasRandomAccessChildren ? 0..<count : 0..<0
        }
        target.writeLineStart(indent: indent, bullet: Self.bullet(count: count, maxDepth: maxDepth), label: label)
        Summary.write(node, childCount: count, walker: walker, to: &target)
        if let identifier = identifier(of: node) {
            target.write(" #")
            if let previous = visitedItems[identifier] {
                target.write(previous)
                target.writeNewline()
                return
            }
            let number = visitedItems.count
            visitedItems[identifier] = number
            target.write(number)
        }
        target.writeNewline()
        guard maxDepth > 0 else { return }
        let superclass: Frame.Kind? =
            if node.style == .custom, node.customMirror?.superclassMirror != nil {
                .mirrorSuperclass
            } else if node.style == .class, node.classHierarchy.count > 1 {
                .superclass
            } else {
                nil
            }
        // The superclass frame, pushed last, keeps a copy of the node; otherwise the parts
        // frame takes the node itself.
        let superclassNode: ValueNode? = superclass == nil ? nil : copy node
        if count > 0 {
            if parts.isEmpty {
                pushGathered(of: node, count: count, indent: indent + 2, maxDepth: maxDepth - 1)
            } else {
                push(
                    Frame(
                        kind: .parts,
                        node: consume node,
                        first: parts.lowerBound,
                        next: parts.lowerBound,
                        end: parts.upperBound,
                        indent: indent + 2,
                        maxDepth: maxDepth - 1
                    )
                )
            }
        }
        // Popped first: the superclass sections come before the node's own children.
        if let superclass {
            push(Frame(kind: superclass, node: superclassNode, level: 1, indent: indent + 2, maxDepth: maxDepth - 1))
        }
    }

    /// Gathers a collection's elements or a custom mirror's children, and pushes their frame.
    private mutating func pushGathered(of node: borrowing ValueNode, count: Int, indent: Int, maxDepth: Int) {
        let first = gathered.count
        gathered.reserveCapacity(first + count)
        node.forEachChild { child in
            // Elements and custom mirror children are never withheld functions.
            if let value = child.value { gathered.append((label: child.label, value: value)) }
        }
        let style = node.style
        if options.contains(.sortsUnorderedCollections), style == .dictionary || style == .set {
            sortGathered(from: first, isDictionary: style == .dictionary)
        }
        push(
            Frame(kind: .gathered, first: first, next: first, end: gathered.count, indent: indent, maxDepth: maxDepth)
        )
    }

    /// Sorts the gathered entries of a dictionary or set, from a position, by the dumped text of
    /// each key (a dictionary entry's first element) or element: dumped on their own, with the
    /// same options, so that the numbering of the objects in this dump is not disturbed.
    private mutating func sortGathered(from first: Int, isDictionary: Bool) {
        var keyed: [(key: String, entry: Gathered)] = []
        keyed.reserveCapacity(gathered.count - first)
        for index in first..<gathered.count {
            var entry: Gathered = (label: nil, value: ())
            swap(&entry, &gathered[index])
            let key: Any =
                isDictionary ? (walker.node(for: entry.value).child(at: 0)?.value ?? entry.value) : entry.value
            var text = ""
            var keyDumper = Dumper(maxItems: .max, options: options)
            keyDumper.dump(key, name: nil, indent: 0, maxDepth: .max, to: &text)
            keyed.append((text, entry))
        }
        // A stable sort: entries whose keys dump alike keep their order.
        let sorted = keyed.enumerated().sorted { ($0.element.key, $0.offset) < ($1.element.key, $1.offset) }
        for (offset, element) in sorted.enumerated() { gathered[first + offset] = element.element.entry }
    }

    /// A class level's `super:` line; frames for its parts and the level above it follow it.
    private mutating func writeSuperclass(_ section: consuming Frame, to target: inout TextBuffer) {
        guard maxItemCounter > 0, let node = section.node else { return }
        maxItemCounter -= 1
        let hierarchy = node.classHierarchy
        let level = hierarchy[section.level]
        let parts = node.childIndices(declaredBy: level)
        target.writeLineStart(
            indent: section.indent,
            bullet: Self.bullet(count: parts.count, maxDepth: section.maxDepth),
            label: nil
        )
        target.write("super: ")
        target.writeTypeName(level.name)
        target.writeNewline()
        guard section.maxDepth > 0 else { return }
        let indent = section.indent + 2
        let maxDepth = section.maxDepth - 1
        if !parts.isEmpty {
            push(
                Frame(
                    kind: .parts,
                    node: node,
                    first: parts.lowerBound,
                    next: parts.lowerBound,
                    end: parts.upperBound,
                    indent: indent,
                    maxDepth: maxDepth
                )
            )
        }
        if section.level + 1 < hierarchy.count {
            push(
                Frame(kind: .superclass, node: node, level: section.level + 1, indent: indent, maxDepth: maxDepth)
            )
        }
    }

    /// A custom mirror's `super:` line; frames for its children and the level above it follow
    /// it.
    private mutating func writeMirrorSuperclass(_ section: consuming Frame, to target: inout TextBuffer) {
        guard maxItemCounter > 0, var mirror = section.node?.customMirror else { return }
        for _ in 0..<section.level {
            guard let superclass = mirror.superclassMirror else { return }
            mirror = superclass
        }
        maxItemCounter -= 1
        let first = gathered.count
        for child in mirror.children {
            gathered.append((label: child.label, value: child.value))
        }
        let count = gathered.count - first
        target.writeLineStart(
            indent: section.indent,
            bullet: Self.bullet(count: count, maxDepth: section.maxDepth),
            label: nil
        )
        target.write("super: ")
        target.writeTypeName(TypeMetadata(mirror.subjectType).name)
        target.writeNewline()
        guard section.maxDepth > 0 else {
            gathered.removeSubrange(first...)
            return
        }
        let indent = section.indent + 2
        let maxDepth = section.maxDepth - 1
        push(
            Frame(kind: .gathered, first: first, next: first, end: gathered.count, indent: indent, maxDepth: maxDepth)
        )
        if mirror.superclassMirror != nil {
            push(
                Frame(
                    kind: .mirrorSuperclass,
                    node: section.node,
                    level: section.level + 1,
                    indent: indent,
                    maxDepth: maxDepth
                )
            )
        }
    }

    /// A stored property of noncopyable type, which cannot be copied to be shown: its type is
    /// named instead (`Swift.dump` traps copying one).
    private mutating func writeNoncopyable(label: String?, type: TypeMetadata, indent: Int, to target: inout TextBuffer)
    {
        guard maxItemCounter > 0 else { return }
        maxItemCounter -= 1
        target.writeLineStart(indent: indent, bullet: .leaf, label: label)
        target.write("(noncopyable \(type.name))\n")
    }

    /// A function part that cannot be copied: `Mirror` would copy it and print `(Function)`,
    /// or `Optional((Function))` with a `some` child for an optional holding one.
    private mutating func writeWithheldFunction(
        label: String?,
        isOptional: Bool,
        indent: Int,
        maxDepth: Int,
        to target: inout TextBuffer
    ) {
        guard maxItemCounter > 0 else { return }
        maxItemCounter -= 1
        target.writeLineStart(
            indent: indent,
            bullet: Self.bullet(count: isOptional ? 1 : 0, maxDepth: maxDepth),
            label: label
        )
        target.write(isOptional ? "Optional((Function))\n" : "(Function)\n")
        guard isOptional, maxDepth > 0 else { return }
        push(Frame(kind: .withheldSome, first: 0, next: 0, end: 1, indent: indent + 2, maxDepth: maxDepth - 1))
    }

    /// The standard library's bullet: `-` without children, `▹` where the depth limit hides
    /// them, `▿` where they follow.
    private static func bullet(count: Int, maxDepth: Int) -> TextBuffer.Bullet {
        count == 0 ? .leaf : maxDepth <= 0 ? .collapsed : .expanded
    }
}
