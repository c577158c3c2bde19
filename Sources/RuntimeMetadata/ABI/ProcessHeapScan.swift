// ProcessHeapScan.swift
//
// The Swift face of CMetadata's heap reader (CMetadata/ProcessHeap.c, CMDProcessHeap.h) and
// its hold on a process (CMetadata/ProcessControl.c, CMDProcessControl.h): the blocks of a
// process's glibc malloc heap that are in use and start with an object's header, and every
// thread of a process stopped for the read and resumed after it.

internal import CMetadata

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// What the census decides of a first word the heap walk meets (CMDHeapClassVerdict).
struct HeapClassVerdict {
    /// The usable sizes of a block that is one of the class's instances.
    var sizes: ClosedRange<Int>
    /// Whether to keep its instances' addresses.
    var keepsAddresses: Bool
}

/// The instances of one class a scan found (CMDHeapGroup).
struct HeapGroup: Sendable {
    /// The class's metadata, in the process.
    var metadata: UInt
    /// The number of instances and their blocks' usable sizes.
    var count: Int
    var bytes: Int
    /// Their addresses, ascending, when the verdict kept them.
    var addresses: [UInt]
}

/// What a whole scan of another process's heap found.
struct HeapScanResult: Sendable {
    /// One group per class with instances.
    var groups: [HeapGroup]
    /// The bytes of heap read by the read that counted, and the reads it took.
    var bytesRead: Int
    var attempts: Int
    /// The process's start time.
    var startTime: UInt64
}

/// The decision a scan calls for each distinct first word, boxed for the C callback's context.
private final class HeapClassifier {
    let decide: (UInt) -> HeapClassVerdict?

    init(_ decide: @escaping (UInt) -> HeapClassVerdict?) {
        self.decide = decide
    }
}

/// Reads another process's heap.
enum ProcessHeapScan {
    /// Scans the glibc malloc heap of a process, whole or not at all.
    /// - Parameters:
    ///   - processID: The process.
    ///   - classify: Decides a first word once: `nil` when it is no class's metadata.
    /// - Returns: The instances by class.
    /// - Throws: ``ProcessReadFailure``.
    static func scan(
        processID: Int32,
        classify: @escaping (UInt) -> HeapClassVerdict?
    ) throws(ProcessReadFailure) -> HeapScanResult {
        let classifier = HeapClassifier(classify)
        var result = unsafe CMDHeapScan()
        let callback: CMDHeapClassify = { context, metadata, verdict in
            let classifier = unsafe Unmanaged<HeapClassifier>.fromOpaque(context!).takeUnretainedValue()
            if let decided = classifier.decide(metadata) {
                unsafe verdict.pointee = CMDHeapClassVerdict(
                    isClass: true,
                    keepAddresses: decided.keepsAddresses,
                    minimumSize: UInt(decided.sizes.lowerBound),
                    maximumSize: UInt(clamping: decided.sizes.upperBound)
                )
            } else {
                unsafe verdict.pointee = CMDHeapClassVerdict()
            }
            return true
        }
        let context = unsafe Unmanaged.passUnretained(classifier).toOpaque()
        let scanned = withExtendedLifetime(classifier) {
            unsafe cmd_scanProcessHeap(processID, callback, context, &result)
        }
        defer { unsafe cmd_releaseHeapScan(&result) }
        guard scanned else {
            let kind = unsafe failureKind(result.status)
            let message = unsafe withUnsafeBytes(of: result.message) { bytes in
                unsafe String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw ProcessReadFailure(kind: kind, systemError: unsafe result.systemError, message: message)
        }
        var groups: [HeapGroup] = []
        groups.reserveCapacity(unsafe result.groupCount)
        let groupCount = unsafe result.groupCount
        for index in 0..<groupCount {
            let group = unsafe result.groups![index]
            let addresses = unsafe group.addresses.map {
                unsafe Array(UnsafeBufferPointer(start: $0, count: group.addressCount)).sorted()
            }
            unsafe groups.append(
                HeapGroup(
                    metadata: group.metadata,
                    count: Int(group.count),
                    bytes: Int(group.bytes),
                    addresses: addresses ?? []
                )
            )
        }
        return unsafe HeapScanResult(
            groups: groups,
            bytesRead: Int(result.bytesRead),
            attempts: Int(result.attempts),
            startTime: result.startTime
        )
    }

    /// The kind of failure a status of a read of a process's heap names.
    static func failureKind(_ status: CMDProcessStatus) -> ProcessReadFailure.Kind {
        switch status {
        case CMDProcessStatusNoSuchProcess: .noSuchProcess
        case CMDProcessStatusPermissionDenied: .permissionDenied
        case CMDProcessStatusExited: .exited
        case CMDProcessStatusZombie: .zombie
        case CMDProcessStatusKernelThread: .kernelThread
        case CMDProcessStatusExeced: .execed
        case CMDProcessStatusUnsupportedAllocator: .unsupportedAllocator
        default: .failed
        }
    }

    /// Reads the heap mappings a scan reads, and nothing else: the floor of a census's time.
    /// - Parameter processID: The process.
    /// - Returns: The bytes read, or `nil` when they could not be read.
    static func readOnly(processID: Int32) -> Int? {
        var bytes: UInt64 = 0
        guard unsafe cmd_readProcessHeapOnly(processID, &bytes) else { return nil }
        return Int(bytes)
    }

    /// The stretches of heap a scan walks, for a floor that reads the same bytes by other means.
    /// - Parameter processID: The process.
    /// - Returns: The ranges, or `nil` when the heap cannot be found.
    static func ranges(processID: Int32) -> [Range<UInt>]? {
        var ranges = [CMDHeapRange](repeating: CMDHeapRange(), count: 4096)
        var count = 0
        guard unsafe cmd_listProcessHeapRanges(processID, &ranges, ranges.count, &count), count <= ranges.count
        else { return nil }
        return ranges.prefix(count).map { $0.start..<$0.end }
    }

    /// Calls `body` with every thread of a process stopped, and resumes them after it, whether
    /// it returns or throws.
    /// - Parameters:
    ///   - processID: The process.
    ///   - body: The read.
    /// - Returns: What `body` returns.
    /// - Throws: ``ProcessReadFailure`` when the process cannot be stopped.
    static func whileStopped<Value>(
        processID: Int32,
        _ body: () -> Value
    ) throws(ProcessReadFailure) -> Value {
        try unsafe whileStopped(processID: processID) { _ in body() }
    }

    /// Calls `body` with every thread of a process stopped, and the held threads, and resumes
    /// them after it.
    /// - Parameters:
    ///   - processID: The process.
    ///   - body: The read, given the held threads.
    /// - Returns: What `body` returns.
    /// - Throws: ``ProcessReadFailure`` when the process cannot be stopped.
    static func whileStopped<Value>(
        processID: Int32,
        _ body: (UnsafePointer<CMDStoppedProcess>) -> Value
    ) throws(ProcessReadFailure) -> Value {
        var stopped = unsafe CMDStoppedProcess()
        var error: Int32 = 0
        guard unsafe cmd_stopProcess(processID, &stopped, &error) else {
            // Why the kernel refused: a tracer already, a zombie, a kernel thread.
            let facts = ProcessFacts.read(processID)
            let kind: ProcessReadFailure.Kind =
                if let facts, facts.isKernelThread {
                    .kernelThread
                } else if let facts, facts.state == "Z" || facts.state == "X" {
                    .zombie
                } else if let facts, facts.tracerPID > 0, facts.tracerPID != getpid() {
                    .alreadyTraced(tracer: facts.tracerPID, name: facts.tracerName)
                } else {
                    switch error {
                    case ESRCH: .noSuchProcess
                    case EPERM, EACCES: .permissionDenied
                    default: .failed
                    }
                }
            let message =
                switch kind {
                case .zombie:
                    "process \(processID) is a zombie: it has exited, its parent has not reaped it, "
                        + "and it has no memory"
                case .kernelThread: "pid \(processID) is a kernel thread, not a user process"
                default: "cannot stop process \(processID) with PTRACE_SEIZE: error \(error)"
                }
            throw ProcessReadFailure(kind: kind, systemError: error, message: message)
        }
        defer { unsafe cmd_resumeProcess(&stopped) }
        return unsafe withUnsafePointer(to: &stopped) { unsafe body($0) }
    }
}
