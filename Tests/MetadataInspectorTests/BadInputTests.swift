// BadInputTests.swift
//
// Bad input: each case gets its exit status, an `error:` line on standard error, nothing on
// standard output, and no crash (the cases run in this process).

import Foundation
import MetadataInspector
import TestSupport
import Testing

/// Files made for the bad-input cases.
private let badFiles: [String: String] = {
    var files: [String: String] = [:]
    let directory = temporaryDirectory.appendingPathComponent("bad-input")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let text = directory.appendingPathComponent("notes.so")
    try? "just text".write(to: text, atomically: true, encoding: .utf8)
    files["text"] = text.path
    files["directory"] = directory.path
    let empty = directory.appendingPathComponent("empty.so")
    _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
    files["empty"] = empty.path
    if let libraries = toolchainLibraryDirectory,
        let real = FileManager.default.contents(atPath: libraries + "/libswiftGlibc.so")
    {
        for (name, length) in [
            ("truncated-header", 40), ("truncated-sections", 4096), ("truncated-half", real.count / 2),
        ] {
            let file = directory.appendingPathComponent("lib\(name).so")
            _ = FileManager.default.createFile(atPath: file.path, contents: real.prefix(length))
            files[name] = file.path
        }
        // An ELF header that claims section headers far beyond the file.
        var forged = [UInt8](real.prefix(64))
        for index in 0x28..<0x30 { forged[index] = 0xFF }
        forged[0x2F] = 0x7F
        let file = directory.appendingPathComponent("libforged.so")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(forged))
        files["forged"] = file.path
    }
    return files
}()

/// An ELF shared library without Swift metadata.
private let nonSwiftELF: String? = {
    ["/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1", "/lib/x86_64-linux-gnu/libm.so.6"]
        .first { FileManager.default.fileExists(atPath: $0) }
}()

/// One bad command line and the status it must end with.
struct BadInputCase: Sendable, CustomStringConvertible {
    let name: String
    let arguments: @Sendable () -> [String]?
    let status: Int32
    let message: String
    var description: String { name }
}

private let badInputCases: [BadInputCase] = [
    .init(
        name: "missing file",
        arguments: { ["--load", "/nonexistent/libNothing.so"] },
        status: 1,
        message: "no such file"
    ),
    .init(
        name: "directory",
        arguments: { badFiles["directory"].map { ["--load", $0] } },
        status: 1,
        message: "directory"
    ),
    .init(
        name: "text file",
        arguments: { badFiles["text"].map { ["--load", $0] } },
        status: 1,
        message: "not an ELF file"
    ),
    .init(
        name: "empty file",
        arguments: { badFiles["empty"].map { ["--load", $0] } },
        status: 1,
        message: "not an ELF file"
    ),
    .init(
        name: "ELF without Swift",
        arguments: { nonSwiftELF.map { ["--load", $0] } },
        status: 1,
        message: "no Swift metadata"
    ),
    .init(
        name: "truncated ELF header",
        arguments: { badFiles["truncated-header"].map { ["--load", $0] } },
        status: 1,
        message: "truncated: "
    ),
    .init(
        name: "truncated before the section headers",
        arguments: { badFiles["truncated-sections"].map { ["--load", $0] } },
        status: 1,
        message: "truncated: "
    ),
    .init(
        name: "truncated half library",
        arguments: { badFiles["truncated-half"].map { ["--load", $0] } },
        status: 1,
        message: "truncated: "
    ),
    .init(
        name: "forged section offset",
        arguments: { badFiles["forged"].map { ["--load", $0] } },
        status: 1,
        message: "malformed ELF header: e_shoff is 0x7fffffffffffffff, beyond any image"
    ),
    .init(name: "unknown type", arguments: { ["layout", "Nowhere.Nothing"] }, status: 1, message: "unknown type"),
    .init(
        name: "malformed generic name",
        arguments: { ["layout", "Swift.Array<Swift.Int"] },
        status: 1,
        message: "unknown type"
    ),
    .init(
        name: "wrong generic argument count",
        arguments: { ["layout", "Swift.Array<Swift.Int, Swift.Int>"] },
        status: 1,
        message: "generic"
    ),
    .init(
        name: "unmet generic requirement",
        arguments: { ["layout", "Swift.Set<Swift.Int.Type>"] },
        status: 1,
        message: "Hashable"
    ),
    .init(
        name: "unknown nested type",
        arguments: { ["layout", "Swift.Set<Swift.Int>.Nothing"] },
        status: 1,
        message: "unknown type"
    ),
    .init(name: "empty type name", arguments: { ["layout", ""] }, status: 1, message: "empty"),
    .init(
        name: "function type",
        arguments: { ["layout", "(Swift.Int) -> Swift.Int"] },
        status: 1,
        message: "function"
    ),
    .init(
        name: "unknown image",
        arguments: { ["types", "--image", "libNothing.so"] },
        status: 1,
        message: "no Swift image matches"
    ),
    .init(name: "unknown subcommand", arguments: { ["frobnicate"] }, status: 2, message: "unknown subcommand"),
    .init(
        name: "unknown option",
        arguments: { ["types", "--frobnicate"] },
        status: 2,
        message: "unknown option '--frobnicate'"
    ),
    .init(
        name: "option of another subcommand",
        arguments: { ["types", "--protocol", "P"] },
        status: 2,
        message: "--protocol"
    ),
    .init(name: "missing option value", arguments: { ["types", "--image"] }, status: 2, message: "needs a value"),
    .init(name: "missing --load value", arguments: { ["--load"] }, status: 2, message: "needs a value"),
    .init(
        name: "unknown kind",
        arguments: { ["types", "--kind", "union"] },
        status: 2,
        message: "unknown kind 'union'"
    ),
    .init(name: "layout without a type", arguments: { ["layout"] }, status: 2, message: "needs a TYPE"),
    .init(
        name: "extra argument",
        arguments: { ["layout", "Swift.Int", "extra"] },
        status: 2,
        message: "unexpected argument 'extra' for 'layout'"
    ),
    .init(
        name: "a FILE that does not exist",
        arguments: { ["images", "extra"] },
        status: 1,
        message: "no such file: 'extra'"
    ),
    .init(name: "a FILE that is a directory", arguments: { ["types", "/tmp"] }, status: 1, message: "is a directory"),
    .init(
        name: "a FILE that is not ELF",
        arguments: { ["conformances", "/etc/hostname"] },
        status: 1,
        message: "not an ELF file"
    ),
    .init(
        name: "a bare word after options is the subcommand",
        arguments: { ["--json", "extra"] },
        status: 2,
        message: "unknown subcommand 'extra'"
    ),
    .init(
        name: "help for an unknown subcommand",
        arguments: { ["help", "frobnicate"] },
        status: 2,
        message: "unknown subcommand 'frobnicate' for 'help'"
    ),
    .init(
        name: "an option value is not the subcommand",
        arguments: { ["--image", "types"] },
        status: 1,
        message: "no Swift image matches"
    ),
]

@Suite("Inspector bad input")
struct InspectorBadInputTests {
    @Test("Each bad input ends with its status and an error line, without a crash", arguments: badInputCases)
    func badInput(_ badCase: BadInputCase) throws {
        let arguments = try #require(badCase.arguments(), "no file for \(badCase.name) on this machine")
        let outcome = Inspector.run(arguments)
        #expect(outcome.status == badCase.status)
        #expect(outcome.output.isEmpty)
        #expect(outcome.error.hasPrefix("error: "))
        #expect(outcome.error.contains(badCase.message), "\(outcome.error)")
    }

    // Each listing is of one image: a test running beside this one may load a library into the
    // process between the two readings.
    @Test(
        "Options before the subcommand act as after it",
        arguments: [
            (
                ["--json", "conformances", "--type", "Swift.Int", "--image", "libswiftCore.so"],
                ["conformances", "--type", "Swift.Int", "--json", "--image", "libswiftCore.so"]
            ),
            (
                ["--image", "libswiftCore.so", "types", "--kind", "enum"],
                ["types", "--image", "libswiftCore.so", "--kind", "enum"]
            ),
            (
                ["--kind", "struct", "--json", "--image", "libswiftCore.so", "types"],
                ["types", "--kind", "struct", "--json", "--image", "libswiftCore.so"]
            ),
            (["--json", "layout", "Swift.Int"], ["layout", "Swift.Int", "--json"]),
            (["--image", "libswiftCore.so"], ["summary", "--image", "libswiftCore.so"]),
        ]
    )
    func optionsBeforeTheSubcommand(_ before: [String], _ after: [String]) throws {
        #expect(try Arguments(parsing: before) == Arguments(parsing: after))
        let first = Inspector.run(before)
        let second = Inspector.run(after)
        #expect(first.status == 0, "\(first.error)")
        #expect(!first.output.isEmpty)
        #expect(first == second)
    }

    @Test("--version prints the version, before or after a subcommand")
    func version() {
        for arguments in [["--version"], ["conformances", "--version"], ["--version", "layout"]] {
            let outcome = Inspector.run(arguments)
            #expect(outcome.status == 0)
            #expect(outcome.output == "metadata-inspect \(Inspector.version)\n")
            #expect(outcome.error.isEmpty)
        }
        let parts = Inspector.version.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "not MAJOR.MINOR.PATCH: \(Inspector.version)")
    }

    @Test("help SUBCOMMAND prints what SUBCOMMAND --help prints")
    func helpSubcommand() {
        for subcommand in Arguments.Subcommand.allCases {
            let outcome = Inspector.run(["help", subcommand.rawValue])
            #expect(outcome == Inspector.run([subcommand.rawValue, "--help"]))
            #expect(outcome.output.hasPrefix("USAGE: metadata-inspect"))
        }
        #expect(Inspector.run(["help"]) == Inspector.run(["--help"]))
        #expect(Inspector.run(["help"]).output.contains("help [SUBCOMMAND]"))
    }

    @Test("Every subcommand has help")
    func help() {
        for subcommand in Arguments.Subcommand.allCases {
            let outcome = Inspector.run([subcommand.rawValue, "--help"])
            #expect(outcome.status == 0)
            #expect(outcome.output.hasPrefix("USAGE: metadata-inspect"))
        }
    }
}
