// ExistentialContents.swift
//
// What an existential container holds (the DocC article "Understanding the ABI layer" names
// the containers: opaque, class-bound and error boxes).

/// What a value of existential type holds: the dynamic type of its value, and the witness
/// tables its container stores, each with its protocol.
///
/// ```swift
/// let value: any Hashable & CustomStringConvertible = 42
/// let contents = try ExistentialContents(of: value, as: (any Hashable & CustomStringConvertible).self)
/// contents.dynamicType                              // Swift.Int
/// contents.conformances.map(\.protocolDescriptor)   // CustomStringConvertible, Hashable
/// try ExistentialContents.projectedValue(of: value, as: (any Hashable & CustomStringConvertible).self)  // 42
/// ```
///
/// The existential type is named with `as:` because Swift opens an existential passed to a
/// generic parameter (SE-0352): without it, `Value` would be the dynamic type, and the
/// container would be gone before this code saw it. Generic code passes `T.self`.
///
/// Containers nested by generic code (an `Any` holding an `Any`) are looked through to the
/// innermost value, as `as?` does; the conformances are those of the outermost container's
/// existential type, each proven by the innermost value's own table (an `any Error` that generic
/// code stored in an `any Error` is paired with the inner error's conformance, not with the
/// self-conformance `Error: Error` that the outer box stores). `Any` and `AnyObject` store no witness tables. A constrained existential
/// (`any Collection<Int>`, `any Sequence<String> & AnyObject`) stores a table for each protocol
/// its requirement signature requires, in that signature's order; constrained existential
/// metatypes (`any Sequence<Int>.Type`) and explicit layouts are refused.
public struct ExistentialContents: Hashable, Sendable {
    /// The dynamic type of the value the container holds.
    public let dynamicType: TypeMetadata

    /// The witness tables the container stores, each as the conformance it proves, in the order
    /// of the existential type's protocols; for `any Error`, the error's `Error` conformance.
    public let conformances: [Conformance]

    /// Reads a value's container.
    /// - Parameters:
    ///   - value: A value whose static type is an existential.
    ///   - type: That existential type (`Any`, `any P`, a composition, a class-bound
    ///     existential, `AnyObject`, `any Error`, a constrained existential).
    /// - Throws: ``RuntimeMetadataError/wrongKind(typeName:expected:)`` when `Value` is not such a
    ///   type.
    public init<Value>(of value: Value, as type: Value.Type) throws(RuntimeMetadataError) {
        guard let contents = OpaqueValueAccess.existentialContents(of: value) else {
            throw .wrongKind(
                typeName: TypeMetadata(Value.self).name,
                expected: "an existential type such as Any, any P, any Error or any Sequence<Int>"
            )
        }
        let dynamicType = TypeMetadata(contents.dynamicType)
        self.dynamicType = dynamicType
        conformances = contents.tables.map { protocolReference, table in
            Conformance(
                type: dynamicType.reference,
                protocolDescriptor: ProtocolDescriptor(protocolReference),
                witnessTable: table
            )
        }
    }

    /// The value an existential holds, copied out of its container (and out of any containers
    /// nested in it), as `Any`.
    /// - Parameters:
    ///   - value: A value whose static type is an existential.
    ///   - type: That existential type.
    /// - Returns: The value.
    /// - Throws: ``RuntimeMetadataError/wrongKind(typeName:expected:)`` when `Value` is not an
    ///   existential type.
    public static func projectedValue<Value>(of value: Value, as type: Value.Type) throws(RuntimeMetadataError)
        -> Any
    {
        let kind = TypeMetadata(Value.self).kind
        guard kind == .existential || kind == .extendedExistential else {
            throw .wrongKind(
                typeName: TypeMetadata(Value.self).name,
                expected: "an existential type such as Any, any P or any Error"
            )
        }
        return OpaqueValueAccess.projectedCopy(of: value)
    }
}
