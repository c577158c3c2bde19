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

/// A context that encloses a type: a module, an extension, an anonymous (private) context,
/// another type or a protocol.
public struct ContextDescriptor: Hashable, Sendable, CustomStringConvertible {
    let reference: DescriptorReference

    init(_ reference: DescriptorReference) {
        self.reference = reference
    }

    /// The kind of context.
    public enum Kind: Hashable, Sendable {
        /// A module.
        case module
        /// An extension; ``ContextDescriptor/extendedTypeMangledName`` names the extended type.
        case `extension`
        /// An anonymous context, such as the scope of a `private` declaration.
        case anonymous
        /// A protocol.
        case `protocol`
        /// An opaque result type.
        case opaqueType
        /// A class.
        case `class`
        /// A struct.
        case `struct`
        /// An enum.
        case `enum`
        /// A kind this library does not know, with its raw value.
        case other(UInt8)
    }

    /// The kind of context.
    public var kind: Kind {
        switch reference.rawKind {
        case 0: .module
        case 1: .extension
        case 2: .anonymous
        case 3: .protocol
        case 4: .opaqueType
        case 16: .class
        case 17: .struct
        case 18: .enum
        default: .other(reference.rawKind)
        }
    }

    /// The context's name: a module's or type's name, or a placeholder for extensions and anonymous contexts.
    public var name: String { reference.name }

    /// The mangled name of the type an extension extends, printable; `nil` for other kinds.
    public var extendedTypeMangledName: String? { reference.extendedContextMangledName }

    /// An anonymous context's mangled name: its stable identity, the same in every process that
    /// loads the same build, where the runtime names it by its address. It carries the
    /// declaring file's private discriminator (`33_…LL`) that a private type's own mangled name
    /// holds. `nil` for other kinds, and for anonymous contexts compiled without
    /// `-enable-anonymous-context-mangled-names`, which SwiftPM passes to debug builds only.
    public var mangledName: String? { reference.anonymousMangledName }

    /// The name.
    public var description: String { reference.name }
}

/// One generic parameter of a type.
public struct GenericParameter: Hashable, Sendable {
    /// What a generic parameter stands for.
    public enum Kind: Hashable, Sendable {
        /// A type parameter, `T`.
        case type
        /// A parameter pack, `each T`.
        case pack
        /// An integer value parameter, `let N: Int`, with the value's type name.
        case value(String)
    }

    /// What the parameter stands for.
    public let kind: Kind

    /// Whether the parameter's argument is stored in the metadata (false when a same-type
    /// requirement fixes it).
    public let hasKeyArgument: Bool
}

/// One requirement of a generic signature, such as `T: Hashable` or `T == Int`.
public struct GenericRequirement: Hashable, Sendable {
    /// The kind of requirement.
    public enum Kind: Hashable, Sendable {
        /// The subject conforms to a protocol.
        case conformance
        /// The subject is the same type as another.
        case sameType
        /// The subject is a subclass of a class.
        case baseClass
        /// A same-conformance requirement.
        case sameConformance
        /// Two packs have the same shape.
        case sameShape
        /// The subject suppresses invertible protocols (`~Copyable`).
        case invertedProtocols
        /// A layout constraint, such as `AnyObject`.
        case layout
        /// A kind this library does not know, with its raw value.
        case other(UInt8)
    }

    /// The kind.
    public let kind: Kind

    /// The mangled name of the constrained parameter (`x` for the first parameter, `q_` for the second).
    public let subjectMangledName: String

    /// The protocol's qualified name, for conformance requirements.
    public let protocolName: String?

    /// The mangled type, for same-type and base-class requirements, with symbolic references as `<ref>`.
    public let typeMangledName: String?

    /// Whether the requirement contributes a witness table to the metadata's key arguments.
    public let hasKeyArgument: Bool

    init(_ value: DescriptorReference.RequirementValue) {
        switch value.kind {
        case 0: kind = .conformance
        case 1: kind = .sameType
        case 2: kind = .baseClass
        case 3: kind = .sameConformance
        case 4: kind = .sameShape
        case 5: kind = .invertedProtocols
        case 0x1F: kind = .layout
        default: kind = .other(value.kind)
        }
        subjectMangledName = value.subject
        protocolName = value.protocolReference?.qualifiedName
        typeMangledName = value.type
        hasKeyArgument = value.hasKeyArgument
    }
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

/// How many of an enum's cases carry a payload: none, one, or several. The runtime lays out
/// each differently (the single-payload and multi-payload strategies of include/swift/Runtime/Enum.h).
public enum EnumPayloadKind: Hashable, Sendable {
    /// No case carries a payload: the value is its tag.
    case noPayload
    /// One case carries a payload; the empty cases use its spare bits or extra tag bytes.
    case singlePayload
    /// Several cases carry payloads.
    case multiPayload
}

/// The sizes of a generic context (`GenericContextDescriptorHeader`, include/swift/ABI/GenericContext.h):
/// how many parameters and requirements it declares, and how many key arguments its
/// metadata stores after the generic-argument offset.
public struct GenericContextSizes: Hashable, Sendable {
    /// The generic parameters, type, pack and value ones.
    public let parameterCount: Int
    /// The requirements of the generic signature.
    public let requirementCount: Int
    /// The words of key arguments an instantiation stores: one per key parameter, one per
    /// witness table a protocol requirement contributes (packs and values add their own).
    public let keyArgumentCount: Int
    /// Whether some parameter is a pack (`each T`).
    public let hasTypePacks: Bool
    /// Whether the context regains `Copyable` or `Escapable` conditionally.
    public let hasConditionalInvertedProtocols: Bool
    /// Whether some parameter is a value (`let N: Int`).
    public let hasValues: Bool
    /// The generic context's size in bytes: its header (`GenericContextDescriptorHeader`), one
    /// byte per parameter padded to four, twelve per requirement, and the pack shapes,
    /// conditional inverted protocols and value descriptors that follow.
    public let byteSize: Int
    /// The size in bytes of a type's generic context: ``byteSize`` and the type header before
    /// it (`TargetTypeGenericContextDescriptorHeader`: the instantiation cache and the default
    /// instantiation pattern, two relative pointers).
    public let typeContextByteSize: Int
}

/// The header of a type's field descriptor (`FieldDescriptor`,
/// include/swift/RemoteInspection/Records.h): sixteen bytes followed by one record per stored
/// property or case.
public struct FieldDescriptorFacts: Hashable, Sendable {
    /// `FieldDescriptorKind`.
    public enum Kind: Hashable, Sendable {
        /// A struct's stored properties.
        case `struct`
        /// A class's stored properties.
        case `class`
        /// An enum's cases, at most one with a payload.
        case `enum`
        /// An enum's cases, several with payloads.
        case multiPayloadEnum
        /// A protocol's (no records).
        case `protocol`
        /// A class-bound protocol's.
        case classProtocol
        /// An Objective-C protocol's.
        case objCProtocol
        /// An Objective-C class's.
        case objCClass
        /// A kind this library does not know, as stored.
        case unknown(UInt16)

        /// The kind a descriptor stores, as the ABI layer's mirror of `FieldDescriptorKind` reads it.
        init(rawValue: UInt16) {
            switch FieldDescriptorLayout.Kind(rawValue: rawValue) {
            case .struct?: self = .struct
            case .class?: self = .class
            case .enum?: self = .enum
            case .multiPayloadEnum?: self = .multiPayloadEnum
            case .protocol?: self = .protocol
            case .classProtocol?: self = .classProtocol
            case .objCProtocol?: self = .objCProtocol
            case .objCClass?: self = .objCClass
            case nil: self = .unknown(rawValue)
            }
        }
    }

    /// The descriptor's kind.
    public let kind: Kind
    /// Whether the descriptor names its type (`MangledTypeName`); the compiler names every
    /// nominal type's.
    public let hasMangledTypeName: Bool
    /// Whether it names a superclass (`Superclass`): a class with one.
    public let hasSuperclass: Bool
    /// The size of each record in bytes (`FieldRecordSize`): twelve, a `FieldRecord`'s flags,
    /// mangled type name and field name.
    public let recordSize: Int
    /// The number of records (`NumFields`): stored properties, or cases.
    public let recordCount: Int
    /// The descriptor's size in bytes: its header and its records.
    public let byteSize: Int
}

/// The flags of a generic type's default metadata instantiation pattern
/// (`GenericMetadataPatternFlags`, include/swift/ABI/MetadataValues.h).
public struct MetadataPattern: Hashable, Sendable {
    /// The raw `PatternFlags` word.
    public let rawFlags: UInt32

    /// Whether instantiation runs a completion function, as it does for a type whose layout
    /// depends on its generic arguments.
    public let hasCompletionFunction: Bool

    /// Whether the pattern is a class's.
    let isClass: Bool

    /// `HasExtraDataPattern`: whether the pattern carries data to copy past the metadata's
    /// fixed part (a value type's field offset vector, a class's extra members).
    public var hasExtraDataPattern: Bool { rawFlags & (1 << 0) != 0 }

    /// `HasTrailingFlags`: whether instantiated metadata ends with a word of trailing flags.
    public var hasTrailingFlags: Bool { rawFlags & (1 << 1) != 0 }

    /// `Class_HasImmediateMembersPattern`: whether a class's pattern carries its immediate
    /// members; `false` for value types.
    public var hasImmediateMembersPattern: Bool { isClass && rawFlags & (1 << 31) != 0 }

    /// `Value_MetadataKind`: the kind a struct or enum pattern's metadata takes (``TypeMetadata/Kind/struct``,
    /// ``TypeMetadata/Kind/enum`` or ``TypeMetadata/Kind/optional``); `nil` for a class.
    public var valueMetadataKind: TypeMetadata.Kind? {
        isClass ? nil : TypeMetadata.Kind(rawValue: UInt((rawFlags >> 21) & 0x7FF))
    }
}
