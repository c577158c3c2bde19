// ConformanceRecordsByType.swift
//
// Every conformance record of one set of loaded images, by conforming type descriptor: what a
// first conformance question looks up (ConformanceResolver.swift). One index for all
// protocols, built by one pass over the images' conformance sections, rather than one per
// protocol: a type's records, of whatever protocol, are found in one slot and read together,
// so that asking one type about several protocols costs one cache miss in the index, not one
// per protocol's table (the DocC article "Caching").

/// The conformance records of the first `imageCount` images, by conforming type descriptor.
///
/// The records are kept in image order as addresses, each linked to the next record of the same
/// type descriptor; a word table gives each descriptor's first. Records of Objective-C classes,
/// which name no descriptor, are not indexed.
final class ConformanceRecordsByType: CacheEntry {
    /// The indexes, by image count.
    static var table: ConcurrentTable<ConformanceRecordsByType> { ConcurrentTable(.conformanceRecordsByType) }

    /// The image count.
    let tableKey: UInt
    /// Every indexed record's address, in image order.
    private let records: [UInt]
    /// For each record, the position of the next record of the same type descriptor, or -1.
    private let next: [Int32]
    /// Each type descriptor's first record's position.
    private let firsts: ConcurrentWordTable

    /// The index of the first `imageCount` images, built on first use.
    /// - Parameter imageCount: The number of images.
    /// - Returns: The index.
    static func index(imageCount: Int) -> ImmortalReference<ConformanceRecordsByType> {
        table.entry(for: UInt(imageCount)) { ConformanceRecordsByType(imageCount: imageCount) }
    }

    private init(imageCount: Int) {
        tableKey = UInt(imageCount)
        // One pass over the runtime's image list, as its own scan does.
        var records: [UInt] = []
        var visited = 0
        LoadedImages.forEachImage { sections in
            guard visited < imageCount else { return }
            visited += 1
            sections.forEachConformanceWithType { record, _ in records.append(record.identity) }
        }
        // Linked in image order: a descriptor's first record stays in the table, each record
        // found again is linked after the last one found (`tails`, by first record).
        var next = [Int32](repeating: -1, count: records.count)
        var tails = [Int32](repeating: -1, count: records.count)
        let pairs = records.indices.lazy.compactMap { position -> (key: UInt, value: UInt)? in
            ConformanceRecordReference(identity: records[position]).typeDescriptor.map {
                ($0.identity, UInt(position))
            }
        }
        firsts = ConcurrentWordTable(filledWith: pairs, count: records.count) { first, found in
            let head = Int(first)
            let tail = tails[head] < 0 ? head : Int(tails[head])
            next[tail] = Int32(found)
            tails[head] = Int32(found)
            return first
        }
        self.records = records
        self.next = next
    }

    /// Runs only for the index of a thread that lost the race to publish it.
    deinit {
        firsts.discardUnpublished()
    }

    /// The records of one protocol whose conforming type is a descriptor, in image order:
    /// one lookup, then the descriptor's records, of every protocol, read in turn.
    /// - Parameters:
    ///   - descriptor: The type descriptor.
    ///   - protocolReference: The protocol.
    /// - Returns: The records, none when there are none.
    func records(of descriptor: DescriptorReference, conformingTo protocolReference: ProtocolReference)
        -> ConformanceRecordList
    {
        guard let first = firsts.value(for: descriptor.identity) else { return .none }
        var single: ConformanceRecordReference?
        var several: [ConformanceRecordReference]?
        var position = Int(first)
        while position >= 0 {
            let record = ConformanceRecordReference(identity: records[position])
            if record.protocolReference == protocolReference {
                if several != nil {
                    several?.append(record)
                } else if let found = single {
                    several = [found, record]
                } else {
                    single = record
                }
            }
            position = Int(next[position])
        }
        if let several { return ConformanceRecordList(several) }
        return single.map(ConformanceRecordList.init(single:)) ?? .none
    }
}
