// ProtocolIndex.swift
//
// One protocol's conformance records in one set of loaded images, found by one pass over the
// images' conformance sections (the comparison the runtime's own scan makes for every new
// question): what `conformanceRecords()` lists. A first question about a (type, protocol) pair
// finds the type's records in ConformanceRecordsByType.swift instead; the list of one type's
// records of one protocol that it decides from is here.

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
}
