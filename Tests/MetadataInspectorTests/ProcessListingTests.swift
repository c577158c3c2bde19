// ProcessListingTests.swift
//
// The listings of a running process (`--pid`) against the oracle of its images' files: a
// program built here runs with a plugin it loaded, and each listing of the process must equal
// the union of the same listing of each of its images' files, the plugin's included, even once
// the plugin's file is deleted. Each way a process cannot be read ends with its own error.

import Foundation
import MetadataInspector
import TestSupport
import Testing

/// The rows of a JSON listing, under `key`.
private func rows(_ json: String, key: String) throws -> [[String: Any]] {
    let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    return try #require(object?[key] as? [[String: Any]], "no '\(key)' in \(json.prefix(200))")
}

/// A row as canonical JSON text (keys sorted).
private func canonical(_ row: [String: Any]) -> String {
    let data = try? JSONSerialization.data(withJSONObject: row, options: [.sortedKeys])
    return data.map { String(decoding: $0, as: UTF8.self) } ?? ""
}

/// A copy of the plugin in a directory of its own, which a test may delete.
private func pluginCopy(_ fixture: ProcessFixture) throws -> String {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plugin-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let copy = directory.appendingPathComponent("libCensusPlugin.so").path
    try FileManager.default.copyItem(atPath: fixture.plugin, toPath: copy)
    return copy
}

/// The listings compared, with the key of their rows.
private let listings: [(arguments: [String], key: String)] = [
    (["types"], "types"), (["protocols"], "protocols"), (["conformances"], "conformances"), (["fields"], "types"),
]

@Suite("Listing a running process's images (--pid)")
struct ProcessListingTests {
    /// Compares each listing of the process with the union of its images' files' listings;
    /// `files` maps an image's path in the process to the file read in its place.
    private func compareWithFiles(pid: Int32, files: [String: String] = [:]) throws {
        let images = Inspector.run(["images", "--pid", "\(pid)", "--json"])
        #expect(images.status == 0, "\(images.error)")
        let paths = try rows(images.output, key: "images").compactMap { $0["path"] as? String }
        #expect(paths.count >= 3, "\(paths)")
        for (arguments, key) in listings {
            let process = Inspector.run(arguments + ["--pid", "\(pid)", "--json"])
            #expect(process.status == 0, "\(arguments): \(process.error)")
            let fromFiles = Inspector.run(arguments + paths.map { files[$0] ?? $0 } + ["--json"])
            #expect(fromFiles.status == 0, "\(arguments): \(fromFiles.error)")
            let expected = try rows(fromFiles.output, key: key).map { row in
                var row = row
                if let image = row["image"] as? String, let original = files.first(where: { $0.value == image })?.key {
                    row["image"] = original
                }
                return row
            }
            var actual = try rows(process.output, key: key)
            if key == "conformances" {
                // A file cannot tell whether another module's type is generic (null); the
                // process can, and answers. Each row is serialized once: tens of thousands of
                // rows, compared pairwise, would cost minutes under a sanitizer.
                var unmatched: [String: [Int]] = [:]
                for index in actual.indices {
                    unmatched[canonical(actual[index].filter { $0.key != "isGeneric" }), default: []].append(index)
                }
                for row in expected where row["isGeneric"] is NSNull {
                    let match = canonical(row.filter { $0.key != "isGeneric" })
                    if let position = unmatched[match]?.first {
                        unmatched[match]?.removeFirst()
                        #expect(actual[position]["isGeneric"] is Bool, "\(match)")
                        actual[position]["isGeneric"] = NSNull()
                    }
                }
            }
            let expectedRows = expected.map(canonical).sorted()
            let actualRows = actual.map(canonical).sorted()
            #expect(
                expectedRows.count == actualRows.count,
                "\(arguments): \(expectedRows.count) rows from files, \(actualRows.count)"
            )
            let missing = Set(expectedRows).subtracting(actualRows)
            let extra = Set(actualRows).subtracting(expectedRows)
            #expect(missing.isEmpty, "\(arguments) missing from the process: \(missing.sorted().prefix(5))")
            #expect(extra.isEmpty, "\(arguments) only in the process: \(extra.sorted().prefix(5))")
        }
    }

    @Test("Each listing of the process equals the union of its images' files' listings")
    func equalsFiles() throws {
        let fixture = try processFixture.get()
        let plugin = try pluginCopy(fixture)
        defer { try? FileManager.default.removeItem(atPath: (plugin as NSString).deletingLastPathComponent) }
        let running = try RunningFixture(program: fixture.program, plugin: plugin)
        defer { running.stop() }
        try compareWithFiles(pid: running.processID)
        // The executable's and the plugin's pairs, by name.
        let conformances = Inspector.run(["conformances", "--pid", "\(running.processID)"]).output
        for pair in [
            ("CensusApp.Square", "Swift.Hashable"), ("Swift.Int", "CensusApp.Shape"),
            ("CensusPlugin.Widget", "CensusPlugin.Gadget"), ("CensusPlugin.Widget", "Swift.CustomStringConvertible"),
        ] {
            let line = conformances.split(separator: "\n").first {
                $0.hasPrefix(pair.0 + " ") && $0.contains(" " + pair.1 + " ")
            }
            #expect(line != nil, "\(pair) is not listed")
        }
        // A private type is named as the file's listing names it.
        let types = Inspector.run(["types", "--pid", "\(running.processID)", "--image", "census-app"])
        #expect(types.output.contains("(unknown context at census-app+0x"))
        #expect(types.error.isEmpty)
    }

    @Test("A plugin whose file was deleted is listed from memory, with a note")
    func deletedPlugin() throws {
        let fixture = try processFixture.get()
        let plugin = try pluginCopy(fixture)
        defer { try? FileManager.default.removeItem(atPath: (plugin as NSString).deletingLastPathComponent) }
        let kept = plugin + ".kept"
        try FileManager.default.copyItem(atPath: plugin, toPath: kept)
        let running = try RunningFixture(program: fixture.program, plugin: plugin)
        defer { running.stop() }
        try FileManager.default.removeItem(atPath: plugin)
        let images = Inspector.run(["images", "--pid", "\(running.processID)"])
        #expect(images.status == 0)
        #expect(images.output.contains("libCensusPlugin.so"))
        #expect(images.error.contains("note: \(plugin) was deleted or replaced since process \(running.processID)"))
        try compareWithFiles(pid: running.processID, files: [plugin: kept])
    }

    @Test("A plugin whose file was replaced by another is listed from memory, with a note")
    func replacedPlugin() throws {
        let fixture = try processFixture.get()
        let plugin = try pluginCopy(fixture)
        defer { try? FileManager.default.removeItem(atPath: (plugin as NSString).deletingLastPathComponent) }
        let running = try RunningFixture(program: fixture.program, plugin: plugin)
        defer { running.stop() }
        // Another file (another inode) at the plugin's path: a rebuilt plugin.
        let replacement = plugin + ".new"
        try Data("not the plugin".utf8).write(to: URL(fileURLWithPath: replacement))
        #expect(rename(replacement, plugin) == 0)
        let conformances = Inspector.run(["conformances", "--pid", "\(running.processID)", "--image", plugin])
        #expect(conformances.status == 0, "\(conformances.error)")
        #expect(conformances.output.contains("CensusPlugin.Widget"))
        #expect(conformances.error.contains("note: \(plugin) was deleted or replaced"))
    }

    @Test("Each process that cannot be read ends with its own error, below 128")
    func errors() throws {
        // No such process: above the kernel's largest pid.
        let missing = Inspector.run(["conformances", "--pid", "2147483000"])
        #expect(missing.status == 1)
        #expect(missing.error.hasPrefix("error: no process has pid 2147483000"))
        // Not a Swift process.
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["30"]
        try sleeper.run()
        defer { sleeper.terminate() }
        // Read once it sleeps in `sleep`: a process caught between fork and the end of its exec is
        // an exec.
        for _ in 0..<500 {
            let executable = try? FileManager.default.destinationOfSymbolicLink(
                atPath: "/proc/\(sleeper.processIdentifier)/exe"
            )
            let stat = (try? String(contentsOfFile: "/proc/\(sleeper.processIdentifier)/stat", encoding: .utf8)) ?? ""
            let state = stat.lastIndex(of: ")").map { stat[stat.index($0, offsetBy: 2)] }
            if executable?.hasSuffix("/sleep") == true && state == "S" { break }
            usleep(10_000)
        }
        let notSwift = Inspector.run(["types", "--pid", "\(sleeper.processIdentifier)"])
        #expect(notSwift.status == 1)
        #expect(
            notSwift.error.hasPrefix("error: process \(sleeper.processIdentifier) has no image with Swift metadata")
        )
        // Usage.
        for arguments in [
            ["types", "--pid", "abc"], ["types", "--pid", "0"], ["layout", "Swift.Int", "--pid", "1"],
            ["types", "--pid", "1", "/bin/true"], ["types", "--pid", "1", "--load", "/tmp/x.so"],
        ] {
            let usage = Inspector.run(arguments)
            #expect(usage.status == 2, "\(arguments)")
            #expect(usage.error.hasPrefix("error: "), "\(arguments)")
        }
    }

    @Test("Permission denied names what to do, from another user's inspector")
    func permissionDenied() throws {
        let fixture = try processFixture.get()
        let running = try RunningFixture(program: fixture.program, plugin: nil)
        defer { running.stop() }
        // The built inspector, copied where another user can run it.
        let inspector = try #require(builtExecutable(named: "metadata-inspect"))
        let directory = "/tmp/metadata-inspect-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let copy = directory + "/metadata-inspect"
        try FileManager.default.copyItem(atPath: inspector, toPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
        let result = try runProcess(
            "/usr/bin/setpriv",
            ["--reuid=65534", "--regid=65534", "--clear-groups", copy, "types", "--pid", "\(running.processID)"]
        )
        #expect(result.status == 1, "\(result.error)")
        #expect(result.error.hasPrefix("error: permission denied reading the memory of process \(running.processID)"))
        #expect(result.error.contains("CAP_SYS_PTRACE"))
    }
}
