// OpaqueValueAccess+RawBytes.swift
//
// Copies and compares the bytes of values' storage word by word, for plain data whose
// bytes are its value (`IsNonPOD` clear in include/swift/ABI/ValueWitnessTable.h), without
// the call `memcpy` or `memcmp` costs on a few bytes.

extension OpaqueValueAccess {
    /// Copies a few bytes (a value that fits an existential's buffer) word by word, without
    /// the call `memcpy` costs.
    /// - Parameters:
    ///   - source: The bytes.
    ///   - destination: Where they go.
    ///   - count: How many.
    @inlinable
    @inline(__always)
    static func copySmall(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, count: Int) {
        var offset = 0
        while offset + 8 <= count {
            unsafe destination.storeBytes(
                of: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                toByteOffset: offset,
                as: UInt64.self
            )
            offset += 8
        }
        while offset < count {
            unsafe destination.storeBytes(
                of: source.load(fromByteOffset: offset, as: UInt8.self),
                toByteOffset: offset,
                as: UInt8.self
            )
            offset += 1
        }
    }

    /// Compares the first `count` bytes of two values' storage.
    /// - Parameters:
    ///   - lhs: The first address.
    ///   - rhs: The second address.
    ///   - count: The number of bytes.
    /// - Returns: Whether the bytes are the same.
    @inlinable
    @inline(__always)
    static func bytesEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            if unsafe lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < count {
            if unsafe lhs.load(fromByteOffset: offset, as: UInt8.self)
                != rhs.load(fromByteOffset: offset, as: UInt8.self)
            {
                return false
            }
            offset += 1
        }
        return true
    }

    /// Compares byte ranges of two values' storage.
    /// - Parameters:
    ///   - lhs: The first address.
    ///   - rhs: The second address.
    ///   - ranges: The byte ranges to compare.
    /// - Returns: Whether every range holds the same bytes.
    static func bytesEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, ranges: [Range<Int>]) -> Bool {
        for range in ranges {
            var offset = range.lowerBound
            while offset + 8 <= range.upperBound {
                if unsafe lhs.read(at: offset, as: UInt64.self) != rhs.read(at: offset, as: UInt64.self) {
                    return false
                }
                offset += 8
            }
            while offset < range.upperBound {
                if unsafe lhs.read(at: offset, as: UInt8.self) != rhs.read(at: offset, as: UInt8.self) { return false }
                offset += 1
            }
        }
        return true
    }
}

/// Where a value stores a floating-point number inline, and in which IEEE 754 format: the
/// places whose NaNs make a value unequal to a copy of itself.
struct FloatingPointSlot: Sendable, Equatable {
    /// The storage formats, each by the bits that are all ones in a NaN's exponent.
    enum Format: Sendable, Equatable {
        /// `Float16`: 16 bits.
        case half
        /// `Float`: 32 bits.
        case single
        /// `Double`: 64 bits.
        case double
        /// `Float80`: x87's 80-bit extended format, the significand's integer bit explicit.
        case extended
    }

    /// The offset in the outermost value.
    let offset: Int
    /// The format.
    let format: Format
}

extension OpaqueValueAccess {
    /// Whether any of a value's floating-point slots may hold a NaN, which is unequal to itself.
    ///
    /// A NaN has an exponent of all ones and a nonzero significand (IEEE 754 §3.4). The x87
    /// extended format also treats as NaN the encodings it does not support (an exponent of all
    /// ones without the integer bit, a nonzero exponent without it: "pseudo-NaNs" and
    /// "unnormals", Intel SDM vol. 1 §8.2.2), so for it every such encoding counts. A slot
    /// of an enum payload may hold another case's bytes; reading those as a NaN only sends
    /// the comparison on to the full one.
    /// - Parameters:
    ///   - value: The value's storage.
    ///   - slots: Its floating-point slots.
    /// - Returns: `true` when a slot holds a NaN (or may).
    static func holdsNaN(_ value: UnsafeRawPointer, slots: [FloatingPointSlot]) -> Bool {
        for slot in slots {
            switch slot.format {
            case .half:
                if unsafe isNaN(half: value, at: slot.offset) { return true }
            case .single:
                if unsafe isNaN(single: value, at: slot.offset) { return true }
            case .double:
                if unsafe isNaN(double: value, at: slot.offset) { return true }
            case .extended:
                // Little-endian: the 64-bit significand, then the sign and the 15-bit exponent.
                let significand = unsafe value.read(at: slot.offset, as: UInt64.self)
                let exponent = unsafe value.read(at: slot.offset + 8, as: UInt16.self) & 0x7FFF
                let integerBit = significand >> 63 == 1
                if exponent == 0x7FFF && (!integerBit || significand << 1 != 0) { return true }
                if exponent != 0 && !integerBit { return true }
            }
        }
        return false
    }

    /// Whether the `Float16` at an offset of a value's storage is a NaN: an exponent of all
    /// ones and a nonzero significand.
    /// - Parameters:
    ///   - value: The value's storage.
    ///   - offset: The number's offset.
    /// - Returns: `true` for a NaN.
    @inlinable
    @inline(__always)
    static func isNaN(half value: UnsafeRawPointer, at offset: Int) -> Bool {
        unsafe value.loadUnaligned(fromByteOffset: offset, as: UInt16.self) & 0x7FFF > 0x7C00
    }

    /// Whether the `Float` at an offset of a value's storage is a NaN.
    /// - Parameters:
    ///   - value: The value's storage.
    ///   - offset: The number's offset.
    /// - Returns: `true` for a NaN.
    @inlinable
    @inline(__always)
    static func isNaN(single value: UnsafeRawPointer, at offset: Int) -> Bool {
        unsafe value.loadUnaligned(fromByteOffset: offset, as: UInt32.self) & 0x7FFF_FFFF > 0x7F80_0000
    }

    /// Whether the `Double` at an offset of a value's storage is a NaN.
    /// - Parameters:
    ///   - value: The value's storage.
    ///   - offset: The number's offset.
    /// - Returns: `true` for a NaN.
    @inlinable
    @inline(__always)
    static func isNaN(double value: UnsafeRawPointer, at offset: Int) -> Bool {
        unsafe value.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x7FFF_FFFF_FFFF_FFFF
            > 0x7FF0_0000_0000_0000
    }
}
