// ImageFile.swift
//
// Checks a file before it is handed to the dynamic loader: that it exists, is an ELF image
// whose section headers lie inside the file, and has Swift metadata sections. Every read is
// bounds-checked against the file's bytes, so a truncated or foreign file is an error that
// names the file and the offset, never a crash (and never a library loaded by mistake).

// The standard library cannot read files; Foundation's FileManager does, with safe APIs.
import Foundation
import RuntimeMetadata

/// A file checked to be a 64-bit little-endian ELF image with Swift metadata sections.
struct ImageFile {
    /// The file's path.
    let path: String
    /// The names of its sections.
    let sectionNames: [String]
    /// Whether the file is an executable: a fixed-address one (`ET_EXEC`) or one with a
    /// program interpreter (`PT_INTERP`), as every position-independent executable has.
    let isExecutable: Bool
    /// Its loadable segments.
    private let layout: LoadedImageLayout
    /// Its bytes, mapped.
    private let data: Data

    /// Reads and checks a file.
    /// - Parameter path: The file's path.
    /// - Throws: ``InspectorError`` naming what is wrong.
    init(path: String) throws(InspectorError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .missingFile(path: path)
        }
        if isDirectory.boolValue { throw .directory(path: path) }
        // Mapped, not read: a large library's check touches only its headers and metadata sections.
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else {
            throw .loadFailed(path: path, reason: "the file cannot be read")
        }
        let reader = ByteReader(bytes: data, path: path)
        // ELF identification: magic, 64-bit class, little-endian data.
        guard reader.count >= 4, try reader.bytes(at: 0, count: 4) == Data([0x7F, 0x45, 0x4C, 0x46]) else {
            throw .notELF(path: path)
        }
        guard try reader.byte(at: 4) == 2, try reader.byte(at: 5) == 1 else {
            throw .notSwift(path: path)
        }
        // Elf64_Ehdr: e_shoff at 0x28, e_shentsize at 0x3A, e_shnum at 0x3C, e_shstrndx at 0x3E.
        let sectionHeaderOffset = try reader.integer(at: 0x28, size: 8, field: "e_shoff")
        let sectionHeaderSize = try reader.integer(at: 0x3A, size: 2, field: "e_shentsize")
        let sectionCount = try reader.integer(at: 0x3C, size: 2, field: "e_shnum")
        let namesIndex = try reader.integer(at: 0x3E, size: 2, field: "e_shstrndx")
        guard sectionCount > 0, sectionHeaderSize >= 64, namesIndex < sectionCount else { throw .notSwift(path: path) }
        // Elf64_Shdr: sh_name at 0, sh_addr at 0x10, sh_offset at 0x18, sh_size at 0x20.
        func header(_ index: Int) throws(InspectorError) -> (name: Int, offset: Int, size: Int, address: Int) {
            let base = sectionHeaderOffset + index * sectionHeaderSize
            return (
                try reader.integer(at: base, size: 4, field: "sh_name"),
                try reader.integer(at: base + 0x18, size: 8, field: "sh_offset"),
                try reader.integer(at: base + 0x20, size: 8, field: "sh_size"),
                try reader.integer(at: base + 0x10, size: 8, field: "sh_addr")
            )
        }
        _ = try reader.bytes(at: sectionHeaderOffset, count: sectionCount * sectionHeaderSize)
        let names = try header(namesIndex)
        _ = try reader.bytes(at: names.offset, count: names.size)
        var sectionNames: [String] = []
        for index in 0..<sectionCount {
            let section = try header(index)
            sectionNames.append(try reader.cString(at: names.offset + section.name, limit: names.offset + names.size))
        }
        guard sectionNames.contains(where: { $0.hasPrefix("swift5_") }) else { throw .notSwift(path: path) }
        // The loadable segments (Elf64_Phdr: p_type at 0, p_flags at 0x04, p_offset at 0x08, p_vaddr at 0x10,
        // p_filesz at 0x20, p_memsz at 0x28; e_phoff at 0x20, e_phentsize at 0x36, e_phnum at 0x38),
        // against which every record of the Swift metadata sections is checked.
        let programHeaderOffset = try reader.integer(at: 0x20, size: 8, field: "e_phoff")
        let programHeaderSize = try reader.integer(at: 0x36, size: 2, field: "e_phentsize")
        let programHeaderCount = try reader.integer(at: 0x38, size: 2, field: "e_phnum")
        guard programHeaderSize >= 56 else { throw .notSwift(path: path) }
        var segments: [LoadedImageLayout.Segment] = []
        var hasInterpreter = false
        for index in 0..<programHeaderCount {
            let base = programHeaderOffset + index * programHeaderSize
            let type = try reader.integer(at: base, size: 4, field: "p_type")
            if type == 3 { hasInterpreter = true }  // PT_INTERP
            guard type == 1 else { continue }  // PT_LOAD
            segments.append(
                LoadedImageLayout.Segment(
                    address: try reader.integer(at: base + 0x10, size: 8, field: "p_vaddr"),
                    memorySize: try reader.integer(at: base + 0x28, size: 8, field: "p_memsz"),
                    fileOffset: try reader.integer(at: base + 0x08, size: 8, field: "p_offset"),
                    fileSize: try reader.integer(at: base + 0x20, size: 8, field: "p_filesz"),
                    isWritable: try reader.integer(at: base + 0x04, size: 4, field: "p_flags") & 0x2 != 0
                )
            )
        }
        let layout = LoadedImageLayout(segments: segments, fileSize: data.count)
        let file = data.span
        for index in 0..<sectionCount where sectionNames[index].hasPrefix("swift5_") {
            let section = try header(index)
            guard layout.fileOffset(section.address, count: section.size) != nil else {
                throw .corruptMetadata(
                    path: path,
                    section: sectionNames[index],
                    record: 0,
                    reason: "lies outside the image"
                )
            }
            if let (record, reason) = MetadataSectionCheck.check(
                section: sectionNames[index],
                address: section.address,
                size: section.size,
                in: layout,
                file: file
            ) {
                throw .corruptMetadata(path: path, section: sectionNames[index], record: record, reason: reason)
            }
        }
        self.path = path
        self.sectionNames = sectionNames
        // e_type at 0x10: ET_EXEC is 2.
        self.isExecutable = try reader.integer(at: 0x10, size: 2, field: "e_type") == 2 || hasInterpreter
        self.layout = layout
        self.data = data
    }

    /// Checks the sections the runtime registers for the file, as a child process that loaded
    /// it reported them (``ImageProbe``): the records the runtime will read, wherever the
    /// section headers say they are. Each registered section must lie in the file's loadable
    /// segments, and its records pass the same checks as the section headers' sections.
    /// - Parameter probe: What the runtime registered.
    /// - Throws: ``InspectorError/corruptMetadata(path:section:record:reason:)`` for a bad
    ///   section or record, or for a child whose conformance scan died.
    func checkRegisteredSections(_ probe: ImageProbe) throws(InspectorError) {
        let file = data.span
        for section in probe.sections where section.size > 0 {
            guard section.address <= UInt(ByteReader.largestValue), section.size <= ByteReader.largestValue,
                layout.fileOffset(Int(section.address), count: section.size) != nil
            else {
                throw .corruptMetadata(
                    path: path,
                    section: section.name,
                    record: 0,
                    reason: "lies outside the image, where the runtime registered it"
                )
            }
            if let (record, reason) = MetadataSectionCheck.check(
                section: section.name,
                address: Int(section.address),
                size: section.size,
                in: layout,
                file: file
            ) {
                throw .corruptMetadata(path: path, section: section.name, record: record, reason: reason)
            }
        }
        if let signal = probe.scanSignal {
            throw .corruptMetadata(
                path: path,
                section: "swift5_protocol_conformances",
                record: 0,
                reason: "crashed the runtime's conformance scan in a child process (signal \(signal))"
            )
        }
        guard probe.scanCompleted else {
            throw .loadFailed(path: path, reason: "the runtime's conformance scan in a child process did not finish")
        }
    }
}

/// Bounds-checked little-endian reads over a file's bytes.
struct ByteReader {
    /// The file, indexed from 0.
    let bytes: Data
    let path: String

    var count: Int { bytes.count }

    func byte(at offset: Int) throws(InspectorError) -> UInt8 {
        guard offset >= 0, offset < bytes.count else { throw .truncated(path: path, offset: offset) }
        return bytes[offset]
    }

    func bytes(at offset: Int, count length: Int) throws(InspectorError) -> Data {
        guard offset >= 0, length >= 0, offset <= bytes.count - length else {
            let (end, overflow) = offset.addingReportingOverflow(max(length, 0))
            throw .truncated(path: path, offset: overflow ? Int.max : end)
        }
        return bytes[offset..<(offset + length)]
    }

    /// The largest offset, address or size accepted from a header: the 47 bits of the x86_64
    /// user address space. Every number read from a header is at most this, so that the sums
    /// and products made of them later (a segment's end, a record's field) cannot overflow.
    static let largestValue = 1 << 47

    /// A little-endian header field at `offset`, at most ``largestValue``.
    /// - Parameters:
    ///   - offset: The field's file offset.
    ///   - size: The field's size in bytes.
    ///   - field: The field's name, such as `p_offset`, for the error.
    /// - Returns: The field's value.
    /// - Throws: ``InspectorError/truncated(path:offset:)`` when the file ends first,
    ///   ``InspectorError/malformedHeader(path:field:value:)`` for a larger value.
    func integer(at offset: Int, size: Int, field: String) throws(InspectorError) -> Int {
        var value: UInt64 = 0
        for (shift, byte) in try bytes(at: offset, count: size).enumerated() {
            value |= UInt64(byte) << (8 * UInt64(shift))
        }
        guard value <= UInt64(Self.largestValue) else {
            throw .malformedHeader(path: path, field: field, value: value)
        }
        return Int(value)
    }

    func cString(at offset: Int, limit: Int) throws(InspectorError) -> String {
        var end = offset
        while try byte(at: end) != 0 {
            end += 1
            if end >= limit { throw .truncated(path: path, offset: end) }
        }
        return String(decoding: bytes[offset..<end], as: UTF8.self)
    }
}
