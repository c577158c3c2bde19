// PointerAuthentication.swift
//
// Pointer authentication on arm64e, after swiftlang/swift include/swift/ABI/PointerAuth.h
// and include/swift/Runtime/Config.h (SWIFT_PTRAUTH). On arm64e the runtime signs value
// witness tables, witnesses, metadata access functions and some descriptor pointers. On every
// other target, Linux x86_64 included, this file compiles to an identity.

#if _ptrauth(_arm64e)
internal import CMetadata
#endif

extension UnsafeRawPointer {
    /// The pointer without a pointer-authentication signature.
    ///
    /// On arm64e the signature lives in the high bits and `ptrauth_strip` removes it (in
    /// CMetadata, since Swift cannot spell it); function pointers stripped here are signed again
    /// by CMetadata's trampolines before they are called. Elsewhere this is the pointer itself.
    @inline(__always)
    var strippingPointerAuthentication: UnsafeRawPointer {
        #if _ptrauth(_arm64e)
        return unsafe cmd_stripPointer(self)
        #else
        return unsafe self
        #endif
    }
}
