// OpaqueValueAccess+FieldStorage.swift
//
// Reads and writes stored properties at their offsets: the storage of a root value (the
// object for a class instance, a copy otherwise), a field's address behind nested
// existential containers, and plain values stored without a witness call. The public layer
// passes values in and gets values out; every typed access is either an exact type match or
// goes through the runtime's `as?` cast, never a bit-cast.

extension OpaqueValueAccess {
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
    ///   - form: How the property is stored (OpaqueValueAccess+StoredForms.swift).
    /// - Returns: The value.
    /// - Throws: Why there is none. A thrown failure, not an outcome enum around the value: the
    ///   value then moves once, into the caller's result, where an enum holding it was copied
    ///   and destroyed through its value witnesses.
    static func readField<Root>(
        of root: Root,
        access: (MetadataReference) -> RootAccess?,
        offset: Int,
        fieldType: MetadataReference,
        ownership: StorageOwnership,
        form: StoredForm
    ) throws(FieldReadFailure) -> Any {
        try unsafe withUnsafePointer(to: root) { pointer throws(FieldReadFailure) in
            try unsafe readField(
                at: UnsafeRawPointer(pointer),
                rootType: MetadataReference(Root.self),
                access: access,
                offset: offset,
                fieldType: fieldType,
                ownership: ownership,
                form: form
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

    /// ``readField(of:access:offset:fieldType:ownership:form:)`` on the root's storage.
    private static func readField(
        at root: UnsafeRawPointer,
        rootType: MetadataReference,
        access: (MetadataReference) -> RootAccess?,
        offset: Int,
        fieldType: MetadataReference,
        ownership: StorageOwnership,
        form: StoredForm
    ) throws(FieldReadFailure) -> Any {
        let base = try unsafe fieldBase(at: root, rootType: rootType, access: access)
        guard
            let value = unsafe read(
                at: base,
                offset: offset,
                fieldType: fieldType,
                ownership: ownership,
                form: form,
                as: Any.self
            )
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
    ///   - form: How the property is stored (OpaqueValueAccess+StoredForms.swift).
    /// - Returns: `.done(())`, or why nothing was written.
    static func writeField<Root, Value>(
        _ value: Value,
        of root: inout Root,
        access: (MetadataReference) -> RootAccess?,
        offset: Int,
        fieldType: MetadataReference,
        ownership: StorageOwnership,
        form: StoredForm
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
                ownership: ownership,
                form: form
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
                    ownership: ownership,
                    form: form
                )
            }
            guard written else { return .notCastable }
            guard let rewrapped = copy as? Root else { return .rootMismatch(dynamicType) }
            root = rewrapped
            return .done(())
        }
        return _openExistential(dynamicType.metatype, do: rewrite)
    }
}
