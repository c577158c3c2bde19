// CStringBytes.swift
//
// The bytes of a NUL-terminated string in an image's read-only data (a descriptor's `Name`,
// include/swift/ABI/Metadata.h), readable without making a `String`: the name index hashes and
// compares them for every descriptor of every image.

/// The bytes of a C string in a loaded image, up to its NUL.
@safe
struct CStringBytes: Sequence, Sendable {
    private nonisolated(unsafe) let start: UnsafePointer<UInt8>?

    /// The bytes at an address.
    /// - Parameter address: A NUL-terminated string, or `nil` for no bytes.
    init(_ address: UnsafeRawPointer?) {
        unsafe start = address?.assumingMemoryBound(to: UInt8.self)
    }

    /// Iterates the bytes.
    @safe
    struct Iterator: IteratorProtocol {
        fileprivate nonisolated(unsafe) var position: UnsafePointer<UInt8>?

        /// The next byte, or `nil` at the NUL.
        mutating func next() -> UInt8? {
            guard let current = unsafe position else { return nil }
            let byte = unsafe current.pointee
            guard byte != 0 else { return nil }
            unsafe position = current + 1
            return byte
        }
    }

    /// An iterator from the first byte.
    func makeIterator() -> Iterator { unsafe Iterator(position: start) }
}

extension ProtocolReference {
    /// The bytes of the protocol's `Name` field (`TargetProtocolDescriptor::Name`,
    /// include/swift/ABI/Metadata.h), read without checking the descriptor's kind.
    var nameBytes: CStringBytes {
        unsafe CStringBytes(
            address.relativeDirectPointer(at: MemoryLayout<ProtocolDescriptorLayout.Fields>.offset(of: \.name)!)
        )
    }
}

extension DescriptorReference {
    /// The bytes of the context's own `Name` field: a type's or a protocol's name as declared
    /// (an imported C type's ABI name may follow it as import info), empty for other contexts.
    var nameBytes: CStringBytes {
        let offset: Int
        switch ContextDescriptorFlags.Kind(rawValue: rawKind) {
        case .protocol: offset = MemoryLayout<ProtocolDescriptorLayout.Fields>.offset(of: \.name)!
        case .class, .struct, .enum: offset = MemoryLayout<TypeContextDescriptorLayout.Fields>.offset(of: \.name)!
        default: return unsafe CStringBytes(nil)
        }
        return unsafe CStringBytes(address.relativeDirectPointer(at: offset))
    }

    /// Whether the type has `TypeImportInfo` after its name (imported C types), whose ABI name
    /// the qualified name uses instead of `Name`: `TypeContextDescriptorFlags::HasImportInfo`
    /// (kind-specific bit 2, include/swift/ABI/MetadataValues.h).
    var hasImportInfo: Bool { isType && kindSpecificFlags & 0x4 != 0 }
}
