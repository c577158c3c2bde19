// ProcessCensusTests.swift
//
// The census of a running program against what the program says of its own objects: each of
// its classes (a plain class, a three-deep chain, a generic class at two argument lists, a
// class nested in an extension, an actor, a ManagedBuffer subclass, a plugin's class) counted
// exactly, with its heap blocks' usable size, under the name String(reflecting:) gives there,
// although the program also released objects and holds words equal to live objects' headers.

import Foundation
import TestSupport
import Testing

@testable import RuntimeMetadata

@Suite("Counting a running process's objects")
struct ProcessCensusTests {
    @Test("Each class's count, bytes and addresses equal the program's own")
    func exactCounts() throws {
        let fixture = try processFixture.get()
        let running = try RunningFixture(program: fixture.program, plugin: fixture.plugin)
        defer { running.stop() }
        let expected = running.oracle
        // The shapes the fixture promises, under their own names.
        for name in [
            "CensusApp.Plain", "CensusApp.Leaf", "CensusApp.Middle", "CensusApp.Base",
            "CensusApp.Box<Swift.Double, Swift.Array<Swift.Int>>", "CensusApp.Box<Swift.String, Swift.Int>",
            "(extension in CensusApp):Swift.Int.Counter", "CensusApp.Account", "CensusApp.Samples",
            "CensusPlugin.Widget",
        ] {
            #expect(expected[name] != nil, "the fixture holds no \(name): \(expected.keys.sorted())")
        }
        let census = try RemoteProcess.read(running.processID).census()
        let rows = Dictionary(uniqueKeysWithValues: census.rows.map { ($0.typeName, $0) })
        for (name, entry) in expected {
            let row = rows[name]
            #expect(row?.count == entry.count, "\(name): \(row?.count ?? 0) counted, \(entry.count) alive")
            #expect(
                row?.bytes == entry.bytes,
                "\(name): \(row?.bytes ?? 0) bytes, \(entry.bytes) by malloc_usable_size"
            )
            let addresses = census.addresses(ofType: name).map { "0x" + String($0, radix: 16) }
            #expect(
                addresses
                    == entry.addresses.sorted { UInt($0.dropFirst(2), radix: 16)! < UInt($1.dropFirst(2), radix: 16)! }
            )
        }
        // Released objects and header copies are not counted: the program holds 3 `Plain`s, and
        // released 100 more and 50 counters; it holds 320 copies of a `Plain`'s header.
        #expect(rows["CensusApp.Plain"]?.count == 3)
        // A generic class's name without arguments selects every specialization.
        #expect(census.addresses(ofType: "CensusApp.Box").count == 12)
        // Sorted by bytes, then by name in code-point order.
        for (first, second) in zip(census.rows, census.rows.dropFirst()) {
            #expect(
                first.bytes > second.bytes
                    || (first.bytes == second.bytes
                        && first.typeName.utf8.lexicographicallyPrecedes(second.typeName.utf8))
            )
        }
        // The samples' elements are theirs: at least 1,000 and 2,000 doubles.
        #expect((rows["CensusApp.Samples"]?.bytes ?? 0) >= 3_000 * 8)
    }

    @Test("Held stopped, the census is the same, and the process runs on after it")
    func stopped() throws {
        let fixture = try processFixture.get()
        let running = try RunningFixture(program: fixture.program, plugin: fixture.plugin)
        defer { running.stop() }
        // Holding needs a tracer that is not the parent whose own waits could take the stops:
        // the built inspector.
        let result = try runBuiltExecutable(
            "metadata-inspect",
            ["instances", "--pid", "\(running.processID)", "--stop", "--json"]
        )
        #expect(result.status == 0, "\(result.error)")
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let rows = try #require(object?["instances"] as? [[String: Any]])
        for (name, entry) in running.oracle {
            let row = rows.first { $0["type"] as? String == name }
            #expect(row?["count"] as? Int == entry.count, "\(name)")
            #expect(row?["bytes"] as? Int == entry.bytes, "\(name)")
        }
        // Resumed: not stopped (`t` or `T` in /proc/PID/stat).
        let stat = try String(contentsOfFile: "/proc/\(running.processID)/stat", encoding: .utf8)
        let state = stat[stat.index(stat.lastIndex(of: ")")!, offsetBy: 2)]
        #expect(state != "t" && state != "T", "state \(state)")
    }

    @Test("A process killed after its images were read is an exit, not a census")
    func killedBeforeCensus() throws {
        let fixture = try processFixture.get()
        let running = try RunningFixture(program: fixture.program, plugin: nil)
        let process = try RemoteProcess.read(running.processID)
        running.kill()
        running.stop()
        let error = #expect(throws: RuntimeMetadataError.self) { try process.census() }
        guard case .processUnreadable(_, let problem, _)? = error else { return }
        #expect(problem == .exited)
    }
}
