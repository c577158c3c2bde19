// TypeRecord.swift
//
// The cached, immutable facts about one type. A record is built once per metadata record,
// published in `TypeRecord.table`, and shared by every `TypeMetadata` value for that type.
// The cheap facts are computed when the record is built; the rest is computed on first use
// and published through `LazyValue`, so that later questions take no lock and allocate
// nothing.

import Synchronization

/// Everything RuntimeMetadata knows about one type.
@usableFromInline
final class TypeRecord: CacheEntry {
    /// All records, by metadata identity.
    @inlinable
    @inline(__always)
    static var table: ConcurrentTable<TypeRecord> { ConcurrentTable(.typeRecords) }

    /// The metadata's identity, the table key.
    @usableFromInline
    let tableKey: UInt

    /// The metadata.
    let reference: MetadataReference
    /// The kind.
    let kind: TypeMetadata.Kind
    /// The name as `String(reflecting:)` prints it, found on first use: the runtime's
    /// `swift_getTypeName` demangles, which would dominate the first question about a type.
    var name: String {
        nameBox.value {
            // An unknown kind may not be type metadata the runtime can name; do not ask it to.
            kind.isKnown ? reference.safeQualifiedName : "<\(kind)>"
        }
    }
    private let nameBox = LazyValue<StringBox>()
    /// The value witness facts.
    let witnesses: MetadataReference.ValueWitnessSummary
    /// The nominal type descriptor.
    let descriptor: DescriptorReference?
    /// Whether values of the type can be copied.
    let isCopyable: Bool

    let mangledName = LazyValue<OptionalStringBox>()
    let genericArguments = LazyValue<GenericArgumentsBox>()
    let ownFields = LazyValue<FieldsBox>()
    @usableFromInline
    let allFields = LazyValue<FieldsBox>()
    let cases = LazyValue<CasesBox>()
    let caseNames = LazyValue<StringsBox>()
    let tupleElements = LazyValue<TupleElementsBox>()
    let comparator = LazyValue<ComparatorBox>()
    let walkPlan = LazyValue<WalkPlanBox>()

    /// Returns the record of a metadata record, building it on first use.
    /// - Parameter reference: The metadata.
    /// - Returns: The shared record.
    @inline(__always)
    static func record(for reference: MetadataReference) -> TypeRecord {
        immortalRecord(for: reference).object
    }

    /// Returns the record of a metadata record as an unretained reference: records are never removed.
    /// - Parameter reference: The metadata.
    /// - Returns: The shared record.
    @inlinable
    @inline(__always)
    static func immortalRecord(for reference: MetadataReference) -> ImmortalReference<TypeRecord> {
        // The warm lookup inlined; the first question kept out of line, so that callers stay
        // small (no register saves for the record's construction).
        if let record = table.entry(for: reference.identity) { return record }
        return newRecord(for: reference)
    }

    /// Builds and publishes the record of a type seen for the first time.
    @usableFromInline
    @inline(never)
    static func newRecord(for reference: MetadataReference) -> ImmortalReference<TypeRecord> {
        table.entry(for: reference.identity) { TypeRecord(reference) }
    }

    private init(_ reference: MetadataReference) {
        self.tableKey = reference.identity
        self.reference = reference
        let kind = TypeMetadata.Kind(rawValue: reference.rawKind)
        self.kind = kind
        self.witnesses = reference.valueWitnesses
        let descriptor = kind.isNominal ? reference.typeDescriptor : nil
        self.descriptor = descriptor
        self.isCopyable = Self.copyability(reference, descriptor: descriptor, flags: witnesses.flags)
    }

    /// Decides copyability from the value witness flag and the descriptor's invertible protocols.
    ///
    /// Runtime-instantiated generic metadata does not set `IsNonCopyable` (the DocC article "Understanding the ABI layer"), so
    /// the descriptor decides: a type that suppresses `Copyable` is copyable only when its
    /// conditional `Copyable` conformance holds, which for `where T: Copyable` clauses means its
    /// type arguments are copyable.
    private static func copyability(
        _ reference: MetadataReference,
        descriptor: DescriptorReference?,
        flags: UInt32
    ) -> Bool {
        if flags & ValueWitnessFlags.isNonCopyable != 0 { return false }
        guard let descriptor, let inverted = descriptor.invertibleProtocols, inverted & 0x1 != 0 else { return true }
        guard let conditional = descriptor.conditionalInvertibleProtocols, conditional & 0x1 != 0 else { return false }
        for argument in reference.genericArguments {
            switch argument {
            case .type(let type):
                if !record(for: type).isCopyable { return false }
            case .pack(let types):
                if types.contains(where: { !record(for: $0).isCopyable }) { return false }
            case .value:
                continue
            }
        }
        return true
    }
}
