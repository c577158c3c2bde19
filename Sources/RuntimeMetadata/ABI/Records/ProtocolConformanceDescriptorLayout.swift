// ProtocolConformanceDescriptorLayout.swift
//
// Mirrors swift::TargetProtocolConformanceDescriptor and ConformanceFlags from swiftlang/swift
// include/swift/ABI/Metadata.h and include/swift/ABI/MetadataValues.h, checked against
// Swift 6.3.1 on Linux x86_64 (`struct PS: P` flags 0x0, `extension GS: P where T: Equatable`
// 0x20100, `extension Int: @retroactive Identifiable` 0x30048). Records live in
// `swift5_protocol_conformances` as relative pointers. Trailing objects, in order: the
// retroactive context (IsRetroactive), the conditional requirements, the conditional pack
// shapes, the resilient witnesses, the generic witness table, the global actor.

/// A view of a protocol conformance descriptor.
@unsafe
struct ProtocolConformanceDescriptorLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var `protocol`: Int32  // RelativeContextPointer<Protocol>, indirectable
        var typeRef: Int32  // TypeReference, interpreted by flags
        var witnessTablePattern: Int32  // relative direct pointer
        var flags: UInt32  // ConformanceFlags
    }

    /// `ConformanceFlags` masks.
    enum Flag {
        static let typeReferenceKindMask: UInt32 = 0x38
        static let typeReferenceKindShift: UInt32 = 3
        static let isRetroactive: UInt32 = 0x40
        static let isSynthesizedNonUnique: UInt32 = 0x80
        static let numConditionalRequirementsMask: UInt32 = 0xFF00
        static let numConditionalRequirementsShift: UInt32 = 8
        static let hasResilientWitnesses: UInt32 = 0x1_0000
        static let hasGenericWitnessTable: UInt32 = 0x2_0000
        static let isConformanceOfProtocol: UInt32 = 0x4_0000
        static let hasGlobalActorIsolation: UInt32 = 0x8_0000
    }

    /// The descriptor's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The descriptor's address.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// The offset of `Protocol`, the first field, as a constant for the section scans (a test
    /// checks it against `MemoryLayout<Fields>.offset(of:)`, which is not folded to a constant).
    static var protocolOffset: Int { 0 }
    /// The offset of `TypeRef`, as a constant for the section scans.
    static var typeReferenceOffset: Int { 4 }
    /// The offset of `Flags`, as a constant for the section scans.
    static var flagsOffset: Int { 12 }

    /// `Flags`.
    var flags: UInt32 { unsafe address.read(at: Self.flagsOffset) }

    /// `Protocol`.
    var protocolDescriptor: UnsafeRawPointer? {
        unsafe address.relativeIndirectablePointer(at: Self.protocolOffset)
    }

    /// `TypeReferenceKind`: 0 direct descriptor, 1 indirect descriptor, 2 and 3 Objective-C.
    var typeReferenceKind: UInt32 { unsafe (flags & Flag.typeReferenceKindMask) >> Flag.typeReferenceKindShift }

    /// The conforming type's context descriptor, for the two Swift type reference kinds.
    var typeDescriptor: UnsafeRawPointer? {
        let offset = unsafe Self.typeReferenceOffset
        switch unsafe typeReferenceKind {
        case 0: return unsafe address.relativeDirectPointer(at: offset)
        case 1: return unsafe address.relativeDirectPointer(at: offset)?.slotTarget
        default: return nil
        }
    }

    /// `WitnessTablePattern`.
    var witnessTablePattern: UnsafeRawPointer? {
        unsafe address.relativeDirectPointer(at: MemoryLayout<Fields>.offset(of: \.witnessTablePattern)!)
    }

    /// The retroactive context (the module declaring a retroactive conformance).
    var retroactiveContext: UnsafeRawPointer? {
        guard unsafe flags & Flag.isRetroactive != 0 else { return nil }
        return unsafe address.relativeIndirectablePointer(at: MemoryLayout<Fields>.size)
    }

    /// The number of conditional requirements.
    var conditionalRequirementCount: Int {
        unsafe Int((flags & Flag.numConditionalRequirementsMask) >> Flag.numConditionalRequirementsShift)
    }

    /// The conditional requirements.
    var conditionalRequirements: [GenericRequirementDescriptorLayout] {
        let start = unsafe address + MemoryLayout<Fields>.size + (flags & Flag.isRetroactive != 0 ? 4 : 0)
        return unsafe (0..<conditionalRequirementCount).map {
            unsafe GenericRequirementDescriptorLayout(start + $0 * GenericRequirementDescriptorLayout.size)
        }
    }
}
