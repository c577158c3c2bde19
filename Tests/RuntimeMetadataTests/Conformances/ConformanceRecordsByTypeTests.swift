// ConformanceRecordsByTypeTests.swift
//
// The index a first conformance question reads a type's records from, against each protocol's
// own pass over the sections (ProtocolIndex, which `conformanceRecords()` lists).

import Fixtures
import Testing

@testable import RuntimeMetadata

@Suite("The records by type descriptor that first questions read")
struct ConformanceRecordsByTypeTests {
    @Test("Every protocol's records of every type, in image order, as the protocol's own scan lists them")
    func agreesWithEachProtocolsScan() {
        // The fixtures' types conform to several protocols each, some conditionally and some
        // in more than one record; the standard library's records are in the same index.
        _ = [Point.self, GenericBox<Point>.self, DerivedClass.self] as [Any.Type]
        let imageCount = ImageGeneration.refreshedCount
        let index = ConformanceRecordsByType.index(imageCount: imageCount)
        var protocols: [ProtocolReference] = []
        LoadedImages.forEachImage { sections in
            sections.forEachConformanceWithType { record, _ in
                if let reference = record.protocolReference, !protocols.contains(reference) {
                    protocols.append(reference)
                }
            }
        }
        #expect(protocols.count > 100)
        var compared = 0
        var wrong: [String] = []
        for protocolReference in protocols {
            let scanned = ProtocolIndex.index(of: protocolReference, imageCount: imageCount)
                .withObject { $0.records.map(\.reference) }
            // The protocol's records, grouped by type descriptor in the order the scan met them.
            var byType: [(descriptor: DescriptorReference, records: [ConformanceRecordReference])] = []
            for record in scanned {
                guard let descriptor = record.typeDescriptor else { continue }
                if let position = byType.firstIndex(where: { $0.descriptor == descriptor }) {
                    byType[position].records.append(record)
                } else {
                    byType.append((descriptor, [record]))
                }
            }
            for (descriptor, expected) in byType {
                let list = index.withObject { $0.records(of: descriptor, conformingTo: protocolReference) }
                let found = list.several ?? list.single.map { [$0] } ?? []
                compared += 1
                if found != expected { wrong.append("\(descriptor.identity): \(found.count) of \(expected.count)") }
            }
        }
        #expect(compared > 1_000)
        #expect(wrong.count == 0, "\(wrong.prefix(10))")
    }

    @Test("A descriptor without records, or without records of a protocol, has none")
    func noRecords() throws {
        let index = ConformanceRecordsByType.index(imageCount: ImageGeneration.refreshedCount)
        // `Point` conforms to protocols of its own module, not to `Error`.
        let point = try #require(TypeMetadata(Point.self).reference.typeDescriptor)
        let error = try ProtocolDescriptor((any Error).self).reference
        let list = index.withObject { $0.records(of: point, conformingTo: error) }
        #expect(list.single == nil && list.several == nil)
        let hashable = try ProtocolDescriptor((any Hashable).self).reference
        let lonely = try #require(TypeMetadata(WithoutConformances.self).reference.typeDescriptor)
        let none = index.withObject { $0.records(of: lonely, conformingTo: hashable) }
        #expect(none.single == nil && none.several == nil)
    }
}

/// A type without a conformance record.
private struct WithoutConformances {
    var value = 0
}
