// Summary.swift
//
// The text after a value's bullet and name, as the standard library's `_dumpPrint_unlocked`
// writes it (stdlib/public/core/OutputStream.swift): element counts for tuples and collections,
// then the first of `debugDescription`, `description` and `TextOutputStreamable`, then the
// qualified type name for structs and classes and `Type.case` for enums, then the value as
// `String(reflecting:)` prints it. The protocols are found through RuntimeMetadata's
// conformance cache and called on the value where its `Any` holds it.

internal import RuntimeMetadata

enum Summary {
    /// The protocols and types a summary asks about, in one value: each global is reached
    /// through its one-time initializer's check, once per summary rather than once per use.
    struct Known {
        let debugPrintable = try? ProtocolDescriptor((any CustomDebugStringConvertible).self)
        let printable = try? ProtocolDescriptor((any CustomStringConvertible).self)
        let streamable = try? ProtocolDescriptor((any TextOutputStreamable).self)
        let stringType = TypeMetadata(String.self)
        let intType = TypeMetadata(Int.self)
        let doubleType = TypeMetadata(Double.self)
        let boolType = TypeMetadata(Bool.self)
    }

    static let known = Known()

    /// Writes a node's summary.
    /// - Parameters:
    ///   - node: The node.
    ///   - childCount: The children its line counts.
    ///   - walker: The walker that made the node, to read an optional's wrapped value with.
    ///   - target: The stream.
    static func write(
        _ node: ValueNode,
        childCount: Int,
        walker: ValueWalker,
        to target: inout TextBuffer
    ) {
        if let style = containerStyle(of: node) {
            writeCount(childCount, style: style, to: &target)
            return
        }
        // A node's value is never a container, so its own type decides what `as?` would find.
        if node.style == .leaf, let leaf = node.leafSummary() {
            leaf.write(to: &target)
            return
        }
        if node.style == .optional, writeOptional(node, walker: walker, to: &target) { return }
        if writeDescription(of: node.value, type: node.type, to: &target) { return }
        switch fallback(for: node) {
        case .typeName:
            target.writeTypeName(subjectName(of: node))
        case .caseName:
            target.writeTypeName(subjectName(of: node))
            if let name = node.caseName {
                target.write(".")
                target.write(name)
            }
        case .reflecting:
            // A metatype's or another value's own spelling, which names types.
            target.writeTypeName(String(reflecting: node.value))
        }
    }

    /// Writes the element count that is a container's summary: `(2 elements)` for a tuple,
    /// `2 elements`, `2 key/value pairs` or `2 members` for the collections.
    ///
    /// It is written in pieces, each a literal: an interpolated string costs more than the line.
    private static func writeCount(_ count: Int, style: ValueNode.Style, to target: inout TextBuffer) {
        let isOne = count == 1
        switch style {
        case .tuple:
            target.write("(")
            target.write(count)
            target.write(isOne ? " element)" : " elements)")
        case .dictionary:
            target.write(count)
            target.write(isOne ? " key/value pair" : " key/value pairs")
        case .set:
            target.write(count)
            target.write(isOne ? " member" : " members")
        default:
            target.write(count)
            target.write(isOne ? " element" : " elements")
        }
    }

    /// Writes a value as `debugPrint` writes it when its type has a description: the first of
    /// `debugDescription`, `description` and `TextOutputStreamable` (OutputStream.swift's
    /// `_debugPrint_unlocked`).
    /// - Parameters:
    ///   - value: The value, not an existential container.
    ///   - type: Its dynamic type.
    ///   - target: The stream.
    /// - Returns: Whether the type has one of those descriptions and it was written; nothing is
    ///   written otherwise.
    private static func writeDescription(of value: Any, type: TypeMetadata, to target: inout TextBuffer) -> Bool {
        let known = Self.known
        // The commonest leaves, without the protocol lookups: what their `debugDescription` and
        // `description` write.
        if type == known.stringType, let string = value as? String {
            target.writeQuoted(string)
            return true
        }
        if type == known.intType, let number = value as? Int {
            target.write(number)
            return true
        }
        if let debugPrintable = known.debugPrintable, debugPrintable.isConformed(by: type),
            let text = debugPrintable.withOpened(
                value,
                as: (any CustomDebugStringConvertible).self,
                { $0.debugDescription }
            )
        {
            target.write(text)
            return true
        }
        if let printable = known.printable, printable.isConformed(by: type),
            let text = printable.withOpened(value, as: (any CustomStringConvertible).self, { $0.description })
        {
            target.write(text)
            return true
        }
        if let streamable = known.streamable, streamable.isConformed(by: type),
            let streamed = streamable.withOpened(
                value,
                as: (any TextOutputStreamable).self,
                { streamed in
                    var text = ""
                    streamed.write(to: &text)
                    return text
                }
            )
        {
            target.write(streamed)
            return true
        }
        return false
    }

    /// Writes an optional as its `debugDescription` writes it, `nil` or `Optional(` and the
    /// wrapped value as `debugPrint` writes it and `)`, without going through `debugPrint`'s
    /// generic path; `false`, with nothing written, when the wrapped value holds what
    /// ``writeDebugPrinted(_:walker:depth:to:)`` leaves to the standard library.
    private static func writeOptional(_ node: ValueNode, walker: ValueWalker, to target: inout TextBuffer) -> Bool {
        let mark = target.count
        if writeDebugPrinted(node, walker: walker, depth: 0, to: &target) { return true }
        target.truncate(to: mark)
        return false
    }

    /// The deepest nesting ``writeDebugPrinted(_:walker:depth:to:)`` follows before it leaves the
    /// value to the standard library, which recurses as deep as the value does.
    private static var maxNesting: Int { 64 }

    /// Writes a value as `debugPrint` writes it (OutputStream.swift's `_debugPrint_unlocked`):
    /// its description, the first of `debugDescription`, `description` and
    /// `TextOutputStreamable`; an optional as `Optional(` and its wrapped value and `)`, or
    /// `nil`; and a value without a description as `_adHocPrint_unlocked` writes it from its
    /// mirror, each part again as `debugPrint` writes it:
    ///
    /// - a struct as its qualified type name and its labelled properties, `Name(a: 1, b: "x")`;
    /// - a tuple as its elements, each labelled unless its label is empty or starts with `.`,
    ///   `(a: 1, 2)`;
    /// - an enum as its qualified type name, `.` and its case, then its payload, in parentheses
    ///   unless the payload is a tuple, which writes its own;
    /// - a class instance as its qualified class name, a metatype as the type's.
    ///
    /// - Returns: `false` when a part needs what is left to the standard library: a custom
    ///   mirror (whose display style decides), a type whose parts are unknown, a function or
    ///   another value without a mirror of its own, or nesting deeper than ``maxNesting``. Part
    ///   of the text may have been written; the caller takes it back.
    private static func writeDebugPrinted(
        _ node: ValueNode,
        walker: ValueWalker,
        depth: Int,
        to target: inout TextBuffer
    ) -> Bool {
        if node.style == .leaf, let leaf = node.leafSummary() {
            leaf.write(to: &target)
            return true
        }
        guard depth < maxNesting else { return false }
        if node.style == .optional {
            // Optional's own `debugDescription`, which `debugPrint` finds first.
            guard node.caseName != nil else { return false }
            guard node.childCount > 0 else {
                target.write("nil")
                return true
            }
            target.write("Optional(")
            guard writeDebugPrinted(childAt: 0, of: node, walker: walker, depth: depth + 1, to: &target) else {
                return false
            }
            target.write(")")
            return true
        }
        if writeDescription(of: node.value, type: node.type, to: &target) { return true }
        switch node.style {
        case .struct:
            target.writeTypeName(node.type.name)
            return writeDebugPrintedParts(of: node, isTuple: false, walker: walker, depth: depth, to: &target)
        case .tuple:
            return writeDebugPrintedParts(of: node, isTuple: true, walker: walker, depth: depth, to: &target)
        case .enum:
            target.writeTypeName(node.type.name)
            if let name = node.caseName {
                target.write(".")
                target.write(name)
            }
            guard node.childCount > 0 else { return true }
            guard let payload = walker.node(forChildAt: 0, of: node), payload.style != .custom else { return false }
            // A tuple payload writes its own parentheses.
            let isTuple = payload.style == .tuple
            if !isTuple { target.write("(") }
            guard writeDebugPrinted(payload, walker: walker, depth: depth + 1, to: &target) else { return false }
            if !isTuple { target.write(")") }
            return true
        case .class:
            target.writeTypeName(node.type.name)
            return true
        case .leaf:
            // A metatype, as `_adHocPrint_unlocked` writes a value that casts to `Any.Type`.
            switch node.type.kind {
            case .metatype, .existentialMetatype:
                guard let type = node.value as? Any.Type else { return false }
                target.writeTypeName(TypeMetadata(type).name)
                return true
            default:
                return false
            }
        case .optional, .collection, .dictionary, .set, .custom:
            return false
        }
    }

    /// Writes a struct's or a tuple's parts in parentheses, as `_adHocPrint_unlocked` does: a
    /// struct's labelled properties, each as `label: value`; every element of a tuple, with
    /// its label unless the label is empty or starts with `.` (`.0`).
    private static func writeDebugPrintedParts(
        of node: ValueNode,
        isTuple: Bool,
        walker: ValueWalker,
        depth: Int,
        to target: inout TextBuffer
    ) -> Bool {
        target.write("(")
        var isFirst = true
        for index in 0..<node.childCount {
            let label = node.label(ofChildAt: index)
            if !isTuple, label == nil { continue }
            if !isFirst { target.write(", ") }
            isFirst = false
            if let label, !isTuple || (label.utf8.first.map { $0 != UInt8(ascii: ".") } ?? false) {
                target.write(label)
                target.write(": ")
            }
            guard writeDebugPrinted(childAt: index, of: node, walker: walker, depth: depth + 1, to: &target) else {
                return false
            }
        }
        target.write(")")
        return true
    }

    /// Writes the part of a node at a position as `debugPrint` writes it, the commonest leaf
    /// types read typed from the node without a node of their own.
    private static func writeDebugPrinted(
        childAt index: Int,
        of node: ValueNode,
        walker: ValueWalker,
        depth: Int,
        to target: inout TextBuffer
    ) -> Bool {
        if let type = node.declaredType(ofChildAt: index), let leaf = node.leafSummary(ofChildAt: index, type: type) {
            leaf.write(to: &target)
            return true
        }
        guard let child = walker.node(forChildAt: index, of: node) else { return false }
        return writeDebugPrinted(child, walker: walker, depth: depth, to: &target)
    }

    /// The style that makes a summary an element count, as `Mirror.displayStyle` gives it.
    private static func containerStyle(of node: ValueNode) -> ValueNode.Style? {
        switch node.style {
        case .tuple, .collection, .dictionary, .set: return node.style
        case .custom:
            switch customStyle(of: node) {
            case .tuple: return .tuple
            case .collection: return .collection
            case .dictionary: return .dictionary
            case .set: return .set
            case .typeName, .caseName, .other: return nil
            }
        default: return nil
        }
    }

    /// A custom mirror's display style, as far as a summary tells them apart.
    private enum CustomStyle {
        case tuple, collection, dictionary, set
        /// A struct or a class.
        case typeName
        /// An enum.
        case caseName
        /// None, or one this version does not know.
        case other
    }

    /// The display style of a custom mirror node's mirror. Out of line, as `Mirror` is
    /// resilient: a function holding one sizes its frame at run time, and the summary of every
    /// node would pay for it.
    @inline(never)
    private static func customStyle(of node: ValueNode) -> CustomStyle {
        switch node.customMirror?.displayStyle {
        case .tuple?: .tuple
        case .collection?: .collection
        case .dictionary?: .dictionary
        case .set?: .set
        case .struct?, .class?: .typeName
        case .enum?: .caseName
        default: .other
        }
    }

    /// The qualified name of a custom mirror's subject, out of line as ``customStyle(of:)`` is.
    @inline(never)
    private static func customSubjectName(of node: ValueNode) -> String? {
        node.customMirror.map { TypeMetadata($0.subjectType).name }
    }

    /// What a summary writes when the value has no description, by what `Mirror.displayStyle`
    /// would be.
    private enum Fallback {
        /// A struct or class: the qualified type name.
        case typeName
        /// An enum: the qualified type name and the case.
        case caseName
        /// Anything else: the value as `String(reflecting:)` prints it.
        case reflecting
    }

    /// What `Mirror.displayStyle` would make a summary without a description write (a value of
    /// this library's own enum, as `Mirror.DisplayStyle` is resilient and copied through its
    /// value witnesses).
    private static func fallback(for node: ValueNode) -> Fallback {
        switch node.style {
        case .struct, .class: return .typeName
        case .enum: return .caseName
        case .custom:
            switch customStyle(of: node) {
            case .typeName: return .typeName
            case .caseName: return .caseName
            case .tuple, .collection, .dictionary, .set, .other: return .reflecting
            }
        case .leaf:
            // A struct or class whose parts are unknown is still one to `Mirror`.
            switch node.type.kind {
            case .struct, .class: return .typeName
            case .enum: return .caseName
            default: return .reflecting
            }
        default: return .reflecting
        }
    }

    /// The qualified name of the mirror's subject.
    private static func subjectName(of node: ValueNode) -> String {
        if node.style == .custom, let name = customSubjectName(of: node) { return name }
        return node.type.name
    }
}

/// The summary of a leaf: text to write as it is, a string to quote, or an integer in decimal.
enum LeafSummary {
    case plain(String)
    case quoted(String)
    case integer(Int)

    /// Writes the summary.
    /// - Parameter target: The stream.
    func write(to target: inout TextBuffer) {
        switch self {
        case .plain(let text): target.write(text)
        case .quoted(let text): target.writeQuoted(text)
        case .integer(let number): target.write(number)
        }
    }
}

extension ValueNode {
    /// The summary of a stored property or tuple element declared as one of the commonest leaf
    /// types, read typed from this node without an `Any` or a node of its own: what
    /// `Summary.write(_:childCount:to:)` writes for it, `String`'s and `Double`'s
    /// `debugDescription`, `Int`'s and `Bool`'s `description`.
    /// - Parameters:
    ///   - index: The part's position.
    ///   - type: The part's declared type.
    /// - Returns: The summary, or `nil` for other types.
    func leafSummary(ofChildAt index: Int, type: TypeMetadata) -> LeafSummary? {
        let known = Summary.known
        if type == known.stringType {
            return child(at: index, as: String.self).map(LeafSummary.quoted)
        } else if type == known.intType {
            return child(at: index, as: Int.self).map(LeafSummary.integer)
        } else if type == known.doubleType {
            return child(at: index, as: Double.self).map { .plain($0.debugDescription) }
        } else if type == known.boolType {
            return child(at: index, as: Bool.self).map { .plain($0.description) }
        }
        return nil
    }

    /// The summary of this node's own value, when its type is one of the commonest leaf types,
    /// read typed without the runtime's cast: as ``leafSummary(ofChildAt:type:)`` writes parts.
    /// - Returns: The summary, or `nil` for other types.
    func leafSummary() -> LeafSummary? {
        let known = Summary.known
        if type == known.stringType {
            return value(as: String.self).map(LeafSummary.quoted)
        } else if type == known.intType {
            return value(as: Int.self).map(LeafSummary.integer)
        } else if type == known.doubleType {
            return value(as: Double.self).map { .plain($0.debugDescription) }
        } else if type == known.boolType {
            return value(as: Bool.self).map { .plain($0.description) }
        }
        return nil
    }
}
