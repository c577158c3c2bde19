// MetatypeMetadataLayout.swift
//
// Mirrors swift::TargetMetatypeMetadata and TargetExistentialMetatypeMetadata from
// swiftlang/swift include/swift/ABI/Metadata.h, checked against Swift 6.3.1 on Linux x86_64.
// Both store the instance type after the kind; the existential metatype adds its flags.

/// A view of metatype or existential metatype metadata.
@unsafe
struct MetatypeMetadataLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var kind: UInt
        var instanceType: UInt  // const Metadata *
    }

    /// The address point of the metadata.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The address point.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// `InstanceType`.
    var instanceType: UnsafeRawPointer? {
        unsafe address.pointer(at: MemoryLayout<Fields>.offset(of: \.instanceType)!)
    }
}
