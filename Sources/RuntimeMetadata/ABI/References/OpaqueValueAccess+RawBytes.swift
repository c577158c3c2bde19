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
