// MetadataSections.swift
//
// The Swift face of CMetadata's image and section walk (CMetadata/MetadataSections.c on ELF,
// MetadataSectionsMachO.c on Apple platforms), and the records those sections hold:
// `TargetTypeMetadataRecord` (swift5_type_metadata) and `TargetProtocolRecord`
// (swift5_protocols), both 32-bit relative pointers per swiftlang/swift
// include/swift/ABI/Metadata.h.

internal import CMetadata

/// A loaded image's Swift sections.
@unsafe
struct ImageSections: Sendable {
    /// The image's path, when the loader reported it with the sections (Mach-O).
    nonisolated(unsafe) private let rawPath: UnsafePointer<CChar>?
    /// An address inside the image.
    nonisolated(unsafe) let baseAddress: UnsafeRawPointer?
    /// `swift5_type_metadata`.
    nonisolated(unsafe) let typeMetadata: UnsafeRawBufferPointer
    /// `swift5_protocols`.
    nonisolated(unsafe) let protocols: UnsafeRawBufferPointer
    /// `swift5_protocol_conformances`.
    nonisolated(unsafe) let protocolConformances: UnsafeRawBufferPointer
    /// `swift5_fieldmd`.
    nonisolated(unsafe) let fieldMetadata: UnsafeRawBufferPointer
    /// `swift5_type_metadata_2`, for an image read from a file (whose section headers were
    /// read already); `nil` for a loaded image, whose file is read for it on request.
    nonisolated(unsafe) private let readNoncopyableTypeMetadata: UnsafeRawBufferPointer?
    /// For an image read from a file, whether the file is an executable; `nil` for a loaded
    /// image, which asks the loader.
    private let readIsExecutable: Bool?

    /// Whether the image's file is an executable rather than a shared library: for a read image,
    /// as its headers say (`ET_EXEC`, or a `PT_INTERP` program header); for a loaded image,
    /// whether it is the process's main program.
    var isExecutable: Bool {
        if let readIsExecutable = unsafe readIsExecutable { return readIsExecutable }
        return unsafe cmd_isMainExecutable(baseAddress)
    }

    /// The image's path as the dynamic loader reports it, found on request: on ELF it takes a
    /// `dladdr`, which costs more than the rest of a first conformance query.
    var path: String {
        guard let raw = unsafe rawPath ?? cmd_imagePath(baseAddress) else { return "" }
        return unsafe String(cString: raw)
    }

    static var all: [ImageSections] { unsafe all { unsafe $0 } }

    /// Where an address lies, as the same in every process that loads the same file: the
    /// image's file name and the offset from its load base (`dladdr`).
    /// - Parameter address: An address inside a loaded image.
    /// - Returns: The file name and offset, or `nil` when the address is in no image.
    static func location(of address: UnsafeRawPointer) -> (file: String, offset: UInt)? {
        guard let base = unsafe cmd_imageBase(address), let path = unsafe cmd_imagePath(address) else { return nil }
        let file = unsafe String(cString: path).split(separator: "/").last.map(String.init) ?? ""
        return (file, UInt(bitPattern: address) &- UInt(bitPattern: base))
    }

    /// The address at an offset from the load base of the loaded Swift image of a file name.
    /// - Parameters:
    ///   - file: The image's file name, such as `libFoo.so`.
    ///   - offset: The offset from its load base.
    /// - Returns: The address, or `nil` when no such image is loaded.
    static func address(inImageNamed file: String, offset: UInt) -> UInt? {
        var found: UInt?
        unsafe forEach { _, sections in
            guard found == nil, let inside = unsafe sections.baseAddress, let location = unsafe location(of: inside),
                location.file == file
            else { return }
            // The base is the address less its own offset.
            found = UInt(bitPattern: inside) &- location.offset &+ offset
        }
        return found
    }

    /// Every loaded image's sections, transformed as they are read: one array of the result,
    /// with the runtime's records copied into a temporary buffer (no array of `CMDImage`, whose
    /// generic metadata a first query would otherwise instantiate).
    /// - Parameter transform: Makes an element from an image's sections.
    /// - Returns: The elements, in image order.
    static func all<Element>(_ transform: (ImageSections) -> Element) -> [Element] {
        var elements: [Element] = []
        unsafe forEach { count, sections in
            if elements.isEmpty { elements.reserveCapacity(count) }
            unsafe elements.append(transform(sections))
        }
        return elements
    }

    /// Visits every loaded image's sections, in image order, without building an array: the
    /// runtime's records are copied into a temporary buffer first.
    /// - Parameter body: Receives the number of images and one image's sections.
    static func forEach(_ body: (_ count: Int, ImageSections) -> Void) {
        var capacity = 64
        while true {
            let done = unsafe withUnsafeTemporaryAllocation(of: CMDImage.self, capacity: capacity) { buffer in
                let count = unsafe cmd_copyImages(buffer.baseAddress, capacity)
                guard count <= capacity else {
                    capacity = count + 8
                    return false
                }
                for index in 0..<count { unsafe body(count, ImageSections(buffer[index])) }
                return true
            }
            if done { return }
        }
    }

    private init(_ image: CMDImage) {
        func range(_ section: CMDSectionRange) -> UnsafeRawBufferPointer {
            unsafe UnsafeRawBufferPointer(start: UnsafeRawPointer(bitPattern: section.start), count: section.length)
        }
        unsafe self.rawPath = image.path
        unsafe self.baseAddress = image.baseAddress
        unsafe self.typeMetadata = range(image.typeMetadata)
        unsafe self.protocols = range(image.protocols)
        unsafe self.protocolConformances = range(image.protocolConformances)
        unsafe self.fieldMetadata = range(image.fieldMetadata)
        unsafe self.readNoncopyableTypeMetadata = nil
        unsafe self.readIsExecutable = nil
    }

    /// The sections of an image read from a file (ImageFileMapping.swift).
    init(
        readFrom start: UnsafeRawPointer,
        typeMetadata: UnsafeRawBufferPointer,
        noncopyableTypeMetadata: UnsafeRawBufferPointer,
        protocols: UnsafeRawBufferPointer,
        protocolConformances: UnsafeRawBufferPointer,
        fieldMetadata: UnsafeRawBufferPointer,
        isExecutable: Bool
    ) {
        unsafe self.rawPath = nil
        unsafe self.baseAddress = start
        unsafe self.typeMetadata = typeMetadata
        unsafe self.protocols = protocols
        unsafe self.protocolConformances = protocolConformances
        unsafe self.fieldMetadata = fieldMetadata
        unsafe self.readNoncopyableTypeMetadata = noncopyableTypeMetadata
        unsafe self.readIsExecutable = isExecutable
    }

    /// The type context descriptors of `swift5_type_metadata` (`TargetTypeMetadataRecord`)
    /// that this image declares.
    ///
    /// Each record is a relative pointer whose low two bits are a `TypeReferenceKind`:
    /// 0 direct, 1 indirect. Other kinds name Objective-C classes and are skipped. An indirect
    /// record can name another image's descriptor (`Swift.Optional` in the Synchronization
    /// library's records); it is kept only when the descriptor lies in this image.
    var typeDescriptors: [UnsafeRawPointer] {
        guard let base = unsafe typeMetadata.baseAddress else { return unsafe [] }
        let count = unsafe typeMetadata.count / 4
        return unsafe (0..<count).compactMap { index -> UnsafeRawPointer? in
            let field = unsafe base + index * 4
            let relative: Int32 = unsafe field.read()
            let kind = relative & 0x3
            let target = unsafe field + Int(relative & ~0x3)
            switch kind {
            case 0:
                return unsafe target
            case 1:
                guard let descriptor = unsafe target.slotTarget, let baseAddress = unsafe baseAddress,
                    let imageBase = unsafe cmd_imageBase(baseAddress),
                    unsafe cmd_imageBase(descriptor) == imageBase
                else { return nil }
                return unsafe descriptor
            default:
                return nil
            }
        }
    }

    /// The protocol descriptors of `swift5_protocols` (`TargetProtocolRecord`: a relative
    /// indirectable pointer whose bit 1 is reserved).
    var protocolDescriptors: [UnsafeRawPointer] {
        var descriptors: [UnsafeRawPointer] = unsafe []
        unsafe descriptors.reserveCapacity(protocols.count / 4)
        unsafe forEachProtocolDescriptor { descriptor in
            unsafe descriptors.append(descriptor)
            return true
        }
        return unsafe descriptors
    }

    /// Visits the protocol descriptors of `swift5_protocols` (`TargetProtocolRecord`: a relative
    /// indirectable pointer whose bit 1 is reserved), without building an array.
    /// - Parameter body: Receives each descriptor, in section order; returns `false` to stop.
    /// - Returns: `false` when `body` stopped the visit.
    @discardableResult
    func forEachProtocolDescriptor(_ body: (UnsafeRawPointer) -> Bool) -> Bool {
        guard let base = unsafe protocols.baseAddress else { return true }
        for index in 0..<(unsafe protocols.count / 4) {
            let field = unsafe base + index * 4
            let relative: Int32 = unsafe field.read()
            guard relative != 0 else { continue }
            let target = unsafe field + Int(relative & ~0x3)
            guard let descriptor = relative & 1 == 0 ? unsafe target : unsafe target.slotTarget else { continue }
            guard unsafe body(descriptor) else { return false }
        }
        return true
    }

    /// The conformance descriptors of `swift5_protocol_conformances` (`TargetProtocolConformanceRecord`:
    /// a relative direct pointer).
    var conformanceDescriptors: [UnsafeRawPointer] {
        guard let base = unsafe protocolConformances.baseAddress else { return unsafe [] }
        let count = unsafe protocolConformances.count / 4
        return unsafe (0..<count).compactMap { index in unsafe (base + index * 4).relativeDirectPointer(at: 0) }
    }

    /// The conformance descriptors of one protocol, by one pass over the section that compares
    /// each record's protocol with it, as the scan of `swift_conformsToProtocol` does
    /// (swiftlang/swift stdlib/public/runtime/ProtocolConformance.cpp).
    /// - Parameters:
    ///   - protocolDescriptor: The protocol's descriptor.
    ///   - body: Receives each matching descriptor, in section order.
    func forEachConformanceDescriptor(of protocolDescriptor: UnsafeRawPointer, _ body: (UnsafeRawPointer) -> Void) {
        guard let base = unsafe protocolConformances.baseAddress else { return }
        for index in 0..<(unsafe protocolConformances.count / 4) {
            guard let descriptor = unsafe (base + index * 4).relativeDirectPointer(at: 0) else { continue }
            if unsafe ProtocolConformanceDescriptorLayout(descriptor).protocolDescriptor == protocolDescriptor {
                unsafe body(descriptor)
            }
        }
    }

    /// Every conformance descriptor of the section with its conforming type's descriptor, in
    /// section order; a record naming no type descriptor (an Objective-C class) is skipped.
    /// - Parameter body: Receives each conformance descriptor and its type's descriptor.
    func forEachConformanceDescriptorWithType(_ body: (UnsafeRawPointer, UnsafeRawPointer) -> Void) {
        guard let base = unsafe protocolConformances.baseAddress else { return }
        for index in 0..<(unsafe protocolConformances.count / 4) {
            guard let descriptor = unsafe (base + index * 4).relativeDirectPointer(at: 0),
                let type = unsafe ProtocolConformanceDescriptorLayout(descriptor).typeDescriptor
            else { continue }
            unsafe body(descriptor, type)
        }
    }

    /// The conformance descriptors whose conforming type is one of a set of type descriptors, by
    /// one pass over the section that compares each record's type descriptor address (direct
    /// or through its indirect slot), resolving nothing else.
    /// - Parameters:
    ///   - wanted: The descriptors' addresses.
    ///   - body: Receives each matching descriptor, in section order.
    func forEachConformanceDescriptor(ofTypes wanted: [UInt], _ body: (UnsafeRawPointer) -> Void) {
        guard let base = unsafe protocolConformances.baseAddress else { return }
        // A type and its superclasses are a handful: comparing with each costs less than hashing.
        for index in 0..<(unsafe protocolConformances.count / 4) {
            guard let descriptor = unsafe (base + index * 4).relativeDirectPointer(at: 0),
                let type = unsafe ProtocolConformanceDescriptorLayout(descriptor).typeDescriptor,
                wanted.contains(UInt(bitPattern: type))
            else { continue }
            unsafe body(descriptor)
        }
    }

    /// The field descriptors of `swift5_fieldmd`, by the one walk of that section
    /// (`cmd_fieldDescriptorSize`, the runtime's `FieldDescriptorIterator` rule).
    var fieldDescriptors: [FieldDescriptorLayout] {
        guard let base = unsafe fieldMetadata.baseAddress else { return unsafe [] }
        var result: [FieldDescriptorLayout] = unsafe []
        var offset = 0
        while case let size = unsafe cmd_fieldDescriptorSize(base, fieldMetadata.count, offset), size > 0 {
            unsafe result.append(FieldDescriptorLayout(base + offset))
            offset += size
        }
        return unsafe result
    }
}

// MARK: - Noncopyable type records

extension ImageSections {
    /// Every type descriptor the image records: its `swift5_type_metadata` and
    /// `swift5_type_metadata_2` records, then the types its field descriptors name that
    /// neither lists (the DocC article "Understanding the ABI layer"), each once.
    var allTypeDescriptors: [UnsafeRawPointer] {
        var seen = Set<UInt>()
        var result: [UnsafeRawPointer] = unsafe []
        func add(_ descriptor: UnsafeRawPointer) {
            if seen.insert(UInt(bitPattern: descriptor)).inserted { unsafe result.append(descriptor) }
        }
        unsafe (typeDescriptors + noncopyableTypeDescriptors).forEach { unsafe add($0) }
        unsafe fieldDescriptors.forEach { field in
            // Only direct references (0x01): they point into this image; indirect ones (0x02)
            // name types of other images.
            guard let name = unsafe field.mangledTypeName, unsafe MangledNameLayout(name).leadingReferenceKind == 0x01,
                let descriptor = unsafe MangledNameLayout(name).leadingContextDescriptor,
                unsafe (16...18).contains(ContextDescriptorLayout(descriptor).flags.rawKind)
            else { return }
            unsafe add(descriptor)
        }
        return unsafe result
    }

    /// The type descriptors of the `swift5_type_metadata_2` section, where 6.x compilers put
    /// the records of `~Copyable` types.
    ///
    /// That section is not part of `MetadataSections` (version 5,
    /// stdlib/public/SwiftShims/swift/shims/MetadataSections.h) and the runtime never registers
    /// it, so for a loaded image its address comes from the image file's section headers, read
    /// by the one ELF reader (`cmd_imageFileSection`): `sh_addr` plus the image's load base.
    /// Any read failure yields no records.
    var noncopyableTypeDescriptors: [UnsafeRawPointer] {
        let start: UnsafeRawPointer
        let size: Int
        if let read = unsafe readNoncopyableTypeMetadata {
            guard let readStart = read.baseAddress else { return unsafe [] }
            unsafe start = readStart
            size = read.count
        } else {
            var address: UInt64 = 0
            var length: UInt64 = 0
            guard let base = unsafe baseAddress, unsafe !path.isEmpty,
                unsafe cmd_imageFileSection(path, CMDImageFileSectionNoncopyableTypeMetadata, &address, &length)
            else { return unsafe [] }
            unsafe start = base + Int(address)
            size = Int(length)
        }
        return unsafe (0..<(size / 4)).compactMap { index -> UnsafeRawPointer? in
            let field = unsafe start + index * 4
            let relative: Int32 = unsafe field.read()
            let target = unsafe field + Int(relative & ~0x3)
            switch relative & 0x3 {
            case 0: return unsafe target
            case 1: return unsafe target.slotTarget
            default: return nil
            }
        }
    }
}
