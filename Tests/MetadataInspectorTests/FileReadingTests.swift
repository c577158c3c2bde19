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

/// The executable fixture's source: a protocol and a retroactive conformance, generic and
/// private types, an extension of another module's type with a nested type, and code at the
/// top level that would write a marker.
private func fixtureSource(marker: String) -> String {
    """
    import Glibc
    public protocol Shape { func area() -> Double }
    public protocol Named: AnyObject { associatedtype Label; var label: Label { get } }
    public struct Circle: Shape, Hashable, Codable { public var radius: Double; public func area() -> Double { radius } }
    public enum Tag: String, CaseIterable, Sendable { case first, second }
    public final class Box<Value>: CustomStringConvertible { public var value: Value
        public init(_ value: Value) { self.value = value }
        public var description: String { "Box" } }
    public final class Labelled: Named { public var label: String { "x" } }
    private struct Hidden: Equatable { var count = 1 }
    extension Int: Shape { public func area() -> Double { Double(self) } }
    extension Array { public struct Inner: Sendable { public var count: Int } }
    public struct Pair<A: Hashable, B>: Equatable where B: Equatable { var a: A; var b: B }
    public struct Lookalike { var both: ([(Character, Character, Character)], Circle); var other: ([(Bool, Bool, Bool)], Tag) }
    extension Pair: Hashable where B: Hashable {}
    func keep() -> [Any] { [Hidden(), Box(1), Labelled(), Array<Int>.Inner(count: 1), Pair(a: 1, b: 2)] }
    _ = keep()
    if let file = fopen("\(marker)/main-ran", "w") { fclose(file) }
    print(Circle(radius: 1).area())
    """
}

/// A C initializer, run by the loader before main, that would write a marker.
private func initializerSource(marker: String) -> String {
    """
    #include <fcntl.h>
    #include <unistd.h>
    __attribute__((constructor)) static void writeMarker(void) {
        int descriptor = open("\(marker)/initializer-ran", O_CREAT | O_WRONLY, 0644);
        if (descriptor >= 0) close(descriptor);
    }
    """
}

/// The built executable and its stripped copy (under the same file name, in another directory),
/// and the directory the markers go to.
struct ExecutableFixture: Sendable {
    let executable: String
    let stripped: String
    /// The same program linked without `-pie`: a fixed-address executable (`ET_EXEC`).
    let fixedAddress: String
    let markers: String
}

/// A step of building the fixture failed.
struct ExecutableFixtureError: Error {
    var step: String
}

let executableFixture: Result<ExecutableFixture, ExecutableFixtureError> = {
    let directory = temporaryDirectory.appendingPathComponent("executable-fixture")
    let markers = directory.appendingPathComponent("markers")
    let strippedDirectory = directory.appendingPathComponent("stripped")
    for folder in [directory, markers, strippedDirectory] {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    let source = directory.appendingPathComponent("main.swift")
    let initializer = directory.appendingPathComponent("initializer.c")
    let object = directory.appendingPathComponent("initializer.o")
    let executable = directory.appendingPathComponent("fixture-app")
    let stripped = strippedDirectory.appendingPathComponent("fixture-app")
    let fixedAddress = directory.appendingPathComponent("fixture-app-fixed")
    do {
        try fixtureSource(marker: markers.path).write(to: source, atomically: true, encoding: .utf8)
        try initializerSource(marker: markers.path).write(to: initializer, atomically: true, encoding: .utf8)
    } catch {
        return .failure(ExecutableFixtureError(step: "write"))
    }
    guard runTool(["clang", "-c", "-fPIC", initializer.path, "-o", object.path]) != nil else {
        return .failure(ExecutableFixtureError(step: "clang"))
    }
    guard
        runTool(["swiftc", "-O", "-module-name", "app", source.path, object.path, "-o", executable.path]) != nil
    else { return .failure(ExecutableFixtureError(step: "swiftc")) }
    guard runTool(["strip", executable.path, "-o", stripped.path]) != nil else {
        return .failure(ExecutableFixtureError(step: "strip"))
    }
    guard
        runTool([
            "swiftc", "-O", "-module-name", "app", source.path, object.path, "-o", fixedAddress.path,
            "-Xclang-linker", "-no-pie",
        ]) != nil
    else { return .failure(ExecutableFixtureError(step: "swiftc -no-pie")) }
    return .success(
        ExecutableFixture(
            executable: executable.path,
            stripped: stripped.path,
            fixedAddress: fixedAddress.path,
            markers: markers.path
        )
    )
}()

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

    @Test("A read image's types have no metadata and refuse instantiation")
    func noMetadata() throws {
        let fixture = try executableFixture.get()
        let image = try Image.read(fixture.executable)
        let circle = try #require(image.typeDescriptors.first { $0.name == "Circle" })
        #expect(circle.metadata == nil)
        let box = try #require(image.typeDescriptors.first { $0.name == "Box" })
        #expect(throws: RuntimeMetadataError.self) { try box.instantiate(with: [.type(TypeMetadata(Int.self))]) }
        #expect(image.conformances.allSatisfy { $0.protocolDescriptor != nil })
    }

    @Test("Executables and libraries are told apart, read (as readelf says) and loaded")
    func executables() throws {
        let fixture = try executableFixture.get()
        for path in [fixture.executable, fixture.fixedAddress, fixture.stripped] {
            // The oracle: a program header of type INTERP, or the type EXEC.
            let headers = try #require(runTool(["readelf", "-W", "-h", "-l", path]))
            #expect(headers.contains("INTERP") || headers.contains("EXEC (Executable file)"), "\(path)")
            #expect(try Image.read(path).isExecutable, "\(path)")
        }
        let library = try #require(runTool(["readelf", "-W", "-h", "-l", differentiation]))
        #expect(!library.contains("INTERP") && library.contains("DYN"))
        #expect(try !Image.read(differentiation).isExecutable)
        // Loaded: this test program is the main executable; its libraries are not.
        let loaded = Image.all
        #expect(loaded.filter(\.isExecutable).count == 1)
        #expect(loaded.first { $0.fileName == "libswiftCore.so" }?.isExecutable == false)
    }
}

@Suite("Field records read without metadata")
struct FieldRecordTests {
    @Test(
        "Every non-generic struct's and class's field types, demangled from the file, as String(reflecting:) names them"
    )
    func againstRuntimeNames() throws {
        let directory = try #require(toolchainLibraryDirectory)
        var compared = 0
        var mismatches: [String] = []
        for name in ["libFoundationEssentials.so", "libswiftCore.so"] {
            let read = try Image.read(directory + "/" + name)
            let loaded = try #require(Image.all.first { $0.fileName == name })
            let loadedByName = Dictionary(
                loaded.typeDescriptors.map { ($0.portableName, $0) },
                uniquingKeysWith: { first, _ in first }
            )
            // Structs: a class's fields list its superclass's too.
            for descriptor in read.typeDescriptors where !descriptor.isGeneric && descriptor.kind == .struct {
                guard let records = descriptor.fieldRecords, let twin = loadedByName[descriptor.portableName],
                    let metadata = twin.metadata, let fields = try? metadata.fields
                else { continue }
                for (record, field) in zip(records, fields) {
                    guard let oracle = field.type?.name else { continue }
                    compared += 1
                    // The demangler writes an existential without `any` and a class-bound one
                    // with `& Swift.AnyObject`, and prefixes weak and unowned references (`Xw`,
                    // `Xo`); the runtime names the referent. Anonymous contexts: by address there.
                    func normalized(_ name: String) -> String {
                        var name = name.replacing("any ", with: "").replacing(" & Swift.AnyObject", with: "")
                        for prefix in ["weak ", "unowned(unsafe) ", "unowned "] where name.hasPrefix(prefix) {
                            name.removeFirst(prefix.count)
                        }
                        return name.replacing(/\(unknown context at [^)]*\)/, with: "(unknown context)")
                    }
                    if record.name != field.name || record.typeName.map(normalized) != normalized(oracle) {
                        mismatches.append(
                            "\(descriptor.portableName).\(record.name): \(record.typeName ?? "nil") vs \(oracle)"
                        )
                    }
                }
            }
        }
        print("field records: \(compared) field types compared with the runtime's names, \(mismatches.count) differ")
        for mismatch in mismatches.prefix(40) { print("  differs: \(mismatch)") }
        #expect(compared > 500)
        #expect(mismatches.count == 0, "\(mismatches.prefix(8))")
    }

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
