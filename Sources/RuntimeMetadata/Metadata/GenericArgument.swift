// GenericArgument.swift

/// One argument of a generic type's instantiation.
public enum GenericArgument: Hashable, Sendable, CustomStringConvertible {
    /// The type bound to a type parameter.
    case type(TypeMetadata)
    /// The types bound to a parameter pack, in order.
    case pack([TypeMetadata])
    /// The integer bound to a value parameter (`let N: Int`).
    case value(Int)

    /// The argument as `String(reflecting:)` would print it inside angle brackets.
    public var description: String {
        switch self {
        case .type(let type): type.name
        case .pack(let types): "Pack{" + types.map(\.name).joined(separator: ", ") + "}"
        case .value(let value): String(value)
        }
    }

    /// The type, for a type argument.
    public var type: TypeMetadata? {
        if case .type(let type) = self { return type }
        return nil
    }
}

extension TypeMetadata {
    /// The generic arguments of a generic nominal type, one per parameter in declaration order.
    ///
    /// Packs and integer value parameters appear as ``GenericArgument/pack(_:)`` and
    /// ``GenericArgument/value(_:)``. Empty for non-generic and structural types.
    public var genericArguments: [GenericArgument] {
        record.genericArguments.value {
            record.reference.genericArguments.map { argument in
                switch argument {
                case .type(let type): .type(TypeMetadata(type))
                case .pack(let types): .pack(types.map(TypeMetadata.init))
                case .value(let value): .value(value)
                }
            }
        }
    }

    /// The superclass of a class, or `nil` for a root class and other kinds.
    public var superclass: TypeMetadata? {
        guard record.kind == .class else { return nil }
        return record.reference.superclass.map(TypeMetadata.init)
    }

    /// The instance type of a metatype (`T` for `T.Type`) or existential metatype.
    public var instanceType: TypeMetadata? { record.reference.instanceType.map(TypeMetadata.init) }

    /// The element count and element type of a builtin fixed-size array (`InlineArray`'s storage).
    public var fixedArray: (count: Int, element: TypeMetadata)? {
        record.reference.fixedArray.map { ($0.count, TypeMetadata($0.element)) }
    }
}
