// FuzzTests.swift
//
// The inspector under random command lines, in a child process with a fixed seed and a
// bounded number of inputs: subcommands, options and names (readable and mangled, mutated).
// Every input must end with status 0, 1 or 2 and, for 1 and 2, an `error:` line; never a crash.

import Fixtures
import Foundation
import MetadataInspector
import TestSupport
import Testing

/// Names and pieces of names, readable and mangled.
private let names = [
    "Swift.Int", "Swift.Dictionary<Swift.String, Swift.Int>", "SDySSSiG", "SaySiG", "$", "$SS_Sitc", "Si$2_",
    "Swift.InlineArray<9223372036854775807, Swift.Int>", "(Swift.Int) -> Swift.Int", "Swift.Hashable", "Swift.Int?",
    "Foundation.Date", "Nowhere.Nothing", "", " ", "Swift.Optional<", "<>",
    "Swift.Int" + String(repeating: "?", count: 3_000),
    String(repeating: "Swift.Array<", count: 6_000) + "Swift.Int" + String(repeating: ">", count: 6_000),
    "(`a b`: Swift.Int)", "Swift.Equatable & Swift.Hashable", "Swift.Int.Type.Protocol",
]
private let pieces = ["<", ">", "(", ")", ",", ".", "$", "?", "&", "->", "Sa", "y", "G", "_", "t", "Swift.", "`"]
private let options = [
    "--json", "--help", "--kind", "struct", "enum", "class", "protocol", "--protocol", "--type", "--image",
    "libswiftCore.so", "--load", "/nonexistent.so", "/dev/null", "-x", "--", "--json=1",
]
private let subcommands = ["summary", "images", "types", "protocols", "conformances", "layout", "bogus", ""]

@Suite("Inspector fuzzing")
struct InspectorFuzzTests {
    @Test("Random command lines end with a status and an error line, never a crash")
    func commandLines() async {
        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
            var generator = SplitMix64(state: 0x1A5_0001)
            var statuses: [Int32: Int] = [:]
            var inputs = 0
            while inputs < TestScale.scaled(800, minimum: 200) {
                inputs += 1
                var arguments = [subcommands.randomElement(using: &generator)!]
                for _ in 0..<Int.random(in: 0...3, using: &generator) {
                    if Bool.random(using: &generator) {
                        arguments.append(options.randomElement(using: &generator)!)
                    } else {
                        var name = names.randomElement(using: &generator)!
                        for _ in 0..<Int.random(in: 0...2, using: &generator) {
                            let piece = pieces.randomElement(using: &generator)!
                            let index = name.isEmpty ? 0 : Int.random(in: 0...name.count, using: &generator)
                            name.insert(contentsOf: piece, at: name.index(name.startIndex, offsetBy: index))
                        }
                        arguments.append(name)
                    }
                }
                // The toolchain's full listings are large: keep the fuzzing to what names reach.
                if ["summary", "images", "types", "protocols"].contains(arguments[0]) { arguments.append("--json") }
                let outcome = Inspector.run(arguments)
                statuses[outcome.status, default: 0] += 1
                #expect([0, 1, 2].contains(outcome.status), "\(arguments)")
                if outcome.status != 0 { #expect(outcome.error.hasPrefix("error:"), "\(arguments)") }
            }
            print("FUZZ-REPORT inspector: \(inputs) command lines, statuses \(statuses.sorted { $0.key < $1.key })")
        }
        if let output = result?.standardOutputContent {
            for line in String(decoding: output, as: UTF8.self).split(separator: "\n")
            where line.hasPrefix("FUZZ-REPORT") {
                print(line)
            }
        }
    }
}
