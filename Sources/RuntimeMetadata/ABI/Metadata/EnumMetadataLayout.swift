// EnumMetadataLayout.swift
//
// Mirrors swift::TargetEnumMetadata (TargetValueMetadata) from swiftlang/swift
// include/swift/ABI/Metadata.h, checked against Swift 6.3.1 on Linux x86_64. Optional uses
// the same layout under its own kind. A payload size word exists only when the descriptor's
// payload-size offset is non-zero.

/// A view of enum or optional metadata.
@unsafe
struct EnumMetadataLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var kind: UInt
        var description: UInt  // const TargetEnumDescriptor *
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

    /// `getPayloadSize()`: the payload size stored at a word offset given by the descriptor.
    /// - Parameter wordOffset: The descriptor's payload-size offset; 0 means none is stored.
    /// - Returns: The payload size, or `nil`.
    func payloadSize(wordOffset: Int) -> Int? {
        guard wordOffset != 0 else { return nil }
        return unsafe Int(bitPattern: address.read(at: wordOffset * MemoryLayout<UInt>.size, as: UInt.self))
    }
}
