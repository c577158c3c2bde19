// ConformanceIndex.swift
//
// The conformance records of every loaded image, built once per set of loaded images. Nothing
// is read before it is asked for: the records of one protocol come from one pass over the
// images' conformance sections that compares protocol descriptors, as the runtime's own
// `swift_conformsToProtocol` scan does, and are kept per protocol; the indexes by type and by
// descriptor are built on their first use.

/// All conformance records of a set of loaded images, indexed on demand.
final class ConformanceIndex: ConcurrentTableNode {
    /// The images, in registration order.
    private let imageList = LazyValue<ImagesBox>()
    /// The number of images.
    let imageCount: Int
    /// The table key: the image count.
    var tableKey: UInt { UInt(imageCount) }
    private let next = PublishedReference<ConformanceIndex>()

    private let allRecords = LazyValue<ConformanceRecordsBox>()
    private let typeIndex = LazyValue<RecordsByTypeBox>()
    private let descriptorIndex = LazyValue<RecordsByDescriptorBox>()

    func nextNode() -> ImmortalReference<ConformanceIndex>? { next.loadImmortal() }
    func linkNext(_ node: ConformanceIndex) -> ConformanceIndex { next.storeIfNil(node) }

    init(imageCount: Int) {
        self.imageCount = imageCount
    }

    /// The images of this generation, listed on first use. Images are only ever appended to
    /// the runtime's list, so its first `imageCount` entries are this generation's.
    var images: [Image] {
        imageList.value { Array(LoadedImages.images(Image.init).prefix(imageCount)) }
    }

    /// Every record, in image order.
    var all: [ConformanceRecord] {
        allRecords.value { images.flatMap { $0.conformances } }
    }

    /// Records by conforming type descriptor.
    var byType: [DescriptorReference: [ConformanceRecord]] {
        typeIndex.value {
            var byType: [DescriptorReference: [ConformanceRecord]] = [:]
            for record in all {
                if let type = record.reference.typeDescriptor { byType[type, default: []].append(record) }
            }
            return byType
        }
    }

    /// Records by descriptor, for witness tables naming theirs.
    var byDescriptor: [ConformanceRecordReference: ConformanceRecord] {
        descriptorIndex.value {
            Dictionary(all.map { ($0.reference, $0) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// The records of one protocol, in image order, found by one pass over the images on the
    /// first request and kept.
    /// - Parameter protocolReference: The protocol.
    /// - Returns: The records.
    func records(of protocolReference: ProtocolReference) -> [ConformanceRecord] {
        let key = IdentityPair(first: protocolReference.identity, second: UInt(imageCount))
        return ProtocolRecords.table.node(for: key) {
            // One pass over the runtime's image list, as its own scan does: no list of images
            // is built, and an image's shared record is looked up only when it has a match.
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
            return ProtocolRecords(key: key, records: records)
        }.withObject { $0.records }
    }
}

/// The records of one protocol in one set of images.
final class ProtocolRecords: ConcurrentTableNode {
    /// Every protocol's records, by (protocol, image count).
    static var table: ConcurrentTable<ProtocolRecords> { ConcurrentTable(.protocolRecords) }

    let tableKey: IdentityPair
    let records: [ConformanceRecord]
    private let next = PublishedReference<ProtocolRecords>()

    init(key: IdentityPair, records: [ConformanceRecord]) {
        self.tableKey = key
        self.records = records
    }

    func nextNode() -> ImmortalReference<ProtocolRecords>? { next.loadImmortal() }
    func linkNext(_ node: ProtocolRecords) -> ProtocolRecords { next.storeIfNil(node) }
}
