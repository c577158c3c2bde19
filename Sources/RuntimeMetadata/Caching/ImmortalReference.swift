// ImmortalReference.swift
//
// A reference to an object that is never deallocated, held without reference counting.
// Cache entries (TypeRecord and the other table nodes) are published once and never
// removed, so a value that refers to one needs neither to retain it nor to release it; doing
// so anyway costs two atomic operations per copy, which dominated the warm paths.

/// An unretained reference to an immortal object.
@usableFromInline
@safe
struct ImmortalReference<Object: AnyObject & Sendable>: Sendable {
    /// The object, unretained.
    @usableFromInline
    let unmanaged: Unmanaged<Object>

    /// Refers to an object that the caller guarantees is never deallocated.
    /// - Parameter object: An entry of a process-lifetime cache.
    @inline(__always)
    init(immortal object: Object) {
        unsafe unmanaged = Unmanaged.passUnretained(object)
    }

    /// Wraps an unretained reference to an immortal object.
    /// - Parameter unmanaged: The reference.
    @inlinable
    @inline(__always)
    init(unmanaged: Unmanaged<Object>) {
        unsafe self.unmanaged = unmanaged
    }

    /// The object.
    @inline(__always)
    var object: Object { unsafe unmanaged.takeUnretainedValue() }

    /// Calls `body` with the object, without retaining it.
    @inlinable
    @inline(__always)
    func withObject<R>(_ body: (Object) throws -> R) rethrows -> R {
        try unsafe unmanaged._withUnsafeGuaranteedRef(body)
    }

    /// Whether two references refer to the same object.
    @inline(__always)
    static func === (lhs: ImmortalReference, rhs: ImmortalReference) -> Bool {
        unsafe lhs.unmanaged.toOpaque() == rhs.unmanaged.toOpaque()
    }

    /// The object's identity.
    var identity: UInt { UInt(bitPattern: unsafe unmanaged.toOpaque()) }
}
