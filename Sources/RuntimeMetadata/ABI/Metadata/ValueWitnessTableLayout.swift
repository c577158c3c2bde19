// ValueWitnessTableLayout.swift
//
// Mirrors swift::TargetValueWitnessTable and TargetEnumValueWitnessTable from swiftlang/swift
// include/swift/ABI/Metadata.h, with the witnesses listed in include/swift/ABI/ValueWitness.def
// and the flags of TargetValueWitnessFlags in include/swift/ABI/MetadataValues.h. Checked
// against Swift 6.3.1 on Linux x86_64. Every witness is a swiftcall function; calls go
// through CMetadata's trampolines. The enum witnesses exist only when HasEnumWitnesses is set.

/// A view of a value witness table.
@unsafe
struct ValueWitnessTableLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var initializeBufferWithCopyOfBuffer: UInt
        var destroy: UInt
        var initializeWithCopy: UInt
        var assignWithCopy: UInt
        var initializeWithTake: UInt
        var assignWithTake: UInt
        var getEnumTagSinglePayload: UInt
        var storeEnumTagSinglePayload: UInt
        var size: UInt
        var stride: UInt
        var flags: UInt32
        var extraInhabitantCount: UInt32
        // TargetEnumValueWitnessTable
        var getEnumTag: UInt
        var destructiveProjectEnumData: UInt
        var destructiveInjectEnumTag: UInt
    }

    /// The table's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view of a table.
    /// - Parameter address: The table's address.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// `size`: the number of bytes a value occupies, without tail padding.
    var size: Int { unsafe Int(bitPattern: address.read(at: MemoryLayout<Fields>.offset(of: \.size)!, as: UInt.self)) }
    /// `stride`: the distance between array elements.
    var stride: Int {
        unsafe Int(bitPattern: address.read(at: MemoryLayout<Fields>.offset(of: \.stride)!, as: UInt.self))
    }
    /// `flags`.
    var flags: ValueWitnessFlags {
        unsafe ValueWitnessFlags(rawValue: address.read(at: Self.flagsOffset))
    }
    /// `extraInhabitantCount`.
    var extraInhabitantCount: UInt32 {
        unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.extraInhabitantCount)!)
    }

    /// The witnesses this package calls.
    enum Witness {
        case destroy, initializeWithCopy, getEnumTag, destructiveProjectEnumData, destructiveInjectEnumTag
    }

    /// Reads a witness function pointer.
    /// - Parameter witness: The witness.
    /// - Returns: The function pointer.
    @inline(__always)
    func witness(_ witness: Witness) -> UnsafeRawPointer {
        unsafe address.pointer(at: Self.offset(of: witness))!
    }

    /// A witness's byte offset in the table, as a constant.
    ///
    /// Warm paths (enum tags, comparisons) read witnesses, where neither a key-path offset per
    /// call nor a lazily initialized static (a `swift_once` per call) is cheap enough. The
    /// constants are the word positions in ``Fields``; a test checks them against
    /// `MemoryLayout<Fields>.offset(of:)`.
    /// - Parameter witness: The witness.
    /// - Returns: The offset.
    @inline(__always)
    static func offset(of witness: Witness) -> Int {
        let word = MemoryLayout<UInt>.size
        switch witness {
        case .destroy: return 1 * word
        case .initializeWithCopy: return 2 * word
        case .getEnumTag: return 11 * word
        case .destructiveProjectEnumData: return 12 * word
        case .destructiveInjectEnumTag: return 13 * word
        }
    }

    /// The offset of `flags`, after eight witnesses, `size` and `stride`.
    static var flagsOffset: Int { 10 * MemoryLayout<UInt>.size }
}

/// `TargetValueWitnessFlags` from include/swift/ABI/MetadataValues.h.
struct ValueWitnessFlags: RawRepresentable, Hashable, Sendable {
    /// The raw flag word.
    var rawValue: UInt32

    /// `AlignmentMask`: alignment minus one.
    static let alignmentMask: UInt32 = 0x0000_00FF
    /// `IsNonPOD`.
    static let isNonPOD: UInt32 = 0x0001_0000
    /// `IsNonInline`: stored out of line in an existential buffer.
    static let isNonInline: UInt32 = 0x0002_0000
    /// `HasSpareBits`.
    static let hasSpareBits: UInt32 = 0x0008_0000
    /// `IsNonBitwiseTakable`.
    static let isNonBitwiseTakable: UInt32 = 0x0010_0000
    /// `HasEnumWitnesses`.
    static let hasEnumWitnesses: UInt32 = 0x0020_0000
    /// `Incomplete`.
    static let incomplete: UInt32 = 0x0040_0000
    /// `IsNonCopyable`.
    static let isNonCopyable: UInt32 = 0x0080_0000
    /// `IsNonBitwiseBorrowable`.
    static let isNonBitwiseBorrowable: UInt32 = 0x0100_0000

    /// Whether a flag bit is set.
    /// - Parameter mask: The bit.
    /// - Returns: `true` when set.
    func contains(_ mask: UInt32) -> Bool { rawValue & mask != 0 }

    /// The alignment in bytes.
    var alignment: Int { Int(rawValue & Self.alignmentMask) + 1 }
}
