// CompilerComparisonTests.swift
//
// Against the compiler: a fixture library, built during the test run, is inspected with
// `--load` and `layout --json`; an oracle program built from the same source prints the same
// facts from MemoryLayout, offset(of:), Mirror, String(reflecting:) and as?.

import Foundation
import MetadataInspector
import TestSupport
import Testing

/// The fixture library's source.
private let fixtureSource = """
    public protocol Named {}
    public protocol Ranked: AnyObject {}

    public struct Point: Named, Equatable {
        public var x: Int
        public var y: Double
        public init() { x = 1; y = 2 }
    }

    public struct Mixed {
        public var a: Int8
        public var b: Int64
        public var c: Bool
        public let name: String
        public var point: Point
        public init() { a = 1; b = 2; c = true; name = "n"; point = Point() }
    }

    public enum Tag: Named {
        case empty
        case number(Int)
        case text(String)
        case other
    }

    public indirect enum Tree {
        case leaf(Int)
        case node(Tree, Tree)
    }

    open class Base: Ranked {
        public var id = 7
        public init() {}
    }

    public final class Derived: Base, Named {
        public weak var parent: Base?
        public var label = "derived"
        public unowned(unsafe) var owner: Base
        public override init() { owner = Base(); super.init() }
    }

    public struct Box<T> {
        public var value: T
        public var count: Int
        public init(_ value: T) { self.value = value; count = 0 }
    }
    """

/// The oracle: prints each type's facts as one JSON object per line.
private let oracleSource = """
    func quoted(_ s: String) -> String { "\\"" + s + "\\"" }
    func list(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
    func report<T>(_ type: T.Type, sample: Any?, offsets: [(String, Int?)], cases: [String] = []) {
        var fields: [String] = []
        if let sample {
            var mirror: Mirror? = Mirror(reflecting: sample)
            var levels: [Mirror] = []
            while let current = mirror { levels.append(current); mirror = current.superclassMirror }
            for level in levels.reversed() where level.displayStyle != .enum {
                for child in level.children { fields.append(quoted(child.label ?? "")) }
            }
        }
        let protocols = [
            ("InspectorFixture.Named", T.self is any Named.Type), ("InspectorFixture.Ranked", T.self is any Ranked.Type),
            ("Swift.Equatable", T.self is any Equatable.Type), ("Swift.Hashable", T.self is any Hashable.Type),
        ]
        let offsetText = "{" + offsets.compactMap { name, offset in offset.map { quoted(name) + ":" + String($0) } }
            .joined(separator: ",") + "}"
        print("{" + [
            quoted("name") + ":" + quoted(String(reflecting: T.self)),
            quoted("size") + ":" + String(MemoryLayout<T>.size),
            quoted("stride") + ":" + String(MemoryLayout<T>.stride),
            quoted("alignment") + ":" + String(MemoryLayout<T>.alignment),
            quoted("fields") + ":" + list(fields),
            quoted("offsets") + ":" + offsetText,
            quoted("cases") + ":" + list(cases.map(quoted)),
            quoted("conforms") + ":" + list(protocols.filter { $0.1 }.map { quoted($0.0) }),
            quoted("notConforms") + ":" + list(protocols.filter { !$0.1 }.map { quoted($0.0) }),
        ].joined(separator: ",") + "}")
    }
    func caseName(_ value: Any) -> String { Mirror(reflecting: value).children.first?.label ?? String(describing: value) }
    report(Point.self, sample: Point(), offsets: [("x", MemoryLayout<Point>.offset(of: \\.x)), ("y", MemoryLayout<Point>.offset(of: \\.y))])
    report(Mixed.self, sample: Mixed(), offsets: [
        ("a", MemoryLayout<Mixed>.offset(of: \\.a)), ("b", MemoryLayout<Mixed>.offset(of: \\.b)),
        ("c", MemoryLayout<Mixed>.offset(of: \\.c)), ("name", MemoryLayout<Mixed>.offset(of: \\.name)),
        ("point", MemoryLayout<Mixed>.offset(of: \\.point)),
    ])
    report(Tag.self, sample: nil, offsets: [], cases: [Tag.empty, .number(1), .text(""), .other].map(caseName))
    report(Tree.self, sample: nil, offsets: [], cases: [Tree.leaf(1), .node(.leaf(1), .leaf(2))].map(caseName))
    report(Base.self, sample: Base(), offsets: [])
    report(Derived.self, sample: Derived(), offsets: [])
    report(Box<Int>.self, sample: Box(1), offsets: [
        ("value", MemoryLayout<Box<Int>>.offset(of: \\.value)), ("count", MemoryLayout<Box<Int>>.offset(of: \\.count)),
    ])
    report(Box<String>.self, sample: Box("s"), offsets: [
        ("value", MemoryLayout<Box<String>>.offset(of: \\.value)), ("count", MemoryLayout<Box<String>>.offset(of: \\.count)),
    ])
    """

/// The built fixture: the library's path and the oracle's facts.
private let fixture: Result<(library: String, facts: [String]), FixtureBuildError> = {
    let directory = temporaryDirectory.appendingPathComponent("compiler-fixture")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let source = directory.appendingPathComponent("Fixture.swift")
    let main = directory.appendingPathComponent("main.swift")
    let library = directory.appendingPathComponent("libInspectorFixture.so")
    let oracle = directory.appendingPathComponent("oracle")
    do {
        try fixtureSource.write(to: source, atomically: true, encoding: .utf8)
        try oracleSource.write(to: main, atomically: true, encoding: .utf8)
    } catch {
        return .failure(FixtureBuildError(step: "write"))
    }
    guard
        runTool([
            "swiftc", "-emit-library", "-module-name", "InspectorFixture", "-parse-as-library", source.path, "-o",
            library.path,
        ]) != nil
    else { return .failure(FixtureBuildError(step: "library")) }
    guard runTool(["swiftc", "-module-name", "InspectorFixture", source.path, main.path, "-o", oracle.path]) != nil,
        let output = runTool([oracle.path])
    else { return .failure(FixtureBuildError(step: "oracle")) }
    return .success((library.path, output.split(separator: "\n").map(String.init)))
}()

/// A step of building the fixture failed.
private struct FixtureBuildError: Error {
    var step: String
}

@Suite("Inspector against the compiler")
struct CompilerComparisonTests {
    // Both tests load the library, which first probes it in a forked child (Image.probe): they
    // run in a child process of their own, since a fork of the test runner, whose other threads
    // may hold the runtime's locks at that moment, can leave the probe's child waiting for ever.
    @Test("Every fixture type's layout --json agrees with the oracle program")
    func layouts() async throws {
        let (library, lines) = try fixture.get()
        await #expect(processExitsWith: .success) { [library = library as String, lines = lines as [String]] in
            try layoutsAgree(library: library, lines: lines)
        }
    }

    @Test("Ownership, superclass, generic arguments and tag order of the fixture")
    func details() async throws {
        let (library, _) = try fixture.get()
        await #expect(processExitsWith: .success) { [library = library as String] in
            try detailsAgree(library: library)
        }
    }
}

/// The body of ``CompilerComparisonTests/layouts()``, in its child process.
private func layoutsAgree(library: String, lines: [String]) throws {
    let facts = lines.compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
    #expect(facts.count == 8)
    for oracle in facts {
        let name = try #require(oracle["name"] as? String)
        let outcome = Inspector.run(["layout", name, "--load", library, "--json"])
        #expect(outcome.status == 0, "\(name): \(outcome.error)")
        let parsed = try JSONSerialization.jsonObject(with: Data(outcome.output.utf8))
        let layout = try #require(parsed as? [String: Any])
        #expect(layout["name"] as? String == name)
        #expect(layout["size"] as? Int == oracle["size"] as? Int, "\(name)")
        #expect(layout["stride"] as? Int == oracle["stride"] as? Int, "\(name)")
        #expect(layout["alignment"] as? Int == oracle["alignment"] as? Int, "\(name)")
        let fields = try #require(layout["fields"] as? [[String: Any]])
        #expect(fields.compactMap { $0["name"] as? String } == oracle["fields"] as? [String], "\(name)")
        for (field, offset) in try #require(oracle["offsets"] as? [String: Int]) {
            #expect(
                fields.first { $0["name"] as? String == field }?["offset"] as? Int == offset,
                "\(name).\(field)"
            )
        }
        let cases = try #require(layout["cases"] as? [[String: Any]])
        #expect(
            Set(cases.compactMap { $0["name"] as? String }) == Set(oracle["cases"] as? [String] ?? []),
            "\(name)"
        )
        let conformances = Set(try #require(layout["conformances"] as? [String]))
        for protocolName in oracle["conforms"] as? [String] ?? [] {
            #expect(conformances.contains(protocolName), "\(name): \(protocolName)")
        }
        for protocolName in oracle["notConforms"] as? [String] ?? [] {
            #expect(!conformances.contains(protocolName), "\(name): not \(protocolName)")
        }
    }
}

/// The body of ``CompilerComparisonTests/details()``, in its child process.
private func detailsAgree(library: String) throws {
    let derived = Inspector.run(["layout", "InspectorFixture.Derived", "--load", library, "--json"])
    let object = try #require(try JSONSerialization.jsonObject(with: Data(derived.output.utf8)) as? [String: Any])
    #expect(object["superclass"] as? String == "InspectorFixture.Base")
    let ownership = (object["fields"] as? [[String: Any]])?.compactMap { $0["ownership"] as? String }
    #expect(ownership == ["strong", "weak", "strong", "unownedUnsafe"])
    let box = Inspector.run(["layout", "InspectorFixture.Box<Swift.String>", "--load", library, "--json"])
    let boxObject = try #require(try JSONSerialization.jsonObject(with: Data(box.output.utf8)) as? [String: Any])
    #expect(boxObject["genericArguments"] as? [String] == ["Swift.String"])
    let tag = Inspector.run(["layout", "InspectorFixture.Tag", "--load", library, "--json"])
    let tagObject = try #require(try JSONSerialization.jsonObject(with: Data(tag.output.utf8)) as? [String: Any])
    let cases = try #require(tagObject["cases"] as? [[String: Any]])
    // Tag order: payload cases first, then empty cases (include/swift/RemoteInspection/Records.h).
    #expect(cases.compactMap { $0["name"] as? String } == ["number", "text", "empty", "other"])
    #expect(cases.map { $0["payloadType"] is NSNull } == [false, false, true, true])
    // The library's records are listed under its image.
    let types = Inspector.run(["types", "--load", library, "--image", "libInspectorFixture.so", "--json"])
    let typeList = try #require(try JSONSerialization.jsonObject(with: Data(types.output.utf8)) as? [String: Any])
    let names = Set(((typeList["types"] as? [[String: Any]]) ?? []).compactMap { $0["name"] as? String })
    #expect(names.isSuperset(of: ["InspectorFixture.Point", "InspectorFixture.Box", "InspectorFixture.Tree"]))
}
