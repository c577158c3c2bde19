// Image.swift

/// A loaded executable or shared library that carries Swift metadata.
///
/// Images are listed in the runtime's registration order: the standard library first, the
/// executable last, libraries loaded later with `dlopen` after it. The runtime does not
/// support unloading a Swift image, so an image, once listed, stays for the life of the
/// process; ``load(_:)`` opens libraries with `RTLD_NODELETE` for that reason.
public struct Image: Hashable, Sendable, CustomStringConvertible {
    /// The image's cached records, shared by every `Image` value for it.
    private let storage: ImmortalReference<ImageStorage>

    /// The image's path as the dynamic loader reports it (the executable's may be relative).
    public var path: String { storage.withObject { image in image.path.value { image.records.path } } }

    /// An identity of the image (its load address), stable for the life of the process.
    var identity: UInt { storage.withObject { $0.tableKey } }

    /// The image's type descriptors, read on first use.
    var typeDescriptorReferences: [DescriptorReference] {
        storage.withObject { image in image.typeDescriptors.value { image.records.typeDescriptors } }
    }
    /// The image's protocol descriptors, read on first use.
    var protocolReferences: [ProtocolReference] {
        storage.withObject { image in image.protocols.value { image.records.protocolDescriptors } }
    }
    /// The image's conformance descriptors, read on first use.
    var conformanceReferences: [ConformanceRecordReference] {
        storage.withObject { image in image.conformances.value { image.records.conformances } }
    }

    /// The image with these sections, sharing the records of earlier values for it.
    /// - Parameter records: The image's sections.
    init(_ records: LoadedImages.ImageRecords) {
        storage = ImageStorage.table.entry(for: records.identity) { ImageStorage(records) }
    }

    /// Whether the image is loaded in this process; `false` for an image read from a file with
    /// ``read(_:)``, whose records can be listed and named but whose types have no metadata.
    public var isLoaded: Bool { storage.withObject { !$0.records.isRead } }

    /// Reads a Swift executable or shared library from its file, without loading it.
    ///
    /// Use it to list what any binary declares (an app, a plugin, a file from a bug report)
    /// without running its code: executables, which the dynamic loader refuses to open, as
    /// well as libraries, stripped or not. The bytes of the file's loadable segments are
    /// copied to their relative addresses and its relocations applied to the copy, so that the
    /// same record walkers read it as a loaded image (the DocC article "Understanding the ABI
    /// layer"). Nothing of the file runs, nothing of it is ever called, and the dynamic loader
    /// never sees it. Because the bytes are copied, not mapped from the file, a file truncated
    /// or rebuilt while the image is held cannot fault a later read: the image keeps listing
    /// what the file held when it was read.
    ///
    /// The image's ``typeDescriptors``, ``protocols`` and ``conformances`` have their names,
    /// kinds, generic parameters, requirements and flags. A protocol or type of another module
    /// that the file names is a stand-in with that symbol's name and parents, and nothing else.
    /// Nothing of a read image has metadata: ``TypeDescriptor/metadata`` is `nil`,
    /// ``TypeDescriptor/instantiate(with:)`` throws, and ``all`` does not list it.
    ///
    /// The copy stays for the life of the process. Reading the same path again, when its file
    /// has not changed since (the same device, inode, size, and modification and status-change
    /// times), returns the same image without reading it; a changed file is read anew, as
    /// another image, and so is the same file under another path (a hard link, a symbolic
    /// link), so that each image is named by the path it was read from. The
    /// kernel stamps file times from a coarse clock, so a file changed less than a second
    /// before it was first read is read anew each time: a write within the same tick would
    /// leave its times as they were. At most 1,024 distinct reads are kept per process.
    ///
    /// Every record of the Swift sections read (type, protocol and conformance records, field
    /// descriptors) is checked before anything reads one: its pointers must stay in the file's
    /// loadable segments and name contexts of the kinds they expect. A file that fails is
    /// refused with the section, the record and the reason, the same verdict `metadata-inspect`
    /// gives before it loads a library.
    /// - Parameter path: The file's path.
    /// - Returns: The image.
    /// - Throws: ``RuntimeMetadataError/imageReadFailed(path:offset:reason:)`` when the file cannot
    ///   be opened, is not a 64-bit little-endian ELF executable or shared library for x86-64 or
    ///   AArch64, ends early, or has inconsistent headers;
    ///   ``RuntimeMetadataError/notASwiftImage(path:)`` when it has no Swift metadata sections;
    ///   ``RuntimeMetadataError/corruptMetadata(path:section:record:reason:)`` for a bad record.
    public static func read(_ path: String) throws(RuntimeMetadataError) -> Image {
        do {
            return Image(try LoadedImages.read(path: path))
        } catch {
            switch error.kind {
            case .notSwift: throw .notASwiftImage(path: path)
            case .corrupt(let defect):
                throw .corruptMetadata(
                    path: path,
                    section: defect.section,
                    record: defect.record,
                    reason: defect.reason
                )
            default: throw .imageReadFailed(path: path, offset: Int(clamping: error.offset), reason: error.message)
            }
        }
    }

    /// Whether the image's file is an executable rather than a shared library: for an image
    /// read with ``read(_:)``, as its headers say (a fixed-address executable, or one with a
    /// program interpreter, as every position-independent executable has); for a loaded image,
    /// whether it is this process's main program. An executable cannot be loaded into another
    /// process; read it instead.
    public var isExecutable: Bool { storage.withObject { $0.records.isExecutable } }

    /// Checks the sections that the runtime registers for this image's file when it is loaded,
    /// as ``probe(_:timeout:)`` reported them, against this image read from the same file: each
    /// must lie in the file's loadable segments, and its records pass the checks of
    /// ``read(_:)``. The runtime finds a loaded library's records through linker symbols, not
    /// section headers, so the two can differ in a crafted file; call this before ``load(_:)``.
    ///
    /// ```swift
    /// let image = try Image.read(path)
    /// try image.checkRegisteredSections(try Image.probe(path))
    /// try Image.load(path)
    /// ```
    /// - Parameter probe: What the runtime registered for the file in a child process.
    /// - Throws: ``RuntimeMetadataError/corruptMetadata(path:section:record:reason:)`` for a
    ///   section outside the image or a bad record; for a loaded image, which was not read from
    ///   its file, ``RuntimeMetadataError/imageReadFailed(path:offset:reason:)``.
    public func checkRegisteredSections(_ probe: ImageProbe) throws(RuntimeMetadataError) {
        let records = storage.withObject { $0.records }
        guard records.isRead else {
            throw .imageReadFailed(path: path, offset: 0, reason: "the image is loaded, not read from its file")
        }
        for section in probe.sections {
            if let defect = records.registeredSectionDefect(
                name: section.name,
                fileAddress: section.address,
                size: section.size
            ) {
                throw .corruptMetadata(
                    path: path,
                    section: defect.section,
                    record: defect.record,
                    reason: defect.reason
                )
            }
        }
    }

    /// The file name of the image's path, such as `libFoundationEssentials.so`.
    public var fileName: String { path.split(separator: "/").last.map(String.init) ?? path }

    /// The nominal types the image defines: its type metadata records (noncopyable types'
    /// included) and the types its field descriptors name.
    public var typeDescriptors: [TypeDescriptor] { typeDescriptorReferences.map(TypeDescriptor.init) }

    /// The protocols the image defines, from its `swift5_protocols` section.
    public var protocols: [ProtocolDescriptor] { protocolReferences.map(ProtocolDescriptor.init) }

    /// The conformances the image declares, from its `swift5_protocol_conformances` section.
    public var conformances: [ConformanceRecord] { conformanceReferences.map { ConformanceRecord($0, image: self) } }

    /// The path.
    public var description: String { path }

    /// Two images are equal when they are the same loaded image.
    public static func == (lhs: Image, rhs: Image) -> Bool { lhs.storage === rhs.storage }

    /// Hashes the image's identity.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(identity) }

    /// Every loaded image with Swift metadata, images loaded since the last call included.
    public static var all: [Image] {
        ImageGeneration.index.images
    }

    /// Loads a Swift shared library, so that its types, protocols and conformances join the
    /// process's.
    ///
    /// The library is opened with `dlopen(path, RTLD_NOW | RTLD_NODELETE)`. It cannot be
    /// unloaded: the Swift runtime keeps pointers into every Swift image it has registered,
    /// and unloading one makes later casts and conformance lookups crash. Cached negative
    /// answers (a type found not to conform) are revalidated after the load.
    /// - Parameter path: The library's path.
    /// - Returns: The loaded image.
    /// - Throws: ``RuntimeMetadataError/imageLoadFailed(path:reason:)`` when the loader refuses the
    ///   file, ``RuntimeMetadataError/notASwiftImage(path:)`` when it loads but registers no Swift
    ///   metadata.
    @discardableResult
    public static func load(_ path: String) throws(RuntimeMetadataError) -> Image {
        if let failure = LoadedImages.load(path: path) {
            throw .imageLoadFailed(path: path, reason: failure)
        }
        let images = ImageGeneration.refresh().images
        let resolved = path.hasPrefix("/") ? path : nil
        if let image = images.first(where: { $0.path == path || $0.path == resolved }) { return image }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if let image = images.last(where: { $0.fileName == name }) { return image }
        throw .notASwiftImage(path: path)
    }
}

/// The set of loaded images the caches were built against.
///
/// Images are only ever added, so their count identifies the set. Indexes are keyed by the
/// count; negative conformance answers remember the count they were checked against, and are
/// checked again once it grows.
@usableFromInline
enum ImageGeneration {
    /// Indexes by image count.
    private static var indexes: ConcurrentTable<ConformanceIndex> { ConcurrentTable(.conformanceIndexes) }

    /// The image count last observed, without asking the runtime: cheap enough for warm paths.
    @inlinable
    static var current: Int { ObservedImageCount.current }

    /// Asks the runtime how many images are loaded, and publishes a larger count.
    /// - Returns: The index of the images loaded now.
    @discardableResult
    static func refresh() -> ConformanceIndex {
        let count = refreshedCount
        return indexes.entry(for: UInt(count)) { ConformanceIndex(imageCount: count) }.object
    }

    /// The index of the images loaded now, refreshed.
    static var index: ConformanceIndex { refresh() }

    /// The number of images loaded now, asked of the runtime and published: the one way the
    /// caches notice a newly loaded image.
    static var refreshedCount: Int {
        let count = LoadedImages.count
        ObservedImageCount.raise(to: count)
        return count
    }
}

/// One image's records, read from its sections on first use and kept for the process.
final class ImageStorage: CacheEntry {
    /// Every image seen, by identity.
    static var table: ConcurrentTable<ImageStorage> { ConcurrentTable(.images) }

    /// The image's identity.
    let tableKey: UInt
    /// The image's path, found on first use.
    let path = LazyValue<StringBox>()
    /// The image's sections.
    let records: LoadedImages.ImageRecords

    let typeDescriptors = LazyValue<DescriptorReferencesBox>()
    let protocols = LazyValue<ProtocolReferencesBox>()
    let conformances = LazyValue<ConformanceRecordReferencesBox>()

    init(_ records: LoadedImages.ImageRecords) {
        self.tableKey = records.identity
        self.records = records
    }

}
