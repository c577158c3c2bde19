// FileReadingFuzzTests.swift
//
// Reading image files under random damage, in child processes with fixed seeds: truncations at
// random lengths and byte flips in the ELF headers, the Swift sections and anywhere else, of an
// executable and of libraries. Each mutant is listed through Image.read and the reports
// directly (no checks first) and through the inspector's command line; every one must end in a
// listing or an error, never a crash or a hang.

import Fixtures
import Foundation
import MetadataInspector
import RuntimeMetadata
import TestSupport
import Testing

/// Lists every report of a file read without checks, as a hostile caller of the public API
/// would: names of every type, protocol and conformance, as text and JSON.
private func listEverything(_ path: String) -> Bool {
    guard let image = try? Image.read(path) else { return false }
    let reports = [
        Report.types([image], kinds: ["struct", "enum", "class", "protocol"]), Report.protocols([image]),
        Report.conformances([image], protocolName: nil, typeName: nil), Report.summary([image]),
        Report.fields([image], typeName: nil),
    ]
    var characters = 0
    for report in reports { characters += report.text.count + report.json.serialized(pretty: false).count }
    for descriptor in image.typeDescriptors {
        characters +=
            descriptor.parents.count + descriptor.genericParameters.count + descriptor.genericRequirements.count
    }
    for record in image.conformances { characters += record.conditionalRequirements.count }
    return characters > 0
}

/// Mutates `count` random files made from `original`, lists each, and returns the outcomes.
private func fuzz(
    _ original: [UInt8],
    sections: [(offset: Int, size: Int)],
    mutants: Int,
    seed: UInt64,
    name: String
) -> String {
    var generator = SplitMix64(state: seed)
    let headerEnd = min(original.count, 4096)
    let sectionHeaders = readField(original, 0x28, 8)
    var outcomes = ["listed": 0, "refused": 0, "cliListed": 0, "cliRefused": 0]
    let file = temporaryDirectory.appendingPathComponent("mutant-\(name)").path
    var made = 0
    while made < mutants {
        made += 1
        var bytes = original
        switch generator.next() % 4 {
        case 0:
            // A truncation, anywhere but most often in the first pages and the section headers.
            let end =
                generator.next() % 2 == 0
                ? Int(generator.next() % UInt64(bytes.count)) : Int(generator.next() % UInt64(headerEnd))
            bytes.removeSubrange(end...)
        default:
            for _ in 0..<Int(generator.next() % 12 + 1) {
                let region = generator.next() % 4
                let index: Int
                switch region {
                case 0: index = Int(generator.next() % UInt64(headerEnd))
                case 1 where sectionHeaders < bytes.count:
                    index = sectionHeaders + Int(generator.next() % UInt64(bytes.count - sectionHeaders))
                case 2 where !sections.isEmpty:
                    let section = sections[Int(generator.next() % UInt64(sections.count))]
                    index = section.offset + Int(generator.next() % UInt64(max(section.size, 1)))
                default: index = Int(generator.next() % UInt64(bytes.count))
                }
                guard index < bytes.count else { continue }
                bytes[index] = UInt8(truncatingIfNeeded: generator.next())
            }
        }
        _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
        outcomes[listEverything(file) ? "listed" : "refused", default: 0] += 1
        let outcome = Inspector.run([["conformances", "types", "protocols", "fields"][made % 4], file])
        outcomes[outcome.status == 0 ? "cliListed" : "cliRefused", default: 0] += 1
        if outcome.status != 0 && !outcome.error.hasPrefix("error: ") { outcomes["noErrorLine", default: 0] += 1 }
    }
    let summary = outcomes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    return "FUZZ-REPORT reading \(name): \(made) mutants; \(summary)"
}

@Suite("Reading image files: fuzzing")
struct FileReadingFuzzTests {
    @Test("Truncated and byte-flipped executables: listed or refused, never a crash")
    func executables() async throws {
        let fixture = try executableFixture.get()
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            [path = fixture.executable as String] in
            guard let original = FileManager.default.contents(atPath: path) else {
                Issue.record("no executable to mutate")
                return
            }
            let sections = swiftSections(of: path).values.filter { $0.size > 0 }.sorted { $0.offset < $1.offset }
            let report = fuzz(
                Array(original),
                sections: sections,
                mutants: TestScale.scaled(300, minimum: 60),
                seed: 0xF11E_0001,
                name: "app"
            )
            print(report)
            if report.contains("noErrorLine") { Issue.record("a refusal without an error line") }
        }
        FuzzRun.printReport(result)
    }

    @Test("Truncated and byte-flipped libraries: listed or refused, never a crash")
    func libraries() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let directory = toolchainLibraryDirectory ?? "/opt/swift/usr/lib/swift/linux"
            for (index, name) in ["libswiftObservation.so", "libswift_Differentiation.so"].enumerated() {
                let path = directory + "/" + name
                guard let original = FileManager.default.contents(atPath: path) else {
                    Issue.record("no \(name) to mutate")
                    continue
                }
                let sections = swiftSections(of: path).values.filter { $0.size > 0 }.sorted { $0.offset < $1.offset }
                let report = fuzz(
                    Array(original),
                    sections: sections,
                    mutants: TestScale.scaled(200, minimum: 40),
                    seed: 0xF11E_0100 + UInt64(index),
                    name: name
                )
                print(report)
                if report.contains("noErrorLine") { Issue.record("a refusal without an error line") }
            }
        }
        FuzzRun.printReport(result)
    }
}
