// ReadmeExampleTests.swift
//
// The README's examples, compiled and checked. Each test names the README section it mirrors;
// keep the two in step.

import RuntimeMetadata
import TestSupport
import Testing
import ValueDump

// README: "Layout and fields"
private struct Point {
    var x: Int
    var y: Double
    let label: String
}

// README: "Generic arguments, tuples and functions"
private final class ReadmeNode<Value> {
    var value: Value
    init(_ value: Value) { self.value = value }
}

// README: "Enums"
private enum Shape {
    case circle(radius: Double)
    case square(side: Double)
    case empty
}

// README: "Making values"
private struct Settings {
    var name: String
    var retries: Int
    var tags: [String]
    var proxy: String?
}

// README: "Conformances"
private protocol Drawable {
    func draw() -> String
}

private struct Circle: Drawable {
    var radius: Double
    func draw() -> String { "circle \(radius)" }
}

// README: "Opening an Any as a protocol, and visitors"
private protocol DrawableVisitor {
    mutating func visit<D: Drawable>(_ drawable: D)
}

private enum DrawableProtocol {
    static let descriptor = try? ProtocolDescriptor((any Drawable).self)

    /// Opens `value` and hands it to the visitor with its concrete type.
    static func visit<Visitor: DrawableVisitor>(_ value: Any, with visitor: inout Visitor) -> Bool {
        // The value is lent where the Any holds it; Swift opens the existential into D.
        descriptor?.withOpened(value, as: (any Drawable).self) { visitor.visit($0) } != nil
    }
}

private struct Collector: DrawableVisitor {
    var drawings: [String] = []
    mutating func visit<D: Drawable>(_ drawable: D) { drawings.append(drawable.draw()) }
}

// README: "Opening an Any as a protocol, and visitors" (stored values)
private final class DrawableStore<D: Drawable> {
    var items: ContiguousArray<D> = []

    func drawing(at slot: Int) -> String {
        InPlace.withElement(at: slot, of: items) { $0.draw() }
    }
}

/// The first example's type, a struct of two fields.
private struct TwoFieldPoint {
    var x: Int
    var y: Double
}

@Suite("README examples")
struct ReadmeExampleTests {
    @Test("The products, one example each: RuntimeMetadata and ValueDump")
    func products() throws {
        let metadata = TypeMetadata(TwoFieldPoint.self)
        #expect(try metadata.fields.map { "\($0.name) \($0.offset)" } == ["x 0", "y 8"])
        #expect(try !ProtocolDescriptor((any Hashable).self).isConformed(by: TwoFieldPoint.self))
        #expect(ValueDump.differences(["a": 1], ["a": 2]).map(\.path) == ["[\"a\"]"])
    }

    @Test("Layout and fields")
    func layoutAndFields() throws {
        let metadata = TypeMetadata(Point.self)
        #expect(metadata.kind == .struct)
        #expect(metadata.size == MemoryLayout<Point>.size)
        #expect(metadata.name == String(reflecting: Point.self))
        var lines: [String] = []
        for field in try metadata.fields {
            lines.append("\(field.name) \(field.type?.name ?? "?") \(field.offset) \(field.isVar)")
        }
        #expect(
            lines == [
                "x Swift.Int \(MemoryLayout<Point>.offset(of: \.x)!) true",
                "y Swift.Double \(MemoryLayout<Point>.offset(of: \.y)!) true",
                "label Swift.String \(MemoryLayout<Point>.offset(of: \.label)!) false",
            ]
        )
    }

    @Test("Reading and writing a field")
    func readingAndWriting() throws {
        let metadata = TypeMetadata(Point.self)
        var point = Point(x: 1, y: 2, label: "p")
        let x = try metadata.field(named: "x")
        let value = try x.value(in: point, as: Int.self)
        #expect(value == 1)
        try x.setValue(7, in: &point)
        #expect(point.x == 7)
        var message = ""
        do {
            try x.setValue("seven", in: &point)
        } catch {
            message = "\(error)"
        }
        #expect(message.hasPrefix("type mismatch on field 'x' of '"))
        #expect(message.hasSuffix("Point': expected 'Swift.Int', got 'Swift.String'"))
        #expect(point.x == 7)
    }

    @Test("Enums")
    func enums() throws {
        let shape = TypeMetadata(Shape.self)
        #expect(try shape.cases.map(\.name) == ["circle", "square", "empty"])
        #expect(try shape.caseName(of: Shape.square(side: 2)) == "square")
        #expect(try shape.payload(of: Shape.circle(radius: 3), as: Double.self) == 3.0)
        let made: Shape = try shape.makeValue(case: "circle", payload: 1.5)
        guard case .circle(let radius) = made else {
            Issue.record("expected a circle, got \(made)")
            return
        }
        #expect(radius == 1.5)
        let boxed: Any = Shape.empty
        #expect(try shape.caseName(of: boxed) == "empty")
        let shapes: [Any] = [Shape.empty, Shape.circle(radius: 1)]
        #expect(try shapes.map { try shape.caseName(of: $0) } == ["empty", "circle"])
    }

    @Test("Generic arguments, tuples and functions")
    func genericsTuplesFunctions() throws {
        #expect(
            TypeMetadata([String: [Int]].self).genericArguments == [
                .type(TypeMetadata(String.self)), .type(TypeMetadata([Int].self)),
            ]
        )
        #expect(TypeMetadata((x: Int, String).self).tupleElements.map(\.name) == ["x", ".1"])
        let pair = (x: 3, "three")
        #expect(try TypeMetadata(type(of: pair)).tupleElements[0].value(in: pair, as: Int.self) == 3)
        #expect(TypeMetadata(((inout Int) async throws -> String).self).function?.isAsync == true)
        #expect(TypeMetadata(ReadmeNode<Int>.self).classLayout?.genericArgumentOffset == 7)
        let descriptor = try #require(TypeMetadata(ReadmeNode<Int>.self).descriptor)
        #expect((descriptor.immediateMemberCount ?? 0) > 2)
        #expect(descriptor.genericContext?.typeContextByteSize == 20)
        #expect(descriptor.fieldDescriptor?.recordCount == 1)
    }

    @Test("Types by name")
    func typesByName() throws {
        let dictionary = try TypeMetadata(named: "Swift.Dictionary<Swift.String, Swift.Array<Swift.Int>>")
        let same = try TypeMetadata(mangledName: "SDySSSaySiGG")
        #expect(dictionary == same)
        #expect(dictionary == TypeMetadata([String: [Int]].self))
        let storage = try #require(try TypeMetadata(Int.self).fields[0].type)
        #expect(storage.name == "Builtin.Int64" && storage.mangledName == "Bi64_")
        #expect(try TypeMetadata(mangledName: try #require(storage.mangledName)) == storage)
        #expect(try TypeMetadata(named: "Builtin.FixedArray<4, Swift.Int>").size == 32)
    }

    @Test("Untrusted input")
    func untrustedInput() {
        let deep = String(repeating: "Swift.Optional<", count: 300) + "Swift.Int" + String(repeating: ">", count: 300)
        do {
            _ = try TypeMetadata(named: deep)
            Issue.record("a name nested 301 levels deep resolved")
        } catch .limitExceeded(let limit, let value, _) {
            #expect(limit == .nameNesting)  // limit.maximum == 256
            #expect(value == 301)
        } catch {
            Issue.record("unexpected \(error)")
        }
        #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(mangledName: "$SS_Sitc") }
    }

    @Test("Layout equality")
    func layoutEquality() {
        let point = Point(x: 1, y: 2, label: "p")
        #expect(TypeMetadata.layoutEquals(point, point))
        #expect(!TypeMetadata.layoutEquals(point, Point(x: 1, y: 2, label: "q")))
    }

    @Test("Conformances")
    func conformances() throws {
        let drawable = try ProtocolDescriptor((any Drawable).self)
        #expect(drawable.conformance(of: Circle.self) != nil)
        #expect(drawable.conformingTypes() == [TypeMetadata(Circle.self)])
        #expect(drawable.conformanceRecords().count == 1)
        #expect(TypeMetadata(Circle.self).conformances == [drawable])
        #expect(throws: RuntimeMetadataError.markerProtocol(name: "Swift.Sendable")) {
            try ProtocolDescriptor(named: "Swift.Sendable")
        }
        let held: any Hashable & CustomStringConvertible = 42
        typealias Held = any Hashable & CustomStringConvertible
        let contents = try ExistentialContents(of: held, as: Held.self)
        #expect(contents.dynamicType == TypeMetadata(Int.self))
        #expect(
            contents.conformances.map(\.protocolDescriptor.qualifiedName) == [
                "Swift.CustomStringConvertible", "Swift.Hashable",
            ]
        )
        #expect(try ExistentialContents.projectedValue(of: held, as: Held.self) as? Int == 42)
    }

    @Test("Opening an Any as a protocol, and visitors")
    func visitors() {
        var collector = Collector()
        let items: [Any] = [Circle(radius: 1), "not drawable", Circle(radius: 2)]
        for item in items { _ = DrawableProtocol.visit(item, with: &collector) }
        #expect(collector.drawings == ["circle 1.0", "circle 2.0"])

        let store = DrawableStore<Circle>()
        store.items = [Circle(radius: 1), Circle(radius: 2)]
        #expect(store.drawing(at: 1) == "circle 2.0")
    }

    @Test("Making values")
    func makingValues() throws {
        let settings = try TypeMetadata(Settings.self).makeInstance(
            ["name": "default", "retries": 3],
            fillingMissingFields: true,
            as: Settings.self
        )
        #expect(settings.name == "default" && settings.retries == 3 && settings.tags == [] && settings.proxy == nil)
        let pair = try TypeMetadata((Int, String).self).makeInstance(orderedValues: [1, "one"])
        let typedPair = try #require(pair as? (Int, String))
        #expect(typedPair.0 == 1 && typedPair.1 == "one")
        #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(Settings.self).makeInstance(["name": 7]) }
    }

    @Test("Walking and dumping values")
    func walkingValues() throws {
        let settings = Settings(name: "default", retries: 3, tags: [], proxy: nil)
        let node = ValueWalker().node(for: settings)
        #expect(
            node.children.map { "\($0.label ?? "-"): \($0.declaredType?.name ?? "?")" } == [
                "name: Swift.String", "retries: Swift.Int", "tags: Swift.Array<Swift.String>",
                "proxy: Swift.Optional<Swift.String>",
            ]
        )
        var labels: [String] = []
        ValueWalker().walk(settings) { visit in
            labels.append(visit.label ?? "root")
            return .visitChildren
        }
        #expect(labels == ["root", "name", "retries", "tags", "proxy"])
        #expect(node.label(ofChildAt: 1) == "retries")
        #expect(node.declaredType(ofChildAt: 1) == TypeMetadata(Int.self))
        #expect(node.child(at: 1, as: Int.self) == 3)
        #expect(ValueWalker().node(forChildAt: 2, of: node)?.childCount == 0)
        var text = ""
        ValueDump.dump(settings, to: &text)
        var expected = ""
        Swift.dump(settings, to: &expected)
        #expect(text == expected)
        #expect(text.hasPrefix("▿ "))
        let state = settings
        text = ""
        ValueDump.dump(state, to: &text, options: .stable)
        // A private type's anonymous context may be spelled with its address: not here.
        #expect(text == TextBufferOracle.withoutAddresses(expected))
        var renamed = settings
        renamed.name = "custom"
        #expect(ValueDump.diff(settings, renamed) == ".name\n  - \"default\"\n  + \"custom\"\n")
        #expect(ValueDump.differences(settings, renamed).map(\.path) == [".name"])
    }

    @Test("Plugins")
    func plugins() async {
        // In a child process: the probe forks, and the load is for ever.
        await #expect(processExitsWith: .success) {
            let core = try #require(Image.all.first { $0.fileName == "libswiftCore.so" })
            let path = core.path.replacingOccurrences(of: "libswiftCore.so", with: "libswift_Differentiation.so")
            let file = try Image.read(path)  // every record checked, nothing run
            let probe = try #require(try? Image.probe(path))  // a child process loads it
            #expect(probe.section(named: "swift5_protocol_conformances").map { $0.size > 0 } == true)
            try file.checkRegisteredSections(probe)  // those sections' records, in the file
            #expect(!Image.all.contains { $0.path == path })
            if probe.scanCompleted {
                let plugin = try #require(try? Image.load(path))
                #expect(!plugin.conformances.isEmpty)
            }
            #expect(Image.all.contains { $0.path == path })
        }
    }

    @Test("Plugins: reading a binary without running it")
    func readingFiles() throws {
        let core = try #require(Image.all.first { $0.fileName == "libswiftCore.so" })
        let app = try Image.read(core.path)  // copied and relocated, checked, never run
        var pairs: [String] = []
        for record in app.conformances {
            pairs.append(
                (record.typeDescriptor?.portableName ?? "?") + ": " + (record.protocolDescriptor?.portableName ?? "?")
            )
        }
        #expect(pairs.contains("Swift.Int: Swift.Hashable"))
        let fields = app.typeDescriptors.first { $0.portableName == "Swift.ObjectIdentifier" }?.fieldRecords
        #expect(fields?.map(\.name) == ["_value"])
        #expect(fields?.first?.typeName == "Builtin.RawPointer")
        #expect(!app.isLoaded)
        #expect(app.typeDescriptors.allSatisfy { $0.metadata == nil })
    }
}
