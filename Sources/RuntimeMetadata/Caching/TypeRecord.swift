// TypeRecord.swift
//
// The cached, immutable facts about one type. A record is built once per metadata record,
// published in `TypeRecord.cache`, and shared by every `TypeMetadata` value for that type.
// The cheap facts are computed when the record is built; the rest is computed on first use
// and published through `LazyValue`, so that later questions take no lock and allocate
// nothing.

/// Everything RuntimeMetadata knows about one type.
final class TypeRecord: Sendable {
    /// All records, by metadata identity.
    static let cache = ConcurrentCache<UInt, TypeRecord>()

    /// The metadata.
    let reference: MetadataReference
    /// The kind.
    let kind: TypeMetadata.Kind
    /// The name as `String(reflecting:)` prints it.
    let name: String
    /// The value witness facts.
    let witnesses: MetadataReference.ValueWitnessSummary
    /// The nominal type descriptor.
    let descriptor: DescriptorReference?
    /// Whether values of the type can be copied.
    let isCopyable: Bool

    let mangledName = LazyValue<String?>()
    let genericArguments = LazyValue<[GenericArgument]>()
    let ownFields = LazyValue<Result<[Field], RuntimeMetadataError>>()
    let allFields = LazyValue<Result<[Field], RuntimeMetadataError>>()
    let cases = LazyValue<Result<[EnumCase], RuntimeMetadataError>>()
    let tupleElements = LazyValue<[TupleElement]>()
    let comparator = LazyValue<ValueComparator>()
    let existentialShape = LazyValue<ExistentialShape?>()

    /// Returns the record of a metadata record, building it on first use.
    /// - Parameter reference: The metadata.
    /// - Returns: The shared record.
    @inline(__always)
    static func record(for reference: MetadataReference) -> TypeRecord {
        cache.value(for: reference.identity) { TypeRecord(reference) }
    }

    private init(_ reference: MetadataReference) {
        self.reference = reference
        let kind = TypeMetadata.Kind(rawValue: reference.rawKind)
        self.kind = kind
        self.witnesses = reference.valueWitnesses
        // An unknown kind may not be type metadata the runtime can name; do not ask it to.
        self.name = kind.isKnown ? reference.qualifiedName : "<\(kind)>"
        let descriptor = kind.isNominal ? reference.typeDescriptor : nil
        self.descriptor = descriptor
        self.isCopyable = Self.copyability(reference, descriptor: descriptor, flags: witnesses.flags)
    }

    /// Decides copyability from the value witness flag and the descriptor's invertible protocols.
    ///
    /// Runtime-instantiated generic metadata does not set `IsNonCopyable` (ABI reference §6), so
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
