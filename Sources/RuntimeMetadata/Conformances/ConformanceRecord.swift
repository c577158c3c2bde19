// ConformanceRecord.swift

/// A conformance as an image declares it: a protocol, a conforming type (possibly generic) and
/// the conditions under which it holds.
///
/// Records come from the images' `swift5_protocol_conformances` sections; see
/// ``ProtocolDescriptor/conformanceRecords()`` and ``Image/conformances``. A record of a
/// generic type describes every instantiation whose arguments meet its
/// ``conditionalRequirements``; use ``ProtocolDescriptor/conformance(of:)-(TypeMetadata)`` to ask about one type.
public struct ConformanceRecord: Hashable, Sendable, CustomStringConvertible {
    let reference: ConformanceRecordReference

    /// The image that declares the conformance.
    public let image: Image

    init(_ reference: ConformanceRecordReference, image: Image) {
        self.reference = reference
        self.image = image
    }

    /// How a conformance record names its conforming type.
    public enum TypeReference: Hashable, Sendable {
        /// A type descriptor in the same image.
        case direct(TypeDescriptor)
        /// A type descriptor in another image, reached through an indirection.
        case indirect(TypeDescriptor)
        /// An Objective-C class (Apple platforms only), with its raw type reference kind.
        case objectiveC(UInt32)
    }

    /// The conformed protocol, or `nil` when the record's protocol cannot be read.
    public var protocolDescriptor: ProtocolDescriptor? { reference.protocolReference.map(ProtocolDescriptor.init) }

    /// The conforming type, as the record names it.
    public var typeReference: TypeReference {
        guard let descriptor = reference.typeDescriptor else { return .objectiveC(reference.typeReferenceKind) }
        return reference.typeReferenceKind == 0
            ? .direct(TypeDescriptor(descriptor)) : .indirect(TypeDescriptor(descriptor))
    }

    /// The conforming type's descriptor, for Swift types.
    public var typeDescriptor: TypeDescriptor? { reference.typeDescriptor.map(TypeDescriptor.init) }

    /// Whether the conforming type is generic, so that the record covers many instantiations.
    public var isGeneric: Bool { reference.typeDescriptor?.isGeneric ?? false }

    /// Whether the conformance is retroactive: declared in a module that owns neither the type nor the protocol.
    public var isRetroactive: Bool { reference.flags & 0x40 != 0 }

    /// The module that declares a retroactive conformance.
    public var retroactiveModuleName: String? { reference.retroactiveContext?.name }

    /// Whether the conformance was synthesized by the compiler for an imported type, and may be duplicated.
    public var isSynthesizedNonUnique: Bool { reference.flags & 0x80 != 0 }

    /// The conditions of a conditional conformance (`extension Box: P where T: P`).
    public var conditionalRequirements: [GenericRequirement] {
        reference.conditionalRequirements.map(GenericRequirement.init)
    }

    /// Whether the record carries a witness table pattern (resilient and generic conformances may not).
    public var hasWitnessTablePattern: Bool { reference.hasWitnessTablePattern }

    /// Whether the witness table is instantiated at run time (generic or resilient witnesses).
    public var hasGenericWitnessTable: Bool { reference.flags & 0x2_0000 != 0 }

    /// The raw `ConformanceFlags`.
    public var flags: UInt32 { reference.flags }

    /// `Type: Protocol`.
    public var description: String {
        "\(typeDescriptor?.qualifiedName ?? "<objc>"): \(protocolDescriptor?.qualifiedName ?? "<unknown>")"
    }

    /// Two records are equal when they are the same descriptor.
    public static func == (lhs: ConformanceRecord, rhs: ConformanceRecord) -> Bool { lhs.reference == rhs.reference }

    /// Hashes the descriptor's identity.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(reference) }
}
