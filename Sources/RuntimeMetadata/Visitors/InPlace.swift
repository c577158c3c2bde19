// InPlace.swift

/// Elements read where an array holds them, without the copy Swift makes to read them.
///
/// Swift 6.3 reads an array element for a call as a copy: `views[i].body` copies the view,
/// calls `body` on the copy and destroys it, through the subscript, a `Span` or a buffer
/// pointer alike, wherever the optimizer cannot see all that the call may write (in
/// unspecialized generic code, always). For most values the copy is a few retains; for a
/// generic type nested n levels deep, its copy and destroy are n value-witness calls each. A
/// framework that keeps values in arrays and calls requirements on them (a view graph's stores
/// of views) lends them with ``withElement(at:of:_:)-(_,ContiguousArray<Element>,_)`` instead:
///
/// ```swift
/// let body = InPlace.withElement(at: slot, of: views) { $0.body }
/// ```
///
/// `body` borrows the element for the call and may copy it like any other value. The array is
/// borrowed for the call, so a change to the array it came from during the call (an append
/// that moves the elements) copies that array's buffer and leaves the lent element where it is.
public enum InPlace {
    /// Lends the element at `index` of `elements` to `body`, where the array's buffer holds it.
    /// - Parameters:
    ///   - index: A valid index of `elements`.
    ///   - elements: The array.
    ///   - body: Borrows the element.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    /// - Precondition: `index` is a valid index of `elements`, as for its subscript.
    @inlinable
    @inline(__always)
    public static func withElement<Element, R, Failure: Error>(
        at index: Int,
        of elements: borrowing ContiguousArray<Element>,
        _ body: (borrowing Element) throws(Failure) -> R
    ) throws(Failure) -> R {
        precondition(index >= 0 && index < elements.count, "Index out of range")
        return try BorrowedElement.lend(elements, at: index, to: body)
    }

    /// Lends the element at `index` of `elements` to `body`, where the array's buffer holds it.
    ///
    /// Where `Array` may be backed by an `NSArray` (with Objective-C interoperability), its
    /// elements are read from the contiguous copy `withUnsafeBufferPointer` makes.
    /// - Parameters:
    ///   - index: A valid index of `elements`.
    ///   - elements: The array.
    ///   - body: Borrows the element.
    /// - Returns: What `body` returns.
    /// - Throws: What `body` throws.
    /// - Precondition: `index` is a valid index of `elements`, as for its subscript.
    @inlinable
    @inline(__always)
    public static func withElement<Element, R, Failure: Error>(
        at index: Int,
        of elements: borrowing [Element],
        _ body: (borrowing Element) throws(Failure) -> R
    ) throws(Failure) -> R {
        precondition(index >= 0 && index < elements.count, "Index out of range")
        return try BorrowedElement.lend(elements, at: index, to: body)
    }
}
