// ConformanceIndex.swift
//
// The conformance records of every loaded image, indexed by protocol and by conforming type
// descriptor, built once per set of loaded images.

import Synchronization

/// All conformance records of a set of loaded images, indexed.
final class ConformanceIndex: ConcurrentTableNode {
    /// The images, in registration order.
    let images: [Image]
    /// The number of images.
    let imageCount: Int
    /// Records by protocol.
    let byProtocol: [ProtocolReference: [ConformanceRecord]]
    /// Records by conforming type descriptor.
    let byType: [DescriptorReference: [ConformanceRecord]]
    /// Every record.
    let all: [ConformanceRecord]
    /// Records by descriptor, for witness tables naming theirs.
    let byDescriptor: [ConformanceRecordReference: ConformanceRecord]
    /// The table key: the image count.
    var tableKey: UInt { UInt(imageCount) }
    private let next = PublishedReference<ConformanceIndex>()

    func nextNode() -> ImmortalReference<ConformanceIndex>? { next.loadImmortal() }
    func linkNext(_ node: ConformanceIndex) -> ConformanceIndex { next.storeIfNil(node) }

    init(imageCount: Int) {
        self.imageCount = imageCount
        let images = LoadedImages.images.map(Image.init)
        self.images = images
        var byProtocol: [ProtocolReference: [ConformanceRecord]] = [:]
        var byType: [DescriptorReference: [ConformanceRecord]] = [:]
        var all: [ConformanceRecord] = []
        for image in images {
            for reference in image.conformanceReferences {
                let record = ConformanceRecord(reference, image: image)
                all.append(record)
                if let protocolReference = reference.protocolReference {
                    byProtocol[protocolReference, default: []].append(record)
                }
                if let type = reference.typeDescriptor {
                    byType[type, default: []].append(record)
                }
            }
        }
        self.byProtocol = byProtocol
        self.byType = byType
        self.all = all
        self.byDescriptor = Dictionary(all.map { ($0.reference, $0) }, uniquingKeysWith: { first, _ in first })
    }
}
