// ProcessFuzzTests.swift
//
// A process whose memory lies: the fixture's metadata sections and heap are overwritten in place
// (through /proc/PID/mem, which writes read-only pages too), a few bytes at a time with fixed
// seeds, and each listing, the census and the search for leaks of it must end with its output or
// an `error:` line and a status below 128, never a crash. The reads run in the built inspector, a
// child process, so that a crash fails the test with its input instead of taking the runner down;
// each corruption is undone before the next.

import Foundation
import TestSupport
import Testing

/// A deterministic generator (SplitMix64).
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

/// The virtual address and size of each `swift5_` section of a file, from `readelf`.
private func sectionAddresses(of path: String) -> [(name: String, address: Int, size: Int)] {
    guard let listing = runTool(["readelf", "-W", "-S", path]) else { return [] }
    return listing.split(separator: "\n").compactMap { line in
        let fields = line.replacingOccurrences(of: "[ ", with: "[").split(separator: " ")
        guard let index = fields.firstIndex(where: { $0.hasPrefix("swift5_") }), fields.count > index + 4,
            let address = Int(fields[index + 2], radix: 16), let size = Int(fields[index + 4], radix: 16), size > 0
        else { return nil }
        return (String(fields[index]), address, size)
    }
}

/// The start of the first mapping of a file, or of a named mapping, in a process.
private func mappingStart(pid: Int32, matching: (String) -> Bool) -> (start: Int, end: Int)? {
    guard let maps = try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8) else { return nil }
    for line in maps.split(separator: "\n") where matching(String(line)) {
        let range = line.split(separator: " ")[0].split(separator: "-")
        if let start = Int(range[0], radix: 16), let end = Int(range[1], radix: 16) { return (start, end) }
    }
    return nil
}

@Suite("A process whose memory lies")
struct ProcessFuzzTests {
    @Test("Overwritten metadata sections and heap words: output or an error, never a crash")
    func corruptedProcess() throws {
        let fixture = try processFixture.get()
        let inspector = try #require(builtExecutable(named: "metadata-inspect"))
        let running = try RunningFixture(program: fixture.program, plugin: fixture.plugin)
        defer { running.stop() }
        let pid = running.processID
        let sections = sectionAddresses(of: fixture.program)
        #expect(sections.count >= 4, "\(sections)")
        let image = try #require(mappingStart(pid: pid) { $0.hasSuffix(fixture.program) })
        let heap = try #require(mappingStart(pid: pid) { $0.hasSuffix("[heap]") })
        let memory = try #require(FileHandle(forUpdatingAtPath: "/proc/\(pid)/mem"))
        defer { try? memory.close() }
        // The metadata of the generic classes' instances, which the runtime allocated: a census
        // copies it to name them, following its pointers.
        var genericMetadata: [Int] = []
        for (name, entry) in running.oracle where name.hasPrefix("CensusApp.Box<") {
            guard let address = entry.addresses.first.flatMap({ Int($0.dropFirst(2), radix: 16) }) else { continue }
            try memory.seek(toOffset: UInt64(address))
            let word = try #require(try memory.read(upToCount: 8))
            genericMetadata.append(Int(word.withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }))
        }
        #expect(genericMetadata.count == 6)
        var generator = SplitMix(state: 40)
        let listings = [["types"], ["conformances"], ["fields"], ["protocols"], ["instances"]]
        var outcomes = (listed: 0, refused: 0)
        for round in 0..<TestScale.scaled(96, minimum: 24) {
            // Which memory: a metadata section of the executable, the heap, or a generic class's
            // metadata (its header, description, superclass and arguments).
            let inHeap = round % 3 == 2
            let (start, size): (Int, Int)
            if inHeap && round % 2 == 1 {
                let metadata = genericMetadata[Int.random(in: 0..<genericMetadata.count, using: &generator)]
                (start, size) = (metadata - 24, 24 + 128)
            } else if inHeap {
                (start, size) = (heap.start, heap.end - heap.start)
            } else {
                let section = sections[Int.random(in: 0..<sections.count, using: &generator)]
                (start, size) = (image.start + section.address, section.size)
            }
            var saved: [(Int, Data)] = []
            for _ in 0..<Int.random(in: 1...8, using: &generator) {
                let address = start + Int.random(in: 0..<max(size - 8, 1), using: &generator)
                try memory.seek(toOffset: UInt64(address))
                let original = try memory.read(upToCount: 8) ?? Data()
                var bytes = withUnsafeBytes(of: generator.next()) { Data($0) }
                if Bool.random(using: &generator) { bytes = Data(bytes.prefix(1)) }
                try memory.seek(toOffset: UInt64(address))
                try memory.write(contentsOf: bytes)
                saved.append((address, original))
            }
            // The heap's rounds alternate the census and the search for leaks, which walks the
            // same heap into a graph and follows its words.
            let listing = inHeap ? ((round / 3) % 2 == 0 ? ["instances"] : ["leaks"]) : listings[round % 4]
            let result = try runProcess(inspector, listing + ["--pid", "\(pid)", "--json"])
            #expect(result.status == 0 || result.status == 1, "round \(round) \(listing): status \(result.status)")
            if result.status == 1 {
                #expect(result.error.hasPrefix("error: "), "round \(round): \(result.error.prefix(200))")
                outcomes.refused += 1
            } else {
                outcomes.listed += 1
            }
            for (address, original) in saved.reversed() {
                try memory.seek(toOffset: UInt64(address))
                try memory.write(contentsOf: original)
            }
        }
        print("FUZZ-REPORT process memory: 96 inputs, \(outcomes.listed) listed, \(outcomes.refused) refused")
        // Restored, the process reads as before.
        let clean = try runProcess(inspector, ["instances", "--pid", "\(pid)"])
        #expect(clean.status == 0)
        #expect(clean.output.contains("CensusApp.Plain"))
    }
}
