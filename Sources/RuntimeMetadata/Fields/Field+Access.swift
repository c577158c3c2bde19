// Field+Access.swift

extension Field {
    /// Reads the property from a value, typed.
    ///
    /// `root` is a value of the declaring type, an instance of it or a subclass for class
    /// properties, or an `Any` holding one. When `Value` is the property's exact type the
    /// read is a plain load; otherwise the property's value goes through the runtime's `as?`
    /// cast, so reading an `Int` property as `Any` or `Int?` works and reading it as `String`
    /// throws.
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
    ///   type is unknown.
    public func value<Root, Value>(in root: Root, as type: Value.Type = Value.self) throws(RuntimeMetadataError)
        -> Value
    {
        let fast = storage.withObject { field -> (offset: Int, isReference: Bool)? in
            // The exact type, read from a root of exactly the declaring type: a plain load. The
            // checks compare metadata addresses, without a record lookup. Kept apart from the
            // general path, whose generic metadata (Optional<Value>, Result<Value, _>)
            // unspecialized callers would otherwise instantiate on every call.
            guard field.isAccessible, field.ownership == .strong, let fieldType = field.type,
                fieldType.reference == MetadataReference(Value.self),
                field.declaringType.reference == MetadataReference(Root.self)
            else { return nil }
            return (field.offset, field.declaringType.kind == .class)
        }
        if let fast {
            return OpaqueValueAccess.loadField(
                of: root,
                isReference: fast.isReference,
                offset: fast.offset,
                as: Value.self
            )
        }
        return try castValue(in: root, as: Value.self)
    }

    /// The general read: existential roots opened, and the value cast to `Value` with `as?`.
    @inline(never)
    private func castValue<Root, Value>(in root: Root, as type: Value.Type) throws(RuntimeMetadataError) -> Value {
        if needsOpening(Root.self) {
            // A struct, enum or tuple held in an existential: read from the opened value.
            func read<Opened>(_ opened: Opened) -> Result<Value, RuntimeMetadataError> {
                Result { () throws(RuntimeMetadataError) -> Value in try self.value(in: opened, as: Value.self) }
            }
            return try _openExistential(root as Any, do: read).get()
        }
        let fieldType = try resolvedType()
        let isReference = try checkRoot(root)
        let value = OpaqueValueAccess.readField(
            of: root,
            isReference: isReference,
            offset: offset,
            fieldType: fieldType.reference,
            ownership: ownership.storage,
            as: Value.self
        )
        guard let value else {
            throw .typeMismatch(expected: fieldType.name, actual: String(reflecting: Value.self), context: context)
        }
        return value
    }

    /// Reads the property from a value as `Any`.
    /// - Parameter root: The value that holds the property.
    /// - Returns: The property's value, boxed.
    /// - Throws: As ``value(in:as:)``.
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
        if needsOpening(Root.self) {
            // A value held in an existential: write into the opened value, then store it back.
            func write<Opened>(_ opened: Opened) -> Result<Root, RuntimeMetadataError> {
                var copy = opened
                do throws(RuntimeMetadataError) {
                    try self.setValue(newValue, in: &copy)
                } catch {
                    return .failure(error)
                }
                guard let rewrapped = copy as? Root else {
                    return .failure(
                        .typeMismatch(
                            expected: TypeMetadata(Root.self).name,
                            actual: declaringType.name,
                            context: context
                        )
                    )
                }
                return .success(rewrapped)
            }
            root = try _openExistential(root as Any, do: write).get()
            return
        }
        let fieldType = try resolvedType()
        let isReference = try checkRoot(root)
        let written = OpaqueValueAccess.writeField(
            newValue,
            of: &root,
            isReference: isReference,
            offset: offset,
            fieldType: fieldType.reference,
            ownership: ownership.storage
        )
        if !written {
            throw .typeMismatch(
                expected: fieldType.name,
                actual: String(reflecting: Swift.type(of: newValue as Any)),
                context: context
            )
        }
    }

    private var context: String { "field '\(name)' of '\(declaringType.name)'" }

    private func resolvedType() throws(RuntimeMetadataError) -> TypeMetadata {
        if storage.withObject({ $0.isAccessible }), let type { return type }
        guard let type, type.isCopyable else {
            throw .unresolvableFieldType(name: name, typeName: declaringType.name, mangledName: mangledTypeName)
        }
        guard type.hasValueWitnesses else {
            throw .wrongKind(
                typeName: type.name,
                expected: "a type with value witnesses, which values need to be copied"
            )
        }
        return type
    }

    /// Whether a root of static type `Root` must be opened first: an existential holding a
    /// value type. Class instances are reached through any static type.
    private func needsOpening<Root>(_: Root.Type) -> Bool {
        declaringType.kind != .class && TypeMetadata(Root.self).kind == .existential
    }

    /// Checks that `root` holds the declaring type, and says whether it is a class instance.
    private func checkRoot<Root>(_ root: Root) throws(RuntimeMetadataError) -> Bool {
        let staticType = TypeMetadata(Root.self)
        if declaringType.kind == .class {
            // Any static type works as long as the dynamic type inherits the declaring class.
            var current: TypeMetadata? = TypeMetadata(Swift.type(of: root as Any))
            if staticType.kind == .class || staticType.kind == .existential {
                while let type = current {
                    if type == declaringType { return true }
                    current = type.superclass
                }
            }
        } else if staticType == declaringType {
            return false
        }
        throw .typeMismatch(
            expected: declaringType.name,
            actual: String(reflecting: Swift.type(of: root as Any)),
            context: "the root of " + context
        )
    }
}
