// TypeNameIndexTests.swift
//
// A process's first lookups of a protocol by name scan the images' protocol sections; later
// ones use the index. Both must find the same descriptor for every name.

import Testing

@testable import RuntimeMetadata

@Suite("TypeNameIndex: the scan of a first lookup and the index agree")
struct TypeNameIndexTests {
    @Test("Every loaded protocol, and names of none, found alike by the scan and the index")
    func scanAgreesWithIndex() {
        let images = LoadedImages.count
        let index = TypeNameIndex.shared
        var names: [String] = []
        LoadedImages.forEachProtocol(inFirst: images) { candidate in
            names.append(candidate.qualifiedName)
            return true
        }
        #expect(names.count > 100, "the standard library alone declares hundreds of protocols")
        // Hostile names too: dots alone, a NUL inside, a name of 20,000 bytes.
        let unknown = [
            "Swift.NoSuchProtocol", "Hashable", "Swift.Int", "Swift", "", "Swift.Hashable.Hashable", "é.P", ".", "..",
            "Swift.", "Swift.Hash\u{0}able", String(repeating: "a.", count: 10_000),
        ]
        for name in names + unknown {
            let key = TypeNameIndex.key(name)
            let scanned = TypeNameIndex.scannedProtocol(named: key, imageCount: images)
            #expect(scanned == index.indexedProtocol(named: key), "\(name)")
            // A protocol's own name finds a protocol of that name (the first, where two images
            // declare one); the others find none.
            #expect(scanned?.qualifiedName == (unknown.contains(name) ? nil : name), "\(name)")
        }
        // The public initializer's answer, scanned or indexed, is the same descriptor.
        let hashable = try? ProtocolDescriptor(named: "Swift.Hashable")
        #expect(hashable == (try? ProtocolDescriptor((any Hashable).self)))
    }
}
