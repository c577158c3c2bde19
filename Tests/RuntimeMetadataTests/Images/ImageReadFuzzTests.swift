// ImageReadFuzzTests.swift
//
// Fuzz targets for `Image.read`, each in a child process with a fixed seed and a fixed count:
// relative pointers of the records moved just outside the image, files truncated or rewritten
// while an image holds them, and huge header counts read on a 512 KiB stack. Every mutant must
// be listed or refused with a typed error; nothing read may be called or crash.

import Fixtures
import Foundation
import RuntimeMetadata
import TestSupport
import Testing

/// Asks a read image everything its public API answers, as a hostile caller would; a read
/// image's types have no metadata and refuse instantiation whatever their bytes say.
/// - Returns: How many names were read, so that the work is not optimized away.
@discardableResult
func exercise(_ image: Image) -> Int {
    var characters = 0
    for descriptor in image.typeDescriptors {
        characters += descriptor.name.count + descriptor.portableName.count + descriptor.parents.count
        characters += descriptor.genericParameters.count + descriptor.genericRequirements.count
        characters += descriptor.fieldRecords?.count ?? 0
        #expect(descriptor.metadata == nil, "\(descriptor.portableName)")
        #expect(throws: RuntimeMetadataError.self) { try descriptor.instantiate(with: []) }
    }
    for descriptor in image.protocols { characters += descriptor.name.count + descriptor.requirements.count }
    for record in image.conformances { characters += record.description.count + record.conditionalRequirements.count }
    return characters
}

/// The 4-byte relative pointers a hostile file can move: each record, and the fields of the
/// descriptor a direct type record names (parent, name, access function, fields).
private func relativeFields(of file: ELFFileEditing) -> [Int] {
    var fields: [Int] = []
    for section in ["swift5_type_metadata", "swift5_protocols", "swift5_protocol_conformances"] {
        guard let range = file.sections[section] else { continue }
        fields += stride(from: range.address, to: range.address + range.size, by: 4)
    }
    for descriptor in file.directTypeDescriptors { fields += [4, 8, 12, 16].map { descriptor + $0 } }
    if let conformances = file.sections["swift5_protocol_conformances"] {
        for record in stride(from: conformances.address, to: conformances.address + conformances.size, by: 4) {
            guard let relative = file.field(at: record) else { continue }
            // TargetProtocolConformanceDescriptor: protocol, type reference, witness table pattern.
            fields += [0, 4, 8].map { record + relative + $0 }
        }
    }
    if let fieldMetadata = file.sections["swift5_fieldmd"], fieldMetadata.size >= 16 {
        fields += [fieldMetadata.address, fieldMetadata.address + 4]
    }
    return fields.filter { file.offset(ofAddress: $0) != nil }
}

@Suite("Reading image files: fuzzing hostile files")
struct ImageReadFuzzTests {
    @Test("Relative pointers moved just outside the image: listed, never called, never a crash")
    func pointersJustOutside() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let original = try #require(ELFFileEditing(path: toolchainLibraries + "/libswiftObservation.so"))
            let fields = relativeFields(of: original)
            try #require(fields.count > 20)
            var generator = SplitMix64(state: 0x0B7_0001)
            var listed = 0
            var refused = 0
            let span = original.span
            for index in 0..<300 {
                var file = original
                for _ in 0..<Int.random(in: 1...3, using: &generator) {
                    let field = fields.randomElement(using: &generator)!
                    // Just past either end of the loadable segments, up to 64 KiB away.
                    let distance = Int.random(in: 0..<65_536, using: &generator)
                    let target =
                        Bool.random(using: &generator) ? span.upperBound + distance : span.lowerBound - 1 - distance
                    // Keep the kind bits a record's low two bits carry.
                    let kind = (file.field(at: field) ?? 0) & 3
                    file.setField(at: field, to: (target - field) & ~3 | kind)
                }
                guard let path = file.write(named: "outside-\(index % 4).so") else { continue }
                if let image = try? Image.read(path) {
                    exercise(image)
                    listed += 1
                } else {
                    refused += 1
                }
            }
            print("FUZZ-REPORT pointers outside: \(listed) listed, \(refused) refused")
            #expect(listed > 100)
        }
        FuzzRun.printReport(result)
    }

    @Test("Files truncated or rewritten while an image holds them: the image lists what it read")
    func filesChangedWhileHeld() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let library = toolchainLibraries + "/libswift_Differentiation.so"
            let bytes = try #require(FileManager.default.contents(atPath: library))
            var generator = SplitMix64(state: 0x0B7_0002)
            var rereadListed = 0
            var rereadRefused = 0
            for index in 0..<100 {
                let path = temporaryDirectory.appendingPathComponent("held-\(index)").path
                guard FileManager.default.createFile(atPath: path, contents: bytes), let image = try? Image.read(path)
                else {
                    Issue.record("the copy cannot be read")
                    continue
                }
                let before = image.typeDescriptors.map(\.portableName)
                guard let handle = FileHandle(forUpdatingAtPath: path) else { continue }
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:
                    try? handle.truncate(atOffset: UInt64.random(in: 0..<UInt64(bytes.count), using: &generator))
                case 1:
                    // Random bytes over a random range, in place.
                    let start = Int.random(in: 0..<bytes.count, using: &generator)
                    let length = Int.random(in: 1...min(65_536, bytes.count - start), using: &generator)
                    try? handle.seek(toOffset: UInt64(start))
                    handle.write(Data((0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }))
                default:
                    // Emptied, then a shorter file of other bytes.
                    try? handle.truncate(atOffset: 0)
                    handle.write(Data(repeating: 0x7F, count: Int.random(in: 0..<4096, using: &generator)))
                }
                try? handle.close()
                #expect(image.typeDescriptors.map(\.portableName) == before)
                exercise(image)
                if let again = try? Image.read(path) {
                    exercise(again)
                    rereadListed += 1
                } else {
                    rereadRefused += 1
                }
                try? FileManager.default.removeItem(atPath: path)
            }
            print("FUZZ-REPORT held files: 100 changed; read again \(rereadListed) listed, \(rereadRefused) refused")
        }
        FuzzRun.printReport(result)
    }

    @Test("Huge program and section header counts on a 512 KiB stack: an error or a listing, never a crash")
    func hugeHeaderCounts() async throws {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            let original = try #require(ELFFileEditing(path: toolchainLibraries + "/libswift_Differentiation.so"))
            var generator = SplitMix64(state: 0x0B7_0003)
            nonisolated(unsafe) var outcomes = [0, 0]
            for index in 0..<100 {
                var file = original
                // Elf64_Ehdr (<elf.h>): e_phoff 0x20, e_shoff 0x28, e_phnum 0x38, e_shnum 0x3C.
                let count = Int.random(in: 0x1000...0xFFFF, using: &generator)
                let programs = Bool.random(using: &generator)
                file.setField(atFileOffset: programs ? 0x38 : 0x3C, size: 2, to: count)
                if Bool.random(using: &generator) {
                    // The table moved to the file's end, all of it present: the original
                    // entries, then zeros (PT_NULL, SHT_NULL).
                    let entry = programs ? 56 : 64
                    let tableOffset = original.field(atFileOffset: programs ? 0x20 : 0x28, size: 8) ?? 0
                    let originalCount = original.field(atFileOffset: programs ? 0x38 : 0x3C, size: 2) ?? 0
                    let table = Array(original.bytes[tableOffset..<(tableOffset + originalCount * entry)])
                    let offset = (file.bytes.count + 7) & ~7
                    file.bytes += [UInt8](repeating: 0, count: offset - file.bytes.count) + table
                    file.bytes += [UInt8](repeating: 0, count: (count - originalCount) * entry)
                    file.setField(atFileOffset: programs ? 0x20 : 0x28, size: 8, to: offset)
                }
                guard let path = file.write(named: "huge-counts-\(index % 4).so") else { continue }
                onSmallStack {
                    if let image = try? Image.read(path) {
                        exercise(image)
                        outcomes[0] += 1
                    } else {
                        outcomes[1] += 1
                    }
                }
            }
            print("FUZZ-REPORT huge header counts: \(outcomes[0]) listed, \(outcomes[1]) refused")
        }
        FuzzRun.printReport(result)
    }
}
