// ProtocolDescriptor+Opening.swift

extension ProtocolDescriptor {
    /// Opens a metatype as this protocol's existential metatype, without `as?`.
    ///
    /// `E` is the protocol's existential metatype, `(any P.Type).self`. The result can be passed
    /// straight to a generic function constrained to the protocol, which opens it:
    ///
    /// ```swift
    /// func describe<T: Shape>(_: T.Type) -> String { T.name }
    /// if let shape = shapeProtocol.open(type, as: (any Shape.Type).self) {
    ///     describe(shape)
    /// }
    /// ```
    ///
    /// The conformance comes from the cache of ``conformance(of:)-(TypeMetadata)``, and the
    /// existential is assembled from the type and its witness table, so a warm call neither
    /// allocates nor locks.
    /// - Parameters:
    ///   - type: The type to open.
    ///   - existentialMetatype: `(any P.Type).self` for this protocol `P`.
    /// - Returns: The metatype as `any P.Type`, or `nil` when the type does not conform or `E`
    ///   is not this protocol's existential metatype.
    public func open<E>(_ type: Any.Type, as existentialMetatype: E.Type) -> E? {
        guard acceptsExistentialMetatype(E.self), let conformance = conformance(of: TypeMetadata(type)) else {
            return nil
        }
        return OpaqueValueAccess.existentialMetatype(
            conformance.type.reference,
            witnessTable: conformance.witnessTable,
            as: E.self
        )
    }

    /// Opens a value as this protocol's existential, without `as?`.
    ///
    /// `E` is the protocol's existential type, `(any P).self`. The value's dynamic type is
    /// looked up in the conformance cache, and the existential is assembled around the value
    /// already held by `value`: no new box is allocated, even for large values.
    /// - Parameters:
    ///   - value: The value to open.
    ///   - existential: `(any P).self` for this protocol `P`.
    /// - Returns: The value as `any P`, or `nil` when its type does not conform or `E` is not
    ///   this protocol's existential.
    public func open<E>(_ value: Any, as existential: E.Type) -> E? {
        // `E` is checked straight from its metadata: `any P` for this protocol, one table.
        guard let isClassBound = MetadataReference(E.self).singleProtocolExistentialShape(of: reference) else {
            return nil
        }
        let dynamicType = OpaqueValueAccess.dynamicType(of: value)
        if isClassBound && dynamicType.rawKind != 0 { return nil }
        guard let witnessTable = conformanceWitnessTable(of: dynamicType) else { return nil }
        return OpaqueValueAccess.existential(
            value,
            witnessTable: witnessTable,
            isClassBound: isClassBound,
            as: E.self
        )
    }

    /// Whether `E` is `any P.Type` for this protocol: one witness table after the metadata.
    private func acceptsExistentialMetatype<E>(_: E.Type) -> Bool {
        let metatype = TypeMetadata(E.self)
        guard metatype.kind == .existentialMetatype, let instance = metatype.instanceType,
            let shape = instance.existentialShape, shape.singleProtocol == reference, shape.witnessTableCount == 1
        else { return false }
        return true
    }

    /// The shape of `E` when it is `any P` for this protocol with a container this library builds:
    /// one witness table, opaque or class-bound, not `any Error`.
    private func acceptedExistentialShape<E>(_: E.Type) -> ExistentialShape? {
        let existential = TypeMetadata(E.self)
        guard existential.kind == .existential, let shape = existential.existentialShape,
            shape.singleProtocol == reference, shape.witnessTableCount == 1, !shape.isError
        else { return nil }
        return shape
    }
}

extension Conformance {
    /// The conforming type as the protocol's existential metatype, `any P.Type`.
    /// - Parameter existentialMetatype: `(any P.Type).self` for this conformance's protocol.
    /// - Returns: The metatype, or `nil` when `E` is not the protocol's existential metatype.
    public func existentialMetatype<E>(as existentialMetatype: E.Type) -> E? {
        guard let type = type.type else { return nil }
        return protocolDescriptor.open(type, as: E.self)
    }
}
