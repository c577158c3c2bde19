// TypeMetadata+Enum.swift

extension TypeMetadata {
    /// Reads the tag of an enum value: the index of its case in ``cases``.
    ///
    /// ```swift
    /// let tag = try TypeMetadata(Shape.self).tag(of: Shape.circle(radius: 1))
    /// ```
    /// - Parameter value: A value of this enum type, or an existential (`Any`, `any P`) holding one.
    /// - Returns: The tag.
    /// - Throws: ``RuntimeMetadataError/wrongKind(typeName:expected:)`` when this is not an enum,
    ///   ``RuntimeMetadataError/typeMismatch(expected:actual:context:)`` when `value` is not of this type.
    @inlinable
    public func tag<Value>(of value: Value) throws(RuntimeMetadataError) -> Int {
        // The value's address is taken here, where the caller knows its type; the reading is
        // not generic.
        if let tag = OpaqueValueAccess.withBorrowedValue(value, { enumTag(in: $0) }) { return tag }
        return try resolvedTag(of: value)
    }

    /// Reads the tag of an enum value held in an `Any`: the index of its case in ``cases``.
    ///
    /// The generic form, given an `Any`, would open it and run unspecialized; this form reads the
    /// value where the `Any` holds it.
    /// - Parameter value: An `Any` holding a value of this enum type (possibly inside further
    ///   existential containers).
    /// - Returns: The tag.
    /// - Throws: ``RuntimeMetadataError/wrongKind(typeName:expected:)`` when this is not an enum,
    ///   ``RuntimeMetadataError/typeMismatch(expected:actual:context:)`` when `value` is not of this type.
    public func tag(of value: Any) throws(RuntimeMetadataError) -> Int {
        // `as Any` keeps the container closed: passed as it is, the `Any` would be opened.
        if let tag = OpaqueValueAccess.withBorrowedValue(value as Any, { enumTag(in: $0) }) { return tag }
        return try resolvedTag(of: value as Any)
    }

    /// The tag of a value of this enum type, or of the value its existential containers hold,
    /// read in place; `nil` when this is not an enum or the value is not of this type as far as
    /// the containers show.
    /// - Parameter value: The borrowed value.
    /// - Returns: The tag.
    @usableFromInline
    func enumTag(in value: BorrowedValue) -> Int? {
        guard kind == .enum || kind == .optional else { return nil }
        return value.enumTag(of: reference)
    }

    /// ``tag(of:)`` for values the read in place does not answer: the error for a value of
    /// another type or a type that is not an enum, or the tag of a value that `as?` reaches
    /// (an optional, an `AnyObject` box, a constrained existential).
    /// - Parameter value: The value.
    /// - Returns: The tag.
    /// - Throws: As ``tag(of:)-(Any)``.
    @usableFromInline
    func resolvedTag<Value>(of value: Value) throws(RuntimeMetadataError) -> Int {
        if MetadataReference(Value.self) == reference { return try enumTag(of: value) }
        if kind == .enum || kind == .optional,
            let tag = OpaqueValueAccess.enumTag(projecting: value, metadata: reference)
        {
            return tag
        }
        return try castTag(of: value)
    }

    /// The tag of a value the projection does not reach: an optional or an `AnyObject` box
    /// that `as?` looks through, a constrained existential; or the error for a value that is
    /// not of this type.
    private func castTag<Value>(of value: Value) throws(RuntimeMetadataError) -> Int {
        if let enumType = openingType(for: Value.self) {
            func open<T>(_: T.Type) -> Result<Int, RuntimeMetadataError> {
                guard let typed = value as? T else { return .failure(existentialMismatch(value)) }
                return Result { () throws(RuntimeMetadataError) in try enumTag(of: typed) }
            }
            return try _openExistential(enumType, do: open).get()
        }
        return try enumTag(of: value)
    }

    /// ``tag(of:)``, compiled into its callers.
    @inline(__always)
    private func enumTag<Value>(of value: Value) throws(RuntimeMetadataError) -> Int {
        try checkEnumValue(Value.self)
        guard let tag = OpaqueValueAccess.enumTag(of: value, metadata: reference) else {
            throw .wrongKind(typeName: name, expected: "an enum")
        }
        return tag
    }

    /// The case of an enum value.
    /// - Parameter value: A value of this enum type, or an existential (`Any`, `any P`) holding one.
    /// - Returns: The case.
    /// - Throws: As ``tag(of:)-(Value)``, and ``RuntimeMetadataError/missingReflectionMetadata(typeName:)``.
    public func enumCase<Value>(of value: Value) throws(RuntimeMetadataError) -> EnumCase {
        let tag = try tag(of: value)
        let all = try cases
        guard all.indices.contains(tag) else {
            throw .wrongKind(typeName: name, expected: "an enum whose tag \(tag) names a case")
        }
        return all[tag]
    }

    /// The name of an enum value's case, as `Mirror` reports it.
    /// - Parameter value: A value of this enum type, or an existential (`Any`, `any P`) holding one.
    /// - Returns: The case name.
    /// - Throws: As ``enumCase(of:)``.
    @inlinable
    public func caseName<Value>(of value: Value) throws(RuntimeMetadataError) -> String {
        if let name = OpaqueValueAccess.withBorrowedValue(value, { caseName(in: $0) }) { return name }
        return try resolvedCaseName(of: value)
    }

    /// The name of the case of an enum value held in an `Any`, as `Mirror` reports it.
    ///
    /// The generic form, given an `Any`, would open it and run unspecialized; this form reads the
    /// value where the `Any` holds it.
    /// - Parameter value: An `Any` holding a value of this enum type (possibly inside further
    ///   existential containers).
    /// - Returns: The case name.
    /// - Throws: As ``enumCase(of:)``.
    public func caseName(of value: Any) throws(RuntimeMetadataError) -> String {
        // `as Any` keeps the container closed: passed as it is, the `Any` would be opened.
        if let name = OpaqueValueAccess.withBorrowedValue(value as Any, { caseName(in: $0) }) { return name }
        return try resolvedCaseName(of: value as Any)
    }

    /// ``caseName(of:)`` for values the read in place does not answer, as ``resolvedTag(of:)``.
    /// - Parameter value: The value.
    /// - Returns: The case name.
    /// - Throws: As ``enumCase(of:)``.
    @usableFromInline
    func resolvedCaseName<Value>(of value: Value) throws(RuntimeMetadataError) -> String {
        let tag = try resolvedTag(of: value)
        if let name = caseName(forTag: tag) { return name }
        return try enumCase(of: value).name
    }

    /// The case name of a value whose tag is read in place (``enumTag(in:)``).
    /// - Parameter value: The borrowed value.
    /// - Returns: The name, or `nil` when the tag is not read in place or names no case.
    @usableFromInline
    func caseName(in value: BorrowedValue) -> String? {
        // The commonest question, a value of the enum type itself, read with one call of its
        // tag witness; a value in containers, or of another type, by ``enumTag(in:)``.
        if value.staticType == reference, let tag = value.ownEnumTag() { return caseName(forTag: tag) }
        guard let tag = enumTag(in: value) else { return nil }
        return caseName(forTag: tag)
    }

    /// The name of the case with a tag, from the cached names: copying a whole EnumCase, or
    /// retaining the list, costs more than the lookup.
    /// - Parameter tag: The tag.
    /// - Returns: The name, or `nil` when no case has the tag.
    @inline(__always)
    private func caseName(forTag tag: Int) -> String? {
        let names = immortalRecord.withObject { $0.caseNames.immortalBox { ((try? cases) ?? []).map(\.name) } }
        return names.withObject { $0.value.indices.contains(tag) ? $0.value[tag] : nil }
    }

    /// Copies the payload out of an enum value, leaving the value as it was.
    ///
    /// The payload is read by projecting a copy of the value through the runtime's
    /// `destructiveProjectEnumData` witness and injecting the tag back, so nothing leaks and
    /// nothing is freed twice. Indirect payloads are read out of their box.
    /// - Parameters:
    ///   - value: A value of this enum type, or an existential (`Any`, `any P`) holding one.
    ///   - type: The type to return the payload as; the payload goes through `as?`.
    /// - Returns: The payload, or `nil` when the value's case has none.
    /// - Throws: As ``enumCase(of:)``, and ``RuntimeMetadataError/typeMismatch(expected:actual:context:)``
    ///   when the payload is not a `Payload`.
    public func payload<Value, Payload>(of value: Value, as type: Payload.Type = Payload.self)
        throws(RuntimeMetadataError)
        -> Payload?
    {
        if let enumType = openingType(for: Value.self) {
            func open<T>(_: T.Type) -> Result<Payload?, RuntimeMetadataError> {
                guard let typed = value as? T else { return .failure(existentialMismatch(value)) }
                return Result { () throws(RuntimeMetadataError) in try payload(of: typed, as: Payload.self) }
            }
            return try _openExistential(enumType, do: open).get()
        }
        let enumCase = try enumCase(of: value)
        guard enumCase.hasPayload else { return nil }
        guard let payloadType = enumCase.payloadType, payloadType.isCopyable, payloadType.hasValueWitnesses else {
            throw .unresolvableFieldType(name: enumCase.name, typeName: name, mangledName: "")
        }
        if enumCase.storesSubstitutedFunction {
            throw .functionNotReabstractable(
                typeName: payloadType.name,
                context: "the payload of case '\(enumCase.name)' of '\(name)'"
            )
        }
        guard let form = enumCase.payloadForm else {
            throw .unknownStorage(
                typeName: payloadType.name,
                context: "the payload of case '\(enumCase.name)' of '\(name)'"
            )
        }
        guard
            let payload = OpaqueValueAccess.payload(
                of: value,
                metadata: record.reference,
                payloadType: payloadType.reference,
                form: form,
                isIndirect: enumCase.isIndirect
            )
        else { throw .wrongKind(typeName: name, expected: "an enum") }
        guard let typed = payload as? Payload else {
            throw .typeMismatch(
                expected: payloadType.name,
                actual: TypeMetadata(Payload.self).name,
                context: "the payload of case '\(enumCase.name)' of '\(name)'"
            )
        }
        return typed
    }

    /// Builds an enum value of a case, injecting a payload through the runtime's
    /// `destructiveInjectEnumTag` witness.
    ///
    /// ```swift
    /// let circle: Shape = try TypeMetadata(Shape.self).makeValue(case: "circle", payload: 2.0)
    /// ```
    /// - Parameters:
    ///   - caseName: The case.
    ///   - payload: The payload, `nil` for a case without one; it must cast to the case's payload type.
    ///   - type: The enum type to build; must be the type this metadata describes.
    /// - Returns: The value.
    /// - Throws: ``RuntimeMetadataError/noSuchCase(name:typeName:)``,
    ///   ``RuntimeMetadataError/typeMismatch(expected:actual:context:)`` when the payload is missing, superfluous
    ///   or of the wrong type, and what ``cases`` throws.
    public func makeValue<Value>(case caseName: String, payload: Any? = nil, as type: Value.Type = Value.self)
        throws(RuntimeMetadataError) -> Value
    {
        try checkEnumValue(Value.self)
        guard let enumCase = try cases.first(where: { $0.name == caseName }) else {
            throw .noSuchCase(name: caseName, typeName: name)
        }
        let context = "the payload of case '\(caseName)' of '\(name)'"
        let payloadType = enumCase.payloadType
        if enumCase.hasPayload {
            guard let payloadType, payloadType.isCopyable, payloadType.hasValueWitnesses else {
                throw .unresolvableFieldType(name: caseName, typeName: name, mangledName: "")
            }
            if enumCase.storesSubstitutedFunction {
                throw .functionNotReabstractable(typeName: payloadType.name, context: context)
            }
            if enumCase.payloadForm == nil {
                throw .unknownStorage(typeName: payloadType.name, context: context)
            }
            guard let payload else {
                throw .typeMismatch(expected: payloadType.name, actual: "nil", context: context)
            }
            guard payloadType.canCast(payload) else {
                throw .typeMismatch(
                    expected: payloadType.name,
                    actual: TypeMetadata(Swift.type(of: payload)).name,
                    context: context
                )
            }
        } else if let payload {
            throw .typeMismatch(
                expected: "no payload",
                actual: TypeMetadata(Swift.type(of: payload)).name,
                context: context
            )
        }
        guard
            let value = OpaqueValueAccess.makeEnum(
                Value.self,
                tag: enumCase.tag,
                payload: payload,
                payloadType: enumCase.hasPayload ? payloadType?.reference : nil,
                payloadForm: enumCase.payloadForm ?? .asType,
                isIndirect: enumCase.isIndirect
            )
        else { throw .wrongKind(typeName: name, expected: "an enum") }
        return value
    }

    /// Whether a value casts to this type with `as?`.
    func canCast(_ value: Any) -> Bool {
        guard let type else { return false }
        // The runtime's cast does not take builtin types: only a value of the type itself fits.
        if isBuiltin { return TypeMetadata(Swift.type(of: value)) == self }
        func check<T>(_: T.Type) -> Bool { value is T }
        return _openExistential(type, do: check)
    }

    /// This enum's type, when a value of static type `Value` must be opened to reach it: `Value`
    /// is an existential (`Any`, `any P`, a composition, `any Error`, `AnyObject`) and this type
    /// is an enum. The value is then cast with `as?`, which looks through every kind of
    /// container, nested ones and boxes included, as it does for any other value.
    /// - Parameter valueType: The static type of the value given.
    /// - Returns: The enum's type, or `nil` when no opening applies.
    @inline(__always)
    private func openingType<Value>(for valueType: Value.Type) -> Any.Type? {
        let valueReference = MetadataReference(Value.self)
        guard valueReference != reference, kind == .enum || kind == .optional else { return nil }
        let valueKind = MetadataKind(rawValue: valueReference.rawKind)
        guard valueKind == .existential || valueKind == .extendedExistential else { return nil }
        return type
    }

    /// The error for an existential whose value is not of this enum type.
    private func existentialMismatch<Value>(_ value: Value) -> RuntimeMetadataError {
        .typeMismatch(
            expected: name,
            actual: TypeMetadata(Swift.type(of: value as Any)).name,
            context: "an enum value"
        )
    }

    @inline(__always)
    private func checkEnumValue<Value>(_: Value.Type) throws(RuntimeMetadataError) {
        guard kind == .enum || kind == .optional else { throw .wrongKind(typeName: name, expected: "an enum") }
        // Compared by metadata address: no record lookup for the value's type.
        guard MetadataReference(Value.self) == reference else {
            throw .typeMismatch(expected: name, actual: TypeMetadata(Value.self).name, context: "an enum value")
        }
    }
}
