// CorruptImageTests.swift
//
// Libraries whose Swift metadata sections are corrupted: the inspector refuses them before the
// loader sees them (once loaded, the runtime trusts their records and crashes on a bad one).
// Every real library of the toolchain still passes the same checks.

import Fixtures
import Foundation
import RuntimeMetadata
import TestSupport
import Testing

@testable import MetadataInspector

/// The file offset and size of each `swift5_` section of a library, from `readelf`.
func swiftSections(of path: String) -> [String: (offset: Int, size: Int)] {
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
func corruptedCopy(of library: String, section: String, name: String, _ transform: (inout [UInt8], Range<Int>) -> Void)
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
let differentiation = (toolchainLibraryDirectory ?? "/opt/swift/usr/lib/swift/linux") + "/libswift_Differentiation.so"

@Suite("Corrupt images")
struct CorruptImageTests {
    @Test(
        "A section overwritten with 0xFF is refused, in a child process, before the loader sees it",
        arguments: ["swift5_protocol_conformances", "swift5_type_metadata", "swift5_protocols", "swift5_fieldmd"]
    )
    func overwrittenSection(_ section: String) async throws {
        let path = try #require(
            corruptedCopy(of: differentiation, section: section, name: "libcorrupt-\(section).so") { bytes, range in
                for index in range { bytes[index] = 0xFF }
            }
        )
        await #expect(processExitsWith: .success) { [path = path as String, section = section as String] in
            for command in [["conformances"], ["summary"], ["types"], ["layout", "Swift.Int"]] {
                let outcome = Inspector.run(command + ["--load", path])
                #expect(outcome.status == 1, "\(command)")
                #expect(outcome.error.contains("corrupt Swift metadata"), "\(outcome.error)")
                #expect(outcome.error.contains(section), "\(outcome.error)")
            }
        }
    }

    @Test("Every library of the toolchain passes the record checks of Image.read")
    func realLibrariesPass() throws {
        let directory = toolchainLibraryDirectory ?? "/opt/swift/usr/lib/swift/linux"
        let libraries = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".so") }
        var checked = 0
        for library in libraries {
            do {
                _ = try Image.read(directory + "/" + library)
                checked += 1
            } catch .notASwiftImage {
                continue
            } catch {
                Issue.record("\(library): \(error)")
            }
        }
        #expect(checked > 10)
    }

    @Test("Random byte mutations of the Swift sections: checked without a crash")
    func mutations() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            var generator = SplitMix64(state: 0xC0DE_0001)
            // In file order: a dictionary's order changes with every process, the seed must not.
            let sections = swiftSections(of: differentiation).values.filter { $0.size > 0 }.sorted {
                $0.offset < $1.offset
            }
            guard !sections.isEmpty, let original = FileManager.default.contents(atPath: differentiation) else {
                Issue.record("no library to mutate")
                return
            }
            var refused = 0
            var passed = 0
            let file = temporaryDirectory.appendingPathComponent("libmutant.so").path
            for _ in 0..<300 {
                var bytes = Array(original)
                for _ in 0..<Int(generator.next() % 8 + 1) {
                    let section = sections[Int(generator.next() % UInt64(sections.count))]
                    let index = section.offset + Int(generator.next() % UInt64(section.size))
                    bytes[index] = UInt8(truncatingIfNeeded: generator.next())
                }
                _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
                do {
                    _ = try Image.read(file)
                    passed += 1
                } catch {
                    refused += 1
                }
            }
            print("FUZZ-REPORT corrupt images: 300 mutants, \(refused) refused, \(passed) passed the checks")
        }
        FuzzRun.printReport(result)
    }
}

/// A little-endian field of `size` bytes at `offset`.
func readField(_ bytes: [UInt8], _ offset: Int, _ size: Int) -> Int {
    (0..<size).reduce(0) { $0 | Int(bytes[offset + $1]) << (8 * $1) }
}

/// Writes a little-endian field of `size` bytes at `offset`.
func writeField(_ bytes: inout [UInt8], _ offset: Int, _ size: Int, _ value: UInt64) {
    for index in 0..<size { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(index))) }
}

/// The file offset of each field of a library's ELF header and first `PT_LOAD` program header
/// (`<elf.h>`: Elf64_Ehdr, Elf64_Phdr) that the inspector reads as an offset, address or size.
func headerFields(of bytes: [UInt8]) -> [(name: String, offset: Int)] {
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

@Suite("Corrupt ELF headers")
struct CorruptHeaderTests {
    /// Values at the extremes of a 64-bit field.
    static let extremes: [UInt64] = [
        0x7FFF_FFFF_FFFF_F000, 0x7FFF_FFFF_FFFF_FFFF, 0x8000_0000_0000_0000, 0xFFFF_FFFF_FFFF_FFFF, 1 << 47 + 1,
    ]

    @Test(
        "A header field near Int.max is an error naming the field, in a child process, never a trap",
        arguments: ["e_phoff", "e_shoff", "p_offset", "p_vaddr", "p_filesz", "p_memsz"]
    )
    func extremeField(_ field: String) async throws {
        let original = try #require(FileManager.default.contents(atPath: differentiation).map(Array.init))
        let offset = try #require(headerFields(of: original).first { $0.name == field }?.offset)
        var paths: [String] = []
        for (index, value) in Self.extremes.enumerated() {
            var bytes = original
            writeField(&bytes, offset, 8, value)
            let file = temporaryDirectory.appendingPathComponent("libextreme-\(field)-\(index).so").path
            #expect(FileManager.default.createFile(atPath: file, contents: Data(bytes)))
            paths.append(file)
        }
        await #expect(processExitsWith: .success) { [paths = paths as [String], field = field as String] in
            for path in paths {
                let outcome = Inspector.run(["summary", "--load", path])
                #expect(outcome.status == 1, "\(path)")
                #expect(outcome.output.isEmpty)
                #expect(outcome.error.hasPrefix("error: cannot read"), "\(outcome.error)")
                #expect(outcome.error.contains(field), "\(outcome.error)")
            }
        }
    }

    @Test("Random header fields at their extremes: an error or a pass, never a crash")
    func headerFuzz() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            guard let original = FileManager.default.contents(atPath: differentiation).map(Array.init) else {
                Issue.record("no library to mutate")
                return
            }
            var generator = SplitMix64(state: 0xE1F0_0002)
            let fields = headerFields(of: original)
            let file = temporaryDirectory.appendingPathComponent("libheader-mutant.so").path
            var refused = 0
            for _ in 0..<200 {
                var bytes = original
                for _ in 0..<Int(generator.next() % 3 + 1) {
                    let field = fields[Int(generator.next() % UInt64(fields.count))]
                    let value: UInt64 =
                        switch generator.next() % 4 {
                        case 0: CorruptHeaderTests.extremes[Int(generator.next() % 5)]
                        case 1: generator.next()
                        case 2: generator.next() % 0x10_0000
                        default: UInt64(1) << (generator.next() % 64)
                        }
                    writeField(&bytes, field.offset, 8, value)
                }
                _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
                do {
                    _ = try Image.read(file)
                } catch {
                    refused += 1
                }
            }
            print("FUZZ-REPORT ELF headers: 200 mutants, \(refused) refused")
        }
        FuzzRun.printReport(result)
    }
}

/// The file offset of the section header (`Elf64_Shdr`) of each named section of an ELF file.
func sectionHeaders(of bytes: [UInt8]) -> [String: Int] {
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

/// A copy of the library whose first conformance record points 1 GiB past itself, with the
/// section headers changed by `hide` so that they no longer show it.
func hiddenBadRecord(name: String, _ hide: (inout [UInt8], _ header: Int, _ nameOffset: Int) -> Void) -> String? {
    guard var bytes = FileManager.default.contents(atPath: differentiation).map(Array.init),
        let section = swiftSections(of: differentiation)["swift5_protocol_conformances"],
        let header = sectionHeaders(of: bytes)["swift5_protocol_conformances"]
    else { return nil }
    writeField(&bytes, section.offset, 4, 0x4000_0000)
    let table = readField(bytes, 0x28, 8)
    let names = readField(bytes, table + readField(bytes, 0x3E, 2) * readField(bytes, 0x3A, 2) + 0x18, 8)
    let nameOffset = names + readField(bytes, header, 4)
    hide(&bytes, header, nameOffset)
    let file = temporaryDirectory.appendingPathComponent(name)
    guard FileManager.default.createFile(atPath: file.path, contents: Data(bytes)) else { return nil }
    return file.path
}

@Suite("Section headers that disagree with the registration")
struct HiddenRecordTests {
    @Test(
        "A bad conformance record hidden from the section headers is refused, in a child process, before the loader sees it",
        arguments: ["size zero", "renamed", "moved"]
    )
    func hiddenRecord(_ how: String) async throws {
        let path = try #require(
            hiddenBadRecord(name: "libhidden-\(how.replacingOccurrences(of: " ", with: "-")).so") {
                bytes,
                header,
                name in
                switch how {
                case "size zero":
                    writeField(&bytes, header + 0x20, 8, 0)
                case "renamed":
                    bytes[name] = UInt8(ascii: "x")
                default:
                    // sh_addr and sh_offset pointed at the section before it.
                    for field in [0x10, 0x18] {
                        writeField(&bytes, header + field, 8, UInt64(readField(bytes, header + field, 8) - 4))
                    }
                }
            }
        )
        await #expect(processExitsWith: .success) { [path = path as String] in
            for command in [["conformances"], ["summary"]] {
                let outcome = Inspector.run(command + ["--load", path])
                #expect(outcome.status == 1, "\(command)")
                #expect(outcome.error.contains("corrupt Swift metadata"), "\(outcome.error)")
                #expect(outcome.error.contains("swift5_protocol_conformances"), "\(outcome.error)")
            }
            // The process is unharmed: a cast that misses scans every registered record.
            #expect((42 as Any) as? any Sequence == nil)
        }
    }

    // The probes run in child processes of their own, as the inspector does: a fork copies a
    // lock that another thread of the parallel test runner held at that instant, and a child
    // that then waits on it would wait until the probe's time-out.
    @Test("The probe reports the registered sections of a good library, as its section headers do")
    func probeAgreesWithHeaders() async {
        await #expect(processExitsWith: .success) {
            let probe = try #require(try? Image.probe(differentiation))
            #expect(probe.scanCompleted)
            let headers = swiftSections(of: differentiation)
            for name in ["swift5_protocols", "swift5_protocol_conformances", "swift5_type_metadata", "swift5_fieldmd"] {
                guard let header = headers[name] else { continue }
                let section = try #require(probe.section(named: name))
                #expect(section.size == header.size, "\(name)")
            }
            // Nothing was loaded here.
            #expect(!Image.all.contains { $0.path == differentiation })
        }
    }

    @Test("A probe of a file the loader refuses, or of a non-Swift library, throws")
    func probeErrors() async {
        await #expect(processExitsWith: .success) {
            #expect(throws: RuntimeMetadataError.self) { try Image.probe("/nonexistent/libNothing.so") }
            for library in ["/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1"]
            where FileManager.default.fileExists(atPath: library) {
                #expect(throws: RuntimeMetadataError.notASwiftImage(path: library)) { try Image.probe(library) }
                break
            }
        }
    }

    @Test("Section headers mutated at random against a good registration: an error or a load, never a crash")
    func sectionHeaderFuzz() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            guard let original = FileManager.default.contents(atPath: differentiation).map(Array.init) else {
                Issue.record("no library to mutate")
                return
            }
            let headers = sectionHeaders(of: original).filter { $0.key.hasPrefix("swift5_") }.sorted {
                $0.value < $1.value
            }
            let sections = swiftSections(of: differentiation)
            var generator = SplitMix64(state: 0x5EC7_0003)
            var refused = 0
            var loaded = 0
            for round in 0..<24 {
                var bytes = original
                // A header field of a Swift section: sh_name, sh_addr, sh_offset or sh_size.
                let (name, header) = headers[Int(generator.next() % UInt64(headers.count))]
                let field = [0x00, 0x10, 0x18, 0x20][Int(generator.next() % 4)]
                let value = generator.next() % 2 == 0 ? UInt64(0) : generator.next() % 0x10_0000
                writeField(&bytes, header + field, field == 0 ? 4 : 8, value)
                // Every other round, the record the header described is corrupted too.
                if round % 2 == 1, let section = sections[name], section.size >= 4 {
                    for index in 0..<4 { bytes[section.offset + index] = 0x7F }
                }
                let file = temporaryDirectory.appendingPathComponent("libheader-\(round).so").path
                _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
                let outcome = Inspector.run(["summary", "--load", file])
                if outcome.status == 0 { loaded += 1 } else { refused += 1 }
                #expect(outcome.status == 0 || outcome.error.hasPrefix("error: "))
            }
            // Every image loaded here is scanned: a miss reads every conformance record.
            #expect((42 as Any) as? any Sequence == nil)
            print("FUZZ-REPORT section headers: 24 mutants, \(refused) refused, \(loaded) loaded")
        }
        FuzzRun.printReport(result)
    }
}
