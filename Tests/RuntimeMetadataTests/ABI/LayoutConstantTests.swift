// LayoutConstantTests.swift
//
// Constants the ABI layer uses on warm paths instead of computing offsets per call, checked
// against the mirrored structs' own layout.

import Testing

@testable import RuntimeMetadata

@Suite("ABI layout constants")
struct LayoutConstantTests {
    @Test("Value witness offsets are the positions of the mirrored fields")
    func valueWitnessOffsets() {
        typealias Fields = ValueWitnessTableLayout.Fields
        let expected: [(ValueWitnessTableLayout.Witness, Int?)] = [
            (.destroy, MemoryLayout<Fields>.offset(of: \.destroy)),
            (.initializeWithCopy, MemoryLayout<Fields>.offset(of: \.initializeWithCopy)),
            (.getEnumTag, MemoryLayout<Fields>.offset(of: \.getEnumTag)),
            (.destructiveProjectEnumData, MemoryLayout<Fields>.offset(of: \.destructiveProjectEnumData)),
            (.destructiveInjectEnumTag, MemoryLayout<Fields>.offset(of: \.destructiveInjectEnumTag)),
        ]
        for (witness, offset) in expected {
            #expect(ValueWitnessTableLayout.offset(of: witness) == offset, "\(witness)")
        }
        #expect(ValueWitnessTableLayout.flagsOffset == MemoryLayout<Fields>.offset(of: \.flags))
    }
}

extension LayoutConstantTests {
    @Test("The protocol field of a conformance descriptor is where the scans read it")
    func conformanceProtocolOffset() {
        #expect(
            ProtocolConformanceDescriptorLayout.protocolOffset
                == MemoryLayout<ProtocolConformanceDescriptorLayout.Fields>.offset(of: \.protocol)
        )
    }
}

extension LayoutConstantTests {
    @Test("Existential metadata offsets are where the opening fast path reads them")
    func existentialOffsets() {
        typealias Fields = ExistentialTypeMetadataLayout.Fields
        #expect(ExistentialTypeMetadataLayout.flagsOffset == MemoryLayout<Fields>.offset(of: \.flags))
        #expect(ExistentialTypeMetadataLayout.protocolCountOffset == MemoryLayout<Fields>.offset(of: \.numProtocols))
        #expect(ExistentialTypeMetadataLayout.firstProtocolOffset == MemoryLayout<Fields>.size)
    }
}

extension LayoutConstantTests {
    @Test("The cache tables' bucket ranges are disjoint and fit in the static storage")
    func cacheTables() {
        let ranges = CacheTable.allCases.map { $0.base..<($0.base + $0.bucketCount) }.sorted {
            $0.lowerBound < $1.lowerBound
        }
        for (first, second) in zip(ranges, ranges.dropFirst()) {
            #expect(first.upperBound <= second.lowerBound, "\(first) overlaps \(second)")
        }
        #expect((ranges.last?.upperBound ?? 0) <= CacheBuckets.storageCount)
        for table in CacheTable.allCases {
            #expect(table.bucketCount & (table.bucketCount - 1) == 0, "\(table)")
        }
        // The small tables of a first conformance query share one page (4,096 bytes: 512 buckets).
        let firstQuery: [CacheTable] = [.images, .typeNameIndexes, .conformanceIndexes, .protocolRecords]
        let pages = Set(firstQuery.flatMap { [$0.base / 512, ($0.base + $0.bucketCount - 1) / 512] })
        #expect(pages.count == 1)
    }
}
