// ConformanceReference.swift
//
// The safe edge of the ABI layer for protocol conformances: handles to conformance
// descriptors (ProtocolConformanceDescriptorLayout) and to the witness tables the runtime
// instantiates for a type, and the checked construction of existential values from a type
// or value and a witness table (the containers of swiftlang/swift include/swift/ABI/Metadata.h:
// an existential metatype is the metadata followed by one witness table per protocol, an
// opaque existential is a three-word buffer, the metadata and the witness tables, and a
// class existential is the object followed by the witness tables).

/// A handle to a protocol conformance descriptor.
@safe
struct ConformanceRecordReference: Hashable, Sendable {
    /// The descriptor's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Wraps a conformance descriptor address.
    /// - Parameter address: The descriptor.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    private var layout: ProtocolConformanceDescriptorLayout { unsafe ProtocolConformanceDescriptorLayout(address) }

    /// The conformed protocol.
    var protocolReference: ProtocolReference? { unsafe layout.protocolDescriptor.map(ProtocolReference.init) }

    /// The conforming type's descriptor, or `nil` for Objective-C class references.
    var typeDescriptor: DescriptorReference? { unsafe layout.typeDescriptor.map(DescriptorReference.init) }

    /// `ConformanceFlags`.
    var flags: UInt32 { unsafe layout.flags }

    /// The raw `TypeReferenceKind`.
    var typeReferenceKind: UInt32 { unsafe layout.typeReferenceKind }

    /// Whether a witness table pattern is recorded.
    var hasWitnessTablePattern: Bool { unsafe layout.witnessTablePattern != nil }

    /// The module that declares a retroactive conformance.
    var retroactiveContext: DescriptorReference? { unsafe layout.retroactiveContext.map(DescriptorReference.init) }

    /// The conditional requirements.
    var conditionalRequirements: [DescriptorReference.RequirementValue] {
        unsafe layout.conditionalRequirements.map { unsafe DescriptorReference.RequirementValue($0) }
    }

}

extension ConformanceRecordReference {
    /// Whether two handles address the same descriptor.
    static func == (lhs: ConformanceRecordReference, rhs: ConformanceRecordReference) -> Bool {
        unsafe lhs.address == rhs.address
    }

    /// Hashes the address.
    func hash(into hasher: inout Hasher) { hasher.combine(UInt(bitPattern: unsafe address)) }
}

/// A handle to a witness table the runtime instantiated for a type.
@safe
struct WitnessTableReference: Hashable, Sendable {
    /// The table's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Wraps a witness table address.
    /// - Parameter address: The table.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// Wraps the address of a witness table that `identity` returned.
    /// - Parameter identity: A nonzero table address.
    init(identity: UInt) {
        unsafe self.address = UnsafeRawPointer(bitPattern: identity)!
    }

    /// The table's address as an integer, for atomic storage.
    var identity: UInt { UInt(bitPattern: unsafe address) }

    /// Word 0 of every witness table: the conformance descriptor (`TargetWitnessTable::Description`).
    var conformanceDescriptor: UnsafeRawPointer? { unsafe address.pointer(at: 0) }

    /// The witness of a protocol requirement: requirement `index` of the protocol descriptor is
    /// word `index + 1` (`WitnessTableFirstRequirementOffset`, swiftlang/swift
    /// include/swift/ABI/MetadataValues.h), after the conformance descriptor.
    /// - Parameter index: The requirement's index in the protocol descriptor.
    /// - Returns: The witness, stripped of any signature.
    func witness(requirement index: Int) -> UnsafeRawPointer? {
        unsafe address.pointer(at: (index + 1) * MemoryLayout<UInt>.size)
    }

    /// The conformance record the table was built from.
    var record: ConformanceRecordReference? { unsafe conformanceDescriptor.map(ConformanceRecordReference.init) }

    /// Resolves an associated type witness with `swift_getAssociatedTypeWitness`.
    /// - Parameters:
    ///   - protocolReference: The protocol.
    ///   - requirementIndex: The index of the associated-type requirement.
    ///   - conformingType: The conforming type.
    /// - Returns: The associated type.
    func associatedType(
        _ protocolReference: ProtocolReference,
        requirementIndex: Int,
        conformingType: MetadataReference
    ) -> MetadataReference? {
        let layout = unsafe ProtocolDescriptorLayout(protocolReference.address)
        return unsafe RuntimeEntryPoints.associatedTypeWitness(
            witnessTable: address,
            conformingType: conformingType.address,
            requirementsBase: layout.requirementBase,
            requirement: layout.requirement(requirementIndex)
        ).map(MetadataReference.init)
    }
}

extension WitnessTableReference {
    /// Whether two handles address the same table.
    static func == (lhs: WitnessTableReference, rhs: WitnessTableReference) -> Bool {
        unsafe lhs.address == rhs.address
    }

    /// Hashes the address.
    func hash(into hasher: inout Hasher) { hasher.combine(UInt(bitPattern: unsafe address)) }
}

extension ProtocolReference {
    /// The witness table by which a type conforms, from `swift_conformsToProtocol`.
    /// - Parameter type: The type.
    /// - Returns: The table, or `nil` when the type does not conform.
    func witnessTable(for type: MetadataReference) -> WitnessTableReference? {
        unsafe RuntimeEntryPoints.conformsToProtocol(type.address, address).map(WitnessTableReference.init)
    }

    /// The protocols this protocol inherits: conformance requirements on `Self` in its requirement signature.
    var inheritedProtocols: [ProtocolReference] {
        let layout = unsafe ProtocolDescriptorLayout(address)
        return unsafe layout.signatureRequirements.compactMap { requirement -> ProtocolReference? in
            guard unsafe requirement.kind == 0,
                let subject = unsafe requirement.param,
                unsafe MangledNameLayout(subject).printable == "x"
            else { return nil }
            return unsafe requirement.protocolDescriptor.map(ProtocolReference.init)
        }
    }

    /// The `ProtocolRequirementFlags` of every requirement, in witness-table order.
    var requirementFlags: [UInt32] {
        let layout = unsafe ProtocolDescriptorLayout(address)
        return unsafe (0..<layout.requirementCount).map { unsafe layout.requirementFlags($0) }
    }

    /// The special protocol kind (1 is `Error`).
    var specialProtocol: UInt16 { unsafe ProtocolDescriptorLayout(address).specialProtocol }
}

extension OpaqueValueAccess {
    /// Builds an existential metatype `any P.Type` from a type and its witness table.
    ///
    /// The caller has checked that `E` is the existential metatype of a single, non-class-bound
    /// or class-bound protocol whose container is the metadata word and one witness table.
    /// - Parameters:
    ///   - type: The conforming type.
    ///   - witnessTable: Its witness table for the protocol.
    ///   - existential: The existential metatype to build.
    /// - Returns: The value.
    static func existentialMetatype<E>(
        _ type: MetadataReference,
        witnessTable: WitnessTableReference,
        as existential: E.Type
    ) -> E {
        unsafe unsafeBitCast((type.address, witnessTable.address), to: E.self)
    }

    /// The dynamic type of the value an `Any` holds, read from its container
    /// (`TargetOpaqueExistentialContainer`: a three-word buffer, then the metadata).
    ///
    /// For any type but a class the stored metadata is the dynamic type. A class instance may
    /// be stored under a superclass's metadata, so for classes the object's own isa is read, as
    /// `swift_getDynamicType` does; where Objective-C interop may tag it, the runtime decides.
    /// - Parameter value: The value.
    /// - Returns: The value's dynamic type.
    static func dynamicType(of value: borrowing Any) -> MetadataReference {
        let found = unsafe withUnsafePointer(to: value) { container -> MetadataReference? in
            let words = unsafe UnsafeRawPointer(container)
            guard let stored = unsafe words.pointer(at: 3 * MemoryLayout<UInt>.size) else { return nil }
            let metadata = unsafe MetadataReference(stored)
            guard metadata.rawKind == 0 else { return metadata }
            #if canImport(ObjectiveC)
            return nil
            #else
            // A native Swift object: its first word is its class's metadata.
            guard let isa = unsafe words.pointer(at: 0).flatMap({ unsafe $0.pointer(at: 0) }) else { return metadata }
            return unsafe MetadataReference(isa)
            #endif
        }
        if let found { return found }
        return MetadataReference(Swift.type(of: value))
    }

    /// The container of an opaque existential of one protocol: an `Any` and one witness table.
    @unsafe
    private struct OpaqueExistentialWithOneTable {
        var value: Any
        var witnessTable: UnsafeRawPointer
    }

    /// The container of a class-bound existential of one protocol.
    @unsafe
    private struct ClassExistentialWithOneTable {
        var object: AnyObject
        var witnessTable: UnsafeRawPointer
    }

    /// Builds `any P` from a value in `Any` and its type's witness table, without boxing anew:
    /// the `Any` container is the opaque existential's prefix, so the value's buffer is reused.
    ///
    /// The caller has checked that `E` is a single-protocol existential with one witness table,
    /// opaque (40 bytes) unless `isClassBound`, and that the value's dynamic type conforms.
    /// - Parameters:
    ///   - value: The value.
    ///   - witnessTable: The witness table of the value's dynamic type.
    ///   - isClassBound: Whether `E` is a class existential.
    ///   - existential: The existential type to build.
    /// - Returns: The value.
    static func existential<E>(
        _ value: Any,
        witnessTable: WitnessTableReference,
        isClassBound: Bool,
        as existential: E.Type
    ) -> E {
        if isClassBound {
            let container = unsafe ClassExistentialWithOneTable(
                object: value as AnyObject,
                witnessTable: witnessTable.address
            )
            return unsafe unsafeBitCast(container, to: E.self)
        }
        let container = unsafe OpaqueExistentialWithOneTable(value: value, witnessTable: witnessTable.address)
        return unsafe unsafeBitCast(container, to: E.self)
    }
}
