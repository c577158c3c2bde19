// OpaqueValueAccess.swift
//
// Reads and writes values through their type metadata: stored properties at an offset,
// enum tags, payload projection and injection through the enum value witnesses
// (`getEnumTag`, `destructiveProjectEnumData`, `destructiveInjectEnumTag` in swiftlang/swift
// include/swift/ABI/ValueWitness.def), and indirect payload boxes (`swift_allocBox`,
// include/swift/Runtime/HeapObject.h: the value follows the 16-byte HeapObject header,
// rounded up to the value's alignment). The public layer passes values in and gets values
// out; every typed access is either an exact type match or goes through the runtime's
// `as?` cast, never a bit-cast.

/// Storage for a weak reference, laid out as the runtime lays out any `weak` stored property
/// of class or class-bound existential type: the first word is the weak reference.
private struct WeakStorage {
    weak var value: AnyObject?
}

/// Storage for an `unowned` reference, laid out as the runtime lays out `unowned` properties.
private struct UnownedStorage {
    unowned var value: AnyObject
}

/// Storage for an `unowned(unsafe)` reference: the bare object pointer.
private struct UnmanagedStorage {
    unowned(unsafe) var value: AnyObject
}

/// How a stored property holds its reference, from the mangled type's suffix.
enum StorageOwnership: Sendable {
    case strong, weak, unowned, unownedUnsafe
}

/// Value operations through metadata.
enum OpaqueValueAccess {
    /// Calls `body` with the address of a value's storage: the object for a class reference,
    /// a temporary copy otherwise.
    /// - Parameters:
    ///   - root: The value.
    ///   - isReference: Whether the root is a class instance.
    ///   - body: Receives the address.
    /// - Returns: What `body` returns.
    static func withStorage<Root, R>(of root: Root, isReference: Bool, _ body: (UnsafeRawPointer) throws -> R) rethrows
        -> R
    {
        if isReference {
            let object = unsafe unsafeBitCast(root as AnyObject, to: UnsafeRawPointer.self)
            return try withExtendedLifetime(root) { try unsafe body(object) }
        }
        return try unsafe withUnsafeBytes(of: root) {
            try unsafe body($0.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!)
        }
    }

    /// Calls `body` with the mutable address of a value's storage.
    /// - Parameters:
    ///   - root: The value.
    ///   - isReference: Whether the root is a class instance.
    ///   - body: Receives the address.
    /// - Returns: What `body` returns.
    static func withMutableStorage<Root, R>(
        of root: inout Root,
        isReference: Bool,
        _ body: (UnsafeMutableRawPointer) throws -> R
    ) rethrows -> R {
        if isReference {
            let object = unsafe unsafeBitCast(root as AnyObject, to: UnsafeMutableRawPointer.self)
            return try withExtendedLifetime(root) { try unsafe body(object) }
        }
        return try unsafe withUnsafeMutableBytes(of: &root) {
            try unsafe body($0.baseAddress ?? UnsafeMutableRawPointer(bitPattern: 1)!)
        }
    }

    /// Reads a stored property of a value or object.
    /// - Parameters:
    ///   - root: The value, or a class instance.
    ///   - isReference: Whether `root` is a class instance.
    ///   - offset: The property's offset.
    ///   - fieldType: The property's type.
    ///   - ownership: How the property holds a reference.
    ///   - valueType: The requested type.
    /// - Returns: The value, or `nil` when it does not cast to `Value`.
    static func readField<Root, Value>(
        of root: Root,
        isReference: Bool,
        offset: Int,
        fieldType: MetadataReference,
        ownership: StorageOwnership,
        as valueType: Value.Type
    ) -> Value? {
        unsafe withStorage(of: root, isReference: isReference) { base in
            unsafe read(at: base, offset: offset, fieldType: fieldType, ownership: ownership, as: Value.self)
        }
    }

    /// Loads a stored property whose type the caller has checked to be exactly `Value`.
    /// - Parameters:
    ///   - root: The value, or a class instance.
    ///   - isReference: Whether `root` is a class instance.
    ///   - offset: The property's offset.
    ///   - valueType: The property's type.
    /// - Returns: A copy of the property's value.
    static func loadField<Root, Value>(of root: Root, isReference: Bool, offset: Int, as valueType: Value.Type) -> Value
    {
        unsafe withStorage(of: root, isReference: isReference) { base in
            unsafe (base + offset).assumingMemoryBound(to: Value.self).pointee
        }
    }

    /// Writes a stored property of a value or object after casting the new value to its type.
    /// - Parameters:
    ///   - value: The new value.
    ///   - root: The value, or a class instance.
    ///   - isReference: Whether `root` is a class instance.
    ///   - offset: The property's offset.
    ///   - fieldType: The property's type.
    ///   - ownership: How the property holds a reference.
    /// - Returns: `false`, with nothing written, when the value does not cast.
    static func writeField<Root, Value>(
        _ value: Value,
        of root: inout Root,
        isReference: Bool,
        offset: Int,
        fieldType: MetadataReference,
        ownership: StorageOwnership
    ) -> Bool {
        unsafe withMutableStorage(of: &root, isReference: isReference) { base in
            unsafe write(value, at: base, offset: offset, fieldType: fieldType, ownership: ownership)
        }
    }

    /// Copies the value of a dynamic type out of memory into an `Any`.
    /// - Parameters:
    ///   - address: The value's address.
    ///   - type: Its type.
    /// - Returns: A copy.
    static func copyAny(at address: UnsafeRawPointer, type: Any.Type) -> Any {
        func copy<T>(_: T.Type) -> Any {
            unsafe address.assumingMemoryBound(to: T.self).pointee
        }
        return _openExistential(type, do: copy)
    }

    /// Reads a stored property.
    /// - Parameters:
    ///   - base: The root's storage.
    ///   - offset: The property's offset.
    ///   - fieldType: The property's type.
    ///   - ownership: How the property holds a reference.
    ///   - valueType: The requested type.
    /// - Returns: The value, or `nil` when it cannot be cast to the requested type.
    static func read<Value>(
        at base: UnsafeRawPointer,
        offset: Int,
        fieldType: MetadataReference,
        ownership: StorageOwnership,
        as valueType: Value.Type
    ) -> Value? {
        let address = unsafe base + offset
        switch ownership {
        case .weak:
            let object = unsafe address.assumingMemoryBound(to: WeakStorage.self).pointee.value
            return object as? Value
        case .unowned:
            return unsafe address.assumingMemoryBound(to: UnownedStorage.self).pointee.value as? Value
        case .unownedUnsafe:
            return unsafe address.assumingMemoryBound(to: UnmanagedStorage.self).pointee.value as? Value
        case .strong:
            if MetadataReference(Value.self) == fieldType {
                return unsafe address.assumingMemoryBound(to: Value.self).pointee
            }
            return unsafe copyAny(at: address, type: fieldType.metatype) as? Value
        }
    }

    /// Writes a stored property, casting the new value to the property's type first.
    /// - Parameters:
    ///   - value: The new value.
    ///   - base: The root's storage.
    ///   - offset: The property's offset.
    ///   - fieldType: The property's type.
    ///   - ownership: How the property holds a reference.
    /// - Returns: `false`, with memory untouched, when the value does not cast to the property's type.
    static func write<Value>(
        _ value: Value,
        at base: UnsafeMutableRawPointer,
        offset: Int,
        fieldType: MetadataReference,
        ownership: StorageOwnership
    ) -> Bool {
        let address = unsafe base + offset
        if ownership == .strong, MetadataReference(Value.self) == fieldType {
            unsafe address.assumingMemoryBound(to: Value.self).pointee = value
            return true
        }
        func assign<Field>(_: Field.Type) -> Bool {
            guard let converted = value as? Field else { return false }
            switch ownership {
            case .strong:
                unsafe address.assumingMemoryBound(to: Field.self).pointee = converted
            case .weak:
                // The property's type is `Optional<Referent>`; its payload is the object.
                let object: AnyObject? = (converted as Any?).flatMap { unwrapOptional($0) }.map { $0 as AnyObject }
                unsafe address.assumingMemoryBound(to: WeakStorage.self).pointee.value = object
            case .unowned:
                unsafe address.assumingMemoryBound(to: UnownedStorage.self).pointee.value = converted as AnyObject
            case .unownedUnsafe:
                unsafe address.assumingMemoryBound(to: UnmanagedStorage.self).pointee.value = converted as AnyObject
            }
            return true
        }
        return _openExistential(fieldType.metatype, do: assign)
    }

    /// Unwraps nested optionals held in an `Any`, returning `nil` for any `nil` level.
    private static func unwrapOptional(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        guard let child = mirror.children.first else { return nil }
        return unwrapOptional(child.value)
    }

    // MARK: - Enums

    /// The enum witnesses of a type, or `nil` when it has none.
    @inline(__always)
    private static func enumWitnesses(_ metadata: MetadataReference) -> ValueWitnessTableLayout? {
        guard let table = unsafe MetadataLayout(metadata.address).valueWitnesses,
            unsafe table.flags.contains(ValueWitnessFlags.hasEnumWitnesses)
        else { return nil }
        return unsafe table
    }

    /// Reads the tag of an enum value.
    /// - Parameters:
    ///   - value: The value.
    ///   - metadata: The enum's metadata (the value's own type).
    /// - Returns: The tag, or `nil` when the type has no enum witnesses.
    @inline(__always)
    static func enumTag<T>(of value: T, metadata: MetadataReference) -> Int? {
        guard let witnesses = unsafe enumWitnesses(metadata) else { return nil }
        let witness = unsafe witnesses.witness(.getEnumTag)
        return unsafe withUnsafePointer(to: value) {
            unsafe RuntimeEntryPoints.callGetEnumTag(witness, value: UnsafeRawPointer($0), metadata: metadata.address)
        }
    }

    /// Copies the payload out of an enum value, leaving the value intact.
    /// - Parameters:
    ///   - value: The enum value.
    ///   - metadata: The enum's metadata.
    ///   - payloadType: The payload's type.
    ///   - isIndirect: Whether the case is `indirect` (the payload is boxed).
    /// - Returns: The payload, or `nil` when the type has no enum witnesses.
    static func payload<T>(of value: T, metadata: MetadataReference, payloadType: MetadataReference, isIndirect: Bool)
        -> Any?
    {
        guard let witnesses = unsafe enumWitnesses(metadata) else { return nil }
        let tagWitness = unsafe witnesses.witness(.getEnumTag)
        let project = unsafe witnesses.witness(.destructiveProjectEnumData)
        let inject = unsafe witnesses.witness(.destructiveInjectEnumTag)
        var copy = value
        return unsafe withUnsafeMutablePointer(to: &copy) { pointer -> Any in
            let raw = UnsafeMutableRawPointer(pointer)
            let tag = unsafe RuntimeEntryPoints.callGetEnumTag(tagWitness, value: raw, metadata: metadata.address)
            unsafe RuntimeEntryPoints.callProjectEnumData(project, value: raw, metadata: metadata.address)
            let result: Any
            if isIndirect {
                let box = unsafe UnsafeRawPointer(raw).pointer(at: 0)!
                unsafe result = copyAny(at: box + boxValueOffset(payloadType), type: payloadType.metatype)
            } else {
                unsafe result = copyAny(at: raw, type: payloadType.metatype)
            }
            // Projection then injection of the same tag restores the original value.
            unsafe RuntimeEntryPoints.callInjectEnumTag(inject, value: raw, tag: tag, metadata: metadata.address)
            return result
        }
    }

    /// The offset of a boxed value inside a `swift_allocBox` box.
    private static func boxValueOffset(_ type: MetadataReference) -> Int {
        let alignment = ValueWitnessFlags(rawValue: type.valueWitnesses.flags).alignment
        return (16 + alignment - 1) & ~(alignment - 1)
    }

    /// Builds an enum value of a case from its tag and payload.
    /// - Parameters:
    ///   - type: The enum type.
    ///   - tag: The case's tag.
    ///   - payload: The payload, already checked to be of `payloadType`, or `nil` for an empty case.
    ///   - payloadType: The payload's type.
    ///   - isIndirect: Whether the case is `indirect`.
    /// - Returns: The value, or `nil` when the payload does not cast or the type has no enum witnesses.
    static func makeEnum<T>(
        _ type: T.Type,
        tag: Int,
        payload: Any?,
        payloadType: MetadataReference?,
        isIndirect: Bool
    ) -> T? {
        let metadata = MetadataReference(T.self)
        guard let witnesses = unsafe enumWitnesses(metadata) else { return nil }
        let inject = unsafe witnesses.witness(.destructiveInjectEnumTag)
        let storage = UnsafeMutablePointer<T>.allocate(capacity: 1)
        defer { unsafe storage.deallocate() }
        let raw = UnsafeMutableRawPointer(storage)
        if let payloadType {
            guard let payload else { return nil }
            // Cast before allocating anything, so that a failed cast leaves nothing behind.
            func initialize<P>(_: P.Type) -> Bool {
                guard let typed = payload as? P else { return false }
                if isIndirect {
                    let allocation = unsafe RuntimeEntryPoints.allocateBox(for: payloadType.address)
                    unsafe allocation.value.initializeMemory(as: P.self, repeating: typed, count: 1)
                    unsafe raw.storeBytes(of: allocation.box, as: UnsafeMutableRawPointer.self)
                } else {
                    unsafe raw.initializeMemory(as: P.self, repeating: typed, count: 1)
                }
                return true
            }
            guard _openExistential(payloadType.metatype, do: initialize) else { return nil }
        }
        unsafe RuntimeEntryPoints.callInjectEnumTag(inject, value: raw, tag: tag, metadata: metadata.address)
        return unsafe storage.move()
    }

    // MARK: - Equality

    /// Compares `count` bytes of two values' storage.
    /// - Parameters:
    ///   - lhs: The first address.
    ///   - rhs: The second address.
    ///   - ranges: The byte ranges to compare.
    /// - Returns: Whether every range holds the same bytes.
    static func bytesEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, ranges: [Range<Int>]) -> Bool {
        for range in ranges {
            var offset = range.lowerBound
            while offset + 8 <= range.upperBound {
                if unsafe lhs.read(at: offset, as: UInt64.self) != rhs.read(at: offset, as: UInt64.self) {
                    return false
                }
                offset += 8
            }
            while offset < range.upperBound {
                if unsafe lhs.read(at: offset, as: UInt8.self) != rhs.read(at: offset, as: UInt8.self) { return false }
                offset += 1
            }
        }
        return true
    }

}
