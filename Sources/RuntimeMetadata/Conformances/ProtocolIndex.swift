// ProtocolIndex.swift
//
// One protocol's conformance records in one set of loaded images, found by one pass over the
// images' conformance sections (the comparison the runtime's own scan makes for every new
// question) and indexed by conforming type descriptor in a table of its own. A first question
// about a (type, protocol) pair is then a few lookups here, not a scan: see
// ConformanceResolver.swift.

/// The records of one protocol whose conforming type is one type descriptor, when there is
/// more than one (the same conformance declared again, or conditional ones).
final class RecordsOfType: CacheEntry {
    /// The type descriptor's identity.
    let tableKey: UInt
    /// The records, in image order.
    let records: [ConformanceRecordReference]

    init(descriptor: UInt, records: [ConformanceRecordReference]) {
        tableKey = descriptor
        self.records = records
    }
}

/// A type descriptor's records of one protocol, without an array for the usual single one.
struct ConformanceRecordList {
    /// The single record, or `nil` when there are none or several.
    let single: ConformanceRecordReference?
    /// The records when there are several, in image order; `nil` otherwise, which costs no
    /// retain of an empty array's storage.
    let several: [ConformanceRecordReference]?

    /// No record.
    static var none: ConformanceRecordList { ConformanceRecordList(single: nil, several: nil) }

    /// The records of a list.
    /// - Parameter records: The records, in image order.
    init(_ records: [ConformanceRecordReference]) {
        if records.count == 1 {
            self.init(single: records[0], several: nil)
        } else {
            self.init(single: nil, several: records)
        }
    }

    private init(single: ConformanceRecordReference?, several: [ConformanceRecordReference]?) {
        self.single = single
        self.several = several
    }

    /// One record.
    /// - Parameter record: The record.
    init(single record: ConformanceRecordReference) {
        self.init(single: record, several: nil)
    }
}

/// One protocol's records in one set of images.
final class ProtocolIndex: CacheEntry {
    /// Every protocol's index, by (protocol, image count).
    static var table: ConcurrentTable<ProtocolIndex> { ConcurrentTable(.protocolIndexes) }

    /// (protocol, image count).
    let tableKey: IdentityPair
    /// The records, in image order.
    let records: [ConformanceRecord]
    /// The records by conforming type descriptor, built on the first conformance question;
    /// records of Objective-C classes are not in it.
    private let byType = LazyValue<RecordsByTypeBox>()

    /// The index of a protocol in the first `imageCount` images, built on first use.
    /// - Parameters:
    ///   - protocolReference: The protocol.
    ///   - imageCount: The number of images.
    /// - Returns: The index.
    static func index(of protocolReference: ProtocolReference, imageCount: Int) -> ImmortalReference<ProtocolIndex> {
        let key = IdentityPair(first: protocolReference.identity, second: UInt(imageCount))
        return table.entry(for: key) { ProtocolIndex(key: key, protocolReference: protocolReference) }
    }

    private init(key: IdentityPair, protocolReference: ProtocolReference) {
        tableKey = key
        let imageCount = Int(key.second)
        // One pass over the runtime's image list, as its own scan does: no list of images is
        // built, and an image's shared record is looked up only when it has a match.
        var records: [ConformanceRecord] = []
        var visited = 0
        LoadedImages.forEachImage { sections in
            guard visited < imageCount else { return }
            visited += 1
            var image: Image?
            sections.forEachConformance(of: protocolReference) { reference in
                let owner = image ?? Image(sections)
                image = owner
                records.append(ConformanceRecord(reference, image: owner))
            }
        }
        self.records = records
    }

    /// The records by type descriptor, filed on first use: a word table from each descriptor to
    /// its record's address, which a lookup reads in its slot with no object. Records are
    /// 4-aligned, so bit 0 is free to mark a descriptor with several records; those are listed
    /// in a second table, usually empty.
    private var recordsByType: RecordsByType {
        byType.value {
            var pairs: [(key: UInt, value: UInt)] = []
            pairs.reserveCapacity(records.count)
            for record in records {
                guard let descriptor = record.reference.typeDescriptor else { continue }
                pairs.append((descriptor.identity, record.reference.identity))
            }
            var repeated = false
            let first = ConcurrentWordTable(filledWith: pairs) { stored, _ in
                repeated = true
                return stored | RecordsByType.severalBit
            }
            var several: [(key: UInt, value: ConformanceRecordReference)] = []
            for pair in pairs where repeated {
                guard let word = first.value(for: pair.key), word & RecordsByType.severalBit != 0 else { continue }
                several.append((pair.key, ConformanceRecordReference(identity: pair.value)))
            }
            let entries = groupedByKey(several).map { RecordsOfType(descriptor: $0.key, records: $0.values) }
            return RecordsByType(first: first, several: ConcurrentTable(filledWith: entries))
        }
    }

    /// The records whose conforming type is a descriptor: one lookup, two when it has several.
    /// - Parameter descriptor: The type descriptor.
    /// - Returns: The records, none when there are none.
    func records(of descriptor: DescriptorReference) -> ConformanceRecordList {
        let byType = recordsByType
        guard let word = byType.first.value(for: descriptor.identity) else { return .none }
        if word & RecordsByType.severalBit == 0 {
            return ConformanceRecordList(single: ConformanceRecordReference(identity: word))
        }
        guard let several = byType.several.entry(for: descriptor.identity) else {
            fatalError("unreachable: a descriptor marked with several records is listed")
        }
        return several.withObject { ConformanceRecordList($0.records) }
    }
}

/// One protocol's records by type descriptor.
struct RecordsByType: Sendable {
    /// The bit of a record's address that marks a descriptor with several records.
    static var severalBit: UInt { 1 }
    /// Each descriptor's record, marked when it has several.
    let first: ConcurrentWordTable
    /// The descriptors with several records.
    let several: ConcurrentTable<RecordsOfType>
}

/// The boxed tables of one protocol's records by type.
final class RecordsByTypeBox: LazyBox {
    let value: RecordsByType
    init(_ value: RecordsByType) { self.value = value }
    /// Runs only for the box of a thread that lost the race to publish (``LazyValue``).
    deinit {
        value.first.discardUnpublished()
        value.several.discardUnpublished()
    }
}
