// OpaqueValueAccess+Arrays.swift
//
// Reads the elements of an `Array` or `ContiguousArray` held in an `Any` from the array's own
// storage (ContiguousArrayStorageLayout), by position, each copied by its type's own value
// witnesses: no opening of the array's type, no `Collection` witness, no iterator. Where the
// layout is not available (Objective-C platforms, whose arrays may be `NSArray`s), every
// function answers `nil` and the caller reads through the `Collection` conformance.

extension OpaqueValueAccess {
    /// How an array's elements are laid out: their type, stride and alignment, read once per
    /// array type from the element type's value witnesses.
    @usableFromInline
    struct ArrayElementLayout: Sendable {
        /// The element type.
        let type: MetadataReference
        /// The distance between elements.
        let stride: Int
        /// The element's alignment less one.
        let alignmentMask: Int

        /// The layout of an array of `type`, or `nil` when the array layout is not available
        /// or the type has no value witnesses to copy with.
        /// - Parameter type: The element type.
        init?(elementType type: MetadataReference) {
            guard unsafe ContiguousArrayStorageLayout.isAvailable,
                let table = unsafe MetadataLayout(type.address).valueWitnesses,
                unsafe !table.flags.contains(ValueWitnessFlags.isNonCopyable)
            else { return nil }
            self.type = type
            unsafe self.stride = table.stride
            unsafe self.alignmentMask = table.flags.alignment - 1
        }
    }

    /// The storage of the array an `Any` holds.
    private static func arrayStorage(ofAny container: UnsafeRawPointer) -> ContiguousArrayStorageLayout? {
        let (address, _) = unsafe ExistentialContainerLayout.project(container, type: MetadataReference(Any.self))
        return unsafe ContiguousArrayStorageLayout(arrayAt: address)
    }

    /// The number of elements of an array held in an `Any`.
    /// - Parameter value: An `Array` or `ContiguousArray`, in an `Any`.
    /// - Returns: The count, or `nil` when the array layout is not available.
    static func arrayCount(ofAny value: borrowing Any) -> Int? {
        unsafe withUnsafePointer(to: value) { container in
            unsafe arrayStorage(ofAny: UnsafeRawPointer(container))?.count
        }
    }

    /// Copies one element of an array held in an `Any`.
    /// - Parameters:
    ///   - value: An `Array` or `ContiguousArray` of `layout.type`, in an `Any`.
    ///   - index: The element's position.
    ///   - layout: The element layout.
    /// - Returns: The element, looked through any existential container, or `nil` when `index`
    ///   is outside the array or the array layout is not available.
    static func arrayElement(ofAny value: borrowing Any, at index: Int, layout: ArrayElementLayout) -> Any? {
        unsafe withUnsafePointer(to: value) { container in
            guard
                let address = unsafe arrayElementAddress(ofAny: UnsafeRawPointer(container), at: index, layout: layout)
            else { return nil }
            return unsafe copyAny(at: address, metadata: layout.type)
        }
    }

    /// Calls `body` with a copy of each element of an array held in an `Any`, in order.
    /// - Parameters:
    ///   - value: An `Array` or `ContiguousArray` of `layout.type`, in an `Any`.
    ///   - layout: The element layout.
    ///   - body: Receives each element, looked through any existential container.
    /// - Returns: `false`, without calling `body`, when the array layout is not available.
    static func forEachArrayElement(
        ofAny value: borrowing Any,
        layout: ArrayElementLayout,
        _ body: (Any) throws -> Void
    ) rethrows -> Bool {
        try unsafe withUnsafePointer(to: value) { container in
            guard let storage = unsafe arrayStorage(ofAny: UnsafeRawPointer(container)) else { return false }
            let base = unsafe storage.elements(alignmentMask: layout.alignmentMask)
            let count = unsafe storage.count
            for index in 0..<count {
                try body(unsafe copyAny(at: base + index * layout.stride, metadata: layout.type))
            }
            return true
        }
    }

    /// The address of one element of an array held in an `Any`.
    /// - Parameters:
    ///   - container: The `Any`'s address.
    ///   - index: The element's position.
    ///   - layout: The element layout.
    /// - Returns: The address, or `nil` when `index` is outside the array or the array layout is
    ///   not available.
    @usableFromInline
    static func arrayElementAddress(
        ofAny container: UnsafeRawPointer,
        at index: Int,
        layout: ArrayElementLayout
    ) -> UnsafeRawPointer? {
        guard let storage = unsafe arrayStorage(ofAny: container) else { return nil }
        let count = unsafe storage.count
        guard index >= 0, index < count else { return nil }
        return unsafe storage.elements(alignmentMask: layout.alignmentMask) + index * layout.stride
    }

    /// Loads one element of an array held in an `Any`, whose element type the caller has
    /// checked to be exactly `Value`: a copy from its address, compiled into the caller.
    /// - Parameters:
    ///   - value: An `Array` or `ContiguousArray` of `Value`, in an `Any`.
    ///   - index: The element's position.
    ///   - layout: The element layout, of `Value`.
    ///   - valueType: The element type.
    /// - Returns: A copy of the element, or `nil` when `index` is outside the array or the array
    ///   layout is not available.
    @inlinable
    static func loadArrayElement<Value>(
        of value: borrowing Any,
        at index: Int,
        layout: ArrayElementLayout,
        as valueType: Value.Type
    ) -> Value? {
        unsafe withUnsafePointer(to: value) { container in
            guard
                let address = unsafe arrayElementAddress(ofAny: UnsafeRawPointer(container), at: index, layout: layout)
            else { return nil }
            return unsafe address.assumingMemoryBound(to: Value.self).pointee
        }
    }
}
