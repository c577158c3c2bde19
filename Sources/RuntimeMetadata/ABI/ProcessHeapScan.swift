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

/// What a scan of another process's heap found: its candidate blocks, grouped by first word
/// (CMDProcessHeap.h), held in CMetadata's memory until the scan is released.
@safe
final class RemoteHeapScan: @unchecked Sendable {
    /// The scan, whose arrays this object owns.
    private var scan: CMDHeapScan

    fileprivate init(_ scan: CMDHeapScan) {
        unsafe self.scan = scan
    }

    deinit {
        unsafe cmd_releaseHeapScan(&scan)
    }

    /// The bytes of heap read.
    var bytesRead: Int { unsafe Int(scan.bytesRead) }
    /// The heaps whose chunks changed during the read.
    var inconsistentHeapCount: Int { unsafe Int(scan.inconsistentHeapCount) }
    /// The process's start time.
    var startTime: UInt64 { unsafe scan.startTime }
    /// The number of groups.
    var groupCount: Int { unsafe scan.groupCount }

    /// A group's first word: the metadata its blocks would have.
    func metadata(ofGroup group: Int) -> UInt {
        precondition(group >= 0 && group < groupCount)
        return unsafe scan.groups![group].metadata
    }

    /// Keeps the blocks of a group whose usable size is in `sizes`.
    /// - Returns: How many were kept, and their bytes.
    func keep(group: Int, sizes: ClosedRange<Int>) -> (count: Int, bytes: Int) {
        precondition(group >= 0 && group < groupCount)
        var bytes: UInt64 = 0
        let kept = unsafe cmd_filterHeapGroup(&scan, group, UInt(sizes.lowerBound), UInt(sizes.upperBound), &bytes)
        return (kept, Int(bytes))
    }

    /// The addresses of a group's blocks, as kept.
    func addresses(ofGroup group: Int) -> [UInt] {
        precondition(group >= 0 && group < groupCount)
        let entry = unsafe scan.groups![group]
        return unsafe Array(UnsafeBufferPointer(start: scan.addresses! + entry.start, count: entry.count))
    }
}

/// Reads another process's heap.
enum ProcessHeapScan {
    /// Scans the glibc malloc heap of a process.
    /// - Parameter processID: The process.
    /// - Returns: The blocks that may be objects.
    /// - Throws: ``ProcessReadFailure``.
    static func scan(processID: Int32) throws(ProcessReadFailure) -> RemoteHeapScan {
        var result = unsafe CMDHeapScan()
        guard unsafe cmd_scanProcessHeap(processID, &result) else {
            let kind: ProcessReadFailure.Kind =
                switch unsafe result.status {
                case CMDProcessStatusNoSuchProcess: .noSuchProcess
                case CMDProcessStatusPermissionDenied: .permissionDenied
                case CMDProcessStatusExited: .exited
                case CMDProcessStatusUnsupportedAllocator: .unsupportedAllocator
                default: .failed
                }
            let message = unsafe withUnsafeBytes(of: result.message) { bytes in
                unsafe String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            unsafe cmd_releaseHeapScan(&result)
            throw ProcessReadFailure(kind: kind, systemError: unsafe result.systemError, message: message)
        }
        return unsafe RemoteHeapScan(result)
    }

    /// Reads the heap mappings a scan reads, and nothing else: the floor of a census's time.
    /// - Parameter processID: The process.
    /// - Returns: The bytes read, or `nil` when they could not be read.
    static func readOnly(processID: Int32) -> Int? {
        var bytes: UInt64 = 0
        guard unsafe cmd_readProcessHeapOnly(processID, &bytes) else { return nil }
        return Int(bytes)
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
        var stopped = unsafe CMDStoppedProcess()
        var error: Int32 = 0
        guard unsafe cmd_stopProcess(processID, &stopped, &error) else {
            let kind: ProcessReadFailure.Kind =
                switch error {
                case ESRCH: .noSuchProcess
                case EPERM, EACCES: .permissionDenied
                default: .failed
                }
            throw ProcessReadFailure(
                kind: kind,
                systemError: error,
                message: "cannot stop process \(processID) with PTRACE_SEIZE: error \(error)"
            )
        }
        defer { unsafe cmd_resumeProcess(&stopped) }
        return body()
    }
}
