// TypeDescriptor.swift

/// A nominal type's context descriptor: the compile-time record of a struct, enum or class,
/// shared by every instantiation of a generic type.
public struct TypeDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// The descriptor handle.
    let reference: DescriptorReference

    init(_ reference: DescriptorReference) {
        self.reference = reference
    }

    /// The kind of nominal type a descriptor declares.
    public enum Kind: Hashable, Sendable {
        /// A struct.
        case `struct`
        /// An enum.
        case `enum`
        /// A class.
        case `class`
        /// Another kind of type context, with its raw `ContextDescriptorKind`.
        case other(UInt8)
    }

    /// The kind of nominal type.
    public var kind: Kind {
        switch reference.rawKind {
        case 16: .class
        case 17: .struct
        case 18: .enum
        default: .other(reference.rawKind)
        }
    }

    /// The unqualified name, such as `Dictionary`.
    public var name: String { reference.name }

    /// The name the runtime prints for the type, generic arguments left out, such as
    /// `Swift.Dictionary.Index`.
    ///
    /// It is `String(reflecting:)`'s spelling: a type nested in an extension of another
    /// module's type is `(extension in Module):Swift.Int.Nested`, a private type's anonymous
    /// context is `(unknown context at $…)`, and imported C types use their ABI names.
    public var qualifiedName: String { reference.qualifiedName }

    /// ``qualifiedName`` with each anonymous context spelled relative to its image instead of by
    /// its address: `Module.(unknown context at libModule.so+0x1a2b).Private`.
    ///
    /// A private type's anonymous context is printed by the runtime with its address, which
    /// changes with every process. This spelling names the same context in any process that
    /// loads the same file, and ``TypeMetadata/init(named:)`` accepts it. For a type outside
    /// anonymous contexts it is ``qualifiedName``.
    public var portableName: String { reference.portableQualifiedName }

    /// The name of the module that declares the type.
    public var moduleName: String { reference.moduleName }

    /// The enclosing contexts from the innermost outwards, ending with the module.
    public var parents: [ContextDescriptor] {
        var result: [ContextDescriptor] = []
        var current = reference.parent
        while let context = current, result.count < 64 {
            result.append(ContextDescriptor(context))
            current = context.parent
        }
        return result
    }

    /// Whether the type is generic; always `false` for a stand-in (``isStandIn``), whose
    /// generic signature is not known.
    public var isGeneric: Bool { reference.isGeneric }

    /// Whether the descriptor stands in for another module's type that an image read with
    /// ``Image/read(_:)`` names, such as the type of a retroactive conformance: it has the
    /// type's name, kind and enclosing contexts, read from the symbol the file names, and
    /// nothing else (no generic parameters, fields or metadata).
    public var isStandIn: Bool { reference.isStandIn }

    /// Whether the descriptor is unique (not a synthesized copy for an imported type).
    public var isUnique: Bool { reference.isUnique }

    /// The raw context descriptor flags.
    public var flags: UInt32 { reference.rawFlags }

    /// The kind-specific flags (`TypeContextDescriptorFlags`).
    public var kindSpecificFlags: UInt16 { reference.kindSpecificFlags }

    /// Whether the type is an actor (`TypeContextDescriptorFlags::Class_IsActor`,
    /// include/swift/ABI/MetadataValues.h); `false` for other classes and other kinds.
    public var isActor: Bool { kind == .class && reference.kindSpecificFlags & (1 << 7) != 0 }

    /// Whether the module recorded reflection metadata (field names and types) for the type.
    public var hasReflectionMetadata: Bool { reference.hasFieldDescriptor }

    /// The number of stored properties (structs and classes, own properties only) or cases (enums).
    public var declaredFieldCount: Int { reference.declaredFieldCount }

    /// Where the field offset vector of this struct's or class's metadata starts, in words from
    /// the metadata's address point; `nil` for other kinds. A struct stores 32-bit offsets
    /// there, a class word-sized ones; for a class whose superclass is resilient the start is
    /// found at run time from the superclass's metadata bounds.
    public var fieldOffsetVectorOffset: Int? { reference.fieldOffsetVectorOffset }

    /// The sizes of this type's generic context; `nil` when the type is not generic.
    public var genericContext: GenericContextSizes? {
        reference.genericContextHeader.map { header in
            GenericContextSizes(
                parameterCount: header.parameters,
                requirementCount: header.requirements,
                keyArgumentCount: header.keyArguments,
                hasTypePacks: header.flags & 0x1 != 0,
                hasConditionalInvertedProtocols: header.flags & 0x2 != 0,
                hasValues: header.flags & 0x4 != 0,
                byteSize: header.byteSize,
                typeContextByteSize: header.typeByteSize
            )
        }
    }

    /// The number of words a class adds to its metadata after its superclass's: its generic
    /// arguments, field offsets and vtable entries (`NumImmediateMembers`,
    /// include/swift/ABI/Metadata.h). A class's metadata is that many words larger than its
    /// superclass's (``ClassLayout/size``). `nil` for other kinds.
    public var immediateMemberCount: Int? { reference.classImmediateMemberCount }

    /// The header of the type's field descriptor, the record of its stored properties or cases
    /// that reflection reads (`FieldDescriptor`, include/swift/RemoteInspection/Records.h);
    /// `nil` when the module was built without reflection metadata.
    public var fieldDescriptor: FieldDescriptorFacts? {
        reference.fieldDescriptorFacts.map { facts in
            FieldDescriptorFacts(
                kind: FieldDescriptorFacts.Kind(rawValue: facts.kind),
                hasMangledTypeName: facts.hasMangledTypeName,
                hasSuperclass: facts.hasSuperclass,
                recordSize: facts.recordSize,
                recordCount: facts.recordCount,
                byteSize: facts.byteSize
            )
        }
    }

    /// The pattern the runtime instantiates this generic type's metadata from; `nil` when the
    /// type is not generic.
    public var metadataPattern: MetadataPattern? {
        reference.metadataPattern.map {
            MetadataPattern(
                rawFlags: $0.flags,
                hasCompletionFunction: $0.hasCompletionFunction,
                isClass: kind == .class
            )
        }
    }

    /// The number of an enum's cases that carry a payload; `nil` for other kinds.
    public var payloadCaseCount: Int? { reference.enumCaseCounts?.payload }

    /// The number of an enum's cases without a payload; `nil` for other kinds.
    public var emptyCaseCount: Int? { reference.enumCaseCounts?.empty }

    /// How many of an enum's cases carry a payload; `nil` for other kinds.
    public var enumPayloadKind: EnumPayloadKind? {
        guard let payload = reference.enumCaseCounts?.payload else { return nil }
        switch payload {
        case 0: return .noPayload
        case 1: return .singlePayload
        default: return .multiPayload
        }
    }

    /// The generic parameters in declaration order.
    public var genericParameters: [GenericParameter] {
        var valueIndex = 0
        let valueTypes = reference.genericValueTypes
        return reference.genericParameters.map { raw in
            let kind: GenericParameter.Kind
            switch raw & 0x3F {
            case 1: kind = .pack
            case 2:
                kind = .value(valueIndex < valueTypes.count && valueTypes[valueIndex] == 0 ? "Swift.Int" : "unknown")
                valueIndex += 1
            default: kind = .type
            }
            return GenericParameter(kind: kind, hasKeyArgument: raw & 0x80 != 0)
        }
    }

    /// The requirements of the generic signature (`where` clauses and constraints).
    public var genericRequirements: [GenericRequirement] {
        reference.genericRequirements.map(GenericRequirement.init)
    }

    /// Whether the type declaration suppresses `Copyable` (`~Copyable`), possibly regaining it conditionally.
    public var suppressesCopyable: Bool { (reference.invertibleProtocols ?? 0) & 0x1 != 0 }

    /// Whether the type declaration suppresses `Escapable` (`~Escapable`).
    public var suppressesEscapable: Bool { (reference.invertibleProtocols ?? 0) & 0x2 != 0 }

    /// Whether the type has runtime metadata at all. The compiler omits the metadata access
    /// function of a type whose metadata nothing needs (an internal type never used as a value,
    /// a caseless namespace enum), leaving only its descriptor.
    public var hasMetadata: Bool { reference.hasAccessFunction }

    /// The metadata of a non-generic type, from its access function; `nil` for generic types
    /// and types without metadata.
    public var metadata: TypeMetadata? { reference.nonGenericMetadata.map(TypeMetadata.init) }

    /// The qualified name.
    public var description: String { reference.qualifiedName }
}

extension TypeDescriptor {
    /// The nominal type descriptors of every loaded image, in the runtime's image order.
    ///
    /// The list joins each image's `swift5_type_metadata` records, its `swift5_type_metadata_2`
    /// records (noncopyable types, in a section the runtime does not register, found through the
    /// image file's section headers), and the types its field descriptors name.
    /// - Returns: The descriptors, unique types only once.
    public static func allLoaded() -> [TypeDescriptor] {
        var seen = Set<DescriptorReference>()
        return LoadedImages.typeDescriptors.compactMap { seen.insert($0).inserted ? TypeDescriptor($0) : nil }
    }
}

extension TypeDescriptor {
    /// Instantiates a generic type with arguments for its generic parameters, outer types' first.
    ///
    /// Every requirement of the generic signature is checked first, conformances with the
    /// runtime's own lookup, so a violation is reported instead of producing broken metadata:
    ///
    /// ```swift
    /// let set = try TypeMetadata(Set<Int>.self).descriptor!.instantiate(with: [.type(TypeMetadata(String.self))])
    /// ```
    /// - Parameter arguments: One argument per generic parameter: a type, a pack or an integer.
    /// - Returns: The instantiated type.
    /// - Throws: ``RuntimeMetadataError/instantiationFailed(typeName:reason:)`` naming the mismatch or
    ///   the unmet requirement, or for a type of an image read with ``Image/read(_:)``.
    public func instantiate(with arguments: [GenericArgument]) throws(RuntimeMetadataError) -> TypeMetadata {
        guard !reference.isInReadImage else {
            throw .instantiationFailed(
                typeName: portableName,
                reason: "its image was read from a file, not loaded, and a read image's types have no metadata"
            )
        }
        let values: [MetadataReference.GenericArgumentValue] = arguments.map { argument in
            switch argument {
            case .type(let type): .type(type.reference)
            case .pack(let types): .pack(types.map(\.reference))
            case .value(let value): .value(value)
            }
        }
        switch reference.instantiate(values) {
        case .success(let metadata):
            return TypeMetadata(metadata)
        case .failure(let failure):
            throw .instantiationFailed(typeName: qualifiedName, reason: TypeMetadata.reason(failure))
        }
    }
}
