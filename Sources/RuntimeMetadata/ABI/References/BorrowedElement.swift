// BorrowedElement.swift
//
// An element of an array lent where the array's buffer holds it. Swift 6.3 reads a copyable
// element for a call as a copy, through the subscript, a span or a buffer pointer alike: the
// optimizer removes the copy only where it sees everything the callee may write, which in
// unspecialized generic code (a framework's store of views) it never does, so each call on an
// element costs the element's copy and destroy, value witnesses that for a generic type nested
// n levels deep are n calls each. An `inout` parameter is borrowed as it is; so the element's
// address, taken from the buffer, is passed `inout` to a function that lends it on as
// `borrowing`, and nothing is written through it. The caller's array keeps the buffer alive for
// the call, so a change to the array it came from (an append that moves the elements) copies
// the buffer instead of moving the lent element.

/// Lends array elements in place (``InPlace``).
@usableFromInline
enum BorrowedElement {
    /// Lends the element at `index` of a buffer to `body`.
    /// - Parameters:
    ///   - buffer: The elements, alive for the call.
    ///   - index: The element's index, checked by the caller.
    ///   - body: Borrows the element.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    @inline(__always)
    static func lend<Element, R, Failure: Error>(
        _ buffer: UnsafeBufferPointer<Element>,
        at index: Int,
        to body: (borrowing Element) throws(Failure) -> R
    ) throws(Failure) -> R {
        let element = unsafe UnsafeMutablePointer(mutating: buffer.baseAddress.unsafelyUnwrapped + index)
        return try unsafe pass(&element.pointee, to: body)
    }

    /// Lends an `inout` value on as `borrowing`: Swift passes the address it was given, where
    /// a value read through a pointer's `pointee` would be copied for the call. Array elements
    /// (``InPlace``) and the existential views that `withOpened` lends go through it.
    /// - Parameters:
    ///   - element: The element, not written.
    ///   - body: Borrows it.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    @inline(__always)
    static func pass<Element, R, Failure: Error>(
        _ element: inout Element,
        to body: (borrowing Element) throws(Failure) -> R
    ) throws(Failure) -> R {
        try body(element)
    }

    /// Lends the element at `index` of an array. The element's address is computed in the
    /// caller from the array's storage object (``ContiguousArrayStorageLayout``, the native
    /// storage a `ContiguousArray` always has): `withUnsafeBufferPointer` is an out-of-line
    /// generic call in unspecialized code, whose result type's metadata the caller must also
    /// look up, and measured slower than the copy it saves for small views.
    /// - Parameters:
    ///   - elements: The array.
    ///   - index: The element's index, checked by the caller.
    ///   - body: Borrows the element.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    @inline(__always)
    static func lend<Element, R, Failure: Error>(
        _ elements: borrowing ContiguousArray<Element>,
        at index: Int,
        to body: (borrowing Element) throws(Failure) -> R
    ) throws(Failure) -> R {
        guard unsafe ContiguousArrayStorageLayout.isAvailable else {
            // With Objective-C interoperability the storage class derives from an Objective-C
            // class; its buffer is not read there.
            return try unsafe elements.withUnsafeBufferPointer { (buffer) throws(Failure) -> R in
                try unsafe lend(buffer, at: index, to: body)
            }
        }
        // The array's one word is its storage object.
        let object = unsafe withUnsafePointer(to: elements) {
            unsafe UnsafeRawPointer($0).load(as: UnsafeRawPointer.self)
        }
        let first = unsafe ContiguousArrayStorageLayout(object: object)
            .elements(alignmentMask: MemoryLayout<Element>.alignment - 1)
        let element = unsafe UnsafeMutableRawPointer(mutating: first + index * MemoryLayout<Element>.stride)
            .assumingMemoryBound(to: Element.self)
        return try unsafe pass(&element.pointee, to: body)
    }

    /// Lends the element at `index` of an array.
    /// - Parameters:
    ///   - elements: The array.
    ///   - index: The element's index, checked by the caller.
    ///   - body: Borrows the element.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    @inlinable
    @inline(__always)
    static func lend<Element, R, Failure: Error>(
        _ elements: borrowing [Element],
        at index: Int,
        to body: (borrowing Element) throws(Failure) -> R
    ) throws(Failure) -> R {
        try unsafe elements.withUnsafeBufferPointer { (buffer) throws(Failure) -> R in
            try unsafe lend(buffer, at: index, to: body)
        }
    }
}
