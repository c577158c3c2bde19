// LayoutEqualityPaddingTests.swift
//
// Layout equality decides from identical bits only where the bits are the value: padding is not.

import Testing

@testable import RuntimeMetadata

/// A struct with seven bytes of padding and no `==`: compared as two byte ranges.
private struct PaddedPlain {
    var flag: UInt8
    var count: Int
}

@Suite("Layout equality and padding")
struct LayoutEqualityPaddingTests {
    @Test("Layout equality decides from identical bits only where bits decide: padding is not data")
    func paddingIsNotData() {
        // Copies of a loadable struct may drop its padding, so the storage is written here and
        // compared in place, through the entry point that every specialized caller inlines.
        func compare(_ left: [UInt8], _ right: [UInt8], _ type: Any.Type) -> Bool {
            unsafe left.withUnsafeBytes { left in
                unsafe right.withUnsafeBytes { right in
                    unsafe LayoutEquality.compare(
                        left.baseAddress!,
                        right.baseAddress!,
                        type: MetadataReference(type),
                        size: left.count
                    )
                }
            }
        }
        // `flag` at 0, padding at 1..<8, `count` at 8: equal whatever the padding holds.
        #expect(MemoryLayout<PaddedPlain>.offset(of: \.count) == 8)
        let one: [UInt8] = [1, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 0xAA, 2, 0, 0, 0, 0, 0, 0, 0]
        let other: [UInt8] = [1, 0x55, 0, 0, 0, 0, 0, 0x55, 2, 0, 0, 0, 0, 0, 0, 0]
        #expect(compare(one, other, PaddedPlain.self))
        #expect(compare(one, one, PaddedPlain.self))
        var differentCount = other
        differentCount[8] = 3
        #expect(!compare(one, differentCount, PaddedPlain.self))
        var differentFlag = other
        differentFlag[0] = 2
        #expect(!compare(one, differentFlag, PaddedPlain.self))
        // A type without padding: different bits are different values.
        #expect(!compare(one, other, (Int, Int).self))
        #expect(compare(one, one, (Int, Int).self))
    }
}
