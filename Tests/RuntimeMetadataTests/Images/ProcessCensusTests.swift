// ProcessCensusTests.swift
//
// The census of a running program against what the program says of its own objects: each of
// its classes (a plain class, a three-deep chain, a generic class at two argument lists, a
// class nested in an extension, an actor, a ManagedBuffer subclass, a plugin's class) counted
// exactly, with its heap blocks' usable size, under the name String(reflecting:) gives there,
// although the program also released objects and holds words equal to live objects' headers.

import Foundation
import Glibc
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
            "CensusPlugin.Widget", "CensusApp.Buf<Swift.Int>", "CensusApp.Buf<Swift.String>", "CensusApp.Buf<()>",
            "CensusApp.PackBox<Pack{Swift.Int, Swift.String}>", "CensusApp.PackBox<Pack{}>",
            "CensusApp.Box<any Swift.Sequence<Self.Swift.Sequence.Element == Swift.Int>, "
                + "any Swift.Collection<Self.Swift.Collection.Element == (Swift.Int, Swift.String)>>",
        ] {
            #expect(expected[name] != nil, "the fixture holds no \(name): \(expected.keys.sorted())")
        }
        // Its `Wide` sits in a chunk 16 bytes larger than its 393 bytes ask for (a best-fit
        // chunk glibc hands out whole), as instances of a server that has run a while do: 424
        // usable bytes, where a 416-byte chunk has 408.
        #expect(expected["CensusApp.Wide"]?.bytes == 424, "\(String(describing: expected["CensusApp.Wide"]))")
        // The fixture's heap is busy (most of its arena's bins hold freed chunks): counted all
        // the same, in one read of a process that does not change.
        let census = try RemoteProcess.read(running.processID).census()
        #expect(census.readCount == 1)
        let rows = Dictionary(uniqueKeysWithValues: census.rows.map { ($0.typeName, $0) })
        // One row per specialization of a generic ManagedBuffer subclass, none without arguments.
        #expect(!census.rows.contains { $0.typeName.contains("…") }, "\(census.rows.map(\.typeName))")
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
        #expect(census.addresses(ofType: "CensusApp.Box").count == 13)
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

    @Test("A census keeps the addresses it is asked for, and only those")
    func keptAddresses() throws {
        let fixture = try processFixture.get()
        let running = try RunningFixture(program: fixture.program, plugin: nil)
        defer { running.stop() }
        let process = try RemoteProcess.read(running.processID)
        let none = try process.census(keepingAddressesOf: nil)
        let leaves = try process.census(keepingAddressesOf: "CensusApp.Leaf")
        let all = try process.census()
        #expect(none.rows == all.rows)
        #expect(leaves.rows == all.rows)
        #expect(none.addresses(ofType: "CensusApp.Leaf").isEmpty)
        #expect(leaves.addresses(ofType: "CensusApp.Leaf") == all.addresses(ofType: "CensusApp.Leaf"))
        #expect(leaves.addresses(ofType: "CensusApp.Leaf").count == running.oracle["CensusApp.Leaf"]?.count)
        #expect(leaves.addresses(ofType: "CensusApp.Plain").isEmpty)
        #expect(all.addresses(ofType: "CensusApp.Plain").count == 3)
    }

    @Test("A kernel thread, a zombie and a traced process each get their own error")
    func refusals() throws {
        // pid 2 is kthreadd, the kernel threads' parent, where the machine shows kernel threads.
        if let stat = try? String(contentsOfFile: "/proc/2/stat", encoding: .utf8), stat.contains("(kthreadd)") {
            let error = #expect(throws: RuntimeMetadataError.self) { try RemoteProcess.read(2) }
            guard case .processUnreadable(_, let problem, let reason)? = error else { return }
            #expect(problem == .kernelThread, "\(reason)")
        }
        let fixture = try processFixture.get()
        // A zombie: a child that exits and that nobody reaps.
        var child: pid_t = 0
        let spawned = fixture.program.withCString { path in
            var arguments: [UnsafeMutablePointer<CChar>?] = [strdup(path), nil]
            defer { free(arguments[0]) }
            return posix_spawn(&child, path, nil, nil, &arguments, nil)
        }
        try #require(spawned == 0)
        // Its standard input is this process's; it exits when that closes or says `exit`; kill it.
        Glibc.kill(child, SIGKILL)
        var state: Character = "?"
        for _ in 0..<500 where state != "Z" {
            usleep(10_000)
            if let stat = try? String(contentsOfFile: "/proc/\(child)/stat", encoding: .utf8) {
                state = stat[stat.index(stat.lastIndex(of: ")")!, offsetBy: 2)]
            }
        }
        defer { waitpid(child, nil, 0) }
        try #require(state == "Z")
        let zombie = #expect(throws: RuntimeMetadataError.self) { try RemoteProcess.read(child) }
        guard case .processUnreadable(_, let problem, let reason)? = zombie else { return }
        #expect(problem == .zombie)
        #expect(reason.contains("zombie"))
        // Traced already: this process holds it, and the inspector's --stop names this process.
        let running = try RunningFixture(program: fixture.program, plugin: nil)
        defer { running.stop() }
        let result = try RemoteProcess.whileStopped(running.processID) { () throws(RuntimeMetadataError) in
            try? runBuiltExecutable("metadata-inspect", ["instances", "--pid", "\(running.processID)", "--stop"])
        }
        let refused = try #require(result)
        #expect(refused.status == 1)
        #expect(refused.error.contains("is traced already by process \(getpid()) ("), "\(refused.error)")
    }

    @Test("A process that replaces its program during the read is an exec, not corrupt metadata")
    func execDuringRead() throws {
        let fixture = try processFixture.get()
        let running = try RunningFixture(program: fixture.program, plugin: nil)
        defer {
            running.kill()
            running.stop()
        }
        let error = #expect(throws: RuntimeMetadataError.self) {
            try RemoteProcess.read(running.processID) {
                // Between the listing of its images and their copies, it becomes `sleep`.
                running.send("exec")
                for _ in 0..<500 {
                    let stat = (try? String(contentsOfFile: "/proc/\(running.processID)/stat", encoding: .utf8)) ?? ""
                    if stat.contains("(sleep)") && stat.split(separator: " ").count > 25 { break }
                    usleep(10_000)
                }
                usleep(50_000)
            }
        }
        guard case .processUnreadable(_, let problem, let reason)? = error else { return }
        #expect(problem == .execed, "\(reason)")
        #expect(reason.contains("replaced its program (exec)"))
    }
}
