// MetadataLayout.swift
//
// Mirrors swift::TargetMetadata and its header (TargetTypeMetadataHeader,
// TargetHeapMetadataHeader) from swiftlang/swift include/swift/ABI/Metadata.h, checked
// against Swift 6.3.1 on Linux x86_64. A metadata pointer addresses the kind word; the value
// witness table pointer sits one word before it for every type, class or not.

/// A view of any type metadata record.
@unsafe
@usableFromInline
struct MetadataLayout: Sendable {
    /// The C++ fields at and after the address point.
    struct Fields {
        /// `Kind`, or an isa pointer for Objective-C-compatible classes.
        var kind: UInt
    }

    /// The address point of the metadata.
    @usableFromInline
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view of the metadata at an address point.
    /// - Parameter address: The address point.
    @inlinable
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// The offset of `Kind`, as a constant: the kind is read on inlined warm paths (a test
    /// checks it against `MemoryLayout<Fields>`).
    @inlinable
    static var kindOffset: Int { 0 }

    /// The kind word.
    @inlinable
    var kind: MetadataKind {
        unsafe MetadataKind(rawValue: address.read(at: Self.kindOffset))
    }

    /// The value witness table (`TargetTypeMetadataHeader::ValueWitnesses`, one word before the address point).
    ///
    /// `nil` for `@convention(block)` function types without Objective-C interop: the runtime
    /// never sets their table there (`FunctionCacheEntry` in stdlib/public/runtime/Metadata.cpp
    /// only assigns the block witnesses under SWIFT_OBJC_INTEROP), so the word is garbage.
    @inline(__always)
    var valueWitnesses: ValueWitnessTableLayout? {
        if unsafe isBlockFunctionWithoutWitnesses { return nil }
        guard let table = unsafe address.pointer(at: -MemoryLayout<UInt>.size) else { return nil }
        return unsafe ValueWitnessTableLayout(table)
    }

    /// Whether this is `@convention(block)` function metadata on a platform without Objective-C interop.
    @inline(__always)
    var isBlockFunctionWithoutWitnesses: Bool {
        #if _runtime(_ObjC)
        return false
        #else
        guard unsafe kind == .function else { return false }
        let function = unsafe FunctionTypeMetadataLayout(address)
        let convention =
            unsafe (function.flags & FunctionTypeMetadataLayout.Flag.conventionMask)
            >> FunctionTypeMetadataLayout.Flag.conventionShift
        return convention == 1
        #endif
    }

    /// The `Description` word that struct, enum and optional metadata store after the kind.
    var valueTypeDescriptor: UnsafeRawPointer? {
        unsafe address.pointer(at: MemoryLayout<UInt>.size)
    }
}
