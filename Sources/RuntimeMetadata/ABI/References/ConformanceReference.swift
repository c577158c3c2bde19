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
}

/// The value an `Any` holds, seen as `any P` without being copied: the `Any` container's words
/// (`TargetOpaqueExistentialContainer`: a three-word buffer, then the metadata) with the
/// dynamic type and the witness table, as an opaque existential with one table; or the
/// object and the table, as a class existential (`TargetClassExistentialContainer`).
///
/// The view does not own the value (no retain, no copy through value witnesses): it is only
/// lent to a closure while the `Any` it was read from is borrowed, and never destroyed. A copy
/// the closure makes is an ordinary copy of a valid existential.
///
/// Lending is `@inlinable` so that it is specialized for the client's closure and result: in
/// unspecialized form, the generic result and the pointer closures cost more than the lookup.
@usableFromInline
@safe
struct BorrowedExistential {
    /// The container's words: three of buffer, the metadata, the table; or the object and the table.
    @usableFromInline
    var words: (UInt, UInt, UInt, UInt, UInt)

    /// Reads the container of an `Any`, recording the value's dynamic type as its metadata.
    ///
    /// For any type but a class the stored metadata is the dynamic type. A class instance may
    /// be stored under a superclass's metadata, so for classes the object's own isa is read, as
    /// `swift_getDynamicType` does; where Objective-C interop may tag it, the runtime decides.
    /// Either metadata describes the same one-reference buffer.
    /// - Parameter value: The value; the view is valid while it is borrowed.
    @inline(__always)
    init(_ value: borrowing Any) {
        let word = MemoryLayout<UInt>.size
        words = unsafe withUnsafePointer(to: value) { container in
            let buffer = unsafe UnsafeRawPointer(container)
            return unsafe (
                buffer.load(as: UInt.self), buffer.load(fromByteOffset: word, as: UInt.self),
                buffer.load(fromByteOffset: 2 * word, as: UInt.self),
                buffer.load(fromByteOffset: 3 * word, as: UInt.self), 0
            )
        }
        if dynamicType.rawKind == 0 {
            #if canImport(ObjectiveC)
            words.3 = UInt(bitPattern: unsafe MetadataReference(Swift.type(of: value)).address)
            #else
            // A native Swift object: the buffer's first word is the object, whose first word is
            // its class's metadata.
            words.3 = unsafe UnsafeRawPointer(bitPattern: words.0).unsafelyUnwrapped.load(as: UInt.self)
            #endif
        }
    }

    /// The value's dynamic type.
    var dynamicType: MetadataReference {
        unsafe MetadataReference(UnsafeRawPointer(bitPattern: words.3).unsafelyUnwrapped)
    }

    /// Completes the view as an existential of one protocol: the caller has checked that the
    /// existential has one witness table, opaque (40 bytes) unless `isClassBound`, and that the
    /// dynamic type conforms with `witnessTable`.
    /// - Parameters:
    ///   - witnessTable: The witness table of the value's dynamic type.
    ///   - isClassBound: Whether the existential is a class existential.
    @inline(__always)
    mutating func complete(witnessTable: WitnessTableReference, isClassBound: Bool) {
        let table = UInt(bitPattern: unsafe witnessTable.address)
        if isClassBound {
            words = (words.0, table, 0, 0, 0)
        } else {
            words.4 = table
        }
    }

    /// Lends the view to `body` as `E`, the existential it was completed for.
    /// - Parameters:
    ///   - existential: The existential type.
    ///   - body: Borrows the value.
    /// - Returns: What `body` returns.
    @inlinable
    func withExistential<E, R>(as existential: E.Type, _ body: (borrowing E) throws -> R) rethrows -> R {
        var view = words
        return try unsafe withUnsafeMutablePointer(to: &view) { words in
            try unsafe UnsafeMutableRawPointer(words).withMemoryRebound(to: E.self, capacity: 1) { existential in
                try body(unsafe existential.pointee)
            }
        }
    }
}
