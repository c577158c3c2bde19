// GenericContextSizes.swift

/// The sizes of a generic context (`GenericContextDescriptorHeader`, include/swift/ABI/GenericContext.h):
/// how many parameters and requirements it declares, and how many key arguments its
/// metadata stores after the generic-argument offset.
public struct GenericContextSizes: Hashable, Sendable {
    /// The generic parameters, type, pack and value ones.
    public let parameterCount: Int
    /// The requirements of the generic signature.
    public let requirementCount: Int
    /// The words of key arguments an instantiation stores: one per key parameter, one per
    /// witness table a protocol requirement contributes (packs and values add their own).
    public let keyArgumentCount: Int
    /// Whether some parameter is a pack (`each T`).
    public let hasTypePacks: Bool
    /// Whether the context regains `Copyable` or `Escapable` conditionally.
    public let hasConditionalInvertedProtocols: Bool
    /// Whether some parameter is a value (`let N: Int`).
    public let hasValues: Bool
    /// The generic context's size in bytes: its header (`GenericContextDescriptorHeader`), one
    /// byte per parameter padded to four, twelve per requirement, and the pack shapes,
    /// conditional inverted protocols and value descriptors that follow.
    public let byteSize: Int
    /// The size in bytes of a type's generic context: ``byteSize`` and the type header before
    /// it (`TargetTypeGenericContextDescriptorHeader`: the instantiation cache and the default
    /// instantiation pattern, two relative pointers).
    public let typeContextByteSize: Int
}
