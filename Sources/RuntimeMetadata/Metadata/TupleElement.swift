// TupleElement.swift

/// One element of a tuple type.
public struct TupleElement: Hashable, Sendable, CustomStringConvertible {
    /// The element's label, or `nil` for an unlabelled element.
    public let label: String?

    /// The element's position.
    public let index: Int

    /// The element's type.
    public let type: TypeMetadata

    /// The byte offset of the element within the tuple.
    public let offset: Int

    /// The tuple type the element belongs to.
    let tupleType: MetadataReference

    /// The name `Mirror` uses for the element: its label, or `.0`, `.1` and so on.
    public var name: String { label ?? ".\(index)" }

    /// The label and type.
    public var description: String { label.map { "\($0): \(type.name)" } ?? type.name }
}

extension TypeMetadata {
    /// The elements of a tuple type; empty for other kinds.
    ///
    /// Offsets come from the tuple metadata, where Linux stores them as 32-bit integers.
    public var tupleElements: [TupleElement] {
        record.tupleElements.value {
            record.reference.tupleElements.enumerated().map { index, element in
                TupleElement(
                    label: element.label.isEmpty ? nil : element.label,
                    index: index,
                    type: TypeMetadata(element.type),
                    offset: element.offset,
                    tupleType: record.reference
                )
            }
        }
    }
}

extension TupleElement {
    /// Reads the element from a tuple value, typed, as ``Field/value(in:as:)`` reads a field.
    ///
    /// `root` is a value of the element's tuple type, or an `Any` (or other existential)
    /// holding one. When `Value` is the element's exact type the read is a plain load;
    /// otherwise the element's value goes through the runtime's `as?` cast.
    ///
    /// ```swift
    /// let pair = (name: "x", count: 3)
    /// let count = try TypeMetadata(type(of: pair)).tupleElements[1].value(in: pair, as: Int.self)
    /// ```
    /// - Parameters:
    ///   - root: The tuple.
    ///   - type: The type to read the element as.
    /// - Returns: The element's value.
    /// - Throws: ``RuntimeMetadataError/typeMismatch(expected:actual:context:)`` when `root` is not a
    ///   value of the element's tuple type or the element's value is not a `Value`;
    ///   ``RuntimeMetadataError/wrongKind(typeName:expected:)`` when the element's type cannot be
    ///   copied.
    public func value<Root, Value>(in root: Root, as type: Value.Type = Value.self) throws(RuntimeMetadataError)
        -> Value
    {
        if MetadataReference(Value.self) == self.type.reference, MetadataReference(Root.self) == tupleType {
            return OpaqueValueAccess.loadField(of: root, isReference: false, offset: offset, as: Value.self)
        }
        if MetadataReference(Value.self) == MetadataReference(Any.self) {
            return try anyValue(in: root) as! Value
        }
        return try castValue(in: root, as: Value.self)
    }

    /// Reads the element from a tuple value as `Any`.
    /// - Parameter root: The tuple, or an existential holding one.
    /// - Returns: The element's value, boxed.
    /// - Throws: As ``value(in:as:)``.
    public func value<Root>(in root: Root) throws(RuntimeMetadataError) -> Any {
        try value(in: root, as: Any.self)
    }

    /// The general read: the root projected out of any existential containers, and the value
    /// cast to `Value` with `as?`.
    @inline(never)
    private func castValue<Root, Value>(in root: Root, as valueType: Value.Type) throws(RuntimeMetadataError)
        -> Value
    {
        let elementType = type
        // The runtime's cast does not take builtin types: their values move only as themselves.
        if elementType.isBuiltin, TypeMetadata(Value.self) != elementType {
            throw .typeMismatch(expected: elementType.name, actual: TypeMetadata(Value.self).name, context: context)
        }
        guard let value = try anyValue(in: root) as? Value else {
            throw .typeMismatch(expected: elementType.name, actual: TypeMetadata(Value.self).name, context: context)
        }
        return value
    }

    /// The general read as `Any`, generic only in the root (as ``Field``'s is: a generic result
    /// would have its metadata looked up on each call from unspecialized code).
    @inline(never)
    private func anyValue<Root>(in root: Root) throws(RuntimeMetadataError) -> Any {
        let elementType = type
        guard elementType.isCopyable, elementType.hasValueWitnesses else {
            throw .wrongKind(typeName: elementType.name, expected: "a copyable type with value witnesses")
        }
        let tuple = tupleType
        do throws(OpaqueValueAccess.FieldReadFailure) {
            return try OpaqueValueAccess.readField(
                of: root,
                access: { $0 == tuple ? .inline : nil },
                offset: offset,
                fieldType: elementType.reference,
                ownership: .strong,
                // A tuple value of its own type holds its elements as their types lay them out.
                form: .asType
            )
        } catch {
            switch error {
            case .rootMismatch(let dynamicType):
                throw .typeMismatch(
                    expected: TypeMetadata(tuple).name,
                    actual: TypeMetadata(dynamicType).name,
                    context: "the root of " + context
                )
            case .notReadable:
                throw .typeMismatch(expected: elementType.name, actual: TypeMetadata(Any.self).name, context: context)
            }
        }
    }

    private var context: String { "tuple element '\(name)' of '\(TypeMetadata(tupleType).name)'" }
}
