// ProcessLeaksTests.swift
//
// `metadata-inspect leaks --pid`: the report of a program that leaks known cycles equals the
// program's own account of them, and none of the objects it keeps alive (by a global, a
// sleeping thread's stack, a spinning thread's registers, pthread-specific slots, a
// ManagedBuffer's tail, an enum's payload with its tag in the spare bits) is reported.

import Foundation
import MetadataInspector
import RuntimeMetadata
import TestSupport
import Testing

@Suite("metadata-inspect leaks --pid")
struct InspectorLeaksTests {
    @Test("The report is the fixture's own account: rows, bytes and cycles, exactly")
    func exactReport() throws {
        let fixture = try leakFixture.get()
        let running = try RunningLeakFixture(program: fixture.program)
        defer { running.stop() }
        let outcome = Inspector.run(["leaks", "--pid", "\(running.processID)", "--json"])
        #expect(outcome.status == 0, "\(outcome.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["heldMilliseconds", "leaks", "cycles"])
        #expect((object["heldMilliseconds"] as? Int).map { $0 >= 0 } == true)
        let rows = try #require(object["leaks"] as? [[String: Any]])
        var reported: [String: (count: Int, bytes: Int)] = [:]
        for row in rows {
            let type = try #require(row["type"] as? String)
            reported[type] = (try #require(row["count"] as? Int), try #require(row["bytes"] as? Int))
        }
        #expect(reported.count == running.leaks.count, "\(reported) != \(running.leaks)")
        for (type, expected) in running.leaks {
            #expect(reported[type]?.count == expected.count, "\(type)")
            #expect(reported[type]?.bytes == expected.bytes, "\(type)")
        }
        // Rows as the census sorts them: bytes descending, then the name in code-point order.
        let order = rows.map { ($0["bytes"] as? Int ?? 0, $0["type"] as? String ?? "") }
        #expect(
            order.indices.dropFirst().allSatisfy { index in
                order[index - 1].0 > order[index].0
                    || (order[index - 1].0 == order[index].0
                        && order[index - 1].1.utf8.lexicographicallyPrecedes(order[index].1.utf8))
            }
        )
        let cycles = try #require(object["cycles"] as? [[String: Any]])
        let members = try cycles.map { cycle in try #require(cycle["members"] as? [[String: String]]) }
        #expect(Set(members.map { $0.map { $0["address"] ?? "" } }) == Set(running.cycles))
        #expect(members.count == running.cycles.count)
        for member in members.joined() {
            #expect(member["type"] == running.typesByAddress[member["address"] ?? ""], "\(member)")
        }
        // Members by address; cycles by their first member's type, then address.
        for cycle in members {
            let addresses = cycle.compactMap { $0["address"].flatMap { UInt($0.dropFirst(2), radix: 16) } }
            #expect(addresses == addresses.sorted())
        }
        let firsts = members.map { ($0[0]["type"] ?? "", UInt(($0[0]["address"] ?? "").dropFirst(2), radix: 16) ?? 0) }
        #expect(
            firsts.indices.dropFirst().allSatisfy { index in
                firsts[index - 1].0 != firsts[index].0
                    ? firsts[index - 1].0.utf8.lexicographicallyPrecedes(firsts[index].0.utf8)
                    : firsts[index - 1].1 < firsts[index].1
            }
        )
        // A closure context is a member of its cycle, and its bytes count in its class's row.
        #expect(!running.contexts.isEmpty)
        #expect(running.contexts.allSatisfy { context in members.joined().contains { $0["address"] == context } })
    }

    @Test("What a live object holds is never reported, whichever root holds it")
    func liveObjectsStay() throws {
        let fixture = try leakFixture.get()
        let running = try RunningLeakFixture(program: fixture.program)
        defer { running.stop() }
        #expect(running.live["global"]?.count == 1)
        #expect(running.live["stack"]?.count == 1)
        #expect(running.live["register"]?.count == 1)
        #expect(running.live["specific"]?.count == 2)
        #expect(running.live["tail"]?.count == 3)
        #expect(running.live["enum"]?.count == 3)
        let process = try RemoteProcess.read(running.processID)
        let leaks = try process.leaks()
        let reported = Set(leaks.cycles.flatMap(\.members).map { "0x" + String($0.address, radix: 16) })
        for (how, addresses) in running.live {
            for address in addresses { #expect(!reported.contains(address), "held by \(how): \(address)") }
        }
        #expect(!leaks.rows.contains { $0.typeName == "LeakApp.Anchored" })
        // The search's own figures: the fixture's four threads, a graph of its blocks.
        #expect(leaks.threadCount == 4)
        #expect(leaks.liveBlockCount > 100)
        #expect(leaks.graphBytes >= leaks.liveBlockCount * 48)
        #expect(leaks.heapBytesRead > 0 && leaks.rootBytesRead > 0)
        // Resumed: the process runs again, and is no tracee.
        let status = try String(contentsOfFile: "/proc/\(running.processID)/status", encoding: .utf8)
        #expect(status.contains("TracerPid:\t0\n"))
    }

    @Test("Text: the rows, then each cycle's members, then how long the process was held")
    func text() throws {
        let fixture = try leakFixture.get()
        let running = try RunningLeakFixture(program: fixture.program)
        defer { running.stop() }
        let outcome = Inspector.run(["leaks", "--pid", "\(running.processID)"])
        #expect(outcome.status == 0, "\(outcome.error)")
        let lines = outcome.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "COUNT  BYTES  TYPE")
        #expect(lines.contains { $0.hasSuffix("  LeakApp.Parent") && $0.split(separator: " ").first == "3" })
        #expect(lines.contains { $0.hasPrefix("cycle 1, ") && $0.hasSuffix(":") })
        #expect(lines.filter { $0.hasPrefix("cycle ") }.count == running.cycles.count)
        let total = running.leaks.values.reduce(0) { $0 + $1.count }
        #expect(
            lines.last { !$0.isEmpty }?.hasPrefix("\(total) leaked objects in \(running.cycles.count) cycles") == true
        )
    }

    @Test("The inspector killed at a random moment of its hold: the process runs on, untraced")
    func inspectorKilled() throws {
        let fixture = try leakFixture.get()
        let inspector = try #require(builtExecutable(named: "metadata-inspect"))
        let running = try RunningLeakFixture(program: fixture.program)
        defer { running.stop() }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<8 {
            let search = Process()
            search.executableURL = URL(fileURLWithPath: inspector)
            search.arguments = ["leaks", "--pid", "\(running.processID)"]
            search.standardOutput = FileHandle.nullDevice
            search.standardError = FileHandle.nullDevice
            try search.run()
            usleep(UInt32.random(in: 0...30_000, using: &generator))
            kill(search.processIdentifier, SIGKILL)
            search.waitUntilExit()
            // The kernel detaches a dead tracer's tracees, and they run.
            var status = ""
            for _ in 0..<100 {
                status = (try? String(contentsOfFile: "/proc/\(running.processID)/status", encoding: .utf8)) ?? ""
                if status.contains("TracerPid:\t0\n") && !status.contains("State:\tt") { break }
                usleep(10_000)
            }
            #expect(status.contains("TracerPid:\t0\n"), "\(status.prefix(300))")
            #expect(!status.contains("State:\tt"), "\(status.prefix(300))")
        }
        // And it can be searched again, with the same report.
        let again = Inspector.run(["leaks", "--pid", "\(running.processID)", "--json"])
        #expect(again.status == 0, "\(again.error)")
        let object = try JSONSerialization.jsonObject(with: Data(again.output.utf8)) as? [String: Any]
        #expect((object?["cycles"] as? [Any])?.count == running.cycles.count)
    }

    @Test("A process killed at a random moment of the search: the report or a clean error")
    func processKilled() throws {
        let fixture = try leakFixture.get()
        let inspector = try #require(builtExecutable(named: "metadata-inspect"))
        var generator = SystemRandomNumberGenerator()
        var outcomes = 0
        for _ in 0..<6 {
            let running = try RunningLeakFixture(program: fixture.program)
            let search = Process()
            search.executableURL = URL(fileURLWithPath: inspector)
            search.arguments = ["leaks", "--pid", "\(running.processID)", "--json"]
            let output = Pipe()
            let error = Pipe()
            search.standardOutput = output
            search.standardError = error
            try search.run()
            usleep(UInt32.random(in: 0...40_000, using: &generator))
            kill(running.processID, SIGKILL)
            let printed = output.fileHandleForReading.readDataToEndOfFile()
            let complaint = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            search.waitUntilExit()
            running.stop()
            if search.terminationStatus == 0 {
                let object = try JSONSerialization.jsonObject(with: printed) as? [String: Any]
                #expect((object?["cycles"] as? [Any])?.count == running.cycles.count)
            } else {
                #expect(search.terminationStatus == 1)
                #expect(printed.isEmpty)
                #expect(complaint.hasPrefix("error: ") && complaint.contains("\(running.processID)"), "\(complaint)")
            }
            outcomes += 1
        }
        #expect(outcomes == 6)
    }

    @Test("leaks needs --pid and takes no file; a pid of no process is an error")
    func usage() {
        #expect(Inspector.run(["leaks"]).status == 2)
        #expect(Inspector.run(["leaks", "--pid", "1", "/bin/true"]).status == 2)
        #expect(Inspector.run(["leaks", "--pid", "0"]).status == 2)
        let gone = Inspector.run(["leaks", "--pid", "2147483646"])
        #expect(gone.status == 1)
        #expect(gone.error.contains("2147483646"))
    }
}
