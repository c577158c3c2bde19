// ImageRecordCheckTests.swift
//
// `Image.read`'s record checks against real and corrupted libraries: every library of the
// toolchain passes them, and random byte mutations of the Swift sections and of the ELF
// header fields are read or refused, never a crash (each run in a child process).

import Fixtures
import Foundation
import RuntimeMetadata
import TestSupport
import Testing

@Suite("Image.read: record checks")
struct ImageRecordCheckTests {
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
                        case 0: extremeFieldValues[Int(generator.next() % 5)]
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
