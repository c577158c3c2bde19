// FileReadingTests.swift
//
// The listings read from files: an executable built here, whose initializer and main code would
// each write a marker file if they ran; its conformances and types against nm and
// swift-demangle; the same listings twice, byte for byte; the toolchain's libraries read from
// their files against the same libraries loaded.

import Foundation
import MetadataInspector
import RuntimeMetadata
import TestSupport
import Testing

/// The listing subcommands that read files.
private let listings = [
    ["summary"], ["images"], ["types"], ["types", "--kind", "protocol"], ["protocols"], ["conformances"],
    ["conformances", "--protocol", "Equatable"], ["conformances", "--type", "Circle"], ["fields"],
]

@Suite("Reading image files without loading them")
struct FileReadingTests {
    @Test("conformances of an executable: listed, and none of its code runs")
    func executableRunsNothing() throws {
        let fixture = try executableFixture.get()
        let markers = ["initializer-ran", "main-ran"].map { fixture.markers + "/" + $0 }
        // The control: running the program writes both markers, so their absence means something.
        #expect(runTool([fixture.executable]) != nil)
        for marker in markers {
            #expect(FileManager.default.fileExists(atPath: marker), "the fixture did not write \(marker) when run")
            try? FileManager.default.removeItem(atPath: marker)
        }
        for listing in listings {
            for path in [fixture.executable, fixture.fixedAddress] {
                let outcome = Inspector.run(listing + [path])
                #expect(outcome.status == 0, "\(listing): \(outcome.error)")
            }
        }
        let conformances = Inspector.run(["conformances", fixture.executable]).output
        #expect(conformances.contains("app.Circle"))
        #expect(conformances.contains("Swift.Int  ") && conformances.contains("app.Shape"))
        for marker in markers {
            #expect(!FileManager.default.fileExists(atPath: marker), "\(marker) was written: code of the file ran")
        }
    }

    @Test(
        "The executable's conformance pairs equal nm's Mc symbols, its types nm's Mn symbols",
        arguments: ["position-independent", "fixed-address"]
    )
    func executableAgainstNM(_ linking: String) throws {
        let fixture = try executableFixture.get()
        let path = linking == "fixed-address" ? fixture.fixedAddress : fixture.executable
        // The fixed-address build is what its name says (e_type ET_EXEC, 2), the other ET_DYN.
        let header = try #require(FileManager.default.contents(atPath: path))
        #expect(header[16] == (linking == "fixed-address" ? 2 : 3))
        let expected = try #require(nmExpectations(path))
        let image = try Image.read(path)
        #expect(!image.isLoaded)
        #expect(!Image.all.contains(image))
        let (pairs, types) = listedPairsAndTypes(image)
        #expect(expected.pairs.count >= 15)
        #expect(expected.types.count >= 7)
        #expect(
            pairs == expected.pairs,
            "listed only: \(pairs.subtracting(expected.pairs).sorted()), nm only: \(expected.pairs.subtracting(pairs).sorted())"
        )
        #expect(
            types == expected.types,
            "listed only: \(types.subtracting(expected.types).sorted()), nm only: \(expected.types.subtracting(types).sorted())"
        )
    }

    @Test("A stripped copy lists exactly what the executable lists")
    func stripped() throws {
        let fixture = try executableFixture.get()
        #expect(runTool(["nm", fixture.stripped]) == nil || runTool(["nm", fixture.stripped])?.isEmpty == true)
        for listing in listings {
            let full = Inspector.run(listing + [fixture.executable]).output
            let strippedOutcome = Inspector.run(listing + [fixture.stripped])
            #expect(strippedOutcome.status == 0)
            // Listings name an image by file name, which both copies share; summary and images by path.
            let strippedOutput = strippedOutcome.output.replacingOccurrences(
                of: fixture.stripped,
                with: fixture.executable
            )
            #expect(full == strippedOutput, "\(listing)")
        }
    }

    @Test("Every listing of a file is byte-identical from one reading to the next")
    func reproducible() throws {
        let fixture = try executableFixture.get()
        let core = try #require(toolchainLibraryDirectory).appending("/libswiftCore.so")
        // Every listing of the executable; the largest library's two longest.
        for (path, selected) in [(fixture.executable, listings), (core, [["conformances"], ["fields"]])] {
            for listing in selected {
                for format in [[], ["--json"]] {
                    // Each run maps the file anew, at another address.
                    let first = Inspector.run(listing + format + [path])
                    let second = Inspector.run(listing + format + [path])
                    #expect(first.status == 0)
                    #expect(first.output == second.output, "\(listing + format) of \(path)")
                    #expect(!first.output.contains("context at $"), "an address in \(listing + format) of \(path)")
                }
            }
        }
        let nested = Inspector.run(["conformances", core]).output
        #expect(nested.contains("(unknown context at libswiftCore.so+0x"))
    }

    @Test("Listings are byte-identical from one process to the next")
    func reproducibleAcrossProcesses() async throws {
        let fixture = try executableFixture.get()
        var outputs: [[UInt8]] = []
        for _ in 0..<2 {
            let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                [path = fixture.executable as String] in
                for listing in [["conformances"], ["fields"], ["types", "--json"]] {
                    print(Inspector.run(listing + [path]).output)
                }
            }
            outputs.append(result?.standardOutputContent ?? [])
        }
        #expect(outputs[0].count > 1000)
        #expect(outputs[0] == outputs[1])
    }

    @Test("The toolchain's libraries read from their files list what they list loaded, pair for pair")
    func toolchainLibraries() throws {
        let directory = try #require(toolchainLibraryDirectory)
        for name in [
            "libswiftCore.so", "libFoundationEssentials.so", "libswift_Concurrency.so", "libFoundation.so",
        ] {
            let path = directory + "/" + name
            // Loaded in this process already (the tests link Foundation and Concurrency).
            for listing in [["types"], ["protocols"], ["types", "--kind", "protocol"], ["fields"]] {
                let read = Inspector.run(listing + [path])
                let loaded = Inspector.run(listing + ["--image", name])
                #expect(read.status == 0 && loaded.status == 0, "\(listing) \(name): \(read.error)\(loaded.error)")
                #expect(read.output.split(separator: "\n").count > 10)
                #expect(read.output == loaded.output, "\(listing) \(name)")
            }
            // Conformances, pair for pair with every flag, but that a read image cannot know
            // whether another module's type is generic (null).
            let read = try conformanceRows(Inspector.run(["conformances", "--json", path]).output)
            let loaded = try conformanceRows(Inspector.run(["conformances", "--json", "--image", name]).output)
            #expect(read.count > 100 && read.count == loaded.count, "\(name)")
            var mismatches = 0
            var unknownGeneric = 0
            func field(_ row: [String: Any], _ key: String) -> String { row[key].map { "\($0)" } ?? "missing" }
            for (readRow, loadedRow) in zip(read, loaded) {
                let keys = ["type", "protocol", "isRetroactive", "conditionalRequirementCount"]
                var same = keys.allSatisfy { field(readRow, $0) == field(loadedRow, $0) }
                if readRow["isGeneric"] is NSNull {
                    unknownGeneric += 1
                } else {
                    same = same && field(readRow, "isGeneric") == field(loadedRow, "isGeneric")
                }
                if !same { mismatches += 1 }
            }
            // Only records of other modules' types leave it unknown: far from all.
            #expect(unknownGeneric < read.count / 2, "\(name): \(unknownGeneric) of \(read.count) unknown")
            #expect(mismatches == 0, "\(name): \(mismatches) rows differ")
        }
    }

    /// The rows of a `conformances --json` document.
    private func conformanceRows(_ json: String) throws -> [[String: Any]] {
        let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        return try #require(document?["conformances"] as? [[String: Any]])
    }

    @Test("layout --load of an executable explains that executables are read, not loaded")
    func layoutOfExecutable() throws {
        let fixture = try executableFixture.get()
        let outcome = Inspector.run(["layout", "app.Circle", "--load", fixture.executable])
        #expect(outcome.status == 1)
        #expect(outcome.error.contains("is an executable"))
        #expect(outcome.error.contains("metadata-inspect conformances \(fixture.executable)"))
        #expect(!outcome.error.contains("dynamically load"))
    }

    @Test("Files read and listed from several threads at once give the same listings")
    func concurrentReads() async throws {
        let path = differentiation
        let listings = await withTaskGroup(of: String.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    guard let image = try? Image.read(path) else { return "unreadable" }
                    return Report.conformances([image], protocolName: nil, typeName: nil).text
                        + Report.fields([image], typeName: nil).text
                }
            }
            var results: [String] = []
            for await listing in group { results.append(listing) }
            return results
        }
        #expect(listings.count == 6)
        #expect(Set(listings).count == 1)
        #expect(listings.first?.contains("_Differentiation.Differentiable") == true)
    }
}

@Suite("Field records read without metadata")
struct FieldRecordTests {
    @Test("The executable fixture's fields and cases, read from its file")
    func executableFields() throws {
        let fixture = try executableFixture.get()
        let output = Inspector.run(["fields", fixture.executable, "--type", "Circle"]).output
        #expect(output.contains("var  radius  Swift.Double  Sd"))
        let inner = Inspector.run(["fields", fixture.executable, "--type", "Inner"]).output
        #expect(inner.contains("struct (extension in app):Swift.Array.Inner"))
        #expect(inner.contains("var  count  Swift.Int  Si"))
        let json = Inspector.run(["fields", "--json", fixture.executable]).output
        #expect(json.contains("\"typeName\": \"Swift.Double\""))
        #expect(json.contains("\"mangledTypeName\": \"Sd\""))
        let tag = Inspector.run(["fields", fixture.executable, "--type", "Tag"]).output
        #expect(tag.contains("case  first") && tag.contains("case  second"))
        // Fields whose own types spell a placeholder of the demangling, beside a reference.
        let lookalike = Inspector.run(["fields", fixture.executable, "--type", "Lookalike"]).output
        #expect(lookalike.contains("(Swift.Array<(Swift.Character, Swift.Character, Swift.Character)>, app.Circle)"))
        #expect(lookalike.contains("(Swift.Array<(Swift.Bool, Swift.Bool, Swift.Bool)>, app.Tag)"))
        let pair = Inspector.run(["fields", fixture.executable, "--type", "Pair"]).output
        #expect(pair.contains("var  a  A  x") && pair.contains("var  b  B  q_"), "\(pair)")
    }
}
