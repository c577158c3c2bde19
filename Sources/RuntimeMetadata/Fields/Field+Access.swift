// Field+Access.swift

extension Field {
    /// Reads the property from a value, typed.
    ///
    /// `root` is a value of the declaring type, an instance of it or a subclass for class
    /// properties, or an `Any` holding one. When `Value` is the property's exact type and
    /// `root` is of exactly the declaring type, the read is a plain load, compiled into the
    /// caller; read as `Any`, it is a copy from the property's offset. Otherwise the property's
    /// value goes through the runtime's `as?` cast, so reading an `Int` property as `Int?` works
    /// and reading it as `String` throws.
    ///
    /// ```swift
    /// let x = try TypeMetadata(Point.self).field(named: "x").value(in: point, as: Int.self)
    /// ```
    /// - Parameters:
    ///   - root: The value that holds the property.
    ///   - type: The type to read the property as.
    /// - Returns: The property's value.
    /// - Throws: ``RuntimeMetadataError/typeMismatch(expected:actual:context:)`` when `root` is not of
    ///   the declaring type or the property's value is not a `Value`;
    ///   ``RuntimeMetadataError/unresolvableFieldType(name:typeName:mangledName:)`` when the property's
    ///   type is unknown (or hidden, ``isTypeHidden``); ``RuntimeMetadataError/noncopyableType(typeName:)``
    ///   when it is noncopyable.
    @inlinable
    @inline(__always)
    public func value<Root, Value>(in root: Root, as type: Value.Type = Value.self) throws(RuntimeMetadataError)
        -> Value
    {
        // A root of exactly the declaring type: the property's exact type is a plain load, and
        // `Any` a copy from the offset, both inlined and specialized in the caller. The checks
        // compare metadata addresses.
        if let read = storage.withObject({ $0.directRead }), read.declaringType == MetadataReference(Root.self) {
            if read.fieldType == MetadataReference(Value.self) {
                return OpaqueValueAccess.loadField(
                    of: root,
                    isReference: read.isReference,
                    offset: read.offset,
                    as: Value.self
                )
            }
            if MetadataReference(Value.self) == MetadataReference(Any.self) {
                return OpaqueValueAccess.loadFieldAsAny(
                    of: root,
                    isReference: read.isReference,
                    offset: read.offset,
                    fieldType: read.fieldType,
                    plainInlineSize: read.plainInlineSize,
                    as: Value.self
                )
            }
        }
        return try generalValue(in: root, as: Value.self)
    }

    /// The read from a root of another static type: specialized in the caller, where `Value` is
    /// `Any` makes it ``anyValue(in:)`` alone (`as!` from `Any` to `Any` is nothing there), but
    /// kept out of line, so that the direct reads above stay as small as they are.
    @inlinable
    @inline(never)
    func generalValue<Root, Value>(in root: Root, as type: Value.Type) throws(RuntimeMetadataError) -> Value {
        if MetadataReference(Value.self) == MetadataReference(Any.self) {
            return try anyValue(in: root) as! Value
        }
        return try castValue(in: root, as: Value.self)
    }

    /// The general read: the root projected out of any existential containers, and the value
    /// cast to `Value` with `as?`.
    @usableFromInline
    @inline(never)
    func castValue<Root, Value>(in root: Root, as type: Value.Type) throws(RuntimeMetadataError) -> Value {
        let fieldType = try resolvedType()
        // The runtime's cast does not take builtin types: their values move only as themselves.
        if fieldType.isBuiltin, TypeMetadata(Value.self) != fieldType {
            throw .typeMismatch(expected: fieldType.name, actual: TypeMetadata(Value.self).name, context: context)
        }
        if ownership == .strong, storedForm == .asType, fieldType.reference == MetadataReference(Value.self) {
            // The property's own type: loaded where the root holds it, with no cast.
            do throws(OpaqueValueAccess.FieldReadFailure) {
                return try OpaqueValueAccess.readField(
                    of: root,
                    access: { rootAccess($0) },
                    offset: offset,
                    as: Value.self
                )
            } catch {
                throw readError(error, fieldType: fieldType, requested: Value.self)
            }
        }
        guard let value = try anyValue(in: root) as? Value else {
            throw .typeMismatch(expected: fieldType.name, actual: TypeMetadata(Value.self).name, context: context)
        }
        return value
    }

    /// The general read as `Any`: the root projected out of any existential containers.
    ///
    /// Generic only in the root: from unspecialized code (a root of type `Any`, a caller that is
    /// itself generic), a generic result or outcome would have its metadata looked up on each
    /// call, which cost more than the read (about 110 ns of a read from an `Any` root).
    @usableFromInline
    @inline(never)
    func anyValue<Root>(in root: Root) throws(RuntimeMetadataError) -> Any {
        let fieldType = try resolvedType()
        do throws(OpaqueValueAccess.FieldReadFailure) {
            return try OpaqueValueAccess.readField(
                of: root,
                access: { rootAccess($0) },
                offset: offset,
                fieldType: fieldType.reference,
                ownership: ownership.storage,
                form: storedForm
            )
        } catch {
            throw readError(error, fieldType: fieldType, requested: Any.self)
        }
    }

    /// The error for a read that found no value.
    private func readError(
        _ failure: OpaqueValueAccess.FieldReadFailure,
        fieldType: TypeMetadata,
        requested: Any.Type
    ) -> RuntimeMetadataError {
        switch failure {
        case .rootMismatch(let dynamicType):
            rootMismatch(dynamicType)
        case .notReadable:
            .typeMismatch(expected: fieldType.name, actual: TypeMetadata(requested).name, context: context)
        }
    }

    /// Reads the property from a value as `Any`.
    /// - Parameter root: The value that holds the property.
    /// - Returns: The property's value, boxed.
    /// - Throws: As ``value(in:as:)``.
    @inlinable
    @inline(__always)
    public func value<Root>(in root: Root) throws(RuntimeMetadataError) -> Any {
        try value(in: root, as: Any.self)
    }

    /// Writes the property of a value.
    ///
    /// The new value is checked with the runtime's `as?` cast against the property's type
    /// before any memory is touched: a mismatch throws and leaves `root` unchanged, never a
    /// bit-cast. `let` properties are written too, as their storage is the same; that is the
    /// caller's decision to make. For a class instance the object itself changes.
    ///
    /// ```swift
    /// try TypeMetadata(Point.self).field(named: "x").setValue(7, in: &point)
    /// ```
    /// - Parameters:
    ///   - newValue: The value to store.
    ///   - root: The value that holds the property.
    /// - Throws: ``RuntimeMetadataError/typeMismatch(expected:actual:context:)`` when `root` is not of
    ///   the declaring type or `newValue` does not cast to the property's type.
    public func setValue<Root, Value>(_ newValue: Value, in root: inout Root) throws(RuntimeMetadataError) {
        let fieldType = try resolvedType()
        // The runtime's cast does not take builtin types: their values move only as themselves.
        if fieldType.isBuiltin, TypeMetadata(Swift.type(of: newValue as Any)) != fieldType {
            throw .typeMismatch(
                expected: fieldType.name,
                actual: TypeMetadata(Swift.type(of: newValue as Any)).name,
                context: context
            )
        }
        let outcome = OpaqueValueAccess.writeField(
            newValue,
            of: &root,
            access: { rootAccess($0) },
            offset: offset,
            fieldType: fieldType.reference,
            ownership: ownership.storage,
            form: storedForm
        )
        switch outcome {
        case .done:
            return
        case .rootMismatch(let dynamicType):
            throw rootMismatch(dynamicType)
        case .notCastable:
            throw .typeMismatch(
                expected: fieldType.name,
                actual: TypeMetadata(Swift.type(of: newValue as Any)).name,
                context: context
            )
        }
    }

    private var context: String { "field '\(name)' of '\(declaringType.name)'" }

    func resolvedType() throws(RuntimeMetadataError) -> TypeMetadata {
        if storage.withObject({ $0.isAccessible }), let type { return type }
        guard let type else {
            throw .unresolvableFieldType(name: name, typeName: declaringType.name, mangledName: mangledTypeName)
        }
        // A generic parameter bound to a `~Copyable` type: no copy of the value can be made.
        guard type.isCopyable else { throw .noncopyableType(typeName: type.name) }
        guard type.hasValueWitnesses else {
            throw .wrongKind(
                typeName: type.name,
                expected: "a type with value witnesses, which values need to be copied"
            )
        }
        if storage.withObject({ $0.storesSubstitutedFunction }) {
            throw .functionNotReabstractable(typeName: type.name, context: context)
        }
        if storage.withObject({ $0.storedForm }) == nil {
            throw .unknownStorage(typeName: type.name, context: context)
        }
        return type
    }

    /// How the property is stored, once ``resolvedType()`` has allowed access.
    var storedForm: OpaqueValueAccess.StoredForm { storage.withObject { $0.storedForm } ?? .asType }

    /// How a root of a dynamic type reaches this property: a value of the declaring type holds
    /// it inline, an instance of the declaring class or a subclass in the object.
    private func rootAccess(_ dynamicType: MetadataReference) -> OpaqueValueAccess.RootAccess? {
        if declaringType.kind == .class {
            var current: TypeMetadata? = TypeMetadata(dynamicType)
            var depth = 0
            while let type = current, depth < 4096 {
                if type == declaringType { return .object }
                current = type.superclass
                depth += 1
            }
            return nil
        }
        return dynamicType == declaringType.reference ? .inline : nil
    }

    /// The error for a root whose dynamic type does not hold the property.
    private func rootMismatch(_ dynamicType: MetadataReference) -> RuntimeMetadataError {
        .typeMismatch(
            expected: declaringType.name,
            actual: TypeMetadata(dynamicType).name,
            context: "the root of " + context
        )
    }
}
