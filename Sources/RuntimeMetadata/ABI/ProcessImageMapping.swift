// ProcessImageMapping.swift
//
// The Swift face of CMetadata's process reader (CMetadata/ProcessImages.c, CMDProcessImages.h):
// the Swift images of another process copied from its memory into the arena of read images,
// each a third source of the same records the loaded and file readers serve. A slot that names
// another image's symbol points at that image's copy; one that names a symbol of no Swift image
// gets a stand-in, as a file's does (ImageFileMapping.swift). Nothing is written to the process.

internal import CMetadata

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Why a process could not be read.
struct ProcessReadFailure: Error, Sendable {
    /// What kind of failure (`CMDProcessStatus`).
    enum Kind: Sendable {
        case noSuchProcess, permissionDenied, notSwift, exited, unsupportedAllocator, failed
        /// A zombie, a kernel thread, a process that replaced its program during the read.
        case zombie, kernelThread, execed
        /// Another process traces it already (`TracerPid`), so it cannot be held.
        case alreadyTraced(tracer: Int32, name: String)
        /// A record of an image fails its check (ImageRecordCheck.swift).
        case corrupt(path: String, defect: ImageRecordDefect)
    }
    let kind: Kind
    /// The system's error number, or 0.
    let systemError: Int32
    /// What happened.
    let message: String
}

/// One Swift image of a process, read.
@unsafe
struct ProcessImageSections: Sendable {
    /// The image's sections, in the copy.
    let sections: ImageSections
    /// Whether the image's file was deleted, or another file put at its path, since the process
    /// mapped it.
    let fileDeleted: Bool
    let fileReplaced: Bool
    /// Where the image is in the process and in its copy.
    let place: RemoteImagePlace
}

extension ImageSections {
    /// Reads the Swift images of a process from its memory.
    /// - Parameters:
    ///   - pid: The process.
    ///   - startTime: Receives the process's start time, which tells it from a later process of
    ///     the same pid.
    ///   - afterListing: Called once the images are found, before they are copied: the tests
    ///     end the process there.
    /// - Returns: The images, in address order.
    /// - Throws: ``ProcessReadFailure``.
    static func read(
        processID pid: Int32,
        startTime: inout UInt64,
        afterListing: (() -> Void)? = nil
    ) throws(ProcessReadFailure) -> [ProcessImageSections] {
        try unsafe withReadLock { () throws(ProcessReadFailure) -> [ProcessImageSections] in
            var result = unsafe CMDProcessRead()
            defer { unsafe cmd_releaseProcessRead(&result) }
            let read: Bool
            if let afterListing {
                read = withoutActuallyEscaping(afterListing) { callback in
                    var box = callback
                    return unsafe withUnsafeMutablePointer(to: &box) { context in
                        unsafe cmd_readProcessImages(
                            pid,
                            { context in unsafe context!.assumingMemoryBound(to: (() -> Void).self).pointee() },
                            context,
                            &result
                        )
                    }
                }
            } else {
                read = unsafe cmd_readProcessImages(pid, nil, nil, &result)
            }
            guard read else {
                let kind: ProcessReadFailure.Kind =
                    switch unsafe result.status {
                    case CMDProcessStatusNoSuchProcess: .noSuchProcess
                    case CMDProcessStatusPermissionDenied: .permissionDenied
                    case CMDProcessStatusNotSwift: .notSwift
                    case CMDProcessStatusExited: .exited
                    case CMDProcessStatusZombie: .zombie
                    case CMDProcessStatusKernelThread: .kernelThread
                    case CMDProcessStatusExeced: .execed
                    default: .failed
                    }
                let message = unsafe withUnsafeBytes(of: result.message) { bytes in
                    unsafe String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                throw ProcessReadFailure(kind: kind, systemError: unsafe result.systemError, message: message)
            }
            let before = unsafe result.facts
            unsafe startTime = result.startTime
            var images: [ProcessImageSections] = unsafe []
            for index in unsafe 0..<result.imageCount {
                let image = unsafe result.images![index]
                do throws(ImageFileReadFailure) {
                    let sections = try unsafe sections(of: image.image)
                    let path = unsafe sections.path
                    let place = RemoteImagePlace(
                        remoteLow: image.remoteStart,
                        remoteHigh: image.remoteEnd,
                        remoteBias: image.remoteBias,
                        localBias: image.image.base,
                        isStandardLibrary: path.hasSuffix("/libswiftCore.so") || path == "libswiftCore.so"
                    )
                    unsafe images.append(
                        ProcessImageSections(
                            sections: sections,
                            fileDeleted: image.fileDeleted,
                            fileReplaced: image.fileReplaced,
                            place: place
                        )
                    )
                } catch {
                    let path =
                        unsafe cmd_readImagePath(UnsafeRawPointer(bitPattern: image.image.start))
                        .map { unsafe String(cString: $0) } ?? ""
                    // Records that fail their checks in a process that exited or `exec`ed during
                    // the read are its leaving, not a defect.
                    if let gone = ProcessFacts.change(since: before, processID: pid) { throw gone }
                    guard case .corrupt(let defect) = error.kind else {
                        throw ProcessReadFailure(kind: .failed, systemError: 0, message: error.message)
                    }
                    throw ProcessReadFailure(
                        kind: .corrupt(path: path, defect: defect),
                        systemError: 0,
                        message: error.message
                    )
                }
            }
            return unsafe images
        }
    }
}

/// What `/proc` says of a process (CMDProcessFacts, CMDProcessImages.h).
struct ProcessFacts: Sendable {
    /// The state letter (`R`, `S`, `Z`, ...).
    var state: Character
    /// Whether the pid names a kernel thread.
    var isKernelThread: Bool
    /// The process tracing it, or 0, and its name.
    var tracerPID: Int32
    var tracerName: String

    /// Reads a process's facts now; `nil` when no process has the pid.
    static func read(_ processID: Int32) -> ProcessFacts? {
        var facts = CMDProcessFacts()
        var error: Int32 = 0
        guard unsafe cmd_processFacts(processID, &facts, &error) else { return nil }
        let name = unsafe withUnsafeBytes(of: facts.tracerName) { bytes in
            unsafe String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return ProcessFacts(
            state: Character(Unicode.Scalar(UInt8(bitPattern: facts.state))),
            isKernelThread: facts.isKernelThread,
            tracerPID: facts.tracerPid,
            tracerName: name
        )
    }

    /// How a process left since `before` was read: the failure to report, or `nil` when it is
    /// the same process running the same program.
    static func change(since before: CMDProcessFacts, processID: Int32) -> ProcessReadFailure? {
        var now = CMDProcessFacts()
        var error: Int32 = 0
        var previous = before
        let change =
            unsafe cmd_processFacts(processID, &now, &error)
            ? unsafe cmd_processChange(&previous, &now) : CMDProcessStatusExited
        switch change {
        case CMDProcessStatusRead:
            return nil
        case CMDProcessStatusZombie:
            return ProcessReadFailure(
                kind: .zombie,
                systemError: ESRCH,
                message: "process \(processID) exited during the read: it is a zombie, which its parent has not reaped"
            )
        case CMDProcessStatusExeced:
            return ProcessReadFailure(
                kind: .execed,
                systemError: 0,
                message: "process \(processID) replaced its program (exec) during the read"
            )
        default:
            return ProcessReadFailure(
                kind: .exited,
                systemError: ESRCH,
                message: "process \(processID) exited during the read"
            )
        }
    }
}
