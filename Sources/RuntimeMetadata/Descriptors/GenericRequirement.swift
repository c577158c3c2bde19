// GenericRequirement.swift

/// One requirement of a generic signature, such as `T: Hashable` or `T == Int`.
public struct GenericRequirement: Hashable, Sendable {
    /// The kind of requirement.
    public enum Kind: Hashable, Sendable {
        /// The subject conforms to a protocol.
        case conformance
        /// The subject is the same type as another.
        case sameType
        /// The subject is a subclass of a class.
        case baseClass
        /// A same-conformance requirement.
        case sameConformance
        /// Two packs have the same shape.
        case sameShape
        /// The subject suppresses invertible protocols (`~Copyable`).
        case invertedProtocols
        /// A layout constraint, such as `AnyObject`.
        case layout
        /// A kind this library does not know, with its raw value.
        case other(UInt8)
    }

    /// The kind.
    public let kind: Kind

    /// The mangled name of the constrained parameter (`x` for the first parameter, `q_` for the second).
    public let subjectMangledName: String

    /// The protocol's qualified name, for conformance requirements.
    public let protocolName: String?

    /// The mangled type, for same-type and base-class requirements, with symbolic references as `<ref>`.
    public let typeMangledName: String?

    /// Whether the requirement contributes a witness table to the metadata's key arguments.
    public let hasKeyArgument: Bool

    init(_ value: DescriptorReference.RequirementValue) {
        switch value.kind {
        case 0: kind = .conformance
        case 1: kind = .sameType
        case 2: kind = .baseClass
        case 3: kind = .sameConformance
        case 4: kind = .sameShape
        case 5: kind = .invertedProtocols
        case 0x1F: kind = .layout
        default: kind = .other(value.kind)
        }
        subjectMangledName = value.subject
        protocolName = value.protocolReference?.qualifiedName
        typeMangledName = value.type
        hasKeyArgument = value.hasKeyArgument
    }
}
