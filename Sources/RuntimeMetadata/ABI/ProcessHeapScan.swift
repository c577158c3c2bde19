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

/// A heap block of another process that may be a Swift object.
struct RemoteHeapBlock: Sendable {
    /// The block's address there.
    let address: UInt
    /// Its usable size.
    let size: Int
    /// Its first word: an object's metadata.
    let metadata: UInt
}

/// What a scan of another process's heap found.
struct RemoteHeapScan: Sendable {
    /// The candidate blocks.
    let blocks: [RemoteHeapBlock]
    /// The bytes of heap read.
    let bytesRead: Int
    /// The heaps whose chunks changed during the read.
    let inconsistentHeapCount: Int
    /// The process's start time.
    let startTime: UInt64
}

/// Reads another process's heap.
enum ProcessHeapScan {
    /// Scans the glibc malloc heap of a process.
    /// - Parameter processID: The process.
    /// - Returns: The blocks that may be objects.
    /// - Throws: ``ProcessReadFailure``.
    static func scan(processID: Int32) throws(ProcessReadFailure) -> RemoteHeapScan {
        var result = unsafe CMDHeapScan()
        defer { unsafe cmd_releaseHeapScan(&result) }
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
            throw ProcessReadFailure(kind: kind, systemError: unsafe result.systemError, message: message)
        }
        let blocks = unsafe UnsafeBufferPointer(start: result.blocks, count: result.blockCount).map {
            RemoteHeapBlock(address: $0.address, size: Int($0.size), metadata: $0.metadata)
        }
        return unsafe RemoteHeapScan(
            blocks: blocks,
            bytesRead: Int(result.bytesRead),
            inconsistentHeapCount: Int(result.inconsistentHeapCount),
            startTime: result.startTime
        )
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
