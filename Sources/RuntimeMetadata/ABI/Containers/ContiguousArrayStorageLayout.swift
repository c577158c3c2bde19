// ContiguousArrayStorageLayout.swift
//
// Mirrors the storage of `Array` and `ContiguousArray` where it is native, as on Linux: the
// value is one reference to a `__ContiguousArrayStorageBase` object
// (stdlib/public/core/ContiguousArrayBuffer.swift), which begins with the HeapObject header
// (stdlib/public/SwiftShims/swift/shims/HeapObject.h: metadata and reference counts, two
// words), then `_SwiftArrayBodyStorage` (stdlib/public/SwiftShims/swift/shims/GlobalObjects.h:
// `count`, then `_capacityAndFlags`), then the elements, tail-allocated at the first offset
// after the body that the element's alignment allows. An empty array refers to the runtime's
// `_swiftEmptyArrayStorage`, whose count is 0. Both types are `@frozen` and every client
// inlines this layout, so it cannot change without breaking the ABI.
//
// On platforms with Objective-C interoperability an `Array`'s reference may be an `NSArray`
// instead (stdlib/public/core/ArrayBuffer.swift, `_ArrayBuffer`), so there the layout is not
// read and callers use the `Collection` conformance.

/// The storage of a native `Array` or `ContiguousArray`.
@unsafe
@usableFromInline
struct ContiguousArrayStorageLayout {
    /// Whether this platform's arrays are always native, with the layout above.
    @inlinable
    static var isAvailable: Bool {
        #if canImport(ObjectiveC)
        false
        #else
        true
        #endif
    }

    /// The offset of `_SwiftArrayBodyStorage.count` in the storage object: after the
    /// HeapObject header's metadata and reference-count words.
    static var countOffset: Int { 2 * MemoryLayout<UInt>.size }

    /// The offset of the first element before alignment: after the header and the body's two
    /// words.
    @inlinable
    static var unalignedElementsOffset: Int { 4 * MemoryLayout<UInt>.size }

    /// The storage object an array value refers to.
    @usableFromInline
    let object: UnsafeRawPointer

    /// The storage of an array, from its storage object.
    /// - Parameter object: The object an `Array` or `ContiguousArray` value refers to.
    @inlinable
    init(object: UnsafeRawPointer) {
        unsafe self.object = object
    }

    /// Reads the storage of the array at `address`.
    /// - Parameter address: The address of an `Array` or `ContiguousArray` value: one word, the
    ///   storage object's address (never null).
    init?(arrayAt address: UnsafeRawPointer) {
        guard unsafe Self.isAvailable, let object = unsafe address.pointer(at: 0) else { return nil }
        unsafe self.object = object
    }

    /// The number of elements.
    var count: Int { unsafe object.load(fromByteOffset: Self.countOffset, as: Int.self) }

    /// The address of the first element.
    /// - Parameter alignmentMask: The element type's alignment less one (its value witnesses'
    ///   `flags & alignmentMask`).
    /// - Returns: The address, rounded up from the end of the body to the element's alignment.
    @inlinable
    func elements(alignmentMask: Int) -> UnsafeRawPointer {
        unsafe object + ((Self.unalignedElementsOffset + alignmentMask) & ~alignmentMask)
    }
}
