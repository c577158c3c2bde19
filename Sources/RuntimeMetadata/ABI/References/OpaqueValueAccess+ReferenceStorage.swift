// OpaqueValueAccess+ReferenceStorage.swift
//
// Reads and writes stored properties whose storage the property's ownership decides:
// `weak`, `unowned` and `unowned(unsafe)` references are loaded and stored through storage
// of the same layout, so that the runtime's own reference counting applies, and a reference
// read back is cast to the property's own type (`Optional<any CP>`, `Node`).

/// Storage for a weak reference, laid out as the runtime lays out any `weak` stored property
/// of class or class-bound existential type: the first word is the weak reference.
private struct WeakStorage {
    weak var value: AnyObject?
}

/// Storage for an `unowned` reference, laid out as the runtime lays out `unowned` properties.
/// Optional, as such a property may be (`unowned var owner: Node?`): null is `nil`, and a
/// non-optional property's word is never null.
private struct UnownedStorage {
    unowned var value: AnyObject?
}

/// Storage for an `unowned(unsafe)` reference: the bare object pointer, null for `nil`.
private struct UnmanagedStorage {
    unowned(unsafe) var value: AnyObject?
}

extension OpaqueValueAccess {
    /// Reads a stored property.
    /// - Parameters:
    ///   - base: The root's storage.
    ///   - offset: The property's offset.
    ///   - fieldType: The property's type.
    ///   - ownership: How the property holds a reference.
    ///   - form: How the property is stored (OpaqueValueAccess+StoredForms.swift).
    ///   - valueType: The requested type.
    /// - Returns: The value, or `nil` when it cannot be cast to the requested type.
    static func read<Value>(
        at base: UnsafeRawPointer,
        offset: Int,
        fieldType: MetadataReference,
        ownership: StorageOwnership,
        form: StoredForm = .asType,
        as valueType: Value.Type
    ) -> Value? {
        let address = unsafe base + offset
        if !form.isAsType {
            // Stored in another form: converted to the property's type part by part.
            guard let copy = unsafe copyStored(at: address, type: fieldType, form: form) else { return nil }
            return copy as? Value
        }
        switch ownership {
        case .weak:
            let object = unsafe address.assumingMemoryBound(to: WeakStorage.self).pointee.value
            guard let converted = reference(object, asFieldType: fieldType) else { return nil }
            return converted as? Value
        case .unowned:
            let object = unsafe address.assumingMemoryBound(to: UnownedStorage.self).pointee.value
            guard let converted = reference(object, asFieldType: fieldType) else { return nil }
            return converted as? Value
        case .unownedUnsafe:
            let object = unsafe address.assumingMemoryBound(to: UnmanagedStorage.self).pointee.value
            guard let converted = reference(object, asFieldType: fieldType) else { return nil }
            return converted as? Value
        case .strong:
            if MetadataReference(Value.self) == fieldType {
                return unsafe address.assumingMemoryBound(to: Value.self).pointee
            }
            return unsafe copyAny(at: address, type: fieldType.metatype) as? Value
        }
    }

    /// A reference read from weak or unowned storage, as a value of the property's own type
    /// (`Optional<any CP>`, `Node`), with the existential's witness tables found again.
    private static func reference(_ object: AnyObject?, asFieldType fieldType: MetadataReference) -> Any? {
        func convert<Field>(_: Field.Type) -> Any? {
            guard let converted = object as? Field else { return nil }
            return converted
        }
        return _openExistential(fieldType.metatype, do: convert)
    }

    /// Writes a stored property, casting the new value to the property's type first.
    /// - Parameters:
    ///   - value: The new value.
    ///   - base: The root's storage.
    ///   - offset: The property's offset.
    ///   - fieldType: The property's type.
    ///   - ownership: How the property holds a reference.
    ///   - form: How the property is stored (OpaqueValueAccess+StoredForms.swift).
    ///   - initializing: Whether the property's memory is uninitialized, as in an object or value
    ///     being made, rather than holding a value to replace.
    /// - Returns: `false`, with memory untouched, when the value does not cast to the property's type.
    static func write<Value>(
        _ value: Value,
        at base: UnsafeMutableRawPointer,
        offset: Int,
        fieldType: MetadataReference,
        ownership: StorageOwnership,
        form: StoredForm = .asType,
        initializing: Bool = false
    ) -> Bool {
        let address = unsafe base + offset
        if !form.isAsType {
            // Stored in another form: the value, cast to the property's type, converted to it.
            func store<Field>(_: Field.Type) -> Bool {
                guard let converted = value as? Field else { return false }
                return unsafe withUnsafePointer(to: converted) { pointer in
                    initializing
                        ? unsafe initializeStored(address, type: fieldType, form: form, from: UnsafeRawPointer(pointer))
                        : unsafe assignStored(address, type: fieldType, form: form, from: UnsafeRawPointer(pointer))
                }
            }
            return _openExistential(fieldType.metatype, do: store)
        }
        if ownership == .strong, MetadataReference(Value.self) == fieldType {
            if initializing {
                unsafe address.assumingMemoryBound(to: Value.self).initialize(to: value)
            } else {
                unsafe address.assumingMemoryBound(to: Value.self).pointee = value
            }
            return true
        }
        func assign<Field>(_: Field.Type) -> Bool {
            guard let converted = value as? Field else { return false }
            if ownership == .strong {
                if initializing {
                    unsafe address.assumingMemoryBound(to: Field.self).initialize(to: converted)
                } else {
                    unsafe address.assumingMemoryBound(to: Field.self).pointee = converted
                }
                return true
            }
            // A weak, unowned or unowned(unsafe) property of class or class-bound existential
            // type: the reference storage word, then the existential's witness tables, as in
            // the property's own type (`Optional<any CP>` for weak, `any CP` otherwise), whose
            // first word is the object.
            unsafe withUnsafeBytes(of: converted) { container in
                let word = MemoryLayout<UInt>.size
                let objectWord = unsafe container.load(as: UInt.self)
                let object = unsafe UnsafeRawPointer(bitPattern: objectWord).map {
                    unsafe Unmanaged<AnyObject>.fromOpaque($0).takeUnretainedValue()
                }
                switch (ownership, initializing) {
                case (.weak, false):
                    unsafe address.assumingMemoryBound(to: WeakStorage.self).pointee.value = object
                case (.weak, true):
                    unsafe address.assumingMemoryBound(to: WeakStorage.self).initialize(to: WeakStorage(value: object))
                case (.unowned, false):
                    unsafe address.assumingMemoryBound(to: UnownedStorage.self).pointee.value = object
                case (.unowned, true):
                    unsafe address.assumingMemoryBound(to: UnownedStorage.self).initialize(
                        to: UnownedStorage(value: object)
                    )
                case (.unownedUnsafe, _):
                    unsafe address.assumingMemoryBound(to: UnmanagedStorage.self).initialize(
                        to: UnmanagedStorage(value: object)
                    )
                case (.strong, _):
                    break
                }
                // The witness tables follow, unowned words the existential already holds.
                var offset = word
                while offset + word <= container.count {
                    let table = objectWord == 0 ? 0 : unsafe container.load(fromByteOffset: offset, as: UInt.self)
                    unsafe address.storeBytes(of: table, toByteOffset: offset, as: UInt.self)
                    offset += word
                }
            }
            return true
        }
        return _openExistential(fieldType.metatype, do: assign)
    }
}
