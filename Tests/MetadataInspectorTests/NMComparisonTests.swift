// NMComparisonTests.swift
//
// Against nm: for libFoundationEssentials.so, every (type, protocol) pair that its protocol
// conformance descriptor symbols (…Mc) name is in the inspector's conformance list, and
// every nominal type descriptor symbol (…Mn) is in its type list.

import Foundation
import MetadataInspector
import RuntimeMetadata
import TestSupport
import Testing

/// Makes the names nm's demangler prints and the names the runtime prints comparable:
/// generic parameters dropped, private discriminators `(Name in _HASH)` reduced to the name,
/// anonymous contexts `(unknown context at …).` (by address or relative to the image) removed.
func normalizedTypeName(_ name: String) -> String {
    var name = Substring(name)
    // The demangler prints a generic conformance's signature first: `<A where A: P> Type<A>`.
    if name.hasPrefix("<") {
        var depth = 0
        var end = name.startIndex
        for index in name.indices {
            if name[index] == "<" { depth += 1 }
            if name[index] == ">" { depth -= 1 }
            if depth == 0 {
                end = index
                break
            }
        }
        name = name[name.index(after: end)...]
    }
    name = name.drop { $0 == " " }
    // And it prints sugar: [A], [A : B], A?.
    if name.hasPrefix("["), let close = name.lastIndex(of: "]") {
        let inner = name[name.index(after: name.startIndex)..<close]
        let base = inner.contains(" : ") ? "Swift.Dictionary" : "Swift.Array"
        name = Substring(base + name[name.index(after: close)...])
    } else if name.hasSuffix("?") {
        name = "Swift.Optional"
    }
    var result = ""
    var depth = 0
    for character in name {
        if character == "<" {
            depth += 1
        } else if character == ">" {
            depth -= 1
        } else if depth == 0 {
            result.append(character)
        }
    }
    while let range = result.range(of: "(unknown context at ") {
        guard let end = result[range.upperBound...].firstIndex(of: ")") else { break }
        var upper = result.index(after: end)
        if upper < result.endIndex, result[upper] == "." { upper = result.index(after: upper) }
        result.removeSubrange(range.lowerBound..<upper)
    }
    while let open = result.range(of: " in _") {
        guard let start = result[..<open.lowerBound].lastIndex(of: "("),
            let close = result[open.upperBound...].firstIndex(of: ")")
        else { break }
        let inner = result[result.index(after: start)..<open.lowerBound]
        result.replaceSubrange(start...close, with: inner)
    }
    return result
}

/// What nm and swift-demangle say a file defines: its conformance descriptor symbols' (type,
/// protocol) pairs and its nominal type descriptor symbols' types, normalized.
func nmExpectations(_ path: String) -> (
    pairs: Set<String>, types: Set<String>, conformanceSymbols: Int, typeSymbols: Int
)? {
    guard let symbols = runTool(["nm", "--defined-only", path]) else { return nil }
    let names = symbols.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }
    let conformanceSymbols = names.filter { $0.hasPrefix("$s") && $0.hasSuffix("Mc") }
    let typeSymbols = names.filter { $0.hasPrefix("$s") && $0.hasSuffix("Mn") }
    guard
        let demangled = runTool(["swift-demangle"], input: (conformanceSymbols + typeSymbols).joined(separator: "\n"))?
            .split(separator: "\n").map(String.init),
        demangled.count == conformanceSymbols.count + typeSymbols.count
    else { return nil }
    var pairs = Set<String>()
    var types = Set<String>()
    let conformancePrefix = "protocol conformance descriptor for "
    let typePrefix = "nominal type descriptor for "
    for line in demangled {
        if line.hasPrefix(conformancePrefix) {
            var body = String(line.dropFirst(conformancePrefix.count))
            if let range = body.range(of: " in ", options: .backwards) { body = String(body[..<range.lowerBound]) }
            guard let separator = body.range(of: " : ", options: .backwards) else { continue }
            let type = normalizedTypeName(String(body[..<separator.lowerBound]))
            let protocolName = normalizedTypeName(String(body[separator.upperBound...]))
            pairs.insert("\(type): \(protocolName)")
        } else if line.hasPrefix(typePrefix) {
            types.insert(normalizedTypeName(String(line.dropFirst(typePrefix.count))))
        }
    }
    return (pairs, types, conformanceSymbols.count, typeSymbols.count)
}

/// The inspector's (type, protocol) pairs and types of an image, normalized as
/// ``nmExpectations(_:)``'s.
func listedPairsAndTypes(_ image: Image) -> (pairs: Set<String>, types: Set<String>) {
    var listedPairs = Set<String>()
    if case .array(let rows) = Report.conformances([image], protocolName: nil, typeName: nil).json["conformances"] {
        for row in rows {
            if case .string(let type) = row["type"], case .string(let protocolName) = row["protocol"] {
                listedPairs.insert("\(normalizedTypeName(type)): \(normalizedTypeName(protocolName))")
            }
        }
    }
    var listedTypes = Set<String>()
    if case .array(let rows) = Report.types([image], kinds: []).json["types"] {
        for row in rows {
            if case .string(let name) = row["name"] { listedTypes.insert(normalizedTypeName(name)) }
        }
    }
    return (listedPairs, listedTypes)
}

@Suite("Inspector against nm")
struct NMComparisonTests {
    @Test("libFoundationEssentials.so: every Mc pair and every Mn type is listed")
    func foundationEssentials() throws {
        let directory = try #require(toolchainLibraryDirectory)
        let path = directory + "/libFoundationEssentials.so"
        try #require(FileManager.default.fileExists(atPath: path))
        let expected = try #require(nmExpectations(path))
        let conformanceSymbols = expected.conformanceSymbols
        let typeSymbols = expected.typeSymbols
        let expectedPairs = expected.pairs
        let expectedTypes = expected.types
        _ = try Inspector.report(Arguments(parsing: ["summary"]))  // Foundation is loaded in this process.
        let image = try #require(Image.all.first { $0.fileName == "libFoundationEssentials.so" })
        let (listedPairs, listedTypes) = listedPairsAndTypes(image)
        let missingPairs = expectedPairs.subtracting(listedPairs)
        let missingTypes = expectedTypes.subtracting(listedTypes)
        print(
            """
            nm comparison, libFoundationEssentials.so: \(conformanceSymbols) Mc symbols naming \
            \(expectedPairs.count) distinct (type, protocol) pairs, \(listedPairs.count) pairs listed, \
            \(missingPairs.count) missing; \(typeSymbols) Mn symbols naming \(expectedTypes.count) types, \
            \(listedTypes.count) types listed, \(missingTypes.count) missing
            """
        )
        #expect(expectedPairs.count > 500)
        #expect(missingPairs.isEmpty, "\(missingPairs.sorted().prefix(10))")
        #expect(missingTypes.isEmpty, "\(missingTypes.sorted().prefix(10))")
    }
}
