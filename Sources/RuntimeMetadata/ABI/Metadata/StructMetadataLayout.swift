// StructMetadataLayout.swift
//
// Mirrors swift::TargetStructMetadata (TargetValueMetadata) from swiftlang/swift
// include/swift/ABI/Metadata.h, checked against Swift 6.3.1 on Linux x86_64. Generic
// arguments follow the descriptor word; the field offset vector is an array of `uint32_t`
// at `FieldOffsetVectorOffset` words from the address point (the descriptor says where).

/// A view of struct metadata.
@unsafe
struct StructMetadataLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var kind: UInt
        var description: UInt  // const TargetStructDescriptor *
    }

    /// The address point of the metadata.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The address point.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// `Description`.
    var description: UnsafeRawPointer? {
        unsafe address.pointer(at: MemoryLayout<Fields>.offset(of: \.description)!)
    }

    /// The word index at which generic arguments start (`getGenericArgumentOffset`: 2).
    static var genericArgumentOffset: Int { MemoryLayout<Fields>.size / MemoryLayout<UInt>.size }

    /// Reads the field offsets.
    /// - Parameters:
    ///   - vectorOffset: `FieldOffsetVectorOffset` from the descriptor, in words.
    ///   - count: `NumFields` from the descriptor.
    /// - Returns: The byte offset of each stored property.
    func fieldOffsets(vectorOffset: Int, count: Int) -> [Int] {
        let vector = unsafe address + vectorOffset * MemoryLayout<UInt>.size
        return (0..<count).map { unsafe Int(vector.read(at: $0 * 4, as: UInt32.self)) }
    }
}
