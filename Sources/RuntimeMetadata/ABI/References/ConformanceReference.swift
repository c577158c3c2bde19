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

    /// Wraps the address of a conformance descriptor that `identity` returned.
    /// - Parameter identity: A nonzero descriptor address.
    init(identity: UInt) {
        guard let address = unsafe UnsafeRawPointer(bitPattern: identity) else {
            fatalError("unreachable: a conformance record's identity is never 0")
        }
        unsafe self.address = address
    }

    /// The descriptor's address as an integer, for a table's slot.
    var identity: UInt { UInt(bitPattern: unsafe address) }

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
@usableFromInline
struct WitnessTableReference: Hashable, Sendable {
    /// The table's address.
    @usableFromInline
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Wraps a witness table address.
    /// - Parameter address: The table.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// Wraps the address of a witness table that `identity` returned.
    /// - Parameter identity: A nonzero table address.
    @inlinable
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
    @usableFromInline
    static func == (lhs: WitnessTableReference, rhs: WitnessTableReference) -> Bool {
        unsafe lhs.address == rhs.address
    }

    /// Hashes the address.
    @usableFromInline
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

    /// The requirement signature: the protocol's requirements on `Self` and its associated
    /// types (inherited protocols, associated-type constraints, `where` clauses).
    var requirementSignature: [DescriptorReference.RequirementValue] {
        let layout = unsafe ProtocolDescriptorLayout(address)
        return unsafe layout.signatureRequirements.map { unsafe DescriptorReference.RequirementValue($0) }
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
/// The view is two words: the witness table and the dynamic type. Making it and lending it are
/// `@inlinable`, so that the container is assembled in the caller and the closure and result
/// are specialized for it: in unspecialized form, the generic result and the pointer closures
/// cost more than the lookup. Only a conformance not yet cached is decided out of line.
@usableFromInline
@safe
struct BorrowedExistential {
    /// The witness table's address, with the low bit set for a class existential (a witness
    /// table is pointer-aligned).
    @usableFromInline
    let taggedWitnessTable: UInt
    /// The value's dynamic type.
    @usableFromInline
    let dynamicTypeWord: UInt

    /// The view of a value the caller has checked: `E` is a single-protocol existential with one
    /// witness table, opaque unless `isClassBound`, and the value's dynamic type conforms.
    /// - Parameters:
    ///   - dynamicType: The value's dynamic type, ``dynamicType(of:)``.
    ///   - witnessTable: The witness table of the value's dynamic type.
    ///   - isClassBound: Whether the existential is a class existential.
    @inlinable
    @inline(__always)
    init(dynamicType: MetadataReference, witnessTable: WitnessTableReference, isClassBound: Bool) {
        taggedWitnessTable = UInt(bitPattern: unsafe witnessTable.address) | (isClassBound ? 1 : 0)
        dynamicTypeWord = UInt(bitPattern: unsafe dynamicType.address)
    }

    /// The dynamic type of the value an `Any` holds, read from its container.
    ///
    /// For any type but a class the stored metadata is the dynamic type. A class instance may
    /// be stored under a superclass's metadata, so for classes the object's own isa is read, as
    /// `swift_getDynamicType` does; where Objective-C interop may tag it, the runtime decides.
    /// Either metadata describes the same one-reference buffer.
    /// - Parameter value: The value.
    /// - Returns: Its dynamic type.
    @inlinable
    @inline(__always)
    static func dynamicType(of value: borrowing Any) -> MetadataReference {
        let (object, stored) = unsafe withUnsafePointer(to: value) { container in
            let buffer = unsafe UnsafeRawPointer(container)
            return unsafe (
                buffer.load(as: UInt.self), buffer.load(fromByteOffset: metadataOffset, as: UnsafeRawPointer.self)
            )
        }
        let metadata = unsafe MetadataReference(stored)
        guard metadata.rawKind == 0 else { return metadata }
        #if canImport(ObjectiveC)
        return MetadataReference(Swift.type(of: value))
        #else
        // A native Swift object: the buffer's first word is the object, whose first word is its
        // class's metadata.
        return unsafe MetadataReference(
            UnsafeRawPointer(bitPattern: object).unsafelyUnwrapped.load(as: UnsafeRawPointer.self)
        )
        #endif
    }

    /// The offset of the metadata in an `Any` container, after the three-word buffer.
    @usableFromInline
    static var metadataOffset: Int { 3 * MemoryLayout<UInt>.size }

    /// Lends `value` to `body` as `E`, the existential this view was made for.
    ///
    /// The view's address is passed `inout` to a function that lends it on as `borrowing`
    /// (``BorrowedElement/pass(_:to:)``), which Swift passes as it is; nothing is written
    /// through it. Passed as `pointee`, the value was copied for the call (Swift 6.3 reads a
    /// value for a call as a copy), and the optimizer removed the copy only where it saw
    /// `body`: a closure it could not see (a visitor a framework stored) paid a retain and a
    /// release for an object or a boxed value. `Opening.visitor.withOpened.warm` measured
    /// 14.6 ns with the copy and 9.6 ns without, the typed call being 6.3 ns; closure literals
    /// are unchanged (`Realistic.withOpened.call.warm` 6.4-6.6 ns). Moving the value out of the
    /// view into a binding and back also avoided the copy (11.2 ns) but cost the literals two
    /// moves the optimizer never removed (6.9 -> 8.5 ns).
    /// - Parameters:
    ///   - value: The value the view was made from, still borrowed.
    ///   - existential: The existential type.
    ///   - body: Borrows the value.
    /// - Returns: What `body` returns.
    @inlinable
    @inline(__always)
    func lend<E, R>(_ value: borrowing Any, as existential: E.Type, to body: (borrowing E) throws -> R) rethrows -> R {
        try unsafe withUnsafePointer(to: value) { container in
            var view = unsafe containerWords(of: UnsafeRawPointer(container))
            return try unsafe withUnsafeMutablePointer(to: &view) { words in
                try unsafe UnsafeMutableRawPointer(words).withMemoryRebound(to: E.self, capacity: 1) { existential in
                    try unsafe BorrowedElement.pass(&existential.pointee, to: body)
                }
            }
        }
    }

    /// The words of `E`'s container for the value in an `Any` container: the buffer, the
    /// dynamic type and the witness table for an opaque existential; the object and the table
    /// for a class existential.
    /// - Parameter buffer: The `Any` container.
    /// - Returns: Five words, the first ones the container.
    @inlinable
    @inline(__always)
    func containerWords(of buffer: UnsafeRawPointer) -> (UInt, UInt, UInt, UInt, UInt) {
        let word = MemoryLayout<UInt>.size
        if taggedWitnessTable & 1 != 0 {
            return unsafe (buffer.load(as: UInt.self), taggedWitnessTable & ~1, 0, 0, 0)
        }
        return unsafe (
            buffer.load(as: UInt.self), buffer.load(fromByteOffset: word, as: UInt.self),
            buffer.load(fromByteOffset: 2 * word, as: UInt.self), dynamicTypeWord, taggedWitnessTable
        )
    }
}
