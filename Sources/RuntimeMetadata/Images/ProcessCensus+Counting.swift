// ProcessCensus+Counting.swift
//
// The census's decisions: which heap blocks of another process are objects (their metadata
// checked once per distinct first word, their size against their class's), and each class's
// name, spelled from its metadata copied into this process (ABI/RemoteMetadataCopies.swift).

extension ProcessCensus {
    /// Counts the objects among a heap scan's blocks.
    /// - Parameters:
    ///   - scan: The process's heap blocks.
    ///   - process: The process, with its images.
    init(counting scan: RemoteHeapScan, of process: RemoteProcess) {
        var known = Set<UInt>()
        for image in process.images {
            for descriptor in image.typeDescriptorReferences { known.insert(descriptor.identity) }
            for descriptor in image.protocolReferences { known.insert(descriptor.descriptor.identity) }
        }
        let copies = RemoteMetadataCopies(
            processID: process.processID,
            images: process.places,
            knownDescriptors: known
        )
        // Each distinct first word is checked once, and its blocks kept by their size.
        var addresses: [String: [UInt]] = [:]
        var bytes: [String: Int] = [:]
        for group in 0..<scan.groupCount {
            let metadata = scan.metadata(ofGroup: group)
            guard let facts = copies.classFacts(at: metadata) else { continue }
            let kept = scan.keep(group: group, sizes: Self.sizes(facts))
            guard kept.count > 0 else { continue }
            let name = Self.name(of: metadata, facts: facts, copies: copies)
            addresses[name, default: []] += scan.addresses(ofGroup: group)
            bytes[name, default: 0] += kept.bytes
        }
        let rows = addresses.map { Row(typeName: $0.key, count: $0.value.count, bytes: bytes[$0.key] ?? 0) }
        self.init(
            processID: process.processID,
            rows: rows.sorted {
                $0.bytes != $1.bytes
                    ? $0.bytes > $1.bytes : $0.typeName.utf8.lexicographicallyPrecedes($1.typeName.utf8)
            },
            heapBytesRead: scan.bytesRead,
            inconsistentHeapCount: scan.inconsistentHeapCount,
            addressesByType: addresses.mapValues { $0.sorted() }
        )
    }

    /// The usable sizes of a block that fit an instance of the class: at least its instance
    /// size, and, for a class that allocates no tail, no more than `malloc` gives for that size
    /// (its rounding to 16 bytes and 8 of header; a page for a block of its own mapping, and the
    /// alignment an over-aligned class asks for).
    private static func sizes(_ facts: RemoteClassFacts) -> ClosedRange<Int> {
        if facts.allowsTailAllocation { return facts.instanceSize...Int.max }
        let slack = facts.instanceSize >= 120 * 1024 ? 4096 + 16 : 24 + max(facts.alignmentMask - 15, 0)
        return facts.instanceSize...(facts.instanceSize + slack)
    }

    /// A class's name: its descriptor's, with its generic arguments read from its metadata.
    private static func name(of metadata: UInt, facts: RemoteClassFacts, copies: RemoteMetadataCopies) -> String {
        guard facts.isGeneric else { return facts.descriptor.portableQualifiedName }
        if let copy = copies.copy(metadata: metadata), let name = copy.structuralReflectingName { return name }
        // Arguments of a kind the copy does not cover: the class, and what it is not.
        return facts.descriptor.portableQualifiedName + "<…>"
    }
}
