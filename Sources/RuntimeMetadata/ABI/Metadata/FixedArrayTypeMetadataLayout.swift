// FixedArrayTypeMetadataLayout.swift
//
// Mirrors swift::TargetFixedArrayTypeMetadata from swiftlang/swift
// include/swift/ABI/Metadata.h: the builtin `Builtin.FixedArray<N, T>` that backs
// `InlineArray`'s storage. Checked against Swift 6.3.1 on Linux x86_64
// (its kind, in include/swift/ABI/MetadataKind.def).

/// A view of builtin fixed-size array metadata.
@unsafe
struct FixedArrayTypeMetadataLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var kind: UInt
        var count: Int  // intptr_t
        var element: UInt  // const Metadata *
    }

    /// The address point of the metadata.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The address point.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// `Count`.
    var count: Int { unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.count)!) }

    /// `Element`.
    var element: UnsafeRawPointer? { unsafe address.pointer(at: MemoryLayout<Fields>.offset(of: \.element)!) }
}
