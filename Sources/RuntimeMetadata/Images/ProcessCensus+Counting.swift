// ProcessCensus+Counting.swift
//
// The census's decisions: which heap blocks of another process are objects (each distinct
// first word decided once, as the heap walk meets it: its metadata checked and its size range
// set from its class's), and each class's name, spelled from its metadata copied into this
// process (ABI/RemoteMetadataCopies.swift).

extension ProcessCensus {
    /// Takes the census of a process: its heap walked once, whole, with each first word decided
    /// as the walk meets it.
    /// - Parameters:
    ///   - process: The process, with its images.
    ///   - selection: The types whose addresses are kept: a name as ``addresses(ofType:)`` takes
    ///     it, `""` for every type, `nil` for none.
    /// - Throws: ``ProcessReadFailure`` from the scan.
    init(of process: RemoteProcess, keepingAddressesOf selection: String?) throws(ProcessReadFailure) {
        let copies = process.metadataCopies()
        // Each class's name, spelled once when its first word is decided.
        let names = NameBox()
        let scan = try ProcessHeapScan.scan(processID: process.processID) { metadata in
            guard let facts = copies.classFacts(at: metadata) else { return nil }
            let name = Self.name(of: metadata, facts: facts, copies: copies)
            names.byMetadata[metadata] = name
            let keeps = selection.map { $0.isEmpty || Self.matches(name, $0) } ?? false
            return HeapClassVerdict(sizes: Self.sizes(facts), keepsAddresses: keeps)
        }
        guard scan.startTime == process.startTime else {
            throw ProcessReadFailure(
                kind: .exited,
                systemError: 0,
                message: "process \(process.processID) exited since it was read, and its pid names another process"
            )
        }
        var counts: [String: (count: Int, bytes: Int)] = [:]
        var addresses: [String: [UInt]] = [:]
        for group in scan.groups {
            guard let name = names.byMetadata[group.metadata] else { continue }
            counts[name, default: (0, 0)].count += group.count
            counts[name, default: (0, 0)].bytes += group.bytes
            if !group.addresses.isEmpty { addresses[name, default: []] += group.addresses }
        }
        let rows = counts.map { Row(typeName: $0.key, count: $0.value.count, bytes: $0.value.bytes) }
        self.init(
            processID: process.processID,
            rows: rows.sorted {
                $0.bytes != $1.bytes
                    ? $0.bytes > $1.bytes : $0.typeName.utf8.lexicographicallyPrecedes($1.typeName.utf8)
            },
            heapBytesRead: scan.bytesRead,
            readCount: scan.attempts,
            addressesByType: addresses.mapValues { $0.sorted() }
        )
    }

    /// The usable sizes of a block that fit an instance of the class: at least its instance
    /// size, and, for a class that allocates no tail, no more than `malloc` gives for that size.
    /// glibc rounds a request and its 8-byte header up to a chunk of 16-byte steps
    /// (`request2size`), and hands a larger free chunk out whole when what would remain is
    /// smaller than its 32-byte minimum chunk: 16 bytes more at most (`_int_malloc`), 32 for an
    /// over-aligned class's `memalign`, which also gives back what precedes the alignment; a
    /// block of its own mapping is a page more at most.
    static func sizes(_ facts: RemoteClassFacts) -> ClosedRange<Int> {
        if facts.allowsTailAllocation { return facts.instanceSize...Int.max }
        if facts.instanceSize >= 120 * 1024 { return facts.instanceSize...(facts.instanceSize + 4096 + 16) }
        let chunk = max(32, (facts.instanceSize + 8 + 15) & ~15)
        let unsplit = facts.alignmentMask > 15 ? 32 + facts.alignmentMask - 15 : 16
        return facts.instanceSize...(chunk - 8 + unsplit)
    }

    /// A class's name: its descriptor's, with its generic arguments read from its metadata.
    static func name(of metadata: UInt, facts: RemoteClassFacts, copies: RemoteMetadataCopies) -> String {
        guard facts.isGeneric else { return facts.descriptor.portableQualifiedName }
        if let copy = copies.copy(metadata: metadata), let name = copy.structuralReflectingName { return name }
        // Arguments of a kind the copy does not cover: the class, and what it is not.
        return facts.descriptor.portableQualifiedName + "<…>"
    }
}

/// The names the census's decisions spell, by metadata, filled on the scanning thread during
/// the scan and read after it.
private final class NameBox {
    var byMetadata: [UInt: String] = [:]
}
