// PointerAuthentication.swift
//
// Pointer authentication on arm64e, after swiftlang/swift include/swift/ABI/PointerAuth.h
// and include/swift/Runtime/Config.h (SWIFT_PTRAUTH). On arm64e the runtime signs value
// witnesses, metadata access functions and a few descriptor pointers; on every other target,
// Linux x86_64 included, pointers are used as stored and these functions are identities.

extension UnsafeRawPointer {
    /// Strips a pointer-authentication signature from a function or data pointer.
    ///
    /// On arm64e the signature lives in the pointer's high bits; `ptrauth_strip` would be
    /// the C spelling. Nothing in this package calls signed pointers directly: calls go
    /// through CMetadata's trampolines, which the C compiler authenticates. Elsewhere this
    /// returns its argument.
    var strippingPointerAuthentication: UnsafeRawPointer {
        #if arch(arm64e)
        // The virtual address space on arm64e Apple platforms uses the low 47 bits.
        return unsafe UnsafeRawPointer(bitPattern: UInt(bitPattern: self) & 0x0000_7FFF_FFFF_FFFF)!
        #else
        return unsafe self
        #endif
    }
}
