// Swift5ClientTests.swift
//
// The public API called from a client compiled in the Swift 5 language mode (the Swift5Client
// target), each in a child process: reads and writes through existential roots, diffs,
// visitors, opening, instances, nodes, comparison and case names.

import Fixtures
import RuntimeMetadata
import Swift5Client
import Testing

@Suite("Swift 5 clients")
struct Swift5ClientTests {
    @Test("A Swift 5 client writes and reads through a plain Any and an any P")
    func swift5Roots() async {
        await #expect(processExitsWith: .success) {
            let written = try Swift5Client.writeThroughAny()
            #expect(written.read == 5)
            #expect(written.held == 5)
            #expect(try Swift5Client.readThroughExistential() == 11)
            #expect(try Swift5Client.writeClassThroughAny() == "after")
            let shared = try Swift5Client.writeSharedBox()
            #expect(shared.written == 7)
            #expect(shared.copy == 1)
            #expect(shared.read == 7)
            let opened = try Swift5Client.openOptional()
            #expect(opened.library == opened.cast)
            #expect(opened.library)
        }
    }

    @Test("A Swift 5 client diffs from generic code, walks a closure's tuple, and resolves a builtin")
    func swift5DiffAndBuiltins() throws {
        let result = try Swift5Client.diffAndBuiltins()
        #expect(result.paths == [".confirm.title", ".shape.y", ".heading"])
        #expect(result.title == "Remove?")
        #expect(result.dumped.contains("- title: \"Remove?\"") && result.dumped.contains("- action: (Function)"))
        #expect(result.builtinRoundTrips)
    }

    @Test("A Swift 5 client lends values to a stored visitor closure, and store elements in place")
    func swift5StoredVisitorAndInPlace() throws {
        let result = try Swift5Client.lendToStoredVisitorAndInPlace()
        let values: [Any] = [Point(x: 1, y: 2), BaseClass(baseValue: 1, baseName: "base"), WideValue(), "no"]
        #expect(result.visited == values.map { ($0 as? any Describable)?.describe() })
        #expect(result.stored == [Point(x: 3, y: 4).describe(), Point(x: 5, y: 6).describe()])
    }

    @Test("A Swift 5 client opens values in Any, reads a constrained existential's container and names its metatype")
    func swift5OpenContentsAndNames() async {
        // Naming the metatype crashes the runtime's own printer, so this runs in a child process.
        await #expect(processExitsWith: .success) {
            let result = try Swift5Client.openContainAndName()
            let values: [Any] = [Point(x: 1, y: 2), BaseClass(baseValue: 1, baseName: "base"), CompassDirection.east]
            let cast = values.map { ($0 as? any Describable)?.describe() }
            #expect(Array(result.described.prefix(3)) == cast)
            #expect(result.described[3] == [Point(x: 3, y: 4)].describe())
            #expect(result.described[4] == nil)
            #expect(result.sameObject)
            #expect(result.uniqueAfterwards)
            #expect(result.dynamicType == String(reflecting: [Int].self))
            #expect(result.protocols == ["Swift.Sequence"])
            #expect(result.metatypeName == "Swift.Array<any Swift.Sequence<Swift.Int>.Type>")
        }
    }

    @Test("A Swift 5 client makes instances from values in Any and walks them")
    func swift5InstancesAndWalks() throws {
        let made = try Swift5Client.makeAndWalk()
        #expect(made.point == Point(x: 3, y: 4))
        #expect(made.label == "made")
        // The optional root, its `some`, and the point's two properties.
        #expect(made.parts == [nil, "some", "x", "y"])
    }

    @Test("A Swift 5 client reads children as nodes of their own, as Mirror reads them")
    func swift5ChildNodes() {
        let result = Swift5Client.childNodes()
        #expect(result.walker == result.mirror)
        #expect(result.walker.map(\.count) == [4, 1, 2, 2, 2, 0])
    }

    @Test("A Swift 5 client reflects values in Any through RuntimeMirror from generic code, as Mirror does")
    func swift5Mirrors() {
        let result = Swift5Client.mirrors()
        #expect(result.runtime == result.mirror)
        #expect(result.runtime.count == 7)
    }

    @Test("A Swift 5 client compares, reads as Any and names cases of values held in Any")
    func swift5EqualityFieldsAndCases() throws {
        let result = try Swift5Client.compareReadAndName()
        // Equal points, a NaN against itself, a tuple holding a NaN, different points.
        #expect(result.equal == [true, false, false, false])
        #expect(result.fieldsAsAny == [7, 1])
        #expect(result.caseName == "pair")
        #expect(result.sequenceChildren == 3)
    }
}
