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
    private struct Known {
        let debugPrintable = try? ProtocolDescriptor((any CustomDebugStringConvertible).self)
        let printable = try? ProtocolDescriptor((any CustomStringConvertible).self)
        let streamable = try? ProtocolDescriptor((any TextOutputStreamable).self)
        let stringType = TypeMetadata(String.self)
        let intType = TypeMetadata(Int.self)
    }

    private static let known = Known()

    /// Writes a node's summary.
    /// - Parameters:
    ///   - node: The node.
    ///   - childCount: The children its line counts.
    ///   - target: The stream.
    static func write(
        _ node: ValueNode,
        childCount: Int,
        to target: inout TextBuffer
    ) {
        let count: (String, String)?
        switch containerStyle(of: node) {
        case .tuple?: count = ("(1 element)", "(\(childCount) elements)")
        case .collection?: count = ("1 element", "\(childCount) elements")
        case .dictionary?: count = ("1 key/value pair", "\(childCount) key/value pairs")
        case .set?: count = ("1 member", "\(childCount) members")
        default: count = nil
        }
        if let (one, many) = count {
            target.write(childCount == 1 ? one : many)
            return
        }
        // A node's value is never a container, so its own type decides what `as?` would find.
        let value = node.value
        let known = Self.known
        // The commonest leaves, without the protocol lookups: what their `debugDescription` and
        // `description` write.
        if node.type == known.stringType, let string = value as? String {
            target.writeQuoted(string)
            return
        }
        if node.type == known.intType, let number = value as? Int {
            target.write(String(number))
            return
        }
        if let debugPrintable = known.debugPrintable, debugPrintable.isConformed(by: node.type),
            let text = debugPrintable.withOpened(
                value,
                as: (any CustomDebugStringConvertible).self,
                { $0.debugDescription }
            )
        {
            target.write(text)
            return
        }
        if let printable = known.printable, printable.isConformed(by: node.type),
            let text = printable.withOpened(value, as: (any CustomStringConvertible).self, { $0.description })
        {
            target.write(text)
            return
        }
        if let streamable = known.streamable, streamable.isConformed(by: node.type),
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
            return
        }
        switch displayStyle(of: node) {
        case .struct?, .class?:
            target.write(subjectName(of: node))
        case .enum?:
            target.write(subjectName(of: node))
            if let name = node.enumCase?.name {
                target.write(".")
                target.write(name)
            }
        default:
            target.write(String(reflecting: value))
        }
    }

    /// The style that makes a summary an element count, as `Mirror.displayStyle` gives it.
    private static func containerStyle(of node: ValueNode) -> ValueNode.Style? {
        switch node.style {
        case .tuple, .collection, .dictionary, .set: return node.style
        case .custom:
            switch node.customMirror?.displayStyle {
            case .tuple?: return .tuple
            case .collection?: return .collection
            case .dictionary?: return .dictionary
            case .set?: return .set
            default: return nil
            }
        default: return nil
        }
    }

    /// What `Mirror.displayStyle` would be, for the struct, class and enum cases.
    private static func displayStyle(of node: ValueNode) -> Mirror.DisplayStyle? {
        switch node.style {
        case .struct: return .struct
        case .class: return .class
        case .enum: return .enum
        case .optional: return .optional
        case .custom: return node.customMirror?.displayStyle
        case .leaf:
            // A struct or class whose parts are unknown is still one to `Mirror`.
            switch node.type.kind {
            case .struct: return .struct
            case .class: return .class
            case .enum: return .enum
            default: return nil
            }
        default: return nil
        }
    }

    /// The qualified name of the mirror's subject.
    private static func subjectName(of node: ValueNode) -> String {
        if node.style == .custom, let mirror = node.customMirror { return TypeMetadata(mirror.subjectType).name }
        return node.type.name
    }
}
