// StringObjectLayout.swift
//
// Mirrors the two words of a `String` on 64-bit platforms: `_StringGuts` holds one
// `_StringObject` (stdlib/public/core/StringObject.swift), whose first word is the count and
// flags of a large string or the first eight code units of a small one, and whose second word
// is the storage object of a large string or the rest of a small one, topped by its
// discriminator. A small string's discriminator (the second word's top four bits) is `0b1110`
// when its code units are ASCII; its count is in the next four bits, and the code units past
// the count are zero (`_StringObject._invariantCheck`). `String` is `@frozen` and every client
// inlines this layout, so it cannot change without breaking the ABI.

/// The words of a `String`.
struct StringObjectLayout: Equatable {
    /// The first word: count and flags, or a small string's first code units.
    let first: UInt64
    /// The second word: the storage object, or a small string's last code units and discriminator.
    let second: UInt64

    /// The words of a string, read by value: the string is neither retained nor kept.
    /// - Parameter string: The string.
    @inline(__always)
    init(_ string: String) {
        #if _pointerBitWidth(_64)
        (first, second) = unsafe unsafeBitCast(string, to: (UInt64, UInt64).self)
        #else
        (first, second) = (0, 0)
        #endif
    }

    /// Whether the string is small and ASCII, stored in the two words themselves: then two such
    /// strings are equal exactly when their words are, since ASCII has one spelling of each
    /// string (no canonical equivalence applies) and the unused code units are zero.
    var isSmallASCII: Bool {
        #if _pointerBitWidth(_64)
        second >> 60 == 0xE
        #else
        false
        #endif
    }
}
