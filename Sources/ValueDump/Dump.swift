// Dump.swift
//
// A `dump` written on RuntimeMetadata's value walker, producing the text the standard library's
// Mirror-based `dump(_:)` produces (stdlib/public/core/Dump.swift: the bullets, the element
// counts of tuples and collections, `super:` sections, ` #N` identities of objects and
// metatypes, and the `maxDepth` and `maxItems` cut-offs), from the walker's cached per-type plans
// instead of a `Mirror` per value. The walk keeps its own stack, so any depth of nesting dumps
// without running out of the thread's stack.

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
    var dumper = Dumper(maxItems: maxItems)
    dumper.dump(value, name: name, indent: indent, maxDepth: maxDepth, to: &target)
    return value
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
/// Each pending line is an item on the stack. A value's children are pushed together, in
/// reverse, as one sibling group; when the item budget runs out at a child, the standard
/// library writes how many of its siblings are left and skips them, and so does the dumper,
/// by dropping the rest of the group from the top of the stack.
private struct Dumper {
    enum Kind {
        /// A value's line and, below it, its parts.
        case value
        /// A function part that cannot be copied, as `Mirror` would print it.
        case withheldFunction
        /// The `super:` section of a class level: `level` indexes the node's class hierarchy.
        case superclass
        /// The `super:` section of a custom mirror.
        case mirrorSuperclass
    }

    struct Item {
        var kind: Kind
        var label: String?
        var value: Any?
        var declaredType: TypeMetadata?
        /// The object or custom mirror of a `super:` section, boxed to keep items small.
        var section: Section?
        var indent: Int
        var maxDepth: Int
        /// The sibling group, 0 for the root and `super:` sections, which are never elided.
        var group = 0
        var index = 0
        var count = 0
    }

    /// What a `super:` section lists.
    final class Section {
        let node: ValueNode?
        let mirror: Mirror?
        let level: Int

        init(node: ValueNode?, mirror: Mirror?, level: Int) {
            (self.node, self.mirror, self.level) = (node, mirror, level)
        }
    }

    var maxItemCounter: Int
    var visitedItems: [ObjectIdentifier: Int] = [:]
    var stack: [Item] = []
    var groups = 0
    let walker = ValueWalker(honorsCustomReflectable: true)
    /// ``sharedSpaces``, read once per dump rather than through the global's initializer check
    /// on every line.
    let spaces = Dumper.sharedSpaces

    init(maxItems: Int) {
        maxItemCounter = maxItems
    }

    mutating func dump<TargetStream: TextOutputStream>(
        _ value: Any,
        name: String?,
        indent: Int,
        maxDepth: Int,
        to target: inout TargetStream
    ) {
        // The lines are written to a buffer of this function's own, and passed to the stream
        // in chunks: one `write` per chunk rather than one per piece of a line.
        var text = TextBuffer(capacity: Self.chunkSize)
        stack.append(Item(kind: .value, label: name, value: value, indent: indent, maxDepth: maxDepth))
        while let item = stack.popLast() {
            if item.group != 0, maxItemCounter <= 0 {
                elide(item, to: &text)
                continue
            }
            switch item.kind {
            case .value:
                if let value = item.value { writeValue(value, item, to: &text) }
            case .withheldFunction:
                writeWithheldFunction(item, to: &text)
            case .superclass:
                if let section = item.section, let node = section.node {
                    writeSuperclass(of: node, level: section.level, item, to: &text)
                }
            case .mirrorSuperclass:
                if let mirror = item.section?.mirror { writeMirrorSuperclass(mirror, item, to: &text) }
            }
            if text.count >= Self.chunkSize { target.write(text.take()) }
        }
        if text.count > 0 { target.write(text.take()) }
    }

    /// The text written before it is passed to the stream.
    private static var chunkSize: Int { 16 * 1024 }

    /// The standard library's note for the children the item budget leaves out, indented two
    /// spaces more than the children; the rest of the group is dropped.
    private mutating func elide(_ item: Item, to target: inout TextBuffer) {
        writeIndent(item.indent + 2, to: &target)
        let remainder = item.count - item.index
        target.write("(")
        target.write(String(remainder))
        if item.index > 0 { target.write(" more") }
        target.write(remainder == 1 ? " child)\n" : " children)\n")
        while let top = stack.last, top.group == item.group { stack.removeLast() }
    }

    /// One value's line; its parts are queued.
    private mutating func writeValue(
        _ value: Any,
        _ item: Item,
        to target: inout TextBuffer
    ) {
        guard maxItemCounter > 0 else { return }
        maxItemCounter -= 1
        let node = walker.node(for: value)
        let indent = item.indent
        let maxDepth = item.maxDepth
        // The children go on the stack now, to be counted; they are written after this line.
        let start = stack.count
        // A class instance's own line counts its own class's properties; its superclasses' go
        // under their `super:` lines.
        let own = node.style == .class ? node.classHierarchy.first : nil
        let group = pushChildren(of: node, declaredBy: own, indent: indent + 2, maxDepth: maxDepth - 1)
        let count = stack.count - start
        writeIndent(indent, to: &target)
        target.write(Self.bullet(count: count, maxDepth: maxDepth))
        if let name = item.label {
            target.write(name)
            target.write(": ")
        }
        Summary.write(node, childCount: count, to: &target)
        if let identifier = node.objectIdentifier {
            target.write(" #")
            if let previous = visitedItems[identifier] {
                target.write(String(previous))
                target.write("\n")
                stack.removeSubrange(start...)
                return
            }
            let number = visitedItems.count
            visitedItems[identifier] = number
            target.write(String(number))
        }
        target.write("\n")
        guard maxDepth > 0 else {
            stack.removeSubrange(start...)
            return
        }
        finishGroup(group, from: start)
        // Popped first: the superclass sections come before the node's own children.
        if node.style == .custom, let superclass = node.customMirror?.superclassMirror {
            stack.append(
                Item(
                    kind: .mirrorSuperclass,
                    section: Section(node: nil, mirror: superclass, level: 0),
                    indent: indent + 2,
                    maxDepth: maxDepth - 1
                )
            )
        } else if node.style == .class, node.classHierarchy.count > 1 {
            stack.append(
                Item(
                    kind: .superclass,
                    section: Section(node: node, mirror: nil, level: 1),
                    indent: indent + 2,
                    maxDepth: maxDepth - 1
                )
            )
        }
    }

    /// Pushes a node's children, in order, as a new sibling group; for a class instance only the
    /// properties `level` declares, as each class level lists its own.
    private mutating func pushChildren(
        of node: ValueNode,
        declaredBy level: TypeMetadata?,
        indent: Int,
        maxDepth: Int
    ) -> Int {
        groups += 1
        let group = groups
        node.forEachChild { child in
            if let level, child.declaringType != level { return }
            stack.append(item(for: child, indent: indent, maxDepth: maxDepth, group: group))
        }
        return group
    }

    /// Numbers a sibling group pushed from `start` and reverses it, so that its first child is
    /// popped first.
    private mutating func finishGroup(_ group: Int, from start: Int) {
        let count = stack.count - start
        var index = 0
        var position = start
        while position < stack.count {
            stack[position].index = index
            stack[position].count = count
            index += 1
            position += 1
        }
        var low = start
        var high = stack.count - 1
        while low < high {
            stack.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    private func item(for child: consuming ValueChild, indent: Int, maxDepth: Int, group: Int) -> Item {
        Item(
            kind: child.value == nil ? .withheldFunction : .value,
            label: child.label,
            value: child.value,
            declaredType: child.declaredType,
            indent: indent,
            maxDepth: maxDepth,
            group: group
        )
    }

    /// A class level's `super:` line; its parts and the level above it are queued.
    private mutating func writeSuperclass(
        of node: ValueNode,
        level levelIndex: Int,
        _ item: Item,
        to target: inout TextBuffer
    ) {
        guard maxItemCounter > 0 else { return }
        maxItemCounter -= 1
        let hierarchy = node.classHierarchy
        let level = hierarchy[levelIndex]
        let start = stack.count
        let group = pushChildren(of: node, declaredBy: level, indent: item.indent + 2, maxDepth: item.maxDepth - 1)
        let count = stack.count - start
        writeIndent(item.indent, to: &target)
        target.write(Self.bullet(count: count, maxDepth: item.maxDepth))
        target.write("super: ")
        target.write(level.name)
        target.write("\n")
        guard item.maxDepth > 0 else {
            stack.removeSubrange(start...)
            return
        }
        finishGroup(group, from: start)
        if levelIndex + 1 < hierarchy.count {
            stack.append(
                Item(
                    kind: .superclass,
                    section: Section(node: node, mirror: nil, level: levelIndex + 1),
                    indent: item.indent + 2,
                    maxDepth: item.maxDepth - 1
                )
            )
        }
    }

    /// A custom mirror's `super:` line; its parts and the level above it are queued.
    private mutating func writeMirrorSuperclass(
        _ mirror: Mirror,
        _ item: Item,
        to target: inout TextBuffer
    ) {
        guard maxItemCounter > 0 else { return }
        maxItemCounter -= 1
        let start = stack.count
        groups += 1
        let group = groups
        for child in mirror.children {
            stack.append(
                Item(
                    kind: .value,
                    label: child.label,
                    value: child.value,
                    indent: item.indent + 2,
                    maxDepth: item.maxDepth - 1,
                    group: group
                )
            )
        }
        let count = stack.count - start
        writeIndent(item.indent, to: &target)
        target.write(Self.bullet(count: count, maxDepth: item.maxDepth))
        target.write("super: ")
        target.write(TypeMetadata(mirror.subjectType).name)
        target.write("\n")
        guard item.maxDepth > 0 else {
            stack.removeSubrange(start...)
            return
        }
        finishGroup(group, from: start)
        if let superclass = mirror.superclassMirror {
            stack.append(
                Item(
                    kind: .mirrorSuperclass,
                    section: Section(node: nil, mirror: superclass, level: 0),
                    indent: item.indent + 2,
                    maxDepth: item.maxDepth - 1
                )
            )
        }
    }

    /// A function part that cannot be copied: `Mirror` would copy it and print `(Function)`,
    /// or `Optional((Function))` with a `some` child for an optional holding one.
    private mutating func writeWithheldFunction(
        _ item: Item,
        to target: inout TextBuffer
    ) {
        guard maxItemCounter > 0 else { return }
        maxItemCounter -= 1
        let isOptional = item.declaredType?.kind == .optional
        writeIndent(item.indent, to: &target)
        target.write(Self.bullet(count: isOptional ? 1 : 0, maxDepth: item.maxDepth))
        if let label = item.label {
            target.write(label)
            target.write(": ")
        }
        target.write(isOptional ? "Optional((Function))\n" : "(Function)\n")
        guard isOptional, item.maxDepth > 0 else { return }
        groups += 1
        stack.append(
            Item(
                kind: .withheldFunction,
                label: "some",
                indent: item.indent + 2,
                maxDepth: item.maxDepth - 1,
                group: groups,
                index: 0,
                count: 1
            )
        )
    }

    /// The standard library's bullet: `-` without children, `▹` where the depth limit hides
    /// them, `▿` where they follow.
    private static func bullet(count: Int, maxDepth: Int) -> String {
        count == 0 ? "- " : maxDepth <= 0 ? "▹ " : "▿ "
    }

    private func writeIndent(_ count: Int, to target: inout TextBuffer) {
        guard count > 0 else { return }
        target.write(count <= spaces.count ? spaces[count - 1] : String(repeating: " ", count: count))
    }

    /// Indentation strings, shared by all dumps.
    private static let sharedSpaces: [String] = (1...64).map { String(repeating: " ", count: $0) }
}
