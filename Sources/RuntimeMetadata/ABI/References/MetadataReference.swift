// MetadataReference.swift
//
// The safe edge of the ABI layer for type metadata: a hashable handle to a metadata record
// whose members read the layouts in ABI/Metadata and ABI/Descriptors and return only safe
// values (integers, strings, other handles). The public layer holds these handles and never
// sees the address inside. Metadata records are immutable once complete and live for the
// life of the process, which is what makes holding the address sound.

/// A handle to a complete type metadata record.
@usableFromInline
@safe
struct MetadataReference: Hashable, Sendable {
    /// The metadata's address point.
    @usableFromInline
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Wraps an address known to be complete metadata.
    /// - Parameter address: The address point.
    @inlinable
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// The metadata of a copyable type.
    /// - Parameter type: The type.
    @inlinable
    init(_ type: Any.Type) {
        unsafe self.address = unsafeBitCast(type, to: UnsafeRawPointer.self)
    }

    /// The metadata of any type, noncopyable ones included.
    /// - Parameter type: The type.
    init<T: ~Copyable>(noncopyable type: T.Type) {
        unsafe self.address = unsafeBitCast(type, to: UnsafeRawPointer.self)
    }

    /// Resolves a plain mangled name (no symbolic references) to complete metadata.
    /// - Parameter mangledName: The name, without the `$s` prefix.
    init?(mangledName: String) {
        guard let address = unsafe RuntimeEntryPoints.typeByMangledName(mangledName) else { return nil }
        unsafe self.init(address)
    }

    /// A stable integer identity for hashing and caching.
    @inlinable
    var identity: UInt { UInt(bitPattern: unsafe address) }

    /// The layout view.
    @inlinable
    var layout: MetadataLayout { unsafe MetadataLayout(address) }

    /// The raw kind word, with class isa pointers reported as 0.
    @inlinable
    var rawKind: UInt {
        let kind = unsafe layout.kind
        return kind.isClass ? 0 : kind.rawValue
    }

    /// Whether the metadata has a usable value witness table, which every copy, read or write
    /// of a value needs.
    var hasValueWitnesses: Bool { unsafe layout.valueWitnesses != nil }

    /// The metatype value, for a copyable type.
    ///
    /// `Any.Type` cannot hold a noncopyable metatype (the DocC article "Understanding the ABI
    /// layer"), so callers check copyability first.
    var metatype: Any.Type { unsafe unsafeBitCast(address, to: Any.Type.self) }

    /// The name as the runtime's `swift_getTypeName` prints it, for a type it can name
    /// (``qualifiedName`` decides).
    var runtimeQualifiedName: String { unsafe RuntimeEntryPoints.typeName(address, qualified: true) }

    /// The runtime's mangled name, without `$s`, for a type it can name (``mangledName``
    /// decides).
    var runtimeMangledName: String? { unsafe RuntimeEntryPoints.mangledTypeName(address) }

    // MARK: - Structural metadata from parts

    /// The metadata of a tuple, from `swift_getTupleTypeMetadata`.
    /// - Parameters:
    ///   - elements: The element types.
    ///   - labels: One label per element, empty for none.
    /// - Returns: The tuple's metadata, or `nil`.
    static func tuple(_ elements: [MetadataReference], labels: [String]) -> MetadataReference? {
        unsafe RuntimeEntryPoints.tupleType(elements: elements.map { unsafe $0.address }, labels: labels)
            .map(MetadataReference.init)
    }

    /// The metadata of `Builtin.FixedArray<count, element>`.
    /// - Parameters:
    ///   - count: The number of elements.
    ///   - element: The element type.
    /// - Returns: The metadata, or `nil` for a negative count.
    static func fixedArray(count: Int, element: MetadataReference) -> MetadataReference? {
        unsafe RuntimeEntryPoints.fixedArray(count: count, element: element.address).map(MetadataReference.init)
    }

    /// The metadata of `T.Type`.
    /// - Parameter instance: `T`.
    /// - Returns: The metatype's metadata.
    static func metatype(of instance: MetadataReference) -> MetadataReference {
        unsafe MetadataReference(RuntimeEntryPoints.metatype(of: instance.address))
    }

    /// The metadata of `any P.Type`.
    /// - Parameter instance: `any P`.
    /// - Returns: The existential metatype's metadata.
    static func existentialMetatype(of instance: MetadataReference) -> MetadataReference {
        unsafe MetadataReference(RuntimeEntryPoints.existentialMetatype(of: instance.address))
    }

    /// The metadata of an existential type, its protocols put in the compiler's canonical order.
    ///
    /// `swift_getExistentialTypeMetadata` uniques the list it is given without reordering it,
    /// so the protocols are sorted as `TypeDecl::compare` (swiftlang/swift lib/AST/Decl.cpp)
    /// orders them: shallower contexts first, then by module name, then by enclosing type,
    /// then by name.
    /// - Parameters:
    ///   - protocols: The protocols.
    ///   - classBound: Whether the existential is class-constrained.
    ///   - superclass: The superclass constraint.
    /// - Returns: The existential's metadata, or `nil` when the runtime could not build it.
    static func existential(
        protocols: [ProtocolReference],
        classBound: Bool,
        superclass: MetadataReference?
    ) -> MetadataReference? {
        let address = unsafe RuntimeEntryPoints.existentialType(
            protocols: protocols.sorted(by: ProtocolReference.canonicallyPrecedes).map { unsafe $0.address },
            classBound: classBound,
            superclass: superclass?.address
        )
        return unsafe address.map(MetadataReference.init)
    }

    // MARK: - Value witnesses

    /// The facts of the value witness table.
    struct ValueWitnessSummary: Hashable, Sendable {
        /// `size`.
        var size: Int
        /// `stride`.
        var stride: Int
        /// `flags`.
        var flags: UInt32
        /// `extraInhabitantCount`.
        var extraInhabitantCount: Int
    }

    /// Reads the value witness table's size, stride, flags and extra inhabitants.
    var valueWitnesses: ValueWitnessSummary {
        guard let table = unsafe layout.valueWitnesses else {
            if unsafe layout.isBlockFunctionWithoutWitnesses {
                // A block is one retained pointer; see MetadataLayout.valueWitnesses.
                let word = MemoryLayout<UInt>.size
                return ValueWitnessSummary(
                    size: word,
                    stride: word,
                    flags: UInt32(word - 1) | ValueWitnessFlags.isNonPOD,
                    extraInhabitantCount: 0
                )
            }
            return ValueWitnessSummary(size: 0, stride: 1, flags: 0, extraInhabitantCount: 0)
        }
        return unsafe ValueWitnessSummary(
            size: table.size,
            stride: table.stride,
            flags: table.flags.rawValue,
            extraInhabitantCount: Int(table.extraInhabitantCount)
        )
    }

    // MARK: - Descriptors

    /// The nominal type descriptor of struct, enum, optional and class metadata.
    var typeDescriptor: DescriptorReference? {
        let kind = unsafe layout.kind
        if kind.isValueNominal {
            return unsafe layout.valueTypeDescriptor.map(DescriptorReference.init)
        }
        if kind.isClass {
            let classLayout = unsafe ClassMetadataLayout(address)
            guard unsafe classLayout.isSwiftClass else { return nil }
            return unsafe classLayout.description.map(DescriptorReference.init)
        }
        return nil
    }

    /// The word index of the generic arguments, for nominal types.
    private var genericArgumentOffset: Int? {
        guard let descriptor = typeDescriptor else { return nil }
        if unsafe layout.kind.isClass {
            return unsafe ClassDescriptorLayout(descriptor.address).genericArgumentOffset
        }
        return unsafe StructMetadataLayout.genericArgumentOffset
    }

    /// The address of the generic argument vector, as field type names expect it.
    var genericArgumentVector: UnsafeRawPointer? {
        guard let offset = genericArgumentOffset, typeDescriptor?.isGeneric == true else { return nil }
        return unsafe address + offset * MemoryLayout<UInt>.size
    }

    /// One generic argument as the metadata stores it.
    enum GenericArgumentValue: Hashable, Sendable {
        /// A type parameter's metadata.
        case type(MetadataReference)
        /// A parameter pack's element metadata.
        case pack([MetadataReference])
        /// An integer value parameter.
        case value(Int)
    }

    /// The generic arguments, one per key parameter of the descriptor, in declaration order.
    var genericArguments: [GenericArgumentValue] {
        guard let descriptor = typeDescriptor, let context = unsafe descriptor.genericContext,
            let vector = unsafe genericArgumentVector
        else { return [] }
        let shapeCount = unsafe context.shapeClassCount
        let packs = unsafe context.packShapes
        var slot = shapeCount
        var result: [GenericArgumentValue] = []
        for parameter in unsafe context.parameters where parameter & 0x80 != 0 {
            defer { slot += 1 }
            let word: UInt = unsafe vector.read(at: slot * MemoryLayout<UInt>.size)
            switch parameter & 0x3F {
            case 1:
                // MetadataPackPointer: bit 0 marks a heap-allocated pack; the length is the
                // count of the pack's shape class, stored first in the key arguments.
                let shape = packs.first { Int($0.index) == slot }.map { Int($0.shapeClass) } ?? 0
                let length: UInt = unsafe vector.read(at: shape * MemoryLayout<UInt>.size)
                guard let pack = unsafe UnsafeRawPointer(bitPattern: word & ~1) else {
                    result.append(.pack([]))
                    continue
                }
                let elements = (0..<Int(length)).compactMap {
                    unsafe pack.pointer(at: $0 * 8).map(MetadataReference.init)
                }
                result.append(.pack(elements))
            case 2:
                result.append(.value(Int(bitPattern: word)))
            default:
                guard let metadata = unsafe UnsafeRawPointer(bitPattern: word) else { continue }
                result.append(.type(unsafe MetadataReference(metadata)))
            }
        }
        return result
    }

    /// Resolves a mangled name found in this type's descriptor (field, case or superclass types).
    /// - Parameter name: The measured name.
    /// - Returns: The metadata, or `nil` when the runtime cannot resolve it.
    func resolve(_ name: MangledNameLayout) -> MetadataReference? {
        // The type's first parameter, as most conditional requirements name it, is read from
        // its argument, without the runtime's demangler.
        if unsafe name.isFirstGenericParameter, let argument = firstTypeArgument { return argument }
        return unsafe resolvedByRuntime(name)
    }

    /// ``resolve(_:)`` through the runtime's `swift_getTypeByMangledNameInContext`.
    /// - Parameter name: The measured name.
    /// - Returns: The metadata, or `nil` when the runtime cannot resolve it.
    func resolvedByRuntime(_ name: MangledNameLayout) -> MetadataReference? {
        let context = typeDescriptor
        let resolved = unsafe RuntimeEntryPoints.typeByMangledName(
            name.address,
            length: name.length,
            context: context?.address,
            genericArguments: genericArgumentVector
        )
        return unsafe resolved.map(MetadataReference.init)
    }

    /// The argument of the type's first generic parameter (τ_0_0) when it is a type parameter
    /// with a key argument, and so the first word of the generic argument vector; `nil`
    /// otherwise (a pack, a value, a parameter fixed by a same-type requirement), for the
    /// runtime to resolve.
    var firstTypeArgument: MetadataReference? {
        guard let context = unsafe typeDescriptor?.genericContext, unsafe context.parameterCount > 0,
            unsafe context.parameter(at: 0) == 0x80, let vector = unsafe genericArgumentVector
        else { return nil }
        return unsafe vector.pointer(at: 0).map(MetadataReference.init)
    }

    /// The type a stored property or case of this nominal type declares, resolved with every
    /// type parameter of the type's generic context replaced by `marker`: the declaration's
    /// abstraction pattern. Where the result holds `marker`, the declaration names a type
    /// parameter there, and values are stored in the most general form (a function as generic
    /// code calls it); elsewhere, as the declared structure has them.
    ///
    /// The metadata's own key arguments are copied (value parameters and witness tables kept)
    /// and the type parameters' words replaced, then the record's mangled name is resolved
    /// against that copy, as ``resolve(_:)`` resolves it against the real arguments.
    /// - Parameters:
    ///   - index: The record's position in the type's field descriptor.
    ///   - marker: A type no declaration names.
    /// - Returns: The pattern; the declared type itself for a type without generic parameters;
    ///   `nil` when the record has no type, the context has a parameter pack, or the runtime
    ///   cannot resolve the name with the marker (a requirement the marker does not meet).
    func declaredPattern(ofRecordAt index: Int, marker: MetadataReference) -> MetadataReference? {
        guard let descriptor = typeDescriptor,
            let fields = unsafe TypeContextDescriptorLayout(descriptor.address).fieldDescriptor
        else { return nil }
        let records = unsafe fields.records
        guard unsafe records.indices.contains(index), let namePointer = unsafe records[index].mangledTypeName else {
            return nil
        }
        let name = unsafe MangledNameLayout(namePointer)
        guard let context = unsafe descriptor.genericContext, let vector = unsafe genericArgumentVector else {
            return unsafe resolve(name)
        }
        let count = unsafe context.keyArgumentCount
        let words = GenericArgumentVector(count: count, witnessSlot: count)
        for slot in 0..<count {
            words.store(unsafe vector.read(at: slot * MemoryLayout<UInt>.size), at: slot)
        }
        var slot = unsafe context.shapeClassCount
        for parameter in unsafe context.parameters where parameter & 0x80 != 0 {
            defer { slot += 1 }
            switch parameter & 0x3F {
            case 0: words.store(marker.identity, at: slot)
            case 2: continue
            default: return nil
            }
        }
        return unsafe words.resolve(name, in: descriptor)
    }

    // MARK: - Classes

    /// The superclass of class metadata.
    var superclass: MetadataReference? {
        guard unsafe layout.kind.isClass else { return nil }
        return unsafe ClassMetadataLayout(address).superclass.map(MetadataReference.init)
    }

    /// `InstanceSize` and `InstanceAlignMask + 1` of Swift class metadata.
    /// The class metadata's own facts, for Swift classes (`TargetClassMetadata`).
    var classMetadataFacts: ClassMetadataFacts? {
        guard unsafe layout.kind.isClass else { return nil }
        let classLayout = unsafe ClassMetadataLayout(address)
        guard unsafe classLayout.isSwiftClass else { return nil }
        let isGeneric = typeDescriptor?.isGeneric == true
        return unsafe ClassMetadataFacts(
            kindWord: classLayout.kindWord,
            flags: classLayout.flags,
            instanceAddressPoint: classLayout.instanceAddressPoint,
            instanceSize: classLayout.instanceSize,
            instanceAlignment: classLayout.instanceAlignMask + 1,
            classSize: classLayout.classSize,
            classAddressPoint: classLayout.classAddressPoint,
            genericArgumentOffset: isGeneric ? genericArgumentOffset : nil
        )
    }
}

extension MetadataReference {
    /// Whether two handles address the same record.
    @usableFromInline
    static func == (lhs: MetadataReference, rhs: MetadataReference) -> Bool { unsafe lhs.address == rhs.address }

    /// Hashes the address.
    @usableFromInline
    func hash(into hasher: inout Hasher) { hasher.combine(UInt(bitPattern: unsafe address)) }
}

/// The words of Swift class metadata that ``ClassLayout`` presents, read once.
struct ClassMetadataFacts: Hashable, Sendable {
    var kindWord: UInt
    var flags: UInt32
    var instanceAddressPoint: Int
    var instanceSize: Int
    var instanceAlignment: Int
    var classSize: Int
    var classAddressPoint: Int
    var genericArgumentOffset: Int?
}
