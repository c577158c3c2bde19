// ProcessLeakScan.swift
//
// The Swift face of CMetadata's search for leaks (CMetadata/ProcessLeaks.c, CMDProcessLeaks.h;
// CMDLeakScan and CMDLeakedBlock): the blocks of a held process's glibc malloc heap that no
// root reaches, with their first words and their edges among themselves. What they are, the
// concept layer decides (Images/ProcessLeaks+Finding.swift).

internal import CMetadata

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// A block in use that no root reaches (CMDLeakedBlock).
struct LeakedBlock: Sendable {
    /// What `malloc` returned, and its usable size.
    var address: UInt
    var size: Int
    /// Its first word: an object's metadata.
    var metadata: UInt
    /// Whether its header reads as a live Swift object's.
    var looksLikeObject: Bool
    /// Its side table's address and usable size, 0 without one.
    var sideTable: UInt
    var sideTableSize: Int
    /// Its edges: a range of ``LeakScanResult/edges``.
    var edges: Range<Int>
}

/// What a search for leaks found (CMDLeakScan).
struct LeakScanResult: Sendable {
    /// The leaked blocks, by address.
    var blocks: [LeakedBlock]
    /// Their edges among themselves, as indices into `blocks`.
    var edges: [Int]
    /// The blocks in use, and the words in them that point into the heap's memory.
    var liveBlocks: Int
    var liveEdges: Int
    /// The bytes read: of heap, and of roots.
    var heapBytesRead: Int
    var rootBytesRead: Int
    /// The largest memory the graph took.
    var graphBytes: Int
    /// The threads whose registers were read.
    var threadCount: Int
    /// How long the process was held, in nanoseconds.
    var heldNanoseconds: UInt64
    /// The process's start time.
    var startTime: UInt64
    /// What `/proc` said of the process before the search, to tell whether it is still the same
    /// process once the blocks are named: reads of a process that has died read nothing, and would
    /// name no block.
    var before: ProcessSnapshot
}

/// What `/proc` says of a process at one moment (CMDProcessFacts).
struct ProcessSnapshot: @unchecked Sendable {
    fileprivate let facts: CMDProcessFacts

    /// Why the process is no longer the one read (exited, a zombie, another program).
    /// - Parameter processID: The process.
    /// - Returns: The failure to report, or `nil` when it is the same process.
    func change(processID: Int32) -> ProcessReadFailure? {
        ProcessFacts.change(since: facts, processID: processID)
    }
}

extension ProcessHeapScan {
    /// Holds every thread of a process, finds the blocks of its heap that no root reaches, and
    /// resumes it.
    /// - Parameter processID: The process.
    /// - Returns: The leaked blocks.
    /// - Throws: ``ProcessReadFailure`` when the process cannot be held or read whole.
    static func findLeaks(processID: Int32) throws(ProcessReadFailure) -> LeakScanResult {
        var result = unsafe CMDLeakScan()
        var facts = CMDProcessFacts()
        var factsError: Int32 = 0
        guard unsafe cmd_processFacts(processID, &facts, &factsError) else {
            throw ProcessReadFailure(
                kind: .noSuchProcess,
                systemError: factsError,
                message: "no process has pid \(processID)"
            )
        }
        // The hold, from the first thread stopped to the last resumed.
        let start = monotonicNanoseconds()
        let found = try unsafe whileStopped(processID: processID) { stopped in
            unsafe cmd_findProcessLeaks(stopped, &result)
        }
        let held = monotonicNanoseconds() - start
        defer { unsafe cmd_releaseLeakScan(&result) }
        guard found else {
            let message = unsafe withUnsafeBytes(of: result.message) { bytes in
                unsafe String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw ProcessReadFailure(
                kind: unsafe failureKind(result.status),
                systemError: unsafe result.systemError,
                message: message
            )
        }
        let count = unsafe result.blockCount
        var blocks: [LeakedBlock] = []
        blocks.reserveCapacity(count)
        for index in 0..<count {
            let block = unsafe result.blocks![index]
            blocks.append(
                LeakedBlock(
                    address: block.address,
                    size: Int(block.size),
                    metadata: UInt(block.firstWord),
                    looksLikeObject: block.looksLikeObject,
                    sideTable: block.sideTable,
                    sideTableSize: Int(block.sideTableSize),
                    edges: Int(block.firstEdge)..<Int(block.firstEdge + block.edgeCount)
                )
            )
        }
        let edges = unsafe result.edges.map {
            unsafe UnsafeBufferPointer(start: $0, count: result.edgeCount).map { Int($0) }
        }
        return unsafe LeakScanResult(
            blocks: blocks,
            edges: edges ?? [],
            liveBlocks: Int(result.liveBlocks),
            liveEdges: Int(result.liveEdges),
            heapBytesRead: Int(result.heapBytesRead),
            rootBytesRead: Int(result.rootBytesRead),
            graphBytes: Int(result.graphBytes),
            threadCount: Int(result.threadCount),
            heldNanoseconds: held,
            startTime: result.startTime,
            before: ProcessSnapshot(facts: facts)
        )
    }

    /// The monotonic clock, in nanoseconds.
    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        unsafe clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
