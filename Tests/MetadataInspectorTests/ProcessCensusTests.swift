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
        #expect((object?["addresses"] as? [String])?.count == 12)
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

    @Test("instances and --stop need --pid")
    func usage() {
        for arguments in [["instances"], ["types", "--stop"], ["instances", "/bin/true"]] {
            let outcome = Inspector.run(arguments)
            #expect(outcome.status == 2, "\(arguments)")
            #expect(outcome.error.hasPrefix("error: "), "\(arguments)")
        }
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
