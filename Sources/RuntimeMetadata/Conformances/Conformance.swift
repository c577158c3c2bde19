// Conformance.swift

/// The proof that one type conforms to one protocol: the witness table the runtime found.
///
/// Get one from ``ProtocolDescriptor/conformance(of:)-(TypeMetadata)``. With it, read associated types, and
/// open the type or a value of it as the protocol's existential without `as?`.
public struct Conformance: Hashable, Sendable, CustomStringConvertible {
    /// The conforming type's metadata: its ``TypeMetadata`` record is looked up only when asked
    /// for, so that a warm ``ProtocolDescriptor/conformance(of:)-(TypeMetadata)`` reads one cache
    /// slot, not two.
    @usableFromInline
    let typeReference: MetadataReference
    /// The protocol.
    public let protocolDescriptor: ProtocolDescriptor
    /// The witness table.
    @usableFromInline
    let witnessTable: WitnessTableReference

    /// The conforming type.
    public var type: TypeMetadata { TypeMetadata(typeReference) }

    /// A conformance of a type, by its witness table.
    /// - Parameters:
    ///   - type: The conforming type.
    ///   - protocolDescriptor: The protocol.
    ///   - witnessTable: The witness table.
    @inlinable
    @inline(__always)
    init(type: MetadataReference, protocolDescriptor: ProtocolDescriptor, witnessTable: WitnessTableReference) {
        self.typeReference = type
        self.protocolDescriptor = protocolDescriptor
        self.witnessTable = witnessTable
    }

    /// The record the witness table was instantiated from, when it is one of the loaded images'.
    public var record: ConformanceRecord? {
        guard let reference = witnessTable.record else { return nil }
        let index = ProtocolIndex.index(of: protocolDescriptor.reference, imageCount: ImageGeneration.refreshedCount)
        return index.withObject { $0.records.first { $0.reference == reference } }
    }

    /// Resolves an associated type of the conformance, such as `Body` of a view.
    /// - Parameter name: The associated type's name.
    /// - Returns: The type the conforming type binds it to, or `nil` when the protocol has no
    ///   associated type of that name.
    public func associatedType(named name: String) -> TypeMetadata? {
        guard let position = protocolDescriptor.associatedTypeNames.firstIndex(of: name) else { return nil }
        // Associated types are the first requirements, in the order of their names, which
        // ProtocolDescriptorLayout documents; find the position-th associated-type requirement.
        var seen = 0
        for (index, flags) in protocolDescriptor.reference.requirementFlags.enumerated() where flags & 0x0F == 7 {
            if seen == position {
                return witnessTable.associatedType(
                    protocolDescriptor.reference,
                    requirementIndex: index,
                    conformingType: typeReference
                ).map(TypeMetadata.init)
            }
            seen += 1
        }
        return nil
    }

    /// `Type: Protocol`.
    public var description: String { "\(type.name): \(protocolDescriptor.qualifiedName)" }
}

/// The cached conformance answers: a table of protocols, each holding a nested table of
/// answers by type metadata (``ConcurrentWordTable``).
///
/// An answer is one word stored in the slot with its key: a warm question reads the protocol's
/// slot (one of a program's few protocols, in the processor's caches) and one slot of its
/// answers, and an answer costs two words, not an object. A positive answer never changes:
/// images cannot be unloaded. A negative answer remembers the image count it was checked against
/// and is checked again once more images are loaded.
///
/// The answer word: the witness table's address (always even) once found;
/// `imageCount << 1 | 1` once the type was found not to conform with that many images loaded.
@inlinable
var conformanceAnswers: ConcurrentWordTable { ConcurrentWordTable(.conformanceAnswers) }

/// What an answer's state word says for the images loaded now.
@usableFromInline
enum KnownAnswer {
    case conforms(WitnessTableReference)
    case doesNotConform
    /// Never asked, or asked before more images were loaded.
    case unknown

    @inlinable
    @inline(__always)
    init(_ state: UInt) {
        if state & 1 == 0 {
            self = state == 0 ? .unknown : .conforms(WitnessTableReference(identity: state))
        } else {
            self = Int(state >> 1) >= ImageGeneration.current ? .doesNotConform : .unknown
        }
    }
}

/// A type's conformances, as ``TypeMetadata/conformances`` lists them, per set of images.
final class TypeConformances: CacheEntry {
    /// Every list, by (type, image count).
    static var table: ConcurrentTable<TypeConformances> { ConcurrentTable(.typeConformances) }

    let tableKey: IdentityPair
    let protocols: [ProtocolDescriptor]

    init(key: IdentityPair, protocols: [ProtocolDescriptor]) {
        tableKey = key
        self.protocols = protocols
    }
}

extension ProtocolDescriptor {
    /// Finds the conformance of a type to this protocol.
    ///
    /// The runtime's `swift_conformsToProtocol` decides, conditional conformances and
    /// superclasses included; the answer is cached both ways. A second question about the same
    /// type takes no lock and allocates nothing. A negative answer is checked again after an
    /// image is loaded (through ``Image/load(_:)``, or noticed by ``Image/all`` and the other
    /// enumerations), since a plugin may add the conformance.
    /// - Parameter type: The type.
    /// - Returns: The conformance, or `nil` when the type does not conform.
    public func conformance(of type: TypeMetadata) -> Conformance? {
        conformance(of: type.reference)
    }

    /// Finds the conformance of a type to this protocol.
    ///
    /// Inlined, with the warm probe of the answers, into the caller.
    /// - Parameter type: The type.
    /// - Returns: The conformance, or `nil`.
    @inlinable
    @inline(__always)
    public func conformance(of type: Any.Type) -> Conformance? {
        conformance(of: MetadataReference(type))
    }

    /// The conformance of a metadata record, built from its cached answer.
    /// - Parameter metadata: The type.
    /// - Returns: The conformance, or `nil`.
    @inlinable
    @inline(__always)
    func conformance(of metadata: MetadataReference) -> Conformance? {
        guard let witnessTable = answer(for: metadata) else { return nil }
        return Conformance(type: metadata, protocolDescriptor: self, witnessTable: witnessTable)
    }

    /// The witness table of a type's conformance, or `nil` when the type does not conform.
    /// - Parameter metadata: The type.
    /// - Returns: The witness table.
    @inlinable
    @inline(__always)
    func conformanceWitnessTable(of metadata: MetadataReference) -> WitnessTableReference? {
        answer(for: metadata)
    }

    /// Whether a type conforms to this protocol.
    /// - Parameter type: The type.
    /// - Returns: `true` when the runtime finds a conformance.
    @inlinable
    @inline(__always)
    public func isConformed(by type: Any.Type) -> Bool {
        answer(for: MetadataReference(type)) != nil
    }

    /// Whether a type conforms to this protocol.
    /// - Parameter type: The type.
    /// - Returns: `true` when the runtime finds a conformance.
    public func isConformed(by type: TypeMetadata) -> Bool {
        answer(for: type.reference) != nil
    }

    /// The cached answer for a metadata record: the answer its slot holds for the images loaded
    /// now, otherwise the decision, published.
    ///
    /// Keyed by the metadata itself; a warm answer is one slot of the protocol's answers, and reading the
    /// conformance's type record is left to the callers that need it. Everything else is kept
    /// out of line, so that the warm path stays small where it is inlined.
    /// - Parameter metadata: The type.
    /// - Returns: The witness table when the type conforms.
    @inlinable
    @inline(__always)
    func answer(for metadata: MetadataReference) -> WitnessTableReference? {
        if let state = answers.value(for: metadata.identity) {
            switch KnownAnswer(state) {
            case .conforms(let table): return table
            case .doesNotConform: return nil
            case .unknown: break
            }
        }
        return newAnswer(for: metadata)
    }

    /// Decides from the protocol's records (or, where records do not decide, asks the runtime)
    /// and publishes the answer.
    ///
    /// The records are those of the images seen so far, without asking the runtime how many
    /// are loaded now (a walk of its image list, a sixth of a first question's instructions at
    /// 10,000 types): a conformance found there holds however many images are loaded since, as
    /// images are only added and a later one cannot come first in image order. Only before a
    /// negative answer is published is the count asked, and the question decided again when it
    /// grew, so that a conformance in a newly loaded image is not missed.
    @usableFromInline
    @inline(never)
    func newAnswer(for metadata: MetadataReference) -> WitnessTableReference? {
        // The caller has just probed this protocol's answers and found none that holds: decided
        // and published here without probing again.
        let (found, imageCount) = Self.decide(for: metadata, protocol: reference) { imageCount in
            // The index's unretained reference is captured, not the index: a closure capturing
            // the object retains and releases it for each question.
            let index = ConformanceRecordsByType.index(imageCount: imageCount)
            return reference.decideConformance(of: metadata) { descriptor in
                index.withObject { $0.records(of: descriptor, conformingTo: reference) }
            }
        }
        return Self.publish(found, for: metadata, in: answers, imageCount: imageCount)
    }

    /// `decide`'s decision for the images seen so far, and again for the images loaded now
    /// before a negative answer, with the images the answer covers.
    /// - Parameters:
    ///   - metadata: The type.
    ///   - protocolReference: The protocol.
    ///   - decide: Decides from the records of the first `imageCount` images.
    /// - Returns: The witness table when the type conforms, and the image count.
    private static func decide(
        for metadata: MetadataReference,
        protocol protocolReference: ProtocolReference,
        _ decide: (_ imageCount: Int) -> ConformanceDecision
    ) -> (found: WitnessTableReference?, imageCount: Int) {
        var imageCount = ImageGeneration.current
        var found = imageCount > 0 ? protocolReference.witnessTable(for: metadata, from: decide(imageCount)) : nil
        if found == nil {
            let loaded = ImageGeneration.refreshedCount
            if loaded != imageCount {
                imageCount = loaded
                found = protocolReference.witnessTable(for: metadata, from: decide(imageCount))
            }
        }
        return (found, imageCount)
    }

    /// An answer for a pair that holds for the images loaded now, or else `decide`'s decision
    /// for a given set of images, published.
    /// - Parameters:
    ///   - metadata: The type.
    ///   - protocolReference: The protocol.
    ///   - imageCount: The images the decision's records come from, counted by the caller.
    ///   - decide: Decides from the records.
    /// - Returns: The witness table when the type conforms.
    static func answer(
        for metadata: MetadataReference,
        protocol protocolReference: ProtocolReference,
        imageCount: Int,
        decide: () -> ConformanceDecision
    ) -> WitnessTableReference? {
        cachedOrPublished(for: metadata, protocol: protocolReference) {
            (protocolReference.witnessTable(for: metadata, from: decide()), imageCount)
        }
    }

    /// The answer the protocol's table holds for a type and the images loaded now, or else the
    /// one `decide` finds, published.
    /// - Parameters:
    ///   - metadata: The type.
    ///   - protocolReference: The protocol.
    ///   - decide: The witness table, or `nil`, and the images the decision covers.
    /// - Returns: The witness table when the type conforms.
    private static func cachedOrPublished(
        for metadata: MetadataReference,
        protocol protocolReference: ProtocolReference,
        decide: () -> (found: WitnessTableReference?, imageCount: Int)
    ) -> WitnessTableReference? {
        let answers = conformanceAnswers.nestedTable(orInsert: protocolReference.identity)
        if let state = answers.value(for: metadata.identity) {
            switch KnownAnswer(state) {
            case .conforms(let table): return table
            case .doesNotConform: return nil
            case .unknown: break
            }
        }
        let (found, imageCount) = decide()
        return publish(found, for: metadata, in: answers, imageCount: imageCount)
    }

    /// Publishes a decided answer, unless a racing thread's answer holds already.
    /// - Parameters:
    ///   - found: The witness table, or `nil` for a negative answer.
    ///   - metadata: The type.
    ///   - answers: The protocol's answers.
    ///   - imageCount: The images the decision covers.
    /// - Returns: The answer stored.
    private static func publish(
        _ found: WitnessTableReference?,
        for metadata: MetadataReference,
        in answers: ConcurrentWordTable,
        imageCount: Int
    ) -> WitnessTableReference? {
        let stored = answers.update(metadata.identity) { current in
            // A positive answer is never replaced: racing first questions find the same table,
            // and a conformance found with fewer images holds with more.
            if let current, current & 1 == 0 { return current }
            if let found { return found.identity }
            // A racing thread may have decided after a newer image was loaded.
            if let current, Int(current >> 1) > imageCount { return current }
            return UInt(imageCount) << 1 | 1
        }
        return stored & 1 == 0 ? WitnessTableReference(identity: stored) : nil
    }

    /// The conformance records of this protocol in every loaded image, generic types included.
    ///
    /// Records are indexed by protocol on first use and again after an image is loaded; asking
    /// again takes no lock and allocates nothing.
    /// - Returns: The records, in image order.
    public func conformanceRecords() -> [ConformanceRecord] {
        ProtocolIndex.index(of: reference, imageCount: ImageGeneration.refreshedCount).withObject { $0.records }
    }

    /// The types with a conformance record for this protocol: non-generic types as metadata,
    /// generic ones as the records that describe their instantiations.
    /// - Returns: The conforming non-generic types, in image order.
    public func conformingTypes() -> [TypeMetadata] {
        var seen = Set<TypeMetadata>()
        return conformanceRecords().compactMap { record in
            guard let descriptor = record.typeDescriptor, !descriptor.isGeneric, let type = descriptor.metadata,
                conformance(of: type) != nil, seen.insert(type).inserted
            else { return nil }
            return type
        }
    }
}

extension ProtocolReference {
    /// The witness table a decision gives: its own, none, or the runtime's answer.
    /// - Parameters:
    ///   - metadata: The type.
    ///   - decision: What the records decided.
    /// - Returns: The witness table when the type conforms.
    fileprivate func witnessTable(for metadata: MetadataReference, from decision: ConformanceDecision)
        -> WitnessTableReference?
    {
        switch decision {
        case .conforms(let table): table
        case .doesNotConform: nil
        case .askRuntime: witnessTable(for: metadata)
        }
    }
}

extension TypeMetadata {
    /// The protocols this type conforms to, as far as the loaded images record them.
    ///
    /// The type's records, and its superclasses', are found by one pass over the loaded images'
    /// conformance sections that compares each record's type descriptor with theirs; each record
    /// is then checked as a first conformance question would check it, so conditional
    /// conformances appear only when their conditions hold, and the answers are cached for
    /// later questions. The list is cached per type until an image is loaded. Conformances the
    /// runtime provides without records (tuples, functions, metatypes) are not listed, nor are
    /// those of types whose descriptors are not unique (imported C types), which records name
    /// by a copy of the descriptor.
    public var conformances: [ProtocolDescriptor] {
        let imageCount = ImageGeneration.refreshedCount
        let key = IdentityPair(first: record.reference.identity, second: UInt(imageCount))
        return TypeConformances.table.entry(for: key) {
            TypeConformances(key: key, protocols: Self.findConformances(of: record.reference, imageCount: imageCount))
        }.withObject { $0.protocols }
    }

    /// Finds a type's conformances by one scan for its records and its superclasses'.
    ///
    /// Arrays, not sets or dictionaries of the package's own handle types: instantiating such a
    /// collection makes the runtime check the key's `Hashable` conformance with the very scan of
    /// every record that this function avoids.
    private static func findConformances(of metadata: MetadataReference, imageCount: Int) -> [ProtocolDescriptor] {
        var descriptors: [DescriptorReference] = []
        var current: MetadataReference? = metadata
        while let type = current, descriptors.count < 10_000 {
            if let descriptor = type.typeDescriptor { descriptors.append(descriptor) }
            current = type.superclass
        }
        var found: [ConformanceRecordReference] = []
        var visited = 0
        LoadedImages.forEachImage { sections in
            guard visited < imageCount else { return }
            visited += 1
            sections.forEachConformance(ofTypes: descriptors) { found.append($0) }
        }
        var protocols: [ProtocolReference] = []
        for record in found {
            if let protocolReference = record.protocolReference, !protocols.contains(protocolReference) {
                protocols.append(protocolReference)
            }
        }
        var result: [ProtocolDescriptor] = []
        for protocolReference in protocols {
            let witnessTable = ProtocolDescriptor.answer(
                for: metadata,
                protocol: protocolReference,
                imageCount: imageCount
            ) {
                protocolReference.decideConformance(of: metadata) { descriptor in
                    ConformanceRecordList(
                        found.filter { $0.protocolReference == protocolReference && $0.typeDescriptor == descriptor }
                    )
                }
            }
            if witnessTable != nil { result.append(ProtocolDescriptor(protocolReference)) }
        }
        return result.sorted { $0.qualifiedName < $1.qualifiedName }
    }

    /// Whether the type satisfies every constraint of an existential type: its protocols, its
    /// superclass and its class constraint, as `as? any P & Q` would.
    /// - Parameter existential: An existential type, such as `(any P & Q).self`.
    /// - Returns: Whether the type conforms to the composition.
    /// - Throws: ``RuntimeMetadataError/wrongKind(typeName:expected:)`` when `existential` is not an existential type.
    public func conforms(to existential: Any.Type) throws(RuntimeMetadataError) -> Bool {
        let composition = TypeMetadata(existential)
        guard let summary = composition.record.reference.existential else {
            throw .wrongKind(typeName: composition.name, expected: "an existential type")
        }
        if let superclass = summary.superclass {
            var current: TypeMetadata? = self
            var found = false
            while let type = current {
                if type.reference == superclass {
                    found = true
                    break
                }
                current = type.superclass
            }
            if !found { return false }
        }
        if composition.existential?.isClassBound == true && kind != .class {
            // A class-bound existential can hold class instances (and class-bound existentials).
            guard kind == .existential, self.existential?.isClassBound == true else { return false }
        }
        return summary.protocols.allSatisfy { ProtocolDescriptor($0).conformance(of: self) != nil }
    }
}
