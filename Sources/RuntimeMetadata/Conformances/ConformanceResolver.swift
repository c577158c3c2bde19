// ConformanceResolver.swift
//
// Decides whether a type conforms to a protocol from the conformance records, without the
// runtime's per-question scan of every record (the DocC article "Caching"):
//
// 1. The type's descriptor, then each superclass's, is looked up among the protocol's records
//    (a ProtocolIndex, or the records a caller already found for the type).
// 2. A record's conditional requirements are checked by GenericRequirementChecker against the
//    generic arguments of the type that matched.
// 3. The witness table comes from the record through the runtime's `swift_getWitnessTable`,
//    which instantiates and caches it as `swift_conformsToProtocol` would.
//
// This follows the runtime's own matching (swiftlang/swift stdlib/public/runtime/ProtocolConformance.cpp):
// a record matches a type when their descriptors are the same, the nearest type of a class
// hierarchy with a satisfied record wins, and among one type's records the first in image order
// whose requirements hold. What records do not describe is left to `swift_conformsToProtocol`:
// see ``ConformanceDecision/askRuntime``.

/// What the records say about a (type, protocol) pair.
enum ConformanceDecision {
    /// The type conforms, by this witness table.
    case conforms(WitnessTableReference)
    /// No record applies: the type does not conform.
    case doesNotConform
    /// The records do not decide; `swift_conformsToProtocol` must. This is the case for
    /// - types that are not structs, enums or classes (tuples, whose `Equatable`, `Comparable`
    ///   and `Hashable` conformances are built into the runtime; existentials, which
    ///   self-conform, such as `any Error`; functions, metatypes, foreign and Objective-C types);
    /// - types whose descriptor is not unique (imported C types, matched by name);
    /// - records the library does not interpret: isolated (`@MainActor`) conformances,
    ///   conformances of protocols, records with pack requirements or of Objective-C classes;
    /// - requirements left undecided by ``GenericRequirementChecker``;
    /// - a record whose witness table the runtime does not return.
    case askRuntime
}

/// `ConformanceFlags` the resolver reads (include/swift/ABI/MetadataValues.h).
private enum ConformanceFlag {
    static let typeReferenceKindMask: UInt32 = 0x38
    static let isConformanceOfProtocol: UInt32 = 0x0004_0000
    static let hasGlobalActorIsolation: UInt32 = 0x0008_0000
    static let numConditionalPackShapesMask: UInt32 = 0xFF00_0000
    static let numConditionalRequirementsMask: UInt32 = 0x0000_FF00
}

extension ProtocolReference {
    /// Decides a conformance from records.
    /// - Parameters:
    ///   - metadata: The type.
    ///   - records: The protocol's records for a type descriptor.
    /// - Returns: The decision.
    func decideConformance(
        of metadata: MetadataReference,
        records: (DescriptorReference) -> ConformanceRecordList
    ) -> ConformanceDecision {
        var current = metadata
        while true {
            let kind = MetadataKind(rawValue: current.rawKind)
            guard kind.isValueNominal || kind == .class else { return .askRuntime }
            guard let descriptor = current.typeDescriptor, descriptor.isUnique else { return .askRuntime }
            let list = records(descriptor)
            if let record = list.single {
                // The usual case: one record, read from its slot with no array.
                let decision = decide(record, for: current)
                if case .doesNotConform = decision {} else { return decision }
            }
            for record in list.several ?? [] {
                switch decide(record, for: current) {
                case .conforms(let table): return .conforms(table)
                case .doesNotConform: continue
                case .askRuntime: return .askRuntime
                }
            }
            guard kind == .class, let superclass = current.superclass else { return .doesNotConform }
            current = superclass
        }
    }

    /// Decides one record for a type whose descriptor it names.
    private func decide(_ record: ConformanceRecordReference, for type: MetadataReference) -> ConformanceDecision {
        let flags = record.flags
        let unsupported =
            ConformanceFlag.isConformanceOfProtocol | ConformanceFlag.hasGlobalActorIsolation
            | ConformanceFlag.numConditionalPackShapesMask
        guard flags & unsupported == 0, flags & ConformanceFlag.typeReferenceKindMask <= 0x08 else {
            return .askRuntime
        }
        guard flags & ConformanceFlag.numConditionalRequirementsMask != 0 else {
            // Most records: no requirement to list, and no array made, not even an empty one
            // (whose storage is retained and released).
            return record.witnessTable(for: type, arguments: nil).map(ConformanceDecision.conforms) ?? .askRuntime
        }
        let arguments: [WitnessTableReference]
        switch GenericRequirementChecker.check(
            record.conditionalRequirementReferences,
            in: .type(type),
            conformance: { subject, protocolReference in
                ProtocolDescriptor(protocolReference).conformanceWitnessTable(of: subject)
            }
        ) {
        case .satisfied(let tables): arguments = tables
        case .unsatisfied: return .doesNotConform
        case .undecided: return .askRuntime
        }
        guard let table = record.witnessTable(for: type, arguments: arguments) else { return .askRuntime }
        return .conforms(table)
    }
}
