// LoadedImages.swift
//
// The safe face of CMetadata's image and section walk for the public layer (ImageSections,
// MetadataSections.swift): loaded images' counts and descriptor handles, loading a library,
// probing one in a child process, and reading one from its file.

internal import CMetadata

#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif

/// The safe face of the loaded images for the public layer: counts and descriptor handles.
enum LoadedImages {
    /// The number of loaded images with Swift metadata.
    static var count: Int { cmd_imageCount() }

    /// The nominal type descriptors of every loaded image, in image order.
    static var typeDescriptors: [DescriptorReference] {
        unsafe ImageSections.all.flatMap { unsafe $0.allTypeDescriptors.map(DescriptorReference.init) }
    }

    /// The protocol descriptors of every loaded image, in image order.
    static var protocolDescriptors: [ProtocolReference] {
        unsafe ImageSections.all.flatMap { unsafe $0.protocolDescriptors.map(ProtocolReference.init) }
    }

    /// Visits the protocol descriptors of the first loaded images, in image order, without
    /// building an array.
    /// - Parameters:
    ///   - imageCount: How many images, from the first, to visit.
    ///   - body: Receives each descriptor; returns `false` to stop.
    static func forEachProtocol(inFirst imageCount: Int, _ body: (ProtocolReference) -> Bool) {
        var image = 0
        var stopped = false
        unsafe ImageSections.forEach { _, sections in
            defer { image += 1 }
            guard !stopped, image < imageCount else { return }
            stopped = unsafe !sections.forEachProtocolDescriptor { unsafe body(ProtocolReference($0)) }
        }
    }

    /// Loads a shared library with `dlopen(path, RTLD_NOW | RTLD_NODELETE)`.
    ///
    /// `RTLD_NODELETE` because the runtime keeps pointers into every Swift image it has seen
    /// and does not support unloading one: after a real `dlclose`, the next conformance scan
    /// reads unmapped memory (the DocC article "Understanding the ABI layer").
    /// - Parameter path: The library's path.
    /// - Returns: `nil` on success, or the loader's error message.
    static func load(path: String) -> String? {
        #if canImport(Glibc) || canImport(Musl) || canImport(Darwin)
        if unsafe dlopen(path, RTLD_NOW | RTLD_NODELETE) != nil { return nil }
        guard let message = unsafe dlerror() else { return "dlopen failed" }
        return unsafe String(cString: message)
        #else
        return "loading images is not supported on this platform"
        #endif
    }

    /// What ``probe(path:timeoutMilliseconds:scanType:scanProtocols:)`` found.
    struct ProbeOutcome: Sendable {
        /// How the probe ended (`CMDProbeStatus`).
        enum Status: Sendable {
            case reported, loadFailed, notRegistered, crashed, timedOut, failed
        }
        let status: Status
        /// The signal that ended the child, or 0.
        let signal: Int32
        /// Whether the child's conformance scan completed.
        let scanCompleted: Bool
        /// The registered sections: name, virtual address in the file, size.
        let sections: [(name: String, address: UInt, size: Int)]
        /// The loader's or the system's message.
        let message: String
    }

    /// Loads a library in a child process and reports the sections the runtime registers for
    /// it, without loading it here (CMetadata/MetadataSections.c, `cmd_probeImage`).
    /// - Parameters:
    ///   - path: The library.
    ///   - timeoutMilliseconds: How long to wait for the child.
    ///   - scanType: A type that conforms to none of `scanProtocols`.
    ///   - scanProtocols: The protocols whose conformance records the child's scan reads.
    /// - Returns: The outcome.
    static func probe(
        path: String,
        timeoutMilliseconds: Int32,
        scanType: MetadataReference,
        scanProtocols: [ProtocolReference]
    ) -> ProbeOutcome {
        var result = CMDImageProbe()
        let descriptors = unsafe scanProtocols.map { unsafe $0.address }
        unsafe descriptors.withUnsafeBufferPointer { buffer in
            unsafe cmd_probeImage(
                path,
                timeoutMilliseconds,
                scanType.address,
                buffer.baseAddress,
                buffer.count,
                &result
            )
        }
        let status: ProbeOutcome.Status =
            switch result.status {
            case CMDProbeStatusReported: .reported
            case CMDProbeStatusLoadFailed: .loadFailed
            case CMDProbeStatusNotRegistered: .notRegistered
            case CMDProbeStatusCrashed: .crashed
            case CMDProbeStatusTimedOut: .timedOut
            default: .failed
            }
        let ranges = unsafe withUnsafeBytes(of: result.sections) {
            unsafe Array($0.bindMemory(to: CMDSectionRange.self))
        }
        let sections = (0..<ranges.count).compactMap { index -> (name: String, address: UInt, size: Int)? in
            guard let name = unsafe cmd_probeSectionName(index) else { return nil }
            return unsafe (String(cString: name), UInt(ranges[index].start), Int(ranges[index].length))
        }
        let message = unsafe withUnsafeBytes(of: result.message) { bytes in
            unsafe String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        return ProbeOutcome(
            status: status,
            signal: result.signal,
            scanCompleted: result.scanCompleted,
            sections: status == .reported ? sections : [],
            message: message
        )
    }

    /// One loaded image's sections, read into handles on request.
    @safe
    struct ImageRecords: Sendable {
        private let sections: ImageSections

        fileprivate init(_ sections: ImageSections) {
            unsafe self.sections = sections
        }

        /// The image's path.
        var path: String { unsafe sections.path }
        /// Whether the image was read from a file rather than loaded.
        var isRead: Bool {
            guard let base = unsafe sections.baseAddress else { return false }
            return unsafe ImageSections.readImageRange(containing: base) != nil
        }
        /// Whether the image's file is an executable rather than a shared library.
        var isExecutable: Bool { unsafe sections.isExecutable }
        /// The first bad record of a section the runtime registers for this read image's file,
        /// or `nil` (ImageFileMapping.swift).
        /// - Parameters:
        ///   - name: The section's name.
        ///   - fileAddress: Its virtual address in the file.
        ///   - size: Its size.
        /// - Returns: The defect, or `nil`.
        func registeredSectionDefect(name: String, fileAddress: UInt, size: Int) -> ImageRecordDefect? {
            unsafe sections.registeredSectionDefect(name: name, fileAddress: fileAddress, size: size)
        }
        /// An integer identity of the image (its base address).
        var identity: UInt { unsafe sections.baseAddress.map { UInt(bitPattern: $0) } ?? 0 }
        /// Its nominal type descriptors, noncopyable and field-named ones included.
        var typeDescriptors: [DescriptorReference] {
            unsafe sections.allTypeDescriptors.map(DescriptorReference.init)
        }
        /// Its protocol descriptors.
        var protocolDescriptors: [ProtocolReference] { unsafe sections.protocolDescriptors.map(ProtocolReference.init) }
        /// Its conformance descriptors for one protocol.
        /// - Parameters:
        ///   - protocolReference: The protocol.
        ///   - body: Receives each descriptor, in section order.
        func forEachConformance(of protocolReference: ProtocolReference, _ body: (ConformanceRecordReference) -> Void) {
            unsafe sections.forEachConformanceDescriptor(of: protocolReference.address) {
                unsafe body(ConformanceRecordReference($0))
            }
        }
        /// Each of its conformance descriptors with its conforming type's descriptor, in
        /// section order; records naming an Objective-C class are skipped.
        /// - Parameter body: Receives each descriptor and its type's descriptor.
        func forEachConformanceWithType(_ body: (ConformanceRecordReference, DescriptorReference) -> Void) {
            unsafe sections.forEachConformanceDescriptorWithType {
                unsafe body(ConformanceRecordReference($0), DescriptorReference($1))
            }
        }
        /// Its conformance descriptors whose conforming type is one of a set.
        /// - Parameters:
        ///   - typeDescriptors: The conforming types' descriptors.
        ///   - body: Receives each descriptor, in section order.
        func forEachConformance(
            ofTypes typeDescriptors: [DescriptorReference],
            _ body: (ConformanceRecordReference) -> Void
        ) {
            let identities = typeDescriptors.map(\.identity)
            unsafe sections.forEachConformanceDescriptor(ofTypes: identities) {
                unsafe body(ConformanceRecordReference($0))
            }
        }
        /// Its conformance descriptors.
        var conformances: [ConformanceRecordReference] {
            unsafe sections.conformanceDescriptors.map(ConformanceRecordReference.init)
        }
    }

    /// Every loaded image, in image order, transformed as it is read; each image's records are
    /// read only when asked for.
    /// - Parameter transform: Makes an element from an image's records.
    /// - Returns: The elements.
    static func images<Element>(_ transform: (ImageRecords) -> Element) -> [Element] {
        unsafe ImageSections.all { unsafe transform(ImageRecords($0)) }
    }

    /// Reads an image file without loading it (ImageFileMapping.swift).
    /// - Parameter path: The file.
    /// - Returns: The file's records.
    /// - Throws: ``ImageFileReadFailure``.
    static func read(path: String) throws(ImageFileReadFailure) -> ImageRecords {
        unsafe ImageRecords(try ImageSections.read(path: path))
    }

    /// Reads the Swift images of another process from its memory (ProcessImageMapping.swift).
    /// - Parameters:
    ///   - processID: The process.
    ///   - afterListing: Called once the images are found, before they are copied.
    /// - Returns: Each image's records and whether its file changed since the process mapped
    ///   it, in address order, and the process's start time.
    /// - Throws: ``ProcessReadFailure``.
    static func read(
        processID: Int32,
        afterListing: (() -> Void)? = nil
    ) throws(ProcessReadFailure) -> (
        images: [(records: ImageRecords, fileChanged: Bool, place: RemoteImagePlace)], startTime: UInt64
    ) {
        var startTime: UInt64 = 0
        let images = try unsafe ImageSections.read(
            processID: processID,
            startTime: &startTime,
            afterListing: afterListing
        )
        return (
            unsafe images.map { unsafe (ImageRecords($0.sections), $0.fileDeleted || $0.fileReplaced, $0.place) },
            startTime
        )
    }

    /// Visits every loaded image, in image order, without building an array.
    /// - Parameter body: Receives each image's records.
    static func forEachImage(_ body: (ImageRecords) -> Void) {
        unsafe ImageSections.forEach { _, sections in unsafe body(ImageRecords(sections)) }
    }
}
