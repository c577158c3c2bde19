// ProtocolDescriptorLayout.swift
//
// Mirrors swift::TargetProtocolDescriptor and ProtocolContextDescriptorFlags from
// swiftlang/swift include/swift/ABI/Metadata.h and include/swift/ABI/MetadataValues.h,
// checked against Swift 6.3.1 on Linux x86_64 (`protocol P` kind-specific flags 0x0001,
// `protocol CP: AnyObject` 0x0000, `Error` 0x0007). Trailing objects: the requirement
// signature (`NumRequirementsInSignature` generic requirements), then `NumRequirements`
// protocol requirements of 8 bytes each.

/// A view of a protocol descriptor.
@unsafe
struct ProtocolDescriptorLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var flags: UInt32
        var parent: Int32
        var name: Int32
        var numRequirementsInSignature: UInt32
        var numRequirements: UInt32
        var associatedTypeNames: Int32
    }

    /// The descriptor's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The descriptor's address.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// The common context header.
    var context: ContextDescriptorLayout { unsafe ContextDescriptorLayout(address) }

    /// `Name`.
    var name: String {
        unsafe address.relativeDirectPointer(at: MemoryLayout<Fields>.offset(of: \.name)!)?.cString ?? ""
    }

    /// `ProtocolContextDescriptorFlags::ClassConstraint`: 0 means class-bound.
    var isClassBound: Bool { unsafe context.flags.kindSpecificFlags & 0x1 == 0 }

    /// `ProtocolContextDescriptorFlags::SpecialProtocol` (1 is `Error`).
    var specialProtocol: UInt16 { unsafe (context.flags.kindSpecificFlags >> 2) & 0x3F }

    /// `NumRequirementsInSignature`.
    var signatureRequirementCount: Int {
        unsafe address.boundedCount(
            Int(address.read(at: MemoryLayout<Fields>.offset(of: \.numRequirementsInSignature)!, as: UInt32.self)),
            stride: 12
        )
    }

    /// `NumRequirements`.
    var requirementCount: Int {
        unsafe address.boundedCount(
            Int(address.read(at: MemoryLayout<Fields>.offset(of: \.numRequirements)!, as: UInt32.self)),
            stride: 8
        )
    }

    /// The requirement signature (`NumRequirementsInSignature` generic requirements): inherited
    /// protocols appear as conformance requirements on `Self` (mangled `x`).
    var signatureRequirements: [GenericRequirementDescriptorLayout] {
        unsafe (0..<signatureRequirementCount).map {
            unsafe GenericRequirementDescriptorLayout(
                address + MemoryLayout<Fields>.size + $0 * GenericRequirementDescriptorLayout.size
            )
        }
    }

    /// The address of `TargetProtocolRequirement` `index` (8 bytes each: `Flags`, `DefaultImplementation`).
    /// - Parameter index: The requirement's index.
    /// - Returns: Its address.
    func requirement(_ index: Int) -> UnsafeRawPointer {
        unsafe address + MemoryLayout<Fields>.size + signatureRequirementCount * GenericRequirementDescriptorLayout.size
            + index * 8
    }

    /// The `ProtocolRequirementFlags` of requirement `index`.
    /// - Parameter index: The requirement's index.
    /// - Returns: The flags: kind in the low 4 bits, 0x10 instance, 0x20 async.
    func requirementFlags(_ index: Int) -> UInt32 {
        unsafe requirement(index).read()
    }

    /// The requirement base: one requirement before the first (`TargetProtocolDescriptor::getRequirementBase`),
    /// from which witness-table offsets are counted.
    var requirementBase: UnsafeRawPointer { unsafe requirement(0) - 8 }

    /// `AssociatedTypeNames`, split at spaces.
    var associatedTypeNames: [String] {
        guard
            let names = unsafe address.relativeDirectPointer(
                at: MemoryLayout<Fields>.offset(of: \.associatedTypeNames)!
            )
        else { return [] }
        return unsafe names.cString.split(separator: " ").map(String.init)
    }
}
