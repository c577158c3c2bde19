// OpaqueValueAccess+Parts.swift
//
// Copies the parts of a value out of its storage, in one pass or one at a time: the stored
// properties of a struct or class instance, the elements of a tuple. The value arrives in an
// `Any`, is projected out of its container once (ExistentialContainerLayout), and each part is copied
// from its offset with its type's own value witnesses (by opening the part's type), so reading
// every part of a value costs one projection and one copy per part. Parts stored as weak or
// unowned references go through `read`, which loads them as their storage requires.

extension OpaqueValueAccess {
    /// Where one part of a value lives and how to copy it.
    struct PartLayout: Sendable {
        /// The part's offset in the value, or in the object for a class instance.
        let offset: Int
        /// The part's declared type.
        let type: MetadataReference
        /// How a stored property holds its reference; `.strong` for tuple elements.
        let ownership: StorageOwnership
        /// Whether the part is a function stored at its declaration's abstraction (the DocC
        /// article "Reading type metadata"), or an optional of one: it is never handed out as a
        /// value, except an optional's `nil`, which holds no function.
        let isWithheldFunction: Bool
        /// Whether the part's type is noncopyable (a class's stored property of a generic
        /// parameter bound to a `~Copyable` type): it is never copied, and has no value here.
        let isNoncopyable: Bool
        /// How the part is stored (OpaqueValueAccess+StoredForms.swift).
        var form: StoredForm = .asType
    }

    /// Calls `body` with a copy of each part of a value, in order.
    /// - Parameters:
    ///   - value: A struct, tuple or class instance, in an `Any`.
    ///   - isObject: Whether the value is a class instance, whose parts are in the object.
    ///   - parts: The parts' layouts.
    ///   - body: Receives each part's index and its value, or `nil` for a withheld function or a
    ///     noncopyable part.
    static func forEachPart(
        of value: borrowing Any,
        isObject: Bool,
        parts: [PartLayout],
        _ body: (Int, consuming Any?) throws -> Void
    ) rethrows {
        try unsafe withUnsafePointer(to: value) { container in
            let (address, _) = unsafe ExistentialContainerLayout.project(
                UnsafeRawPointer(container),
                type: MetadataReference(Any.self)
            )
            guard let base = unsafe isObject ? address.pointer(at: 0) : address else { return }
            for index in parts.indices {
                let part = parts[index]
                try unsafe body(index, copyPart(part, at: base))
            }
        }
    }

    /// Copies one part of a value out of its storage, without reading the others.
    /// - Parameters:
    ///   - part: The part's layout.
    ///   - value: A struct, tuple or class instance, in an `Any`.
    ///   - isObject: Whether the value is a class instance, whose parts are in the object.
    /// - Returns: The part's value, or `nil` for a withheld function or a noncopyable part.
    static func part(_ part: PartLayout, of value: borrowing Any, isObject: Bool) -> Any? {
        unsafe withUnsafePointer(to: value) { container in
            let (address, _) = unsafe ExistentialContainerLayout.project(
                UnsafeRawPointer(container),
                type: MetadataReference(Any.self)
            )
            guard let base = unsafe isObject ? address.pointer(at: 0) : address else { return nil }
            return unsafe copyPart(part, at: base)
        }
    }

    /// Loads one part of a value whose declared type the caller has checked to be exactly
    /// `Value`, held strongly: a copy from its offset, compiled into the caller.
    /// - Parameters:
    ///   - value: A struct, tuple or class instance, in an `Any`.
    ///   - isObject: Whether the value is a class instance, whose parts are in the object.
    ///   - offset: The part's offset.
    ///   - valueType: The part's type.
    /// - Returns: A copy of the part's value.
    @inlinable
    @inline(__always)
    static func loadPart<Value>(of value: borrowing Any, isObject: Bool, offset: Int, as valueType: Value.Type) -> Value
    {
        unsafe withUnsafePointer(to: value) { container in
            let base = unsafe partsBase(ofAny: UnsafeRawPointer(container), isObject: isObject)
            return unsafe (base + offset).assumingMemoryBound(to: Value.self).pointee
        }
    }

    /// Where the parts of a value held in an `Any` are: the value's own storage, or the object a
    /// class instance refers to.
    /// - Parameters:
    ///   - container: The `Any`'s address.
    ///   - isObject: Whether the value is a class instance.
    /// - Returns: The parts' base address.
    @usableFromInline
    static func partsBase(ofAny container: UnsafeRawPointer, isObject: Bool) -> UnsafeRawPointer {
        let (address, _) = unsafe ExistentialContainerLayout.project(container, type: MetadataReference(Any.self))
        // A class instance's reference is never null.
        guard isObject, let object = unsafe address.pointer(at: 0) else { return unsafe address }
        return unsafe object
    }

    /// Copies one part out of a value's storage.
    @inline(__always)
    private static func copyPart(_ part: PartLayout, at base: UnsafeRawPointer) -> Any? {
        if part.isNoncopyable { return nil }
        if part.isWithheldFunction {
            // Only an optional's `nil` is handed out: it holds no function to call.
            guard part.type.rawKind == MetadataKind.optional.rawValue,
                let witnesses = unsafe enumWitnesses(part.type)
            else { return nil }
            let address = unsafe base + part.offset
            let tag = unsafe RuntimeEntryPoints.callGetEnumTag(
                witnesses.witness(.getEnumTag),
                value: address,
                metadata: part.type.address
            )
            // Optional's payload case, `some`, has tag 0.
            return tag == 0 ? nil : unsafe copyAny(at: address, type: part.type.metatype)
        }
        if !part.form.isAsType {
            return unsafe copyStored(at: base + part.offset, type: part.type, form: part.form)
        }
        if part.ownership == .strong {
            return unsafe copyAny(at: base + part.offset, type: part.type.metatype)
        }
        return unsafe read(at: base, offset: part.offset, fieldType: part.type, ownership: part.ownership, as: Any.self)
    }

    /// The identity of the object a class instance held in an `Any` refers to, read from the
    /// container without a cast.
    /// - Parameter value: A class instance, in an `Any`.
    /// - Returns: The object's identity, as `ObjectIdentifier(value as AnyObject)` gives it.
    static func objectIdentifier(of value: borrowing Any) -> ObjectIdentifier? {
        unsafe withUnsafePointer(to: value) { container in
            let (address, _) = unsafe ExistentialContainerLayout.project(
                UnsafeRawPointer(container),
                type: MetadataReference(Any.self)
            )
            // ObjectIdentifier wraps the object's address, as `ObjectIdentifier.init` stores it.
            guard let object = unsafe address.pointer(at: 0) else { return nil }
            return unsafe unsafeBitCast(object, to: ObjectIdentifier.self)
        }
    }
}

extension OpaqueValueAccess {
    /// Copies the payload out of an enum value held in an `Any`, leaving the value intact.
    /// - Parameters:
    ///   - value: The enum value, in an `Any`.
    ///   - metadata: Its type.
    ///   - payloadType: The payload's type.
    ///   - form: How the payload is stored (OpaqueValueAccess+StoredForms.swift).
    ///   - isIndirect: Whether the case is `indirect`.
    /// - Returns: The payload, or `nil` when the type has no enum witnesses.
    static func enumPayload(
        inAny value: borrowing Any,
        metadata: MetadataReference,
        payloadType: MetadataReference,
        form: StoredForm,
        isIndirect: Bool
    ) -> Any? {
        unsafe withUnsafePointer(to: value) { container in
            let (address, _) = unsafe ExistentialContainerLayout.project(
                UnsafeRawPointer(container),
                type: MetadataReference(Any.self)
            )
            // Read where the `Any` holds it, without a copy of the enum to project.
            if storesPayloadInPlace(metadata) {
                let stored = form.storedType(of: payloadType)
                return unsafe copyStored(
                    at: payloadAddress(in: address, payloadType: stored, isIndirect: isIndirect),
                    type: payloadType,
                    form: form
                )
            }
            func copyOut<T>(_: T.Type) -> Any? {
                let typed = unsafe address.assumingMemoryBound(to: T.self).pointee
                return payload(
                    of: typed,
                    metadata: metadata,
                    payloadType: payloadType,
                    form: form,
                    isIndirect: isIndirect
                )
            }
            return _openExistential(metadata.metatype, do: copyOut)
        }
    }
}

extension OpaqueValueAccess {
    /// Copies parts out of the payload of an enum value held in an `Any`: the elements of a
    /// payload tuple that is never handed out whole (it holds a function at its declaration's
    /// abstraction), each from its offset in the payload.
    /// - Parameters:
    ///   - value: The enum value, in an `Any`.
    ///   - metadata: Its type.
    ///   - payloadType: The payload's type.
    ///   - isIndirect: Whether the case is `indirect`.
    ///   - parts: The parts' layouts, offsets from the payload's start.
    /// - Returns: Each part's value, `nil` for a withheld one; `nil` when the type has no enum
    ///   witnesses.
    static func enumPayloadParts(
        inAny value: borrowing Any,
        metadata: MetadataReference,
        payloadType: MetadataReference,
        isIndirect: Bool,
        parts: [PartLayout]
    ) -> [Any?]? {
        unsafe withUnsafePointer(to: value) { container in
            let (address, _) = unsafe ExistentialContainerLayout.project(
                UnsafeRawPointer(container),
                type: MetadataReference(Any.self)
            )
            func copyOut<T>(_: T.Type) -> [Any?]? {
                let typed = unsafe address.assumingMemoryBound(to: T.self).pointee
                return unsafe withProjectedPayload(
                    of: typed,
                    metadata: metadata,
                    payloadType: payloadType,
                    isIndirect: isIndirect
                ) { payload in
                    parts.map { unsafe copyPart($0, at: payload) }
                }
            }
            return _openExistential(metadata.metatype, do: copyOut)
        }
    }
}

extension OpaqueValueAccess {
    /// Calls `body` with a copy of each element of a collection that stores its elements
    /// contiguously (an array), each copied from its address by its type's own witnesses
    /// rather than through the collection's iterator.
    /// - Parameters:
    ///   - elements: The collection.
    ///   - body: Receives each element, looked through any existential container.
    /// - Returns: `false`, without calling `body`, when the collection has no contiguous storage.
    static func forEachContiguousElement<C: Collection>(of elements: C, _ body: (Any) throws -> Void) rethrows -> Bool {
        let metadata = MetadataReference(C.Element.self)
        let stride = MemoryLayout<C.Element>.stride
        let done = try elements.withContiguousStorageIfAvailable { buffer -> Bool in
            guard let base = buffer.baseAddress else { return true }
            let start = unsafe UnsafeRawPointer(base)
            for index in 0..<buffer.count {
                try body(unsafe copyAny(at: start + index * stride, metadata: metadata))
            }
            return true
        }
        return done ?? false
    }
}
