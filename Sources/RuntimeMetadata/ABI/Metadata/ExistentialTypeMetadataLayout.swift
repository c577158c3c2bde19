// ExistentialTypeMetadataLayout.swift
//
// Mirrors swift::TargetExistentialTypeMetadata and ExistentialTypeFlags from swiftlang/swift
// include/swift/ABI/Metadata.h and include/swift/ABI/MetadataValues.h, checked against
// Swift 6.3.1 on Linux x86_64. A superclass constraint word precedes the protocol list only
// when HasSuperclass is set. Protocols are `ProtocolDescriptorRef`s: bit 0 marks an
// Objective-C protocol (never on Linux). The runtime stores them in canonical order.

/// A view of existential type metadata.
@unsafe
struct ExistentialTypeMetadataLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var kind: UInt
        var flags: UInt32  // ExistentialTypeFlags
        var numProtocols: UInt32
    }

    /// `ExistentialTypeFlags` masks.
    enum Flag {
        static let numWitnessTablesMask: UInt32 = 0x00FF_FFFF
        /// Set when the existential is *not* class-constrained (`ProtocolClassConstraint::Any`).
        static let classConstraintMask: UInt32 = 0x8000_0000
        static let hasSuperclassMask: UInt32 = 0x4000_0000
        static let specialProtocolMask: UInt32 = 0x3F00_0000
        static let specialProtocolShift: UInt32 = 24
    }

    /// The address point of the metadata.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The address point.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// `Flags`.
    var flags: UInt32 { unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.flags)!) }

    /// `NumProtocols`.
    var protocolCount: Int {
        unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.numProtocols)!, as: UInt32.self))
    }

    /// The offsets of `Flags`, `NumProtocols` and the first protocol of an existential without
    /// superclass, as constants for the opening fast path (a test checks them against
    /// `MemoryLayout<Fields>`).
    static var flagsOffset: Int { 8 }
    static var protocolCountOffset: Int { 12 }
    static var firstProtocolOffset: Int { 16 }

    /// Whether this is `any P` for exactly the given protocol: one Swift protocol, no
    /// superclass, no special representation (`any Error` is boxed), one witness table.
    /// - Parameter protocolDescriptor: The protocol's descriptor.
    /// - Returns: `nil` when it is not; otherwise whether the existential is class-bound.
    func singleProtocolShape(_ protocolDescriptor: UnsafeRawPointer) -> Bool? {
        let flags: UInt32 = unsafe address.read(at: Self.flagsOffset)
        let count: UInt32 = unsafe address.read(at: Self.protocolCountOffset)
        guard count == 1, flags & (Flag.hasSuperclassMask | Flag.specialProtocolMask) == 0,
            flags & Flag.numWitnessTablesMask == 1
        else { return nil }
        let word: UInt = unsafe address.read(at: Self.firstProtocolOffset)
        guard word == UInt(bitPattern: protocolDescriptor) else { return nil }
        return flags & Flag.classConstraintMask == 0
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
