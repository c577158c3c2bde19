// ExistentialTypeMetadataLayout.swift
//
// Mirrors swift::TargetExistentialTypeMetadata and ExistentialTypeFlags from swiftlang/swift
// include/swift/ABI/Metadata.h and include/swift/ABI/MetadataValues.h, checked against
// Swift 6.3.1 on Linux x86_64. A superclass constraint word precedes the protocol list only
// when HasSuperclass is set. Protocols are `ProtocolDescriptorRef`s: bit 0 marks an
// Objective-C protocol (never on Linux). The runtime stores them in canonical order.

/// A view of existential type metadata.
@unsafe
@usableFromInline
struct ExistentialTypeMetadataLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var kind: UInt
        var flags: UInt32  // ExistentialTypeFlags
        var numProtocols: UInt32
    }

    /// `ExistentialTypeFlags` masks.
    @usableFromInline
    enum Flag {
        @inlinable static var numWitnessTablesMask: UInt32 { 0x00FF_FFFF }
        /// Set when the existential is *not* class-constrained (`ProtocolClassConstraint::Any`).
        @inlinable static var classConstraintMask: UInt32 { 0x8000_0000 }
        @inlinable static var hasSuperclassMask: UInt32 { 0x4000_0000 }
        @inlinable static var specialProtocolMask: UInt32 { 0x3F00_0000 }
        @inlinable static var specialProtocolShift: UInt32 { 24 }
    }

    /// The address point of the metadata.
    @usableFromInline
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The address point.
    @inlinable
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// The offsets of `Flags`, `NumProtocols` and the first protocol of an existential without
    /// superclass, as constants: conformance opening reads them on its warm path, where a
    /// key-path offset per call is too slow (a test checks them against `MemoryLayout<Fields>`).
    @inlinable static var flagsOffset: Int { 8 }
    @inlinable static var protocolCountOffset: Int { 12 }
    @inlinable static var firstProtocolOffset: Int { 16 }

    /// `Flags`.
    @inlinable
    var flags: UInt32 { unsafe address.read(at: Self.flagsOffset) }

    /// `NumProtocols`.
    @inlinable
    var protocolCount: Int { unsafe Int(address.read(at: Self.protocolCountOffset, as: UInt32.self)) }

    /// The first protocol's word (`ProtocolDescriptorRef`: a descriptor address, with the low bit
    /// set for an Objective-C protocol) of an existential with a protocol and no superclass.
    @inlinable
    var firstProtocolWord: UInt { unsafe address.read(at: Self.firstProtocolOffset) }

    /// The only protocol of an existential of exactly one Swift protocol and no superclass,
    /// read without building the protocol list.
    var onlyProtocol: UnsafeRawPointer? {
        guard unsafe protocolCount == 1, unsafe flags & Flag.hasSuperclassMask == 0 else { return nil }
        let word = unsafe firstProtocolWord
        guard word & 1 == 0 else { return nil }
        return unsafe UnsafeRawPointer(bitPattern: word)
    }

    /// The superclass constraint, when there is one.
    var superclass: UnsafeRawPointer? {
        guard unsafe flags & Flag.hasSuperclassMask != 0 else { return nil }
        return unsafe address.pointer(at: MemoryLayout<Fields>.size)
    }

    /// The protocol descriptors, Objective-C references excluded.
    var protocols: [UnsafeRawPointer] {
        let start = unsafe MemoryLayout<Fields>.size + (flags & Flag.hasSuperclassMask != 0 ? 8 : 0)
        return unsafe (0..<protocolCount).compactMap { index -> UnsafeRawPointer? in
            let word: UInt = unsafe address.read(at: start + index * 8)
            guard word & 1 == 0 else { return nil }
            return unsafe UnsafeRawPointer(bitPattern: word)
        }
    }
}
