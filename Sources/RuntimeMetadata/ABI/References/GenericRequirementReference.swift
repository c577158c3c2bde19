// GenericRequirementReference.swift
//
// The safe edge of the ABI layer for one generic requirement (`TargetGenericRequirementDescriptor`,
// swiftlang/swift include/swift/ABI/GenericContext.h; GenericRequirementDescriptorLayout): its
// kind and flags, its protocol, and the resolution of its mangled names against a type's generic
// arguments. The checking itself is domain logic, in Descriptors/GenericRequirementChecker.swift.

/// A handle to one generic requirement descriptor.
@safe
struct GenericRequirementReference: Sendable {
    private nonisolated(unsafe) let address: UnsafeRawPointer

    /// Wraps a requirement descriptor.
    /// - Parameter layout: The descriptor.
    init(_ layout: GenericRequirementDescriptorLayout) {
        unsafe address = layout.address
    }

    private var layout: GenericRequirementDescriptorLayout { unsafe GenericRequirementDescriptorLayout(address) }

    /// `GenericRequirementKind`: protocol 0, same-type 1, base class 2, same conformance 3,
    /// same shape 4, inverted protocols 5, layout 0x1F.
    var kind: UInt8 { unsafe layout.kind }

    /// `GenericRequirementFlags`: key argument 0x80, value requirement 0x40, pack 0x20.
    var flags: UInt32 { unsafe layout.flags }

    /// Whether the requirement's witness table is a key argument (`HasKeyArgument`).
    var hasKeyArgument: Bool { flags & 0x80 != 0 }

    /// The protocol of a protocol requirement.
    var protocolReference: ProtocolReference? { unsafe layout.protocolDescriptor.map(ProtocolReference.init) }

    /// The layout of a layout requirement (`GenericRequirementLayoutKind`: 0 class).
    var layoutKind: UInt32 { unsafe layout.layout }

    /// The subject's mangled name, printable, for messages.
    var subjectName: String { unsafe layout.param.map { unsafe MangledNameLayout($0).printable } ?? "?" }

    /// The parameter and protocol set of an inverted-protocols requirement (`T: ~Copyable`).
    var invertedProtocols: (parameter: Int, protocols: UInt16)? { unsafe layout.invertedProtocols }

    /// Resolves the subject in an environment.
    /// - Parameter environment: Where the requirement's parameters are bound.
    /// - Returns: The subject's metadata, or `nil` when it does not resolve.
    func subject(in environment: RequirementEnvironment) -> MetadataReference? {
        guard let name = unsafe layout.param else { return nil }
        return unsafe environment.resolve(MangledNameLayout(name))
    }

    /// Resolves the type of a same-type or base-class requirement in an environment.
    /// - Parameter environment: Where the requirement's parameters are bound.
    /// - Returns: The metadata, or `nil`.
    func constraintType(in environment: RequirementEnvironment) -> MetadataReference? {
        guard let name = unsafe layout.type else { return nil }
        return unsafe environment.resolve(MangledNameLayout(name))
    }
}

/// Where the generic parameters a requirement names are bound.
enum RequirementEnvironment {
    /// The generic arguments of a type whose descriptor declares the parameters (a conformance
    /// record's conditional requirements, checked against a type).
    case type(MetadataReference)
    /// The key arguments of an instantiation of a generic context, gathered so far.
    case arguments(GenericArgumentVector, context: DescriptorReference)

    /// Resolves a mangled name of the requirement's generic context.
    /// - Parameter name: The measured name.
    /// - Returns: The metadata, or `nil`.
    func resolve(_ name: MangledNameLayout) -> MetadataReference? {
        switch self {
        case .type(let type): unsafe type.resolve(name)
        case .arguments(let vector, let context): unsafe vector.resolve(name, in: context)
        }
    }

    /// Binds the witness table of a key protocol requirement: the next key argument of an
    /// instantiation; a type's arguments are bound already.
    /// - Parameter table: The witness table.
    /// - Returns: Whether it was bound (`false` when an instantiation has no slot left for it).
    func bindWitnessTable(_ table: WitnessTableReference) -> Bool {
        switch self {
        case .type: true
        case .arguments(let vector, _): vector.appendWitnessTable(table)
        }
    }
}

extension DescriptorReference {
    /// The requirements of the generic context, as handles.
    var genericRequirementReferences: [GenericRequirementReference] {
        unsafe genericContext?.requirements.map { unsafe GenericRequirementReference($0) } ?? []
    }

    /// The number of pack shape classes (`GenericPackShapeHeader::NumShapeClasses`).
    var genericShapeClassCount: Int { unsafe genericContext?.shapeClassCount ?? 0 }

    /// The shape class of the pack parameter whose key argument is at `slot`.
    /// - Parameter slot: The parameter's key argument slot.
    /// - Returns: The shape class, or `nil` when no pack shape names the slot.
    func packShapeClass(ofKeySlot slot: Int) -> Int? {
        unsafe genericContext?.packShapes.first { Int($0.index) == slot }.map { Int($0.shapeClass) }
    }
}

extension ConformanceRecordReference {
    /// The conditional requirements, as handles.
    var conditionalRequirementReferences: [GenericRequirementReference] {
        unsafe ProtocolConformanceDescriptorLayout(address).conditionalRequirements.map {
            unsafe GenericRequirementReference($0)
        }
    }

    /// Instantiates the record's witness table for a type with `swift_getWitnessTable`.
    ///
    /// The caller has matched the record's type descriptor with the type's and checked the
    /// conditional requirements, which produced `arguments`.
    /// - Parameters:
    ///   - type: The conforming type.
    ///   - arguments: The witness tables of the conditional requirements with key arguments.
    /// - Returns: The witness table, or `nil` when the runtime returns none.
    func witnessTable(for type: MetadataReference, arguments: [WitnessTableReference]?) -> WitnessTableReference? {
        guard let arguments, !arguments.isEmpty else {
            return unsafe RuntimeEntryPoints.witnessTable(conformance: address, type: type.address, arguments: nil)
                .map(WitnessTableReference.init)
        }
        let words: [UnsafeRawPointer?] = unsafe arguments.map { unsafe $0.address }
        return unsafe words.withUnsafeBufferPointer { buffer in
            unsafe RuntimeEntryPoints.witnessTable(
                conformance: address,
                type: type.address,
                arguments: buffer.baseAddress
            )
            .map(WitnessTableReference.init)
        }
    }
}
