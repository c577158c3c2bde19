// ELFFileEditing.swift
//
// Edits of an image file's bytes for the tests of `Image.read`: its segments and sections as
// `readelf` lists them (an oracle this package did not write), virtual addresses turned into
// file offsets, and little-endian fields read and written.

import Foundation
import RuntimeMetadata
import TestSupport

/// An image file's bytes, with its layout as `readelf` reports it.
struct ELFFileEditing {
    /// A `LOAD` program header.
    struct Segment {
        var offset: Int
        var address: Int
        var fileSize: Int
        var memorySize: Int
    }

    var bytes: [UInt8]
    let segments: [Segment]
    /// Each section's virtual address and size, by name.
    let sections: [String: (address: Int, size: Int)]

    /// Reads a file and its layout; `nil` when either cannot be read.
    init?(path: String) {
        guard let data = FileManager.default.contents(atPath: path),
            let programs = runTool(["readelf", "-W", "-l", path]),
            let sectionList = runTool(["readelf", "-W", "-S", path])
        else { return nil }
        bytes = Array(data)
        segments = programs.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.first == "LOAD", fields.count >= 6, let offset = Int(fields[1].dropFirst(2), radix: 16),
                let address = Int(fields[2].dropFirst(2), radix: 16),
                let fileSize = Int(fields[4].dropFirst(2), radix: 16),
                let memorySize = Int(fields[5].dropFirst(2), radix: 16)
            else { return nil }
            return Segment(offset: offset, address: address, fileSize: fileSize, memorySize: memorySize)
        }
        var sections: [String: (address: Int, size: Int)] = [:]
        for line in sectionList.split(separator: "\n") {
            let fields = line.replacingOccurrences(of: "[ ", with: "[").split(separator: " ")
            guard fields.count > 5, fields[0].hasPrefix("["), let address = Int(fields[3], radix: 16),
                let size = Int(fields[5], radix: 16)
            else { continue }
            sections[String(fields[1])] = (address, size)
        }
        self.sections = sections
    }

    /// The lowest and the highest address of the loadable segments.
    var span: Range<Int> {
        (segments.map(\.address).min() ?? 0)..<(segments.map { $0.address + $0.memorySize }.max() ?? 0)
    }

    /// The file offset of a virtual address that the file holds.
    func offset(ofAddress address: Int) -> Int? {
        for segment in segments where address >= segment.address && address < segment.address + segment.fileSize {
            return segment.offset + address - segment.address
        }
        return nil
    }

    /// A little-endian field at a virtual address.
    func field(at address: Int, size: Int = 4) -> Int? {
        guard let offset = offset(ofAddress: address), offset + size <= bytes.count else { return nil }
        var value: UInt64 = 0
        for index in 0..<size { value |= UInt64(bytes[offset + index]) << (8 * UInt64(index)) }
        return size == 4 ? Int(Int32(truncatingIfNeeded: value)) : Int(truncatingIfNeeded: value)
    }

    /// Writes a little-endian field at a virtual address the file holds.
    mutating func setField(at address: Int, size: Int = 4, to value: Int) {
        guard let offset = offset(ofAddress: address) else { return }
        for index in 0..<size { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// The addresses of the type descriptors the direct records of `swift5_type_metadata` name.
    var directTypeDescriptors: [Int] {
        guard let section = sections["swift5_type_metadata"] else { return [] }
        return stride(from: section.address, to: section.address + section.size, by: 4).compactMap { record in
            guard let relative = field(at: record), relative & 3 == 0 else { return nil }
            return record + relative
        }
    }

    /// A little-endian field at a file offset.
    func field(atFileOffset offset: Int, size: Int) -> Int? {
        guard offset >= 0, offset + size <= bytes.count else { return nil }
        var value = 0
        for index in 0..<size { value |= Int(bytes[offset + index]) << (8 * index) }
        return value
    }

    /// Writes a little-endian field at a file offset.
    mutating func setField(atFileOffset offset: Int, size: Int, to value: Int) {
        for index in 0..<size { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
    }

    /// Writes the bytes to a new file in this process's temporary directory (removed when the
    /// process exits) and returns its path.
    func write(named name: String) -> String? {
        let path = temporaryDirectory.appendingPathComponent(name).path
        return FileManager.default.createFile(atPath: path, contents: Data(bytes)) ? path : nil
    }
}

/// The directory of the Swift libraries this process loaded, where libswiftCore.so is.
let toolchainLibraries: String = {
    let core = Image.all.first { $0.fileName == "libswiftCore.so" }?.path ?? "/usr/lib/swift/linux/libswiftCore.so"
    return String(core.prefix(upTo: core.lastIndex(of: "/") ?? core.endIndex))
}()
