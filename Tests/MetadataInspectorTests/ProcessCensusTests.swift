// ProcessCensusTests.swift
//
// `metadata-inspect instances --pid`: one line per type with its exact name and count, the
// addresses of one type with --type, and the errors of a process whose heap is not glibc
// malloc's and of a census asked for without a process.

import Foundation
import MetadataInspector
import TestSupport
import Testing

@Suite("metadata-inspect instances --pid")
struct InspectorCensusTests {
    @Test("One line per type, its exact name and count; --type lists its addresses")
    func lines() throws {
        let fixture = try processFixture.get()
        let running = try RunningFixture(program: fixture.program, plugin: fixture.plugin)
        defer { running.stop() }
        let outcome = Inspector.run(["instances", "--pid", "\(running.processID)"])
        #expect(outcome.status == 0, "\(outcome.error)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("COUNT") == true)
        for (name, entry) in running.oracle {
            // `COUNT  BYTES  TYPE`, the type last and whole.
            let line = lines.first { $0.hasSuffix("  " + name) }
            let fields = line?.split(separator: " ", omittingEmptySubsequences: true)
            #expect(fields?.first.flatMap { Int($0) } == entry.count, "\(name): \(line ?? "no line")")
        }
        let addresses = Inspector.run(["instances", "--pid", "\(running.processID)", "--type", "CensusApp.Leaf"])
        #expect(addresses.status == 0)
        #expect(
            Set(addresses.output.split(separator: "\n").map(String.init))
                == Set(running.oracle["CensusApp.Leaf"]?.addresses ?? ["?"])
        )
        let json = Inspector.run(["instances", "--pid", "\(running.processID)", "--type", "CensusApp.Box", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        #expect(object?["type"] as? String == "CensusApp.Box")
        #expect((object?["addresses"] as? [String])?.count == 13)
    }

    @Test("A heap that is not glibc malloc's is refused, naming what was found")
    func sanitizedHeap() throws {
        let program = try sanitizedProcessProgram.get()
        let running = try RunningFixture(program: program, plugin: nil)
        defer { running.stop() }
        let outcome = Inspector.run(["instances", "--pid", "\(running.processID)"])
        #expect(outcome.status == 1)
        #expect(outcome.error.hasPrefix("error: process \(running.processID)'s heap is not glibc malloc's"))
        #expect(outcome.error.contains("AddressSanitizer"))
        // Its images are listed all the same.
        #expect(Inspector.run(["types", "--pid", "\(running.processID)", "--image", "census-app-asan"]).status == 0)
    }

    @Test("Objects with side tables (weakly referenced) are counted, whatever their side table's padding holds")
    func sideTables() throws {
        // A side table's counts are at its offset 16 (`SideTableRefCountBits` is aligned to 16);
        // its offset 8 is padding that `new` leaves as it was, often a free list's random key,
        // and read as counts it made live objects look deinitializing.
        let fixture = try leakFixture.get()
        let running = try RunningLeakFixture(program: fixture.program)
        defer { running.stop() }
        let outcome = Inspector.run(["instances", "--pid", "\(running.processID)", "--json"])
        #expect(outcome.status == 0, "\(outcome.error)")
        let object = try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any]
        let rows = object?["instances"] as? [[String: Any]] ?? []
        func count(_ type: String) -> Int? { rows.first { $0["type"] as? String == type }?["count"] as? Int }
        // Every Watched has a side table; the fixture's account of its objects is the oracle.
        for (type, expected) in running.leaks where type.hasPrefix("LeakApp.") {
            #expect(count(type) == expected.count, "\(type)")
        }
        #expect(count("LeakApp.Watched") == 2)
        #expect(count("LeakApp.Anchored") == running.live.values.reduce(0) { $0 + $1.count })
    }

    @Test("instances and --stop need --pid")
    func usage() {
        for arguments in [["instances"], ["types", "--stop"], ["instances", "/bin/true"]] {
            let outcome = Inspector.run(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.error.hasPrefix("error: "), "\(arguments)")
        }
    }

    @Test("--type: a type without live instances prints nothing, a name no type has is an error")
    func typeSelection() throws {
        let fixture = try processFixture.get()
        let running = try RunningFixture(program: fixture.program, plugin: nil)
        defer { running.stop() }
        // The plugin is not loaded: its class has no instance, and the program declares
        // `Square`, a struct, which never has one.
        let empty = Inspector.run(["instances", "--pid", "\(running.processID)", "--type", "CensusApp.Square"])
        #expect(empty.status == 0, "\(empty.error)")
        #expect(empty.output.isEmpty)
        let unknown = Inspector.run(["instances", "--pid", "\(running.processID)", "--type", "NoSuch.Thing"])
        #expect(unknown.status == 1)
        #expect(unknown.error.hasPrefix("error: unknown type 'NoSuch.Thing': process \(running.processID) has no type"))
        #expect(unknown.output.isEmpty)
    }

    @Test("--since: each type's count and bytes with their change, by bytes gained, gone types at 0")
    func since() throws {
        let fixture = try processFixture.get()
        let running = try RunningFixture(program: fixture.program, plugin: nil)
        defer { running.stop() }
        let pid = "\(running.processID)"
        let directory = temporaryDirectory.appendingPathComponent("census-since")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // An earlier census: 1 Plain of 40 bytes (3 of 120 now, the oracle says), a type that is
        // gone, and nothing of the rest.
        let plain = try #require(running.oracle["CensusApp.Plain"])
        let baseline = directory.appendingPathComponent("before.json")
        try """
        {"instances": [{"type": "CensusApp.Plain", "count": 1, "bytes": \(plain.bytes / plain.count)},
                       {"type": "Gone.Type", "count": 4, "bytes": 1000000}]}
        """.write(to: baseline, atomically: true, encoding: .utf8)
        let json = Inspector.run(["instances", "--pid", pid, "--since", baseline.path, "--json"])
        #expect(json.status == 0, "\(json.error)")
        let object = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
        let rows = try #require(object?["instances"] as? [[String: Any]])
        let byType = Dictionary(uniqueKeysWithValues: rows.map { ($0["type"] as? String ?? "?", $0) })
        #expect(byType["CensusApp.Plain"]?["count"] as? Int == plain.count)
        #expect(byType["CensusApp.Plain"]?["countChange"] as? Int == plain.count - 1)
        #expect(byType["CensusApp.Plain"]?["bytesChange"] as? Int == plain.bytes - plain.bytes / plain.count)
        #expect(byType["Gone.Type"]?["count"] as? Int == 0)
        #expect(byType["Gone.Type"]?["countChange"] as? Int == -4)
        #expect(byType["Gone.Type"]?["bytesChange"] as? Int == -1_000_000)
        // Every type of the census now, each with its oracle count.
        for (name, entry) in running.oracle {
            #expect(byType[name]?["count"] as? Int == entry.count, "\(name)")
        }
        #expect(
            Set(rows.first.map { Array($0.keys) } ?? []) == ["type", "count", "bytes", "countChange", "bytesChange"]
        )
        // Sorted by bytes gained, then by type; the gone type last.
        let gains = rows.map { ($0["bytesChange"] as? Int ?? 0, $0["type"] as? String ?? "") }
        for (first, second) in zip(gains, gains.dropFirst()) {
            #expect(
                first.0 > second.0 || (first.0 == second.0 && first.1.utf8.lexicographicallyPrecedes(second.1.utf8))
            )
        }
        #expect(gains.last?.1 == "Gone.Type")
        // Text: a header and one line per row.
        let text = Inspector.run(["instances", "--pid", pid, "--since", baseline.path])
        #expect(
            text.output.split(separator: "\n").first?.split(separator: " ", omittingEmptySubsequences: true)
                == ["COUNT", "CHANGE", "BYTES", "CHANGE", "TYPE"]
        )
        #expect(text.output.split(separator: "\n").count == rows.count + 1)
        // A census's own JSON is a baseline: nothing changed in a process that waits.
        let before = Inspector.run(["instances", "--pid", pid, "--json"])
        let own = directory.appendingPathComponent("own.json")
        try before.output.write(to: own, atomically: true, encoding: .utf8)
        let after = Inspector.run(["instances", "--pid", pid, "--since", own.path, "--json"])
        let changes = try JSONSerialization.jsonObject(with: Data(after.output.utf8)) as? [String: Any]
        for row in changes?["instances"] as? [[String: Any]] ?? [] {
            #expect(row["countChange"] as? Int == 0 && row["bytesChange"] as? Int == 0, "\(row)")
        }
        // Bad baselines and --type are errors.
        let bad = directory.appendingPathComponent("bad.json")
        for text in ["not json", "{\"rows\": []}", "{\"instances\": [{\"type\": \"A\", \"count\": -1, \"bytes\": 0}]}"]
        {
            try text.write(to: bad, atomically: true, encoding: .utf8)
            let outcome = Inspector.run(["instances", "--pid", pid, "--since", bad.path])
            #expect(outcome.status == 1, "\(text)")
            #expect(
                outcome.error.contains("is not the output of 'metadata-inspect instances --json'"),
                "\(outcome.error)"
            )
        }
        #expect(
            Inspector.run(["instances", "--pid", pid, "--since", directory.appendingPathComponent("none").path]).status
                == 1
        )
        let both = Inspector.run(["instances", "--pid", pid, "--since", own.path, "--type", "CensusApp.Plain"])
        #expect(both.status == 2)
    }

    @Test("A process killed at a random moment of its census: the census is exact or a clean error")
    func killedDuringCensus() throws {
        let fixture = try processFixture.get()
        let inspector = try #require(builtExecutable(named: "metadata-inspect"))
        var generator = SystemRandomNumberGenerator()
        var outcomes: [String: Int] = [:]
        for _ in 0..<12 {
            let running = try RunningFixture(program: fixture.program, plugin: fixture.plugin)
            let census = Process()
            census.executableURL = URL(fileURLWithPath: inspector)
            census.arguments = ["instances", "--pid", "\(running.processID)", "--json"]
            let output = Pipe()
            let error = Pipe()
            census.standardOutput = output
            census.standardError = error
            try census.run()
            usleep(UInt32.random(in: 0...60_000, using: &generator))
            running.kill()
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            let complaint = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            census.waitUntilExit()
            running.stop()
            if census.terminationStatus == 0 {
                // Whole: every class of the program, each with its count.
                let object = try JSONSerialization.jsonObject(with: printed) as? [String: Any]
                let rows = try #require(object?["instances"] as? [[String: Any]])
                for (name, entry) in running.oracle {
                    #expect(rows.first { $0["type"] as? String == name }?["count"] as? Int == entry.count, "\(name)")
                }
                outcomes["exact", default: 0] += 1
            } else {
                // An error: status 1, nothing on standard output, one `error:` line that says why.
                #expect(census.terminationStatus == 1)
                #expect(printed.isEmpty)
                #expect(complaint.hasPrefix("error: ") && complaint.contains("\(running.processID)"), "\(complaint)")
                outcomes["error", default: 0] += 1
            }
        }
        #expect(outcomes.values.reduce(0, +) == 12)
    }
}
