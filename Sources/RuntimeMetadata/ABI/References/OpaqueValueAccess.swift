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
/// Optional, as such a property may be (`unowned var owner: Node?`): null is `nil`, and a
/// non-optional property's word is never null.
private struct UnownedStorage {
    unowned var value: AnyObject?
}

/// Storage for an `unowned(unsafe)` reference: the bare object pointer, null for `nil`.
private struct UnmanagedStorage {
    unowned(unsafe) var value: AnyObject?
}

/// Value operations through metadata.
@usableFromInline
enum OpaqueValueAccess {
    /// Calls `body` with the address of a value's storage: the object for a class reference,
    /// a temporary copy otherwise.
    /// - Parameters:
    ///   - root: The value.
    ///   - isReference: Whether the root is a class instance.
    ///   - body: Receives the address.
    /// - Returns: What `body` returns.
    @inlinable
    @inline(__always)
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

    /// Reads a stored property of a value, an object, or either held in existential containers,
    /// which are projected however deeply they nest, as `Any`.
    ///
    /// Generic only in the root, which it takes by address: everything after is one
    /// non-generic function. Called from unspecialized code (a root or value type known only at
    /// run time, such as `Any`), a generic outcome or optional of the requested type would have
    /// its metadata looked up on every call, which cost more than the read (about 110 ns of a
    /// field read from an `Any` root, against 7 ns from a typed one).
    /// - Parameters:
    ///   - root: The root, of any static type.
    ///   - access: Says how a root of the given dynamic type reaches the property, or `nil`.
    ///   - offset: The property's offset.
    ///   - fieldType: The property's type.
    ///   - ownership: How the property holds a reference.
    /// - Returns: The value.
    /// - Throws: Why there is none. A thrown failure, not an outcome enum around the value: the
    ///   value then moves once, into the caller's result, where an enum holding it was copied
    ///   and destroyed through its value witnesses.
    static func readField<Root>(
        of root: Root,
        access: (MetadataReference) -> RootAccess?,
        offset: Int,
        fieldType: MetadataReference,
        ownership: StorageOwnership
    ) throws(FieldReadFailure) -> Any {
        try unsafe withUnsafePointer(to: root) { pointer throws(FieldReadFailure) in
            try unsafe readField(
                at: UnsafeRawPointer(pointer),
                rootType: MetadataReference(Root.self),
                access: access,
                offset: offset,
                fieldType: fieldType,
                ownership: ownership
            )
        }
    }

    /// Reads a stored property of the property's own type, strongly held, from a root of any
    /// static type: ``readField(of:access:offset:fieldType:ownership:)`` without the copy into
    /// `Any` and the cast back. Generic in the value only to load it: nothing here needs the
    /// metadata of a type made from it.
    /// - Parameters:
    ///   - root: The root, of any static type.
    ///   - access: Says how a root of the given dynamic type reaches the property, or `nil`.
    ///   - offset: The property's offset.
    ///   - valueType: The property's type, which the caller has checked.
    /// - Returns: The value.
    /// - Throws: Why there is none.
    static func readField<Root, Value>(
        of root: Root,
        access: (MetadataReference) -> RootAccess?,
        offset: Int,
        as valueType: Value.Type
    ) throws(FieldReadFailure) -> Value {
        try unsafe withUnsafePointer(to: root) { pointer throws(FieldReadFailure) in
            let base = try unsafe fieldBase(
                at: UnsafeRawPointer(pointer),
                rootType: MetadataReference(Root.self),
                access: access
            )
            return unsafe (base + offset).assumingMemoryBound(to: Value.self).pointee
        }
    }

    /// ``readField(of:access:offset:fieldType:ownership:)`` on the root's storage.
    private static func readField(
        at root: UnsafeRawPointer,
        rootType: MetadataReference,
        access: (MetadataReference) -> RootAccess?,
        offset: Int,
        fieldType: MetadataReference,
        ownership: StorageOwnership
    ) throws(FieldReadFailure) -> Any {
        let base = try unsafe fieldBase(at: root, rootType: rootType, access: access)
        guard
            let value = unsafe read(at: base, offset: offset, fieldType: fieldType, ownership: ownership, as: Any.self)
        else { throw .notReadable }
        return value
    }

    /// Where a root's properties start: in the value the root's containers hold, or in the
    /// object it refers to.
    /// - Parameters:
    ///   - root: The root's storage.
    ///   - rootType: The root's static type.
    ///   - access: Says how a root of the given dynamic type reaches the property, or `nil`.
    /// - Returns: The address the property's offset is from.
    /// - Throws: Why the root holds no such property.
    private static func fieldBase(
        at root: UnsafeRawPointer,
        rootType: MetadataReference,
        access: (MetadataReference) -> RootAccess?
    ) throws(FieldReadFailure) -> UnsafeRawPointer {
        let (address, dynamicType) = unsafe dynamicValue(at: root, type: rootType)
        guard let how = access(dynamicType) else { throw .rootMismatch(dynamicType) }
        guard let base = unsafe how == .object ? address.pointer(at: 0) : address else { throw .notReadable }
        return unsafe base
    }

    /// The value at an address, projected out of existential containers, and its dynamic type;
    /// for a class instance, the address of the reference and the object's own class.
    private static func dynamicValue<Root>(at address: UnsafeRawPointer, type: Root.Type) -> (
        UnsafeRawPointer, MetadataReference
    ) {
        unsafe dynamicValue(at: address, type: MetadataReference(Root.self))
    }

    /// ``dynamicValue(at:type:)-(_,Root.Type)`` for a type given by its metadata.
    private static func dynamicValue(at address: UnsafeRawPointer, type: MetadataReference) -> (
        UnsafeRawPointer, MetadataReference
    ) {
        var (address, dynamicType) = unsafe ExistentialContainerLayout.project(
            address,
            type: type
        )
        if dynamicType.rawKind == 0, let object = unsafe address.pointer(at: 0) {
            // A class instance of a static class type may be of a subclass.
            unsafe dynamicType = MetadataReference(RuntimeEntryPoints.objectType(of: object))
        }
        return unsafe (address, dynamicType)
    }

    /// Loads a stored property whose type the caller has checked to be exactly `Value`.
    /// - Parameters:
    ///   - root: The value, or a class instance.
    ///   - isReference: Whether `root` is a class instance.
    ///   - offset: The property's offset.
    ///   - valueType: The property's type.
    /// - Returns: A copy of the property's value.
    @inlinable
    @inline(__always)
    static func loadField<Root, Value>(of root: Root, isReference: Bool, offset: Int, as valueType: Value.Type) -> Value
    {
        unsafe withStorage(of: root, isReference: isReference) { base in
            unsafe (base + offset).assumingMemoryBound(to: Value.self).pointee
        }
    }

    /// Copies a stored property, whose type the caller has checked, into an `Any`.
    /// - Parameters:
    ///   - root: The value, or a class instance, of exactly the declaring type.
    ///   - isReference: Whether `root` is a class instance.
    ///   - offset: The property's offset.
    ///   - fieldType: The property's type.
    ///   - plainInlineSize: The property's size when it is plain data that fits an `Any`'s
    ///     buffer, whose copy is its bytes; -1 otherwise.
    ///   - valueType: `Any`, which the caller has checked `Value` to be.
    /// - Returns: The property's value, boxed.
    @inlinable
    @inline(__always)
    static func loadFieldAsAny<Root, Value>(
        of root: Root,
        isReference: Bool,
        offset: Int,
        fieldType: MetadataReference,
        plainInlineSize: Int,
        as valueType: Value.Type
    ) -> Value {
        let boxed: Any
        if plainInlineSize >= 0 {
            // Plain data that fits the buffer: its bytes, then the metadata, copied here.
            var container: Any = ()
            unsafe withStorage(of: root, isReference: isReference) { base in
                unsafe withUnsafeMutablePointer(to: &container) { container in
                    unsafe storePlainValue(
                        from: base + offset,
                        size: plainInlineSize,
                        metadata: fieldType,
                        into: UnsafeMutableRawPointer(container)
                    )
                }
            }
            boxed = container
        } else {
            boxed = unsafe withStorage(of: root, isReference: isReference) { base in
                unsafe copyAny(at: base + offset, metadata: fieldType)
            }
        }
        // `Value` is `Any`: the cast wraps nothing and cannot fail.
        return boxed as! Value
    }

    /// Fills an `Any` container (TargetOpaqueExistentialContainer in
    /// include/swift/ABI/Metadata.h) that holds `()` with a value of plain data that fits its
    /// buffer: the value's bytes, then its metadata. `()` occupies nothing, so nothing is
    /// overwritten that needed destroying.
    /// - Parameters:
    ///   - source: The value.
    ///   - size: Its size, at most the buffer's three words.
    ///   - metadata: Its type.
    ///   - container: The container.
    @inlinable
    @inline(__always)
    static func storePlainValue(
        from source: UnsafeRawPointer,
        size: Int,
        metadata: MetadataReference,
        into container: UnsafeMutableRawPointer
    ) {
        unsafe copySmall(from: source, to: container, count: size)
        unsafe container.storeBytes(
            of: metadata.address,
            toByteOffset: BorrowedExistential.metadataOffset,
            as: UnsafeRawPointer.self
        )
    }

    /// Writes a stored property of a value, an object, or either held in existential containers,
    /// after casting the new value to the property's type.
    ///
    /// A value held in opaque existential containers is written where it is once each box on the
    /// way is unique (``ExistentialContainerLayout/projectForWriting(_:type:)``): a box shared
    /// with copies of the container is copied first, so that the copies keep their value. A value
    /// the containers do not let it write in place (in an `any Error` box) is copied out,
    /// written, and stored back in `root` as a new container.
    /// - Parameters:
    ///   - value: The new value.
    ///   - root: The root, of any static type.
    ///   - access: Says how a root of the given dynamic type reaches the property, or `nil`.
    ///   - offset: The property's offset.
    ///   - fieldType: The property's type.
    ///   - ownership: How the property holds a reference.
    /// - Returns: `.done(())`, or why nothing was written.
    static func writeField<Root, Value>(
        _ value: Value,
        of root: inout Root,
        access: (MetadataReference) -> RootAccess?,
        offset: Int,
        fieldType: MetadataReference,
        ownership: StorageOwnership
    ) -> FieldOutcome<Void> {
        // One pass decides and writes in place: into an object, a value held directly, or a value
        // held in opaque containers, each of whose boxes is made unique first. It returns no
        // outcome for a value the containers do not let it write (an `any Error` box), which is
        // rewritten below.
        let rootKind = MetadataReference(Root.self).rawKind
        let isExistential =
            rootKind == MetadataKind.existential.rawValue || rootKind == MetadataKind.extendedExistential.rawValue
        let (finished, dynamicType) = unsafe withUnsafeMutablePointer(to: &root) {
            pointer -> (FieldOutcome<Void>?, MetadataReference) in
            var (address, dynamicType) = unsafe dynamicValue(at: UnsafeRawPointer(pointer), type: Root.self)
            guard let how = access(dynamicType) else { return (.rootMismatch(dynamicType), dynamicType) }
            if how == .inline && isExistential {
                // A value that then does not cast leaves the root's value as it was (in a copy
                // of its box, when the box was shared).
                guard
                    let (writable, writableType) = unsafe ExistentialContainerLayout.projectForWriting(
                        UnsafeMutableRawPointer(pointer),
                        type: MetadataReference(Root.self)
                    ),
                    writableType == dynamicType
                else { return (nil, dynamicType) }
                unsafe address = UnsafeRawPointer(writable)
            }
            guard let base = unsafe how == .object ? address.pointer(at: 0) : address else {
                return (.notCastable, dynamicType)
            }
            let written = unsafe write(
                value,
                at: UnsafeMutableRawPointer(mutating: base),
                offset: offset,
                fieldType: fieldType,
                ownership: ownership
            )
            return (written ? .done(()) : .notCastable, dynamicType)
        }
        if let finished { return finished }
        // A value in an existential container: copy it out, write the copy, wrap it again.
        func rewrite<Dynamic>(_: Dynamic.Type) -> FieldOutcome<Void> {
            var copy = unsafe withUnsafePointer(to: root) { pointer in
                let (address, _) = unsafe dynamicValue(at: UnsafeRawPointer(pointer), type: Root.self)
                return unsafe address.assumingMemoryBound(to: Dynamic.self).pointee
            }
            let written = unsafe withUnsafeMutableBytes(of: &copy) { bytes in
                unsafe write(
                    value,
                    at: bytes.baseAddress ?? UnsafeMutableRawPointer(bitPattern: 1)!,
                    offset: offset,
                    fieldType: fieldType,
                    ownership: ownership
                )
            }
            guard written else { return .notCastable }
            guard let rewrapped = copy as? Root else { return .rootMismatch(dynamicType) }
            root = rewrapped
            return .done(())
        }
        return _openExistential(dynamicType.metatype, do: rewrite)
    }

    /// What an existential value holds: the dynamic type of its innermost value, and the witness
    /// tables of its outermost container's protocols that witness that value's conformances.
    /// - Parameter value: A value of existential type.
    /// - Returns: `nil` when `T` is not an existential type (kind `Existential`).
    static func existentialContents<T>(
        of value: T
    ) -> (dynamicType: MetadataReference, tables: [(ProtocolReference, WitnessTableReference)])? {
        let type = MetadataReference(T.self)
        if type.rawKind == MetadataKind.extendedExistential.rawValue {
            // A constrained existential whose container is laid out here (opaque or class).
            return unsafe withUnsafePointer(to: value) { pointer in
                let address = unsafe UnsafeRawPointer(pointer)
                guard let tables = unsafe ExistentialContainerLayout.constrainedWitnessTables(address, type: type)
                else { return nil }
                let (_, dynamicType) = unsafe ExistentialContainerLayout.project(address, type: type)
                return unsafe (
                    dynamicType,
                    tables.map { unsafe (ProtocolReference($0.protocolDescriptor), WitnessTableReference($0.table)) }
                )
            }
        }
        guard type.rawKind == MetadataKind.existential.rawValue else { return nil }
        return unsafe withUnsafePointer(to: value) { pointer in
            let address = unsafe UnsafeRawPointer(pointer)
            let (_, dynamicType) = unsafe ExistentialContainerLayout.project(address, type: type)
            let tables = unsafe ExistentialContainerLayout.innermostWitnessTables(address, type: type).map {
                unsafe (ProtocolReference($0.protocolDescriptor), WitnessTableReference($0.table))
            }
            return (dynamicType, tables)
        }
    }

    /// Copies the value an existential holds, through nested containers, into an `Any`.
    /// - Parameter value: A value, of existential type or not.
    /// - Returns: The innermost value, copied.
    static func projectedCopy<T>(of value: T) -> Any {
        unsafe withUnsafePointer(to: value) { unsafe copyAny(at: UnsafeRawPointer($0), type: T.self) }
    }

    /// Copies the value of a dynamic type out of memory into an `Any`.
    /// - Parameters:
    ///   - address: The value's address.
    ///   - type: Its type.
    /// - Returns: A copy.
    static func copyAny(at address: UnsafeRawPointer, type: Any.Type) -> Any {
        unsafe copyAny(at: address, metadata: MetadataReference(type))
    }

    /// Copies the value of a dynamic type out of memory into an `Any`.
    /// - Parameters:
    ///   - address: The value's address.
    ///   - metadata: Its type.
    /// - Returns: A copy.
    @usableFromInline
    @inline(__always)
    static func copyAny(at address: UnsafeRawPointer, metadata: MetadataReference) -> Any {
        if metadata.rawKind != MetadataKind.existential.rawValue,
            metadata.rawKind != MetadataKind.extendedExistential.rawValue,
            let table = unsafe MetadataLayout(metadata.address).valueWitnesses,
            unsafe !table.flags.contains(ValueWitnessFlags.isNonInline),
            unsafe !table.flags.contains(ValueWitnessFlags.isNonCopyable)
        {
            // A value that fits the container's buffer (TargetOpaqueExistentialContainer in
            // include/swift/ABI/Metadata.h): copied into it by its own `initializeWithCopy`,
            // the metadata stored after it. `()` occupies nothing, so nothing is overwritten.
            var result: Any = ()
            unsafe withUnsafeMutablePointer(to: &result) { container in
                let buffer = UnsafeMutableRawPointer(container)
                guard unsafe table.flags.contains(ValueWitnessFlags.isNonPOD) else {
                    // Plain data (`IsNonPOD` clear in include/swift/ABI/ValueWitnessTable.h).
                    unsafe storePlainValue(from: address, size: table.size, metadata: metadata, into: buffer)
                    return
                }
                unsafe RuntimeEntryPoints.callCopyWitness(
                    table.witness(.initializeWithCopy),
                    destination: buffer,
                    source: UnsafeMutableRawPointer(mutating: address),
                    metadata: metadata.address
                )
                unsafe buffer.storeBytes(
                    of: metadata.address,
                    toByteOffset: ExistentialContainerLayout.opaqueMetadataOffset,
                    as: UnsafeRawPointer.self
                )
            }
            return result
        }
        // Out of line, so that the path above stays as small as it is.
        return unsafe copyOutOfBuffer(at: address, metadata: metadata)
    }

    /// ``copyAny(at:metadata:)`` for the values its buffer does not hold: a value of
    /// existential type is copied as the value it holds, as `as Any` does in non-generic code,
    /// so that the `Any` is never a container of a container; any other is copied into a box.
    /// - Parameters:
    ///   - address: The value's address.
    ///   - metadata: Its type.
    /// - Returns: A copy.
    @inline(never)
    private static func copyOutOfBuffer(at address: UnsafeRawPointer, metadata: MetadataReference) -> Any {
        if metadata.rawKind != MetadataKind.existential.rawValue,
            metadata.rawKind != MetadataKind.extendedExistential.rawValue,
            let table = unsafe MetadataLayout(metadata.address).valueWitnesses,
            unsafe !table.flags.contains(ValueWitnessFlags.isNonCopyable)
        {
            return unsafe copyIntoBox(at: address, metadata: metadata, witnesses: table)
        }
        let (value, dynamicType) = unsafe ExistentialContainerLayout.project(address, type: metadata)
        func copy<T>(_: T.Type) -> Any {
            unsafe value.assumingMemoryBound(to: T.self).pointee
        }
        return _openExistential(dynamicType.metatype, do: copy)
    }

    /// Copies a value too large for an `Any`'s buffer, or not bitwise-takable, into a heap box
    /// that the buffer's first word refers to, as the compiler's
    /// `allocateBoxForExistentialInBuffer` makes it (`swift_allocBox`,
    /// include/swift/Runtime/HeapObject.h): the value copied into the box by its own
    /// `initializeWithCopy`. The box, returned retained, is the `Any`'s to release.
    /// - Parameters:
    ///   - address: The value's address.
    ///   - metadata: Its type, neither an existential nor noncopyable.
    ///   - witnesses: Its value witnesses.
    /// - Returns: A copy.
    @inline(never)
    private static func copyIntoBox(
        at address: UnsafeRawPointer,
        metadata: MetadataReference,
        witnesses: ValueWitnessTableLayout
    ) -> Any {
        var result: Any = ()
        unsafe withUnsafeMutablePointer(to: &result) { container in
            let buffer = UnsafeMutableRawPointer(container)
            let (box, value) = unsafe RuntimeEntryPoints.allocateBox(for: metadata.address)
            unsafe RuntimeEntryPoints.callCopyWitness(
                witnesses.witness(.initializeWithCopy),
                destination: value,
                source: UnsafeMutableRawPointer(mutating: address),
                metadata: metadata.address
            )
            unsafe buffer.storeBytes(of: box, as: UnsafeMutableRawPointer.self)
            unsafe buffer.storeBytes(
                of: metadata.address,
                toByteOffset: ExistentialContainerLayout.opaqueMetadataOffset,
                as: UnsafeRawPointer.self
            )
        }
        return result
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
    ///   - initializing: Whether the property's memory is uninitialized, as in an object or value
    ///     being made, rather than holding a value to replace.
    /// - Returns: `false`, with memory untouched, when the value does not cast to the property's type.
    static func write<Value>(
        _ value: Value,
        at base: UnsafeMutableRawPointer,
        offset: Int,
        fieldType: MetadataReference,
        ownership: StorageOwnership,
        initializing: Bool = false
    ) -> Bool {
        let address = unsafe base + offset
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

    // MARK: - Enums

    /// The enum witnesses of a type, or `nil` when it has none.
    @inline(__always)
    static func enumWitnesses(_ metadata: MetadataReference) -> ValueWitnessTableLayout? {
        guard let table = unsafe MetadataLayout(metadata.address).valueWitnesses,
            unsafe table.flags.contains(ValueWitnessFlags.hasEnumWitnesses)
        else { return nil }
        return unsafe table
    }

    /// The value an `Any` holds through the containers nested in it, copied, when the value it
    /// holds is itself an existential: generic code that returns a `T` as `Any`, with `T` bound
    /// to `Any` or `any P`, stores the container as the value (`as?` looks through it,
    /// `tryCastUnwrappingExistentialSource` in stdlib/public/runtime/DynamicCast.cpp).
    /// - Parameter value: The value.
    /// - Returns: The innermost value, or `nil` when the `Any` holds no existential.
    static func nestedExistentialValue(in value: borrowing Any) -> Any? {
        unsafe withUnsafePointer(to: value) { container in
            let address = unsafe UnsafeRawPointer(container)
            guard
                let stored = unsafe address.pointer(at: ExistentialContainerLayout.opaqueMetadataOffset),
                unsafe ExistentialContainerLayout.shape(of: MetadataReference(stored)) != nil
            else { return nil }
            // copyAny projects a container of a container to the innermost value.
            return unsafe copyAny(at: address, type: Any.self)
        }
    }

    /// The payload of an `Optional` an `Any` holds, as `as?` looks through it.
    /// - Parameter value: The value.
    /// - Returns: `nil` when the value is not an optional; `.some(nil)` for `.none`; otherwise
    ///   the payload, copied out as the value it holds (never a container of a container).
    static func optionalPayload(in value: borrowing Any) -> Any?? {
        unsafe withUnsafePointer(to: value) { container in
            let (address, type) = unsafe ExistentialContainerLayout.project(
                UnsafeRawPointer(container),
                type: MetadataReference(Any.self)
            )
            guard type.rawKind == MetadataKind.optional.rawValue,
                let witnesses = unsafe enumWitnesses(type),
                case .type(let wrapped)? = type.genericArguments.first
            else { return nil }
            let tag = unsafe RuntimeEntryPoints.callGetEnumTag(
                witnesses.witness(.getEnumTag),
                value: address,
                metadata: type.address
            )
            // Optional's one payload case, `some`, has tag 0, and its payload is at offset 0.
            guard tag == 0 else { return .some(nil) }
            return .some(unsafe copyAny(at: address, type: wrapped.metatype))
        }
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

    /// Reads the tag of an enum value held as itself or in existential containers, which are
    /// projected however deeply they nest, without a cast.
    /// - Parameters:
    ///   - value: A value of the enum type, or an existential holding one.
    ///   - metadata: The enum's metadata.
    /// - Returns: The tag, or `nil` when the value projects to another type or the type has no
    ///   enum witnesses.
    static func enumTag<T>(projecting value: T, metadata: MetadataReference) -> Int? {
        guard let witnesses = unsafe enumWitnesses(metadata) else { return nil }
        return unsafe withUnsafePointer(to: value) { pointer in
            let (address, dynamicType) = unsafe ExistentialContainerLayout.project(
                UnsafeRawPointer(pointer),
                type: MetadataReference(T.self)
            )
            guard dynamicType == metadata else { return nil }
            return unsafe RuntimeEntryPoints.callGetEnumTag(
                witnesses.witness(.getEnumTag),
                value: address,
                metadata: metadata.address
            )
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
        unsafe withProjectedPayload(of: value, metadata: metadata, payloadType: payloadType, isIndirect: isIndirect) {
            unsafe copyAny(at: $0, type: payloadType.metatype)
        }
    }

    /// Calls `body` with the address of the payload of a copy of an enum value, leaving the
    /// value intact.
    /// - Parameters:
    ///   - value: The enum value.
    ///   - metadata: The enum's metadata.
    ///   - payloadType: The payload's type.
    ///   - isIndirect: Whether the case is `indirect` (the payload is boxed).
    ///   - body: Receives the payload's address, valid during the call.
    /// - Returns: What `body` returns, or `nil` when the type has no enum witnesses.
    static func withProjectedPayload<T, Result>(
        of value: T,
        metadata: MetadataReference,
        payloadType: MetadataReference,
        isIndirect: Bool,
        _ body: (UnsafeRawPointer) -> Result
    ) -> Result? {
        guard let witnesses = unsafe enumWitnesses(metadata) else { return nil }
        let tagWitness = unsafe witnesses.witness(.getEnumTag)
        let project = unsafe witnesses.witness(.destructiveProjectEnumData)
        let inject = unsafe witnesses.witness(.destructiveInjectEnumTag)
        var copy = value
        return unsafe withUnsafeMutablePointer(to: &copy) { pointer -> Result in
            let raw = UnsafeMutableRawPointer(pointer)
            let tag = unsafe RuntimeEntryPoints.callGetEnumTag(tagWitness, value: raw, metadata: metadata.address)
            unsafe RuntimeEntryPoints.callProjectEnumData(project, value: raw, metadata: metadata.address)
            let result: Result
            if isIndirect {
                let box = unsafe UnsafeRawPointer(raw).pointer(at: 0)!
                unsafe result = body(box + boxValueOffset(payloadType))
            } else {
                unsafe result = body(UnsafeRawPointer(raw))
            }
            // Projection then injection of the same tag restores the original value.
            unsafe RuntimeEntryPoints.callInjectEnumTag(inject, value: raw, tag: tag, metadata: metadata.address)
            return result
        }
    }

    /// The offset of a boxed value inside a heap box (a `swift_allocBox` box, an indirect
    /// payload's box, an existential's out-of-line buffer): after the `HeapObject` header
    /// (metadata and reference counts, include/swift/Runtime/HeapObject.h), rounded up to the
    /// value's alignment.
    static func boxValueOffset(_ type: MetadataReference) -> Int {
        let alignment = ValueWitnessFlags(rawValue: type.valueWitnesses.flags).alignment
        let header = 2 * MemoryLayout<UInt>.size
        return (header + alignment - 1) & ~(alignment - 1)
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

    /// Copies a few bytes (a value that fits an existential's buffer) word by word, without
    /// the call `memcpy` costs.
    /// - Parameters:
    ///   - source: The bytes.
    ///   - destination: Where they go.
    ///   - count: How many.
    @inlinable
    @inline(__always)
    static func copySmall(from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer, count: Int) {
        var offset = 0
        while offset + 8 <= count {
            unsafe destination.storeBytes(
                of: source.loadUnaligned(fromByteOffset: offset, as: UInt64.self),
                toByteOffset: offset,
                as: UInt64.self
            )
            offset += 8
        }
        while offset < count {
            unsafe destination.storeBytes(
                of: source.load(fromByteOffset: offset, as: UInt8.self),
                toByteOffset: offset,
                as: UInt8.self
            )
            offset += 1
        }
    }

    // MARK: - Equality

    /// Compares the first `count` bytes of two values' storage.
    /// - Parameters:
    ///   - lhs: The first address.
    ///   - rhs: The second address.
    ///   - count: The number of bytes.
    /// - Returns: Whether the bytes are the same.
    @inlinable
    @inline(__always)
    static func bytesEqual(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, count: Int) -> Bool {
        var offset = 0
        while offset + 8 <= count {
            if unsafe lhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                != rhs.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            offset += 8
        }
        while offset < count {
            if unsafe lhs.load(fromByteOffset: offset, as: UInt8.self)
                != rhs.load(fromByteOffset: offset, as: UInt8.self)
            {
                return false
            }
            offset += 1
        }
        return true
    }

    /// Compares byte ranges of two values' storage.
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
