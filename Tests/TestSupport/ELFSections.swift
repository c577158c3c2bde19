// ELFSections.swift
//
// Reading and editing the sections and header fields of an ELF library's bytes, as readelf
// lists them and `<elf.h>` lays them out (Elf64_Ehdr, Elf64_Phdr, Elf64_Shdr), for the tests
// that corrupt copies of a library: of `Image.read` and `Image.probe`, and of the inspector.

import Foundation

/// The file offset and size of each `swift5_` section of a library, from `readelf`.
public func swiftSections(of path: String) -> [String: (offset: Int, size: Int)] {
    guard let listing = runTool(["readelf", "-W", "-S", path]) else { return [:] }
    var sections: [String: (offset: Int, size: Int)] = [:]
    for line in listing.split(separator: "\n") {
        let fields = line.replacingOccurrences(of: "[ ", with: "[").split(separator: " ")
        guard let nameIndex = fields.firstIndex(where: { $0.hasPrefix("swift5_") }), fields.count > nameIndex + 4,
            let offset = Int(fields[nameIndex + 3], radix: 16), let size = Int(fields[nameIndex + 4], radix: 16)
        else { continue }
        sections[String(fields[nameIndex])] = (offset, size)
    }
    return sections
}

/// A copy of `library` with `transform` applied to the bytes of one section.
public func corruptedCopy(
    of library: String,
    section: String,
    name: String,
    _ transform: (inout [UInt8], Range<Int>) -> Void
)
    -> String?
{
    guard let range = swiftSections(of: library)[section], range.size > 0,
        var bytes = FileManager.default.contents(atPath: library).map(Array.init)
    else { return nil }
    transform(&bytes, range.offset..<(range.offset + range.size))
    let file = temporaryDirectory.appendingPathComponent(name)
    guard FileManager.default.createFile(atPath: file.path, contents: Data(bytes)) else { return nil }
    return file.path
}

/// A small Swift library of the toolchain with conformances, fields, types and protocols.
public let differentiation =
    (toolchainLibraryDirectory ?? "/opt/swift/usr/lib/swift/linux") + "/libswift_Differentiation.so"

/// A little-endian field of `size` bytes at `offset`.
public func readField(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> Int {
    (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
}

/// Writes a little-endian field of `size` bytes at `offset`.
public func writeField(_ bytes: inout [UInt8], _ offset: Int, _ size: Int, _ value: UInt64) {
    for index in 0..<size { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
}

/// The file offset of each field of a library's ELF header and first `PT_LOAD` program header
/// (`<elf.h>`: Elf64_Ehdr, Elf64_Phdr) that the inspector reads as an offset, address or size.
public func headerFields(of bytes: [UInt8]) -> [(name: String, offset: Int)] {
    func word(_ offset: Int, _ size: Int) -> Int { readField(bytes, offset, size) }
    var fields: [(String, Int)] = [("e_phoff", 0x20), ("e_shoff", 0x28)]
    let programHeaders = word(0x20, 8)
    let entrySize = word(0x36, 2)
    for index in 0..<word(0x38, 2) where word(programHeaders + index * entrySize, 4) == 1 {
        let base = programHeaders + index * entrySize
        fields += [
            ("p_offset", base + 0x08), ("p_vaddr", base + 0x10), ("p_filesz", base + 0x20), ("p_memsz", base + 0x28),
        ]
        break
    }
    return fields
}

/// The file offset of the section header (`Elf64_Shdr`) of each named section of an ELF file.
public func sectionHeaders(of bytes: [UInt8]) -> [String: Int] {
    func word(_ offset: Int, _ size: Int) -> Int { readField(bytes, offset, size) }
    let table = word(0x28, 8)
    let entrySize = word(0x3A, 2)
    let count = word(0x3C, 2)
    let names = word(table + word(0x3E, 2) * entrySize + 0x18, 8)
    var headers: [String: Int] = [:]
    for index in 0..<count {
        let header = table + index * entrySize
        let start = names + word(header, 4)
        let name = String(decoding: bytes[start...].prefix { $0 != 0 }, as: UTF8.self)
        headers[name] = header
    }
    return headers
}

/// Values at the extremes of a 64-bit field, for header fuzzing.
public let extremeFieldValues: [UInt64] = [
    0x7FFF_FFFF_FFFF_F000, 0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 1 << 47 + 1,
]
