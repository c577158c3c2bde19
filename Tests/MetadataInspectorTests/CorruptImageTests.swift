// CorruptImageTests.swift
//
// Libraries whose Swift metadata sections are corrupted: the inspector refuses them before the
// loader sees them (once loaded, the runtime trusts their records and crashes on a bad one).
// The checks of `Image.read` and `Image.probe` themselves are tested in RuntimeMetadataTests'
// Images/ folder.

import Fixtures
import Foundation
import RuntimeMetadata
import TestSupport
import Testing

@testable import MetadataInspector

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

}

@Suite("Corrupt ELF headers")
struct CorruptHeaderTests {
    @Test(
        "A header field near Int.max is an error naming the field, in a child process, never a trap",
        arguments: ["e_phoff", "e_shoff", "p_offset", "p_vaddr", "p_filesz", "p_memsz"]
    )
    func extremeField(_ field: String) async throws {
        let original = try #require(FileManager.default.contents(atPath: differentiation).map(Array.init))
        let offset = try #require(headerFields(of: original).first { $0.name == field }?.offset)
        var paths: [String] = []
        for (index, value) in extremeFieldValues.enumerated() {
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
