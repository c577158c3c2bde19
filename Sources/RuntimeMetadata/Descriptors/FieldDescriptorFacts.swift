// FieldDescriptorFacts.swift

/// The header of a type's field descriptor (`FieldDescriptor`,
/// include/swift/RemoteInspection/Records.h): sixteen bytes followed by one record per stored
/// property or case.
public struct FieldDescriptorFacts: Hashable, Sendable {
    /// `FieldDescriptorKind`.
    public enum Kind: Hashable, Sendable {
        /// A struct's stored properties.
        case `struct`
        /// A class's stored properties.
        case `class`
        /// An enum's cases, at most one with a payload.
        case `enum`
        /// An enum's cases, several with payloads.
        case multiPayloadEnum
        /// A protocol's (no records).
        case `protocol`
        /// A class-bound protocol's.
        case classProtocol
        /// An Objective-C protocol's.
        case objCProtocol
        /// An Objective-C class's.
        case objCClass
        /// A kind this library does not know, as stored.
        case unknown(UInt16)

        /// The kind a descriptor stores, as the ABI layer's mirror of `FieldDescriptorKind` reads it.
        init(rawValue: UInt16) {
            switch FieldDescriptorLayout.Kind(rawValue: rawValue) {
            case .struct?: self = .struct
            case .class?: self = .class
            case .enum?: self = .enum
            case .multiPayloadEnum?: self = .multiPayloadEnum
            case .protocol?: self = .protocol
            case .classProtocol?: self = .classProtocol
            case .objCProtocol?: self = .objCProtocol
            case .objCClass?: self = .objCClass
            case nil: self = .unknown(rawValue)
            }
        }
    }

    /// The descriptor's kind.
    public let kind: Kind
    /// Whether the descriptor names its type (`MangledTypeName`); the compiler names every
    /// nominal type's.
    public let hasMangledTypeName: Bool
    /// Whether it names a superclass (`Superclass`): a class with one.
    public let hasSuperclass: Bool
    /// The size of each record in bytes (`FieldRecordSize`): twelve, a `FieldRecord`'s flags,
    /// mangled type name and field name.
    public let recordSize: Int
    /// The number of records (`NumFields`): stored properties, or cases.
    public let recordCount: Int
    /// The descriptor's size in bytes: its header and its records.
    public let byteSize: Int
}
