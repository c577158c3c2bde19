// RuntimeMetadataLimit.swift

/// A limit of ``RuntimeMetadataLimits``, as a refusal names it.
public enum RuntimeMetadataLimit: String, Sendable, Hashable, CustomStringConvertible {
    /// ``RuntimeMetadataLimits/maximumNameNesting``.
    case nameNesting
    /// ``RuntimeMetadataLimits/maximumTupleArity``.
    case tupleArity
    /// ``RuntimeMetadataLimits/maximumCompositionSize``.
    case compositionSize
    /// ``RuntimeMetadataLimits/maximumNameLength``.
    case nameLength

    /// The limit's value.
    public var maximum: Int {
        switch self {
        case .nameNesting: RuntimeMetadataLimits.maximumNameNesting
        case .tupleArity: RuntimeMetadataLimits.maximumTupleArity
        case .compositionSize: RuntimeMetadataLimits.maximumCompositionSize
        case .nameLength: RuntimeMetadataLimits.maximumNameLength
        }
    }

    /// What the limit bounds, in words.
    public var description: String {
        switch self {
        case .nameNesting: "the nesting of a type name"
        case .tupleArity: "the number of tuple elements"
        case .compositionSize: "the number of protocols in a composition"
        case .nameLength: "the length of a type name"
        }
    }
}
