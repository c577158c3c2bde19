// RelativePointer.swift
//
// Mirrors swift::RelativeDirectPointer and swift::RelativeIndirectablePointer from
// swiftlang/swift include/swift/Basic/RelativePointer.h (and the Target* forms in
// include/swift/ABI/TargetLayout.h), checked against Swift 6.3.1 on Linux x86_64.
//
// A relative pointer is an `int32_t` offset from the address of the field that stores it;
// 0 means null. An indirectable pointer sets bit 0 when the target lives in another image,
// in which case the offset leads to a slot holding the real address. Descriptors are only
// 4-byte aligned, so every read here is unaligned-safe.

extension UnsafeRawPointer {
    /// Reads a value that may not be aligned for its type.
    /// - Parameters:
    ///   - offset: The byte offset from this address.
    ///   - type: The type to read.
    /// - Returns: The value.
    @inlinable
    @inline(__always)
    func read<T: BitwiseCopyable>(at offset: Int = 0, as type: T.Type = T.self) -> T {
        unsafe loadUnaligned(fromByteOffset: offset, as: T.self)
    }

    /// Resolves a `RelativeDirectPointer` stored at `offset`.
    /// - Parameter offset: The byte offset of the 32-bit field from this address.
    /// - Returns: The target, or `nil` for a zero offset.
    func relativeDirectPointer(at offset: Int) -> UnsafeRawPointer? {
        let relative: Int32 = unsafe read(at: offset)
        guard relative != 0 else { return nil }
        return unsafe self + offset + Int(relative)
    }

    /// Resolves a `RelativeIndirectablePointer` stored at `offset`.
    /// - Parameter offset: The byte offset of the 32-bit field from this address.
    /// - Returns: The target, or `nil` for a zero offset or an empty indirection slot.
    func relativeIndirectablePointer(at offset: Int) -> UnsafeRawPointer? {
        let relative: Int32 = unsafe read(at: offset)
        guard relative != 0 else { return nil }
        let target = unsafe self + offset + Int(relative & ~1)
        if relative & 1 == 0 {
            return unsafe target
        }
        return unsafe target.slotTarget
    }

    /// Reads a pointer-sized word at `offset` as a pointer.
    /// - Parameter offset: The byte offset from this address.
    /// - Returns: The pointer, or `nil` when the word is 0.
    ///
    /// On arm64e, metadata words that hold pointers (value witness tables, descriptors,
    /// witnesses) are signed; the signature is stripped here, so every pointer the ABI layer
    /// follows is a plain address. Calls through stripped function pointers are re-signed by
    /// CMetadata's trampolines.
    func pointer(at offset: Int) -> UnsafeRawPointer? {
        let word: UInt = unsafe read(at: offset)
        return unsafe UnsafeRawPointer(bitPattern: word)?.strippingPointerAuthentication
    }

    /// Reads the NUL-terminated UTF-8 string at this address.
    var cString: String {
        unsafe String(cString: assumingMemoryBound(to: CChar.self))
    }
}
