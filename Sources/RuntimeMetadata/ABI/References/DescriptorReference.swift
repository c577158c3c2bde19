// DescriptorReference.swift
//
// The safe edge of the ABI layer for context descriptors: a hashable handle whose members
// read ContextDescriptorLayout, TypeContextDescriptorLayout and the kind-specific layouts
// and return safe values. Descriptors live in the read-only data of loaded images, which are
// never unloaded (the runtime does not support unloading Swift images).

internal import CMetadata

/// A handle to a context descriptor.
@safe
struct DescriptorReference: Hashable, Sendable {
    /// The descriptor's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Wraps a descriptor address.
    /// - Parameter address: The descriptor.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// A stable integer identity.
    var identity: UInt { UInt(bitPattern: unsafe address) }

    private var context: ContextDescriptorLayout { unsafe ContextDescriptorLayout(address) }

    /// The raw flag word.
    var rawFlags: UInt32 { unsafe context.flags.rawValue }

    /// The raw `ContextDescriptorKind`.
    var rawKind: UInt8 { unsafe context.flags.rawKind }

    /// Whether the context is generic.
    var isGeneric: Bool { unsafe context.flags.isGeneric }

    /// Whether the descriptor is unique.
    var isUnique: Bool { unsafe context.flags.isUnique }

    /// The kind-specific flags.
    var kindSpecificFlags: UInt16 { unsafe context.flags.kindSpecificFlags }

    /// The parent context.
    var parent: DescriptorReference? { unsafe context.parent.map(DescriptorReference.init) }

    /// Whether this is a struct, enum or class descriptor.
    var isType: Bool { (16...31).contains(rawKind) }

    /// The context's own name: a type's or protocol's name, a module's name, or a description
    /// of an extension or anonymous context.
    var name: String {
        switch unsafe context.flags.kind {
        case .module: return unsafe context.moduleName ?? ""
        case .protocol: return unsafe ProtocolDescriptorLayout(address).name
        case .class, .struct, .enum: return unsafe TypeContextDescriptorLayout(address).name
        case .extension:
            guard let extended = unsafe context.extendedContext else { return "(extension)" }
            return unsafe "(extension of \(MangledNameLayout(extended).printable))"
        case .anonymous: return "(anonymous context)"
        case .opaqueType: return "(opaque type)"
        case nil: return "(unknown context)"
        }
    }

    /// The import-info entries of an imported C type.
    var importInfo: [(kind: Character, value: String)] {
        guard isType else { return [] }
        return unsafe TypeContextDescriptorLayout(address).importInfo
    }

    /// The name of the module that contains the context.
    var moduleName: String { unsafe context.module?.moduleName ?? "" }

    /// The mangled name an extension extends, when this is an extension context.
    var extendedContextMangledName: String? {
        unsafe context.extendedContext.map { unsafe MangledNameLayout($0).printable }
    }

    /// The type an extension extends, when it resolves without generic arguments.
    var extendedType: MetadataReference? {
        guard let name = unsafe context.extendedContext else { return nil }
        let measured = unsafe MangledNameLayout(name)
        return unsafe RuntimeEntryPoints.typeByMangledName(
            measured.address,
            length: measured.length,
            context: address,
            genericArguments: nil
        ).map(MetadataReference.init)
    }

    /// The descriptor of the type an extension extends, when its mangled name refers to one
    /// symbolically (generic extended types do not resolve without arguments).
    var extendedTypeDescriptor: DescriptorReference? {
        guard let name = unsafe context.extendedContext else { return nil }
        return unsafe MangledNameLayout(name).leadingContextDescriptor.map(DescriptorReference.init)
    }

    /// The extended type as the runtime's demangler prints it, for an extension whose mangled
    /// extended context has no symbolic reference (a generic standard-library type, such as
    /// `Swift.Array<A>` for `extension Array where Element: …`).
    var extendedTypeDemangled: String? {
        guard let name = unsafe context.extendedContext else { return nil }
        let text = unsafe MangledNameLayout(name).printable
        guard !text.contains("<ref>"), text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        let symbol = "$s" + text + "D"
        guard let demangled = RuntimeEntryPoints.demangle(symbol), demangled != symbol else { return nil }
        return demangled
    }

    /// Whether this is an extension context.
    var isExtension: Bool { unsafe context.flags.kind == .extension }

    /// Whether this is an anonymous context.
    var isAnonymous: Bool { unsafe context.flags.kind == .anonymous }

    /// Whether this is a module context.
    var isModule: Bool { unsafe context.flags.kind == .module }

    /// Whether this is a protocol context.
    var isProtocol: Bool { unsafe context.flags.kind == .protocol }

    /// The number of stored properties (structs, classes) or cases (enums) the descriptor declares.
    var declaredFieldCount: Int {
        switch unsafe context.flags.kind {
        case .struct: return unsafe StructDescriptorLayout(address).fieldCount
        case .class: return unsafe ClassDescriptorLayout(address).fieldCount
        case .enum:
            let layout = unsafe EnumDescriptorLayout(address)
            return unsafe layout.payloadCaseCount + layout.emptyCaseCount
        default: return 0
        }
    }

    /// `getFieldOffsetVectorOffset` of a struct or class descriptor, in words from the
    /// metadata's address point; `nil` for other kinds.
    var fieldOffsetVectorOffset: Int? {
        switch unsafe context.flags.kind {
        case .struct: return unsafe StructDescriptorLayout(address).fieldOffsetVectorOffset
        case .class: return unsafe ClassDescriptorLayout(address).fieldOffsetVectorOffset
        default: return nil
        }
    }

    /// The sizes and flags of a generic context's header (`GenericContextDescriptorHeader`), and
    /// its byte sizes without and with the type header.
    var genericContextHeader:
        (parameters: Int, requirements: Int, keyArguments: Int, flags: UInt16, byteSize: Int, typeByteSize: Int)?
    {
        guard let context = unsafe genericContext else { return nil }
        return unsafe (
            context.parameterCount, context.requirementCount, context.keyArgumentCount, context.flags,
            context.byteSize, context.typeByteSize ?? context.byteSize
        )
    }

    /// A class descriptor's `NumImmediateMembers`; `nil` for other kinds.
    var classImmediateMemberCount: Int? {
        guard unsafe context.flags.kind == .class else { return nil }
        return unsafe ClassDescriptorLayout(address).numImmediateMembers
    }

    /// The facts of the type's field descriptor's header (include/swift/RemoteInspection/Records.h):
    /// its kind, whether it names its type and a superclass, its record size and count, and its
    /// size in bytes; `nil` without a field descriptor.
    var fieldDescriptorFacts:
        (kind: UInt16, hasMangledTypeName: Bool, hasSuperclass: Bool, recordSize: Int, recordCount: Int, byteSize: Int)?
    {
        guard isType, let descriptor = unsafe TypeContextDescriptorLayout(address).fieldDescriptor else { return nil }
        return unsafe (
            descriptor.rawKind, descriptor.mangledTypeName != nil, descriptor.superclass != nil,
            descriptor.recordSize, descriptor.count, descriptor.totalSize
        )
    }

    /// An anonymous context's mangled name, printable; `nil` for other kinds or when the
    /// compiler emitted none.
    var anonymousMangledName: String? { unsafe context.anonymousMangledName?.printable }

    /// A generic type's default instantiation pattern: its `PatternFlags` and whether it has a
    /// completion function; `nil` for non-generic types and other kinds.
    var metadataPattern: (flags: UInt32, hasCompletionFunction: Bool)? {
        guard isType, let pattern = unsafe genericContext?.defaultInstantiationPattern else { return nil }
        return unsafe (pattern.flags, pattern.hasCompletionFunction)
    }

    /// An enum descriptor's payload and empty case counts; `nil` for other kinds.
    var enumCaseCounts: (payload: Int, empty: Int)? {
        guard unsafe context.flags.kind == .enum else { return nil }
        let layout = unsafe EnumDescriptorLayout(address)
        return unsafe (layout.payloadCaseCount, layout.emptyCaseCount)
    }

    /// A field record read without metadata: its name, `FieldRecordFlags` and mangled type.
    struct FieldRecordFacts: Sendable {
        let name: String
        let flags: UInt32
        /// The mangled type's pieces; `nil` for an enum case without payload.
        let mangledType: [MangledNamePart]?
    }

    /// The records of the type's field descriptor, in declaration order (an enum's payload
    /// cases first); `nil` without a field descriptor.
    var fieldRecordFacts: [FieldRecordFacts]? {
        guard isType, let descriptor = unsafe TypeContextDescriptorLayout(address).fieldDescriptor else { return nil }
        return unsafe descriptor.records.map { record in
            unsafe FieldRecordFacts(
                name: record.name,
                flags: record.flags,
                mangledType: record.mangledTypeName.map { unsafe MangledNameLayout($0).parts }
            )
        }
    }

    /// The pieces of an extension's mangled extended context.
    var extendedContextParts: [MangledNamePart]? {
        unsafe context.extendedContext.map { unsafe MangledNameLayout($0).parts }
    }

    /// Whether the module kept this type's reflection metadata (its field descriptor).
    var hasFieldDescriptor: Bool {
        guard isType else { return false }
        return unsafe TypeContextDescriptorLayout(address).fieldDescriptor != nil
    }

    /// The generic context of a type descriptor.
    var genericContext: GenericContextDescriptorHeaderLayout? {
        switch unsafe context.flags.kind {
        case .struct: return unsafe StructDescriptorLayout(address).trailing.genericContext
        case .enum: return unsafe EnumDescriptorLayout(address).trailing.genericContext
        case .class: return unsafe ClassDescriptorLayout(address).genericContext
        default: return nil
        }
    }

    /// The `GenericParamDescriptor` bytes.
    var genericParameters: [UInt8] { unsafe genericContext?.parameters ?? [] }

    /// The number of key-argument words.
    var genericKeyArgumentCount: Int { unsafe genericContext?.keyArgumentCount ?? 0 }

    /// The number of key generic parameters of the context, its parents' included: the type
    /// arguments its metadata stores (witness tables not counted).
    var keyGenericParameterCount: Int { unsafe genericContext?.parameters.count { $0 & 0x80 != 0 } ?? 0 }

    /// Whether the context has a generic context header.
    var hasGenericContext: Bool { unsafe genericContext != nil }

    /// The generic value parameter types (0 is `Int`).
    var genericValueTypes: [UInt32] { unsafe genericContext?.valueTypes ?? [] }

    /// One generic requirement, in safe form.
    struct RequirementValue: Hashable, Sendable {
        /// `GenericRequirementKind`.
        var kind: UInt8
        /// The subject's mangled name, printable.
        var subject: String
        /// The protocol of a protocol requirement.
        var protocolReference: ProtocolReference?
        /// The mangled type of a same-type or base-class requirement, printable.
        var type: String?
        /// Whether the requirement contributes a key argument.
        var hasKeyArgument: Bool
        /// Whether the subject is a pack.
        var isPackRequirement: Bool

        /// Reads a requirement descriptor.
        /// - Parameter requirement: The descriptor.
        init(_ requirement: GenericRequirementDescriptorLayout) {
            kind = unsafe requirement.kind
            subject = unsafe requirement.param.map { unsafe MangledNameLayout($0).printable } ?? ""
            protocolReference = unsafe requirement.protocolDescriptor.map(ProtocolReference.init)
            type = unsafe requirement.type.map { unsafe MangledNameLayout($0).printable }
            hasKeyArgument = unsafe requirement.flags & 0x80 != 0
            isPackRequirement = unsafe requirement.flags & 0x20 != 0
        }
    }

    /// The requirements of the generic signature.
    var genericRequirements: [RequirementValue] {
        guard let context = unsafe genericContext else { return [] }
        return unsafe context.requirements.map { unsafe RequirementValue($0) }
    }

    /// The `InvertibleProtocolSet` of a struct or enum that suppresses `Copyable` or `Escapable`.
    var invertibleProtocols: UInt16? {
        switch unsafe context.flags.kind {
        case .struct: return unsafe StructDescriptorLayout(address).trailing.invertibleProtocols
        case .enum: return unsafe EnumDescriptorLayout(address).trailing.invertibleProtocols
        default: return nil
        }
    }

    /// The conditional invertible-protocol set of the generic context (protocols regained under conditions).
    var conditionalInvertibleProtocols: UInt16? { unsafe genericContext?.conditionalInvertibleProtocols }

    /// The mangled superclass name of a class descriptor, printable.
    var superclassMangledName: String? {
        guard unsafe context.flags.kind == .class else { return nil }
        return unsafe ClassDescriptorLayout(address).superclassType.map { unsafe MangledNameLayout($0).printable }
    }

    /// Whether the type has a metadata access function. The compiler omits it for types whose
    /// metadata is never needed; such types have descriptors but no metadata.
    var hasAccessFunction: Bool {
        guard isType else { return false }
        return unsafe TypeContextDescriptorLayout(address).accessFunction != nil
    }

    /// Calls the access function of a non-generic type for complete metadata.
    /// Whether the descriptor belongs to an image read from a file (``Image/read(_:)``), whose
    /// types have no metadata.
    var isInReadImage: Bool { unsafe RuntimeEntryPoints.isInReadImage(address) }

    /// Whether the descriptor is a stand-in that a read image's file names but does not define
    /// (StandInDescriptorLayout.swift): its name and parents are known, nothing else.
    var isStandIn: Bool { unsafe isInReadImage && cmd_isStandInDescriptor(address) }

    var nonGenericMetadata: MetadataReference? {
        guard isType, !isGeneric, let function = unsafe TypeContextDescriptorLayout(address).accessFunction else {
            return nil
        }
        return unsafe RuntimeEntryPoints.callAccessFunction(function, arguments: []).map(MetadataReference.init)
    }

    /// Calls the access function of a generic type with its key arguments.
    /// - Parameter arguments: The key arguments: pack shapes, parameters, witness tables.
    /// - Returns: Complete metadata, or `nil`.
    func metadata(keyArguments arguments: [UInt]) -> MetadataReference? {
        guard isType, let function = unsafe TypeContextDescriptorLayout(address).accessFunction else { return nil }
        return unsafe RuntimeEntryPoints.callAccessFunction(function, arguments: arguments).map(MetadataReference.init)
    }
}

/// A handle to a protocol descriptor.
@safe
@usableFromInline
struct ProtocolReference: Hashable, Sendable {
    /// The descriptor's address.
    @usableFromInline
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Wraps a protocol descriptor address.
    /// - Parameter address: The descriptor.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    private var layout: ProtocolDescriptorLayout { unsafe ProtocolDescriptorLayout(address) }

    /// A stable integer identity.
    @inlinable
    var identity: UInt { UInt(bitPattern: unsafe address) }

    /// The context descriptor handle.
    var descriptor: DescriptorReference { unsafe DescriptorReference(address) }

    /// The protocol whose context descriptor this is; the caller has checked its kind.
    /// - Parameter descriptor: A protocol's context descriptor.
    init(_ descriptor: DescriptorReference) {
        unsafe self.address = descriptor.address
    }

    /// The protocol's qualified name, parents included (`Swift.Hashable`).
    var qualifiedName: String { descriptor.qualifiedName }

    /// Whether the protocol is class-bound.
    var isClassBound: Bool { unsafe layout.isClassBound }

    /// The names of the associated types.
    var associatedTypeNames: [String] { unsafe layout.associatedTypeNames }

    /// The number of witness-table requirements.
    var requirementCount: Int { unsafe layout.requirementCount }

}

extension DescriptorReference {
    /// Where the descriptor lies: its image's file name and its offset from the image's base.
    var imageLocation: (file: String, offset: UInt)? { unsafe ImageSections.location(of: address) }

    /// The identity of the context at an offset of the loaded image of a file name.
    /// - Parameters:
    ///   - file: The image's file name.
    ///   - offset: The offset from the image's base.
    /// - Returns: The address, or `nil` when no such image is loaded.
    static func identity(inImageNamed file: String, offset: UInt) -> UInt? {
        unsafe ImageSections.address(inImageNamed: file, offset: offset)
    }
}

extension DescriptorReference {
    /// Whether two handles address the same record.
    static func == (lhs: DescriptorReference, rhs: DescriptorReference) -> Bool { unsafe lhs.address == rhs.address }

    /// Hashes the address.
    func hash(into hasher: inout Hasher) { hasher.combine(UInt(bitPattern: unsafe address)) }
}

extension ProtocolReference {
    /// Whether two handles address the same record.
    @usableFromInline
    static func == (lhs: ProtocolReference, rhs: ProtocolReference) -> Bool { unsafe lhs.address == rhs.address }

    /// Hashes the address.
    @usableFromInline
    func hash(into hasher: inout Hasher) { hasher.combine(UInt(bitPattern: unsafe address)) }
}
