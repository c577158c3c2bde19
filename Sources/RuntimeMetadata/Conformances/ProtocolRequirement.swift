// ProtocolRequirement.swift

/// One requirement of a protocol, as its witness table lays it out.
public struct ProtocolRequirement: Hashable, Sendable, CustomStringConvertible {
    /// What a requirement asks of a conforming type.
    public enum Kind: Hashable, Sendable {
        /// Conformance to an inherited protocol.
        case baseProtocol
        /// A method.
        case method
        /// An initializer.
        case initializer
        /// A property or subscript getter.
        case getter
        /// A property or subscript setter.
        case setter
        /// A `_read` coroutine.
        case readCoroutine
        /// A `_modify` coroutine.
        case modifyCoroutine
        /// An associated type.
        case associatedType
        /// A conformance of an associated type.
        case associatedConformance
        /// A kind this library does not know, with its raw value.
        case other(UInt8)
    }

    /// The kind.
    public let kind: Kind
    /// Whether the requirement is on instances (not `static`).
    public let isInstance: Bool
    /// Whether the requirement is `async`.
    public let isAsync: Bool

    init(flags: UInt32) {
        let raw = UInt8(flags & 0x0F)
        switch raw {
        case 0: kind = .baseProtocol
        case 1: kind = .method
        case 2: kind = .initializer
        case 3: kind = .getter
        case 4: kind = .setter
        case 5: kind = .readCoroutine
        case 6: kind = .modifyCoroutine
        case 7: kind = .associatedType
        case 8: kind = .associatedConformance
        default: kind = .other(raw)
        }
        isInstance = flags & 0x10 != 0
        isAsync = flags & 0x20 != 0
    }

    /// The kind, as a word.
    public var description: String { "\(kind)" }
}
