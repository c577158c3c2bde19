// ProcessImageMapping.swift
//
// The Swift face of CMetadata's process reader (CMetadata/ProcessImages.c, CMDProcessImages.h):
// the Swift images of another process copied from its memory into the arena of read images,
// each a third source of the same records the loaded and file readers serve. A slot that names
// another image's symbol points at that image's copy; one that names a symbol of no Swift image
// gets a stand-in, as a file's does (ImageFileMapping.swift). Nothing is written to the process.

internal import CMetadata

/// Why a process could not be read.
struct ProcessReadFailure: Error, Sendable {
    /// What kind of failure (`CMDProcessStatus`).
    enum Kind: Sendable {
        case noSuchProcess, permissionDenied, notSwift, exited, unsupportedAllocator, failed
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
                    default: .failed
                    }
                let message = unsafe withUnsafeBytes(of: result.message) { bytes in
                    unsafe String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
                }
                throw ProcessReadFailure(kind: kind, systemError: unsafe result.systemError, message: message)
            }
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
