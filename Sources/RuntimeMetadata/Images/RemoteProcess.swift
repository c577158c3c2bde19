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

    /// Where each image is, there and in its copy here.
    let places: [RemoteImagePlace]

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
        let read:
            (
                images: [(records: LoadedImages.ImageRecords, fileChanged: Bool, place: RemoteImagePlace)],
                startTime: UInt64
            )
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
            startTime: read.startTime,
            places: read.images.map(\.place)
        )
    }

    /// Calls `body` with every thread of a process stopped, and resumes them after it, whether
    /// it returns or throws: a read in `body` then sees one moment of the process.
    ///
    /// ```swift
    /// let census = try RemoteProcess.whileStopped(pid) {
    ///     try RemoteProcess.read(pid).census()
    /// }
    /// ```
    ///
    /// Each thread is seized with `PTRACE_SEIZE` and stopped with `PTRACE_INTERRUPT`, and
    /// detached after `body`, which resumes it; threads the process starts meanwhile are held
    /// too. If this process dies while it holds them, the kernel detaches them, and the process
    /// runs on. Holding needs the permission to trace the process, as reading does.
    /// - Parameters:
    ///   - processID: The process's pid.
    ///   - body: The read.
    /// - Returns: What `body` returns.
    /// - Throws: ``RuntimeMetadataError/processUnreadable(pid:problem:reason:)`` when the process
    ///   cannot be stopped, or what `body` throws.
    public static func whileStopped<Value>(
        _ processID: Int32,
        _ body: () throws(RuntimeMetadataError) -> Value
    ) throws(RuntimeMetadataError) -> Value {
        let outcome: Result<Value, RuntimeMetadataError>
        do throws(ProcessReadFailure) {
            outcome = try ProcessHeapScan.whileStopped(processID: processID) {
                Result { () throws(RuntimeMetadataError) -> Value in try body() }
            }
        } catch {
            throw Self.error(error, processID: processID)
        }
        return try outcome.get()
    }

    /// Counts the live Swift class instances of the process by type, from its glibc malloc heap,
    /// keeping every instance's address (``ProcessCensus/addresses(ofType:)``).
    ///
    /// A block of the heap is counted as an instance only when all of these hold: the allocator
    /// holds it as in use (not free in a bin, a thread's cache or a fast bin); its second word
    /// reads as the reference counts of an object that is alive (not deinitializing; a side
    /// table, when it has one, points back at it); its first word is the address of Swift class
    /// metadata (kind, flags, sizes) whose descriptor is a class descriptor of one of the
    /// process's images; and the block is as large as the class's instances are, no larger than
    /// `malloc` makes a block of that size unless the class may allocate a tail (a class of the
    /// standard library or derived from one, such as a `ManagedBuffer` subclass, or one without
    /// stored properties). Released objects, whose headers often survive in freed memory, and
    /// copies of headers inside other memory (arrays of words, buffers) are not counted.
    ///
    /// A census is whole or it is an error. The heap is read in windows of 128 KiB into one
    /// buffer, each arena checked by its structure (its ring back to the main arena, its top
    /// chunk in heap memory, the memory it holds equal to its heaps'), and every heap walked to
    /// its arena's top chunk. A read that fails or comes short, or a walk that loses its chunks
    /// (a process that is not held allocates and frees meanwhile), makes the census read the heap
    /// again, up to four reads in all (``ProcessCensus/readCount``); then it is an error. A
    /// process that exits, becomes a zombie or `exec`s before the census ends is an error too.
    ///
    /// What could still fool it: a block that a program filled so that it starts with a live
    /// object's exact header and is as large as that object (memory holds nothing else that tells
    /// the two apart), and, without ``whileStopped(_:_:)``, a process that allocates and frees
    /// in a part of its heap already read, which the census sees as it was when read. Objects
    /// of another allocator are not seen: a process whose heap is not glibc malloc's (jemalloc,
    /// mimalloc, a sanitizer's) is refused.
    /// - Returns: The census.
    /// - Throws: ``RuntimeMetadataError/processUnreadable(pid:problem:reason:)`` when the heap
    ///   cannot be read whole, is another allocator's (``ProcessReadProblem/unsupportedAllocator``),
    ///   or the process exited (``ProcessReadProblem/exited``, ``ProcessReadProblem/zombie``) or
    ///   replaced its program (``ProcessReadProblem/execed``) since it was read.
    public func census() throws(RuntimeMetadataError) -> ProcessCensus {
        try census(selection: "")
    }

    /// Counts the live Swift class instances of the process by type, as ``census()`` does,
    /// keeping only the addresses of the types a name selects: what it costs beyond its rows is
    /// eight bytes per instance of those types.
    ///
    /// ```swift
    /// let census = try process.census(keepingAddressesOf: "App.Session")
    /// print(census.addresses(ofType: "App.Session").count)
    /// ```
    /// - Parameter typeName: A name as ``ProcessCensus/addresses(ofType:)`` takes it, or `nil`
    ///   to keep no address.
    /// - Returns: The census.
    /// - Throws: What ``census()`` throws.
    public func census(keepingAddressesOf typeName: String?) throws(RuntimeMetadataError) -> ProcessCensus {
        try census(selection: typeName.map { $0.isEmpty ? "\u{0}" : $0 })
    }

    /// Finds the live Swift objects of the process that nothing reachable refers to, and the
    /// retain cycles among them, holding every thread of the process (as
    /// ``whileStopped(_:_:)`` does) from the first root read until the marking ends.
    ///
    /// ```swift
    /// let leaks = try RemoteProcess.read(pid).leaks()
    /// print(leaks.rows.map { "\($0.typeName) \($0.count)" }, leaks.held)
    /// ```
    ///
    /// The heap is read as ``census()`` reads it, and marked conservatively from the roots:
    /// every readable, writable mapping that is not a heap or a chunk of its own mapping (thread
    /// stacks whole, static TLS, the dynamic loader's allocations, the images' data and bss), and
    /// every thread's general and vector registers. A word is a reference when, with a Swift
    /// reference's spare bits masked, it points at any byte of a block in use; a weak
    /// reference's side table is reached but refers to nothing. So a reachable object is never
    /// reported; a leak may be missed where a stale or unrelated word points at it, or where an
    /// `unowned` reference, which is an edge, holds it.
    /// - Returns: The leaks.
    /// - Throws: ``RuntimeMetadataError/processUnreadable(pid:problem:reason:)`` when the process
    ///   cannot be held (another tracer holds it, permission is denied) or read whole, its heap
    ///   is another allocator's, or it exited.
    public func leaks() throws(RuntimeMetadataError) -> ProcessLeaks {
        do {
            return try ProcessLeaks(of: self)
        } catch {
            guard case .noSuchProcess = error.kind else { throw Self.error(error, processID: processID) }
            throw .processUnreadable(
                pid: processID,
                problem: .exited,
                reason: "process \(processID) exited during the read"
            )
        }
    }

    /// The census, keeping the addresses of `selection` (`""` every type's, `nil` none).
    private func census(selection: String?) throws(RuntimeMetadataError) -> ProcessCensus {
        let census: ProcessCensus
        do {
            census = try ProcessCensus(of: self, keepingAddressesOf: selection)
        } catch {
            // The process was read: if its pid names none now, it has exited.
            guard case .noSuchProcess = error.kind else { throw Self.error(error, processID: processID) }
            throw .processUnreadable(
                pid: processID,
                problem: .exited,
                reason: "process \(processID) exited during the read"
            )
        }
        return census
    }

    /// A reader of the process's metadata, for naming its objects: the images' type and protocol
    /// descriptors are the only ones a copied metadata may name.
    /// - Returns: The reader, with no copy made yet.
    func metadataCopies() -> RemoteMetadataCopies {
        var known = Set<UInt>()
        for image in images {
            for descriptor in image.typeDescriptorReferences { known.insert(descriptor.identity) }
            for descriptor in image.protocolReferences { known.insert(descriptor.descriptor.identity) }
        }
        return RemoteMetadataCopies(processID: processID, images: places, knownDescriptors: known)
    }

    /// The library's error for a failed read, with what to do about a refusal.
    static func error(_ failure: ProcessReadFailure, processID: Int32) -> RuntimeMetadataError {
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
        case .unsupportedAllocator:
            return .processUnreadable(pid: processID, problem: .unsupportedAllocator, reason: failure.message)
        case .zombie:
            return .processUnreadable(pid: processID, problem: .zombie, reason: failure.message)
        case .kernelThread:
            return .processUnreadable(pid: processID, problem: .kernelThread, reason: failure.message)
        case .execed:
            return .processUnreadable(pid: processID, problem: .execed, reason: failure.message)
        case .alreadyTraced(let tracer, let name):
            return .processUnreadable(
                pid: processID,
                problem: .alreadyTraced,
                reason: "process \(processID) is traced already by process \(tracer)"
                    + (name.isEmpty ? "" : " (\(name))")
                    + ", and a process has one tracer: detach it, or read without holding the process"
            )
        case .failed:
            return .processUnreadable(pid: processID, problem: .failed, reason: failure.message)
        }
    }
}

extension RemoteProcess {
    /// Reads the heap mappings that ``census()`` reads, with `process_vm_readv` alone and nothing
    /// else: the floor a census's time is measured against (the benchmarks' census row).
    /// - Parameter processID: The process.
    /// - Returns: The bytes read, or `nil` when they could not be read.
    @_spi(Benchmarks)
    public static func heapReadFloor(_ processID: Int32) -> Int? {
        ProcessHeapScan.readOnly(processID: processID)
    }

    /// The stretches of heap ``census()`` walks, for the benchmarks' floor, which reads the
    /// same bytes in a C program of its own.
    /// - Parameter processID: The process.
    /// - Returns: The ranges, or `nil` when the heap cannot be found.
    @_spi(Benchmarks)
    public static func heapReadRanges(_ processID: Int32) -> [Range<UInt>]? {
        ProcessHeapScan.ranges(processID: processID)
    }
}
