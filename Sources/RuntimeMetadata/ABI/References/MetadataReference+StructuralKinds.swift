// MetadataReference+StructuralKinds.swift
//
// A metadata handle's facts for the structural kinds: tuples, functions, existentials and
// extended existentials, metatypes and builtin fixed-size arrays (MetadataReference.swift has
// the handle itself).

extension MetadataReference {
    /// The elements of tuple metadata.
    var tupleElements: [(label: String, type: MetadataReference, offset: Int)] {
        guard unsafe layout.kind == .tuple else { return [] }
        let tuple = unsafe TupleTypeMetadataLayout(address)
        let labels = unsafe tuple.labels
        return unsafe (0..<tuple.count).map { index in
            unsafe (labels[index], MetadataReference(tuple.elementType(index)), tuple.elementOffset(index))
        }
    }

    /// The facts of function type metadata.
    struct FunctionSummary: Sendable {
        /// `TargetFunctionTypeFlags`.
        var flags: UInt
        /// The extended flags, 0 when absent.
        var extendedFlags: UInt32
        /// The parameters with their `ParameterFlags`.
        var parameters: [(type: MetadataReference, flags: UInt32)]
        /// The result type.
        var result: MetadataReference
        /// The global actor.
        var globalActor: MetadataReference?
        /// The thrown error type of typed throws.
        var thrownError: MetadataReference?
    }

    /// Reads function type metadata.
    var function: FunctionSummary? {
        guard unsafe layout.kind == .function else { return nil }
        let function = unsafe FunctionTypeMetadataLayout(address)
        return unsafe FunctionSummary(
            flags: function.flags,
            extendedFlags: function.extendedFlags,
            parameters: (0..<function.parameterCount).map {
                unsafe (MetadataReference(function.parameterType($0)), function.parameterFlags($0))
            },
            result: MetadataReference(function.resultType),
            globalActor: function.globalActor.map(MetadataReference.init),
            thrownError: function.thrownError.map(MetadataReference.init)
        )
    }

    /// The facts of existential type metadata.
    struct ExistentialSummary: Sendable {
        /// `ExistentialTypeFlags`.
        var flags: UInt32
        /// The protocols, in the runtime's canonical order.
        var protocols: [ProtocolReference]
        /// The superclass constraint.
        var superclass: MetadataReference?
    }

    /// Reads existential type metadata.
    var existential: ExistentialSummary? {
        guard unsafe layout.kind == .existential else { return nil }
        let existential = unsafe ExistentialTypeMetadataLayout(address)
        return unsafe ExistentialSummary(
            flags: existential.flags,
            protocols: existential.protocols.map(ProtocolReference.init),
            superclass: existential.superclass.map(MetadataReference.init)
        )
    }

    /// Whether this is an existential of opaque shape (`Any`, `any P`, a constrained
    /// existential of that shape), whose values are always passed indirectly.
    var isOpaqueExistential: Bool { unsafe ExistentialContainerLayout.shape(of: self) == .opaque }

    /// The flags of existential metadata and its only protocol, without building the protocol
    /// list: a first question about `any P` should not pay for an array.
    var existentialHeader: (flags: UInt32, onlyProtocol: ProtocolReference?)? {
        guard unsafe layout.kind == .existential else { return nil }
        let existential = unsafe ExistentialTypeMetadataLayout(address)
        return unsafe (existential.flags, existential.onlyProtocol.map(ProtocolReference.init))
    }

    /// Whether this is `any P` for exactly the given protocol: no superclass, no special
    /// representation (`any Error` is boxed), one witness table.
    /// - Parameter protocolReference: The protocol.
    /// - Returns: `nil` when it is not; otherwise whether the existential is class-bound.
    @inlinable
    @inline(__always)
    func singleProtocolExistentialShape(of protocolReference: ProtocolReference) -> Bool? {
        typealias Flag = ExistentialTypeMetadataLayout.Flag
        guard unsafe layout.kind == .existential else { return nil }
        let existential = unsafe ExistentialTypeMetadataLayout(address)
        // One mask for no superclass, no special protocol and one table; then the one protocol,
        // whose word equals the descriptor's address only for a Swift protocol (Objective-C
        // references have the low bit set).
        let flags = unsafe existential.flags
        guard flags & (Flag.hasSuperclassMask | Flag.specialProtocolMask | Flag.numWitnessTablesMask) == 1,
            unsafe existential.protocolCount == 1,
            unsafe existential.firstProtocolWord == UInt(bitPattern: protocolReference.address)
        else { return nil }
        return flags & Flag.classConstraintMask == 0
    }

    /// The facts of extended existential metadata (a constrained existential, `any P<T>`).
    struct ConstrainedExistentialSummary: Sendable {
        /// How the container holds the value.
        var specialKind: ExtendedExistentialTypeMetadataLayout.SpecialKind?
        /// The protocols its requirement signature requires, in that order.
        var protocols: [ProtocolReference]
        /// Whether it requires a class (an `AnyObject` layout requirement).
        var isClassBound: Bool
        /// The generalization arguments: the types that the shape's generic parameters stand
        /// for, such as `Int` in `any Sequence<Int>`.
        var arguments: [MetadataReference]
    }

    /// Reads extended existential metadata.
    var constrainedExistential: ConstrainedExistentialSummary? {
        guard unsafe layout.kind == .extendedExistential else { return nil }
        let existential = unsafe ExtendedExistentialTypeMetadataLayout(address)
        guard let shape = unsafe existential.shape else { return nil }
        let required = unsafe shape.requiredProtocols
        return unsafe ConstrainedExistentialSummary(
            specialKind: existential.specialKind,
            protocols: required.protocols.compactMap { unsafe $0.map(ProtocolReference.init) },
            isClassBound: required.requiresClass,
            arguments: existential.generalizationArguments.map(MetadataReference.init)
        )
    }

    /// A constrained existential's shape, for its name: the pieces of its existential type's
    /// mangled name, where the generalization signature's parameters stand for the metadata's
    /// generalization arguments, and those arguments.
    var constrainedExistentialShape: (existentialType: [MangledNamePart], arguments: [MetadataReference])? {
        guard unsafe layout.kind == .extendedExistential else { return nil }
        let existential = unsafe ExtendedExistentialTypeMetadataLayout(address)
        guard let name = unsafe existential.shape?.existentialType else { return nil }
        return unsafe (MangledNameLayout(name).parts, existential.generalizationArguments.map(MetadataReference.init))
    }

    /// The instance type of metatype and existential metatype metadata.
    var instanceType: MetadataReference? {
        let kind = unsafe layout.kind
        guard kind == .metatype || kind == .existentialMetatype else { return nil }
        return unsafe MetatypeMetadataLayout(address).instanceType.map(MetadataReference.init)
    }

    /// The count and element of builtin fixed-array metadata.
    var fixedArray: (count: Int, element: MetadataReference)? {
        guard unsafe layout.kind == .fixedArray else { return nil }
        let array = unsafe FixedArrayTypeMetadataLayout(address)
        guard let element = unsafe array.element else { return nil }
        return unsafe (array.count, MetadataReference(element))
    }
}
