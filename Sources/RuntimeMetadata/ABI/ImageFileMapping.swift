// ImageFileMapping.swift
//
// The Swift face of CMetadata's image file reader (CMetadata/ImageFiles.c, CMDImageFile.h):
// an ELF file's loadable segments mapped at their relative addresses and relocated, so that
// the record walkers of ImageSections read it exactly as they read a loaded image. What the
// file names but does not define (another module's protocol, the type of a retroactive
// conformance) gets a stand-in descriptor (StandInDescriptorLayout.swift) in the mapping's
// stand-in area. Nothing here runs code of the file or gives it to the dynamic loader.

internal import CMetadata
import Synchronization

/// Why an image file could not be read.
struct ImageFileReadFailure: Error, Sendable {
    /// What kind of failure (`CMDImageFileStatus`).
    enum Kind: Sendable {
        case unreadable, notELF, unsupported, truncated, malformed, notSwift, mapFailed
        /// A record of a Swift section fails its check (ImageRecordCheck.swift).
        case corrupt(ImageRecordDefect)
    }
    let kind: Kind
    /// The file offset the failure concerns, or 0.
    let offset: UInt64
    /// What is wrong, naming the structure or section.
    let message: String
}

extension ImageSections {
    /// Maps an image file for reading, without loading it, and makes stand-in descriptors for
    /// the symbols it names but does not define.
    /// - Parameter path: The file.
    /// - Returns: The file's sections, mapped.
    /// - Throws: ``ImageFileReadFailure``.
    static func read(path: String) throws(ImageFileReadFailure) -> ImageSections {
        // One read at a time, stand-ins included: a read of the same file from another thread
        // reuses the mapping (`reused`) and must find its stand-ins written.
        try unsafe readLock.withLock { _ throws(ImageFileReadFailure) in try unsafe readLocked(path: path) }
    }

    /// Serializes ``read(path:)`` and the reads of processes: a cold path, taken once per file.
    private static let readLock = Mutex(())

    /// Calls `body` holding the lock that serializes reads of images, stand-ins included.
    static func withReadLock<Result: Sendable, Failure: Error>(
        _ body: () throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try unsafe readLock.withLock { _ throws(Failure) in try body() }
    }

    private static func readLocked(path: String) throws(ImageFileReadFailure) -> ImageSections {
        var file = CMDImageFile()
        guard unsafe cmd_readImageFile(path, &file) else {
            let kind: ImageFileReadFailure.Kind =
                switch file.status {
                case CMDImageFileStatusNotELF: .notELF
                case CMDImageFileStatusUnsupported: .unsupported
                case CMDImageFileStatusTruncated: .truncated
                case CMDImageFileStatusMalformed: .malformed
                case CMDImageFileStatusNotSwift: .notSwift
                case CMDImageFileStatusMapFailed: .mapFailed
                default: .unreadable
                }
            let message = unsafe withUnsafeBytes(of: file.message) { bytes in
                unsafe String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            throw ImageFileReadFailure(kind: kind, offset: file.offset, message: message)
        }
        return try unsafe sections(of: file)
    }

    /// The sections of an image read into the arena, from a file or a process: the stand-ins
    /// written for the symbols it names but does not define, and every record checked before
    /// anything reads one, the verdict the inspector gives before it loads a library.
    /// - Parameter file: The mapping.
    /// - Returns: Its sections.
    /// - Throws: ``ImageFileReadFailure`` for a bad record.
    static func sections(of file: CMDImageFile) throws(ImageFileReadFailure) -> ImageSections {
        if !file.reused { unsafe makeStandIns(file) }
        let sections = unsafe withUnsafeBytes(of: file.sections) {
            unsafe Array($0.bindMemory(to: CMDSectionRange.self))
        }
        func range(_ section: CMDImageFileSection) -> UnsafeRawBufferPointer {
            let raw = sections[Int(section.rawValue)]
            return unsafe UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: raw.start), count: raw.length)
        }
        let checked: [(String, CMDImageFileSection)] = [
            ("swift5_protocol_conformances", CMDImageFileSectionProtocolConformances),
            ("swift5_type_metadata", CMDImageFileSectionTypeMetadata),
            ("swift5_type_metadata_2", CMDImageFileSectionNoncopyableTypeMetadata),
            ("swift5_protocols", CMDImageFileSectionProtocols), ("swift5_fieldmd", CMDImageFileSectionFieldMetadata),
        ]
        for (name, section) in checked {
            let bytes = unsafe range(section)
            guard let start = bytes.baseAddress,
                let defect = unsafe ImageRecordCheck.firstDefect(section: name, start: start, size: bytes.count)
            else { continue }
            throw ImageFileReadFailure(
                kind: .corrupt(defect),
                offset: 0,
                message: "record \(defect.record) of \(name) \(defect.reason)"
            )
        }
        return unsafe ImageSections(
            readFrom: UnsafeRawPointer(bitPattern: file.start)!,
            typeMetadata: range(CMDImageFileSectionTypeMetadata),
            noncopyableTypeMetadata: range(CMDImageFileSectionNoncopyableTypeMetadata),
            protocols: range(CMDImageFileSectionProtocols),
            protocolConformances: range(CMDImageFileSectionProtocolConformances),
            fieldMetadata: range(CMDImageFileSectionFieldMetadata),
            isExecutable: file.isExecutable
        )
    }

    /// Writes a stand-in descriptor for each external symbol that names a nominal type, a
    /// protocol or a module, and points the symbol's slots at it. Other slots stay 0.
    private static func makeStandIns(_ file: CMDImageFile) {
        guard let area = unsafe UnsafeMutableRawPointer(bitPattern: file.standInArea) else { return }
        var writer = unsafe StandInDescriptorWriter(area: area, capacity: file.standInCapacity)
        for index in 0..<file.externalCount {
            var slot: UInt = 0
            var rawName: UnsafePointer<CChar>?
            guard unsafe cmd_imageFileExternal(file.handle, index, &slot, &rawName), let rawName = unsafe rawName,
                let descriptor = unsafe writer.descriptor(forSymbol: String(cString: rawName))
            else { continue }
            _ = cmd_setImageFileSlot(file.handle, slot, UInt(bitPattern: descriptor))
        }
    }

    /// Checks a section that the runtime registers for this read image's file when it is
    /// loaded, as a child process reported it (ImageProbe): it must lie in the file's loadable
    /// segments, and its records pass the checks of ``read(path:)``.
    /// - Parameters:
    ///   - name: The section's name.
    ///   - fileAddress: Its virtual address in the file.
    ///   - size: Its size.
    /// - Returns: The first bad record, or `nil`.
    func registeredSectionDefect(name: String, fileAddress: UInt, size: Int) -> ImageRecordDefect? {
        guard size > 0 else { return nil }
        guard let inside = unsafe baseAddress, let base = unsafe cmd_readImageBase(inside),
            fileAddress < 1 << 47, size < 1 << 47
        else { return ImageRecordDefect(section: name, record: 0, reason: "lies outside the image") }
        let start = unsafe base + Int(fileAddress)
        guard unsafe ImageRecordCheck.isMapped(start, size) else {
            return ImageRecordDefect(
                section: name,
                record: 0,
                reason: "lies outside the image, where the runtime registered it"
            )
        }
        return unsafe ImageRecordCheck.firstDefect(section: name, start: start, size: size)
    }

    /// Whether an address lies in an image read from a file, its stand-ins included.
    /// - Parameter address: Any address.
    /// - Returns: The read image's mapped range, or `nil`.
    static func readImageRange(containing address: UnsafeRawPointer) -> Range<UInt>? {
        guard cmd_anyImageFileRead() else { return nil }
        var start: UInt = 0
        var end: UInt = 0
        guard unsafe cmd_readImageContaining(address, &start, &end) else { return nil }
        return start..<end
    }
}

extension UnsafeRawPointer {
    /// The address held by the indirection slot at this address.
    ///
    /// A slot of an image read from a file must hold an address inside that image's mapping
    /// (its segments or its stand-in descriptors): the file's bytes are not trusted, and any
    /// other value reads as an empty slot. Until a file is read, this is ``pointer(at:)``.
    var slotTarget: UnsafeRawPointer? {
        guard let target = unsafe pointer(at: 0) else { return nil }
        guard let range = unsafe ImageSections.readImageRange(containing: self) else { return unsafe target }
        return range.contains(UInt(bitPattern: target)) ? unsafe target : nil
    }
}

extension UnsafeRawPointer {
    /// A count read from a descriptor here, of elements of `stride` bytes that follow it: the
    /// count itself, or for an image read from a file at most as many elements as end inside
    /// its mapping, so that a forged count cannot send a walk past it.
    /// - Parameters:
    ///   - count: The count read.
    ///   - stride: The elements' size in bytes.
    /// - Returns: The count to walk.
    func boundedCount(_ count: Int, stride: Int) -> Int {
        guard let range = unsafe ImageSections.readImageRange(containing: self) else { return count }
        return min(count, Int(range.upperBound &- UInt(bitPattern: self)) / max(stride, 1))
    }
}
