// GenericParameter.swift

/// One generic parameter of a type.
public struct GenericParameter: Hashable, Sendable {
    /// What a generic parameter stands for.
    public enum Kind: Hashable, Sendable {
        /// A type parameter, `T`.
        case type
        /// A parameter pack, `each T`.
        case pack
        /// An integer value parameter, `let N: Int`, with the value's type name.
        case value(String)
    }

    /// What the parameter stands for.
    public let kind: Kind

    /// Whether the parameter's argument is stored in the metadata (false when a same-type
    /// requirement fixes it).
    public let hasKeyArgument: Bool
}
