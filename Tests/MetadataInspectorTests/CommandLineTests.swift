// CommandLineTests.swift
//
// The metadata-inspect executable itself: every subcommand with and without --json, and an
// error's exit status and standard error, through a real process.

import Foundation
import MetadataInspector
import TestSupport
import Testing

/// Runs the executable and returns its status, output and error.
private func inspect(_ arguments: [String]) throws -> ProcessResult {
    try runBuiltExecutable("metadata-inspect", arguments)
}

@Suite("metadata-inspect")
struct CommandLineTests {
    @Test("With no arguments it prints the summary of its own process")
    func summary() throws {
        let result = try inspect([])
        #expect(result.status == 0)
        #expect(result.output.contains("libswiftCore.so"))
        #expect(result.output.contains("metadata-inspect"))
        #expect(result.error.isEmpty)
    }

    @Test(
        "Every subcommand works as text and as JSON",
        arguments: [
            ["summary"], ["images"], ["types", "--image", "libswiftCore.so"],
            ["protocols", "--image", "libswiftCore.so"],
            ["conformances", "--type", "Swift.Int"], ["layout", "Swift.Dictionary<Swift.String, Swift.Int>"],
        ]
    )
    func subcommands(_ arguments: [String]) throws {
        let text = try inspect(arguments)
        #expect(text.status == 0, "\(text.error)")
        #expect(!text.output.isEmpty)
        let json = try inspect(arguments + ["--json"])
        #expect(json.status == 0)
        let parsed = try JSONSerialization.jsonObject(with: Data(json.output.utf8))
        #expect(parsed is [String: Any])
    }

    @Test("summary --json of a file and a hard link to it names each by its own path")
    func hardLinkNamedByItsPath() throws {
        let library = try #require(toolchainLibraryDirectory) + "/libswift_Differentiation.so"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "metadata-inspect-hard-link-\(ProcessInfo.processInfo.processIdentifier)"
        ).path
        try? FileManager.default.removeItem(atPath: directory)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let original = directory + "/A.so"
        let link = directory + "/B.so"
        try FileManager.default.copyItem(atPath: library, toPath: original)
        try FileManager.default.linkItem(atPath: original, toPath: link)
        // Settled, so that one process's second read of the unchanged file would reuse the first.
        Thread.sleep(forTimeInterval: 2.2)
        let result = try inspect(["summary", "--json", original, link])
        #expect(result.status == 0, "\(result.error)")
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        let paths = (parsed["images"] as? [[String: Any]])?.compactMap { $0["path"] as? String }
        #expect(paths == [original, link], "\(result.output.prefix(400))")
    }

    @Test("The JSON contract's field names")
    func contract() throws {
        let images = try #require(
            try JSONSerialization.jsonObject(with: Data(try inspect(["images", "--json"]).output.utf8))
                as? [String: Any]
        )
        let image = try #require((images["images"] as? [[String: Any]])?.first)
        #expect(Set(image.keys).isSuperset(of: ["path", "types", "protocols", "conformances"]))
        #expect(image["types"] is Int)
        let conformances = try inspect([
            "conformances", "--type", "Swift.Int", "--protocol", "Swift.Equatable", "--json",
        ])
        let list = try #require(
            (try JSONSerialization.jsonObject(with: Data(conformances.output.utf8)) as? [String: Any])?["conformances"]
                as? [[String: Any]]
        )
        #expect(list.count == 1)
        #expect(
            Set(list[0].keys).isSuperset(of: [
                "type", "protocol", "image", "isRetroactive", "conditionalRequirementCount", "isGeneric",
            ])
        )
        #expect(list[0]["type"] as? String == "Swift.Int")
        let layout = try #require(
            try JSONSerialization.jsonObject(with: Data(try inspect(["layout", "Swift.Int?", "--json"]).output.utf8))
                as? [String: Any]
        )
        #expect(
            Set(layout.keys).isSuperset(of: [
                "name", "kind", "size", "stride", "alignment", "isPOD", "isBitwiseTakable", "isCopyable",
                "genericArguments", "superclass", "fields", "cases", "conformances",
            ])
        )
        #expect(layout["kind"] as? String == "optional")
    }

    @Test("Errors go to standard error with exit status 1 or 2")
    func errors() throws {
        let unknown = try inspect(["layout", "Nowhere.Nothing"])
        #expect(unknown.status == 1)
        #expect(unknown.error.hasPrefix("error: "))
        #expect(unknown.output.isEmpty)
        let usage = try inspect(["--frobnicate"])
        #expect(usage.status == 2)
        #expect(usage.error.hasPrefix("error: unknown option '--frobnicate'"))
    }
}

@Suite("metadata-inspect: private types")
struct PrivateTypeNameTests {
    @Test("Every private type listed by `types` has a name a new process resolves with `layout`")
    func privateNamesResolveInNewProcesses() throws {
        let listing = try inspect(["types", "--kind", "struct", "--json"])
        #expect(listing.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [String: Any]
        let types = try #require(json?["types"] as? [[String: Any]])
        // Private non-generic structs: their anonymous contexts are in the name.
        let names = types.compactMap { type -> String? in
            guard let name = type["name"] as? String, type["isGeneric"] as? Bool == false,
                name.contains("(unknown context at")
            else { return nil }
            return name
        }
        #expect(!names.isEmpty)
        #expect(names.allSatisfy { !$0.contains("at $") }, "\(names.filter { $0.contains("at $") }.prefix(3))")
        for name in names.prefix(8) {
            let layout = try inspect(["layout", name])
            #expect(layout.status == 0, "\(name): \(layout.error)")
        }
    }
}

@Suite("JSON output")
struct JSONOutputTests {
    /// Strings that need every kind of escape, and some that need none.
    static let strings = [
        "plain", "", "quote \" inside", "back\\slash", "line\nbreak", "tab\tand\rreturn", "bell \u{07} and \u{1F}",
        "unicode é ✓ 𝄞", "Scale.T1<Scale.T2>",
    ]

    @Test("Every string reads back through Foundation's JSON parser, pretty and compact", arguments: [true, false])
    func stringsReadBack(pretty: Bool) throws {
        let document = JSONValue.object(
            [("strings", .array(Self.strings.map(JSONValue.string)))]
                + Self.strings.enumerated().map { ("key \($0.offset) \($0.element)", .int($0.offset)) }
        )
        let text = document.serialized(pretty: pretty)
        let parsed = try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        )
        #expect(parsed["strings"] as? [String] == Self.strings)
        for (index, string) in Self.strings.enumerated() {
            #expect(parsed["key \(index) \(string)"] as? Int == index)
        }
        #expect(text.contains("\n") == pretty)
    }

    @Test("Nesting deeper than the indentations built ahead is indented two spaces per level")
    func deepNesting() throws {
        var value = JSONValue.array([.int(7), .null, .bool(true)])
        for depth in 0..<40 { value = .object([("level\(depth)", value)]) }
        let pretty = value.serialized(pretty: true)
        // The innermost array's elements sit at depth 41: 82 spaces.
        #expect(pretty.contains("\n" + String(repeating: " ", count: 82) + "7,"))
        let parsed = try JSONSerialization.jsonObject(with: Data(pretty.utf8))
        let compact = try JSONSerialization.jsonObject(with: Data(value.serialized().utf8))
        #expect((parsed as? NSDictionary) == (compact as? NSDictionary))
        #expect(value.serialized() == String(value.serialized(pretty: true).filter { $0 != " " && $0 != "\n" }))
    }
}
