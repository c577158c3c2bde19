// ProtocolDescriptor.swift

/// A protocol as the runtime records it: its name, requirements, associated types and the
/// protocols it inherits.
///
/// Get one from an existential type, by name, or from the protocols an ``Image`` defines:
///
/// ```swift
/// let hashable = try ProtocolDescriptor((any Hashable).self)
/// let same = try ProtocolDescriptor(named: "Swift.Hashable")
/// ```
///
/// Marker protocols (`Sendable`, `Copyable`, `Escapable`, `BitwiseCopyable`) have no runtime
/// records at all; asking for one by name throws ``RuntimeMetadataError/markerProtocol(name:)``
/// rather than pretending that nothing conforms.
public struct ProtocolDescriptor: Hashable, Sendable, CustomStringConvertible {
    /// The protocol descriptor handle.
    @usableFromInline
    let reference: ProtocolReference

    /// The protocol's cached conformance answers, found once here so that a warm question reads
    /// one slot of them and nothing else (the DocC article "Caching").
    @usableFromInline
    let answers: ConcurrentWordTable

    init(_ reference: ProtocolReference) {
        self.reference = reference
        answers = conformanceAnswers.nestedTable(orInsert: reference.identity)
    }

    /// Two descriptors are equal when they are the same protocol.
    /// - Parameters:
    ///   - lhs: A protocol.
    ///   - rhs: Another.
    /// - Returns: Whether they are the same.
    public static func == (lhs: ProtocolDescriptor, rhs: ProtocolDescriptor) -> Bool {
        lhs.reference == rhs.reference
    }

    /// Hashes the protocol's identity.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(reference) }

    /// The marker protocols of the standard library, which have no runtime records.
    public static var markerProtocolNames: Set<String> { Set(markerProtocolNameList) }

    private static var markerProtocolNameList: [String] {
        ["Swift.Sendable", "Swift.Copyable", "Swift.Escapable", "Swift.BitwiseCopyable", "Swift.SendableMetatype"]
    }

    /// The protocol of an existential type, such as `(any Hashable).self`.
    /// - Parameter existential: The existential type of exactly one protocol.
    /// - Throws: ``RuntimeMetadataError/notAProtocol(typeName:)`` for other types, compositions and
    ///   `Any` (which is also what `(any Sendable).self` is at run time).
    public init(_ existential: Any.Type) throws(RuntimeMetadataError) {
        // Read from the metadata header: no type record is made for the existential, which on
        // a process's first query is most of the work.
        guard let only = ExistentialShape(MetadataReference(existential))?.singleProtocol else {
            throw .notAProtocol(typeName: TypeMetadata(existential).name)
        }
        self.init(only)
    }

    /// Finds a protocol by its qualified name, such as `Swift.Hashable` or `MyModule.Outer.Inner`,
    /// or by its ``portableName``.
    /// - Parameter name: The qualified name.
    /// - Throws: ``RuntimeMetadataError/markerProtocol(name:)`` for marker protocols,
    ///   ``RuntimeMetadataError/unresolvableName(name:part:reason:)`` when no loaded image defines it.
    public init(named name: String) throws(RuntimeMetadataError) {
        // An array, not the public set: instantiating a set type would make the runtime scan
        // every record for `String: Hashable` when nothing in the process has asked yet.
        if Self.markerProtocolNameList.contains(name) { throw .markerProtocol(name: name) }
        guard let reference = TypeNameIndex.protocolReference(named: TypeNameIndex.key(name)) else {
            throw .unresolvableName(name: name, part: name, reason: "no loaded image defines a protocol with this name")
        }
        self.init(reference)
    }

    /// The unqualified name, such as `Hashable`.
    public var name: String { reference.descriptor.name }

    /// The qualified name, such as `Swift.Hashable`.
    public var qualifiedName: String { reference.qualifiedName }

    /// ``qualifiedName`` with each anonymous context spelled relative to its image, as
    /// ``TypeDescriptor/portableName`` spells it; ``init(named:)`` accepts it.
    public var portableName: String { reference.descriptor.portableQualifiedName }

    /// The name of the module that declares the protocol.
    public var moduleName: String { reference.descriptor.moduleName }

    /// Whether conforming types must be classes (`protocol P: AnyObject`).
    public var isClassBound: Bool { reference.isClassBound }

    /// Whether this is `Error`, whose existential boxes its value in one reference.
    public var isError: Bool { reference.specialProtocol == 1 }

    /// The names of the associated types, in declaration order.
    public var associatedTypeNames: [String] { reference.associatedTypeNames }

    /// The protocols this protocol inherits directly.
    public var inheritedProtocols: [ProtocolDescriptor] { reference.inheritedProtocols.map(ProtocolDescriptor.init) }

    /// The requirement signature, in the compiler's canonical order: the requirements on `Self`
    /// (`x`) and its associated types (`qd__` and the like) that every conformance satisfies:
    /// inherited protocols, associated-type constraints and `where` clauses. Its count is the
    /// descriptor's `NumRequirementsInSignature`.
    public var requirementSignature: [GenericRequirement] {
        reference.requirementSignature.map(GenericRequirement.init)
    }

    /// The requirements, in witness-table order: associated types first, then the others in
    /// declaration order.
    public var requirements: [ProtocolRequirement] {
        reference.requirementFlags.map(ProtocolRequirement.init)
    }

    /// The qualified name.
    public var description: String { qualifiedName }
}

/// What finding a protocol and opening a metatype need of an existential type, read from its
/// metadata's header (a few loads: cheaper than a cache).
struct ExistentialShape: Sendable {
    /// The protocol, when the existential has exactly one and no superclass constraint.
    var singleProtocol: ProtocolReference?
    /// The number of witness tables in the container.
    var witnessTableCount: Int

    /// The shape of an existential type's metadata.
    /// - Parameter metadata: The metadata; `nil` for other kinds.
    init?(_ metadata: MetadataReference) {
        guard let header = metadata.existentialHeader else { return nil }
        singleProtocol = header.onlyProtocol
        witnessTableCount = Int(header.flags & ExistentialTypeMetadataLayout.Flag.numWitnessTablesMask)
    }
}

extension TypeMetadata {
    /// The shape of an existential type, or `nil` for other kinds.
    var existentialShape: ExistentialShape? { ExistentialShape(reference) }
}
