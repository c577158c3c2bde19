// RemoteProcess.swift

/// Another running process, whose Swift images are read from its memory.
///
/// ```swift
/// let process = try RemoteProcess.read(pid)
/// for image in process.images {
///     print(image.fileName, image.conformances.count)
/// }
/// ```
///
/// The process is neither stopped nor attached to, and nothing runs in it: its mappings are read
/// from `/proc/PID/maps` and its bytes with `process_vm_readv`, which needs the permission to
/// trace it (the same user and a Yama `ptrace_scope` that allows it, or `CAP_SYS_PTRACE`). Each
/// Swift image (its executable, its libraries, and plugins it loaded with `dlopen`) is copied
/// into this process as ``Image/read(_:)`` copies a file, and read by the same record walkers:
/// its ``Image/typeDescriptors``, ``Image/protocols`` and ``Image/conformances`` have the names
/// the file's listing has, private contexts included. A protocol or type of another of the
/// process's images is that image's real descriptor, not a stand-in, so that what a file cannot
/// tell (whether a retroactively conforming type is generic) is known. Nothing of a read image
/// has metadata here.
///
/// The images are the process's as its memory held them during the read: an image whose file
/// was deleted or replaced since it was mapped is read all the same
/// (``imagesWithChangedFiles``). A process that maps or unmaps a library during the read may be
/// seen with or without it; the records of an image never change once it is mapped. The
/// process's start time is read before and after, so that a pid that came to name another
/// process during the read is reported as an exit, not read as the first.
public struct RemoteProcess: Sendable {
    /// The process's pid.
    public let processID: Int32

    /// Its Swift images, in address order.
    public let images: [Image]

    /// The images whose file was deleted, or replaced by another file at its path, since the
    /// process mapped it. They are read from memory alone, which holds every record the runtime
    /// registers; the records of noncopyable types (`swift5_type_metadata_2`, which the runtime
    /// does not register, found through the file's section headers) are missing from them.
    public let imagesWithChangedFiles: [Image]

    /// The process's start time, in clock ticks since boot (`/proc/PID/stat`).
    let startTime: UInt64

    /// Reads the Swift images of a running process.
    /// - Parameter processID: The process's pid.
    /// - Returns: The process's images.
    /// - Throws: ``RuntimeMetadataError/processUnreadable(pid:problem:reason:)`` when no process
    ///   has the pid, its memory may not be read, it has no Swift image, or it exits during the
    ///   read; ``RuntimeMetadataError/corruptMetadata(path:section:record:reason:)`` for an image
    ///   whose records fail the checks of ``Image/read(_:)``.
    public static func read(_ processID: Int32) throws(RuntimeMetadataError) -> RemoteProcess {
        try read(processID, afterListing: nil)
    }

    /// ``read(_:)``, calling `afterListing` once the images are found, before they are copied
    /// (the tests end the process there).
    static func read(_ processID: Int32, afterListing: (() -> Void)?) throws(RuntimeMetadataError) -> RemoteProcess {
        let read: (images: [(records: LoadedImages.ImageRecords, fileChanged: Bool)], startTime: UInt64)
        do {
            read = try LoadedImages.read(processID: processID, afterListing: afterListing)
        } catch {
            throw Self.error(error, processID: processID)
        }
        let images = read.images.map { Image($0.records) }
        return RemoteProcess(
            processID: processID,
            images: images,
            imagesWithChangedFiles: zip(images, read.images).filter { $0.1.fileChanged }.map(\.0),
            startTime: read.startTime
        )
    }

    /// The library's error for a failed read, with what to do about a refusal.
    private static func error(_ failure: ProcessReadFailure, processID: Int32) -> RuntimeMetadataError {
        switch failure.kind {
        case .noSuchProcess:
            return .processUnreadable(
                pid: processID,
                problem: .noSuchProcess,
                reason: "no process has pid \(processID)"
            )
        case .permissionDenied:
            return .processUnreadable(
                pid: processID,
                problem: .permissionDenied,
                reason: "permission denied reading the memory of process \(processID) (\(failure.message)): "
                    + "run as the process's user or as root, or give the reader CAP_SYS_PTRACE; "
                    + "where /proc/sys/kernel/yama/ptrace_scope is 1, only an ancestor of the process may read it, "
                    + "unless the process allows it with prctl(PR_SET_PTRACER)"
            )
        case .notSwift:
            return .processUnreadable(
                pid: processID,
                problem: .notSwift,
                reason: "process \(processID) has no image with Swift metadata: it is not a Swift process"
            )
        case .exited:
            return .processUnreadable(
                pid: processID,
                problem: .exited,
                reason: "process \(processID) exited during the read"
            )
        case .corrupt(let path, let defect):
            return .corruptMetadata(path: path, section: defect.section, record: defect.record, reason: defect.reason)
        case .failed:
            return .processUnreadable(pid: processID, problem: .failed, reason: failure.message)
        }
    }
}
