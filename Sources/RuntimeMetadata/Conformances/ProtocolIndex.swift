// ProtocolIndex.swift
//
// One protocol's conformance records in one set of loaded images, found by one pass over the
// images' conformance sections (the comparison the runtime's own scan makes for every new
// question) and indexed by conforming type descriptor in a table of its own. A first question
// about a (type, protocol) pair is then a few lookups here, not a scan: see
// ConformanceResolver.swift.

/// The records of one protocol whose conforming type is one type descriptor.
final class RecordsOfType: CacheEntry {
    /// The type descriptor's identity.
    let tableKey: UInt
    /// The first record, in image order.
    let first: ConformanceRecordReference
    /// Further records (the same conformance declared again, or conditional ones), usually none.
    let rest: [ConformanceRecordReference]

    init(descriptor: UInt, records: [ConformanceRecordReference]) {
        tableKey = descriptor
        first = records[0]
        rest = Array(records.dropFirst())
    }

    /// The records, in image order.
    var all: [ConformanceRecordReference] { [first] + rest }
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

    /// The records by type descriptor, filed on first use.
    private var recordsByType: ConcurrentTable<RecordsOfType> {
        byType.value {
            let filed: [(key: UInt, value: ConformanceRecordReference)] = records.compactMap { record in
                record.reference.typeDescriptor.map { ($0.identity, record.reference) }
            }
            let entries = groupedByKey(filed).map { RecordsOfType(descriptor: $0.key, records: $0.values) }
            return ConcurrentTable(filledWith: entries)
        }
    }

    /// The records whose conforming type is a descriptor: one lookup.
    /// - Parameter descriptor: The type descriptor.
    /// - Returns: The records, or `nil` when there are none.
    func records(of descriptor: DescriptorReference) -> ImmortalReference<RecordsOfType>? {
        recordsByType.entry(for: descriptor.identity)
    }

    /// The number of records indexed by type, and the bytes of the index's slots.
    var footprint: (entries: Int, slotBytes: Int) { recordsByType.footprint }
}

/// The boxed table of one protocol's records by type.
final class RecordsByTypeBox: LazyBox {
    let value: ConcurrentTable<RecordsOfType>
    init(_ value: ConcurrentTable<RecordsOfType>) { self.value = value }
    /// Runs only for the box of a thread that lost the race to publish (``LazyValue``).
    deinit { value.discardUnpublished() }
}
