// RuntimeMirrorTests.swift
//
// RuntimeMirror against Swift.Mirror, the oracle: for every fixture with a sample value and
// for values of every kind Mirror shows, the two trees are printed the same way (subject types,
// display styles, labels, child types, superclass chains, descendants) and compared.

import Fixtures
import Foundation
import Testing

@testable import RuntimeMetadata

/// Whether a child is a function, which neither mirror reflects further.
private func isFunction(_ value: Any) -> Bool {
    "\(type(of: value))".contains("->")
}

/// What a mirror shows, as lines: subject type, style, each child's label and type, then the
/// superclass mirror, recursively to `depth` levels of children.
private func tree(_ mirror: Mirror, depth: Int, indent: String = "") -> [String] {
    var lines = [
        "\(indent)\(mirror.subjectType) \(mirror.displayStyle.map { "\($0)" } ?? "-") \(mirror.children.count)"
    ]
    for child in mirror.children {
        lines.append("\(indent)  \(child.label ?? "_"): \(type(of: child.value))")
        if depth > 0, !isFunction(child.value) {
            lines += tree(Mirror(reflecting: child.value), depth: depth - 1, indent: indent + "    ")
        }
    }
    if let superclass = mirror.superclassMirror {
        lines += ["\(indent)super:"] + tree(superclass, depth: depth, indent: indent)
    }
    return lines
}

/// The same lines from a RuntimeMirror, reflected again at each child as Mirror is.
private func tree(_ mirror: RuntimeMirror, depth: Int, indent: String = "") -> [String] {
    var lines = [
        "\(indent)\(mirror.subjectType) \(mirror.displayStyle.map { "\($0)" } ?? "-") \(mirror.children.count)"
    ]
    for child in mirror.children {
        lines.append("\(indent)  \(child.label ?? "_"): \(type(of: child.value))")
        if depth > 0, !isFunction(child.value) {
            lines += tree(RuntimeMirror(reflecting: child.value), depth: depth - 1, indent: indent + "    ")
        }
    }
    if let superclass = mirror.superclassMirror {
        lines += ["\(indent)super:"] + tree(superclass, depth: depth, indent: indent)
    }
    return lines
}

/// A base class whose mirror is a leaf's, and two subclasses.
private class LeafBase: CustomLeafReflectable {
    var x = 1
    var customMirror: Mirror { Mirror(self, children: ["x": x]) }
    /// The base's own mirror, as a subclass's `.customized` ancestor names it.
    var baseMirror: Mirror { Mirror(self as LeafBase, children: ["x": x]) }
}
private class LeafMiddle: LeafBase { var y = 2 }
private final class LeafDerived: LeafMiddle { var z = 3 }

/// A stored class metatype holding a subclass.
private struct HoldsClassMetatype {
    var kind: StoredFormBase.Type = StoredFormSubclass.self
}

/// The first line where two trees differ, or `nil`.
private func firstDifference(_ value: Any, depth: Int = 3) -> String? {
    let expected = tree(Mirror(reflecting: value), depth: depth)
    let actual = tree(RuntimeMirror(reflecting: value), depth: depth)
    guard expected != actual else { return nil }
    let index =
        zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(expected.count, actual.count)
    let want = index < expected.count ? expected[index] : "(end)"
    let got = index < actual.count ? actual[index] : "(end)"
    return "\(type(of: value)) line \(index): Mirror \(want) | RuntimeMirror \(got)"
}

private struct Point: Equatable {
    var x: Int
    var y: Int
}

private indirect enum Expression {
    case number(Int)
    case sum(Expression, Expression)
    case empty
}

private class Animal {
    var name = "animal"
    var legs = 4
}

private class Dog: Animal {
    var breed = "mixed"
    weak var friend: Animal?
    unowned var owner: Animal
    init(owner: Animal) {
        self.owner = owner
    }
}

private final class Puppy: Dog {
    var age = 1
}

private struct Shapes {
    var callback: (Int) -> Int = { $0 }
    var metatype: Any.Type = Int.self
    var existential: Any = 5
    var optional: Int? = 3
    var tuple = (1, label: "two")
}

private actor Counter {
    var count = 0
}

/// A class with a custom mirror, and a subclass that inherits the conformance.
private class Reflected: CustomReflectable {
    var customMirror: Mirror { Mirror(self, children: ["r": 1]) }
}

private final class ReflectedSubclass: Reflected {
    var extra = 2
}

/// A type with a custom mirror at an inner level.
private struct Custom: CustomReflectable {
    var hidden = 1
    var customMirror: Mirror { Mirror(self, children: ["shown": 2, "also": "x"], displayStyle: .struct) }
}

@Suite("RuntimeMirror against Mirror")
struct RuntimeMirrorTests {
    @Test("Every fixture's sample: the same tree as Mirror's", arguments: Fixtures.all.filter { $0.sample != nil })
    func fixtures(_ fixture: FixtureCase) throws {
        let sample = try #require(fixture.sample)
        let value = sample()
        #expect(firstDifference(value) == nil)
    }

    @Test("Values of every kind Mirror shows: the same tree")
    func kinds() {
        let owner = Animal()
        let dog = Dog(owner: owner)
        dog.friend = owner
        let values: [Any] = [
            Point(x: 1, y: 2), (1, "a"), (x: 1, y: "b"), Expression.sum(.number(1), .number(2)), Expression.empty,
            Optional(Point(x: 3, y: 4)) as Any, Optional<Int>.none as Any, [1, 2, 3], ContiguousArray([1.5]),
            [4, 5, 6][1...], ["a": 1, "b": 2], Set(["x", "y"]), dog, Puppy(owner: owner), Shapes(), Counter(),
            "text", Substring("sub"), "static" as StaticString, Character("c"), 42, 2.5, true, Int.self,
            Custom(), [Custom()], Date(timeIntervalSince1970: 0), URL(string: "https://example.com")!, Data([1, 2]),
            UUID(uuidString: "00000000-0000-0000-0000-000000000000")!, ReflectedSubclass(), [Reflected()],
        ]
        for value in values {
            #expect(firstDifference(value) == nil)
        }
        withExtendedLifetime(owner) {}
    }

    @Test("Iterating children, in generic code too, gives what indexing gives and Mirror lists")
    func iteration() {
        /// Each child as a line, read through `Sequence` only.
        func lines<S: Sequence>(_ children: S) -> [String] where S.Element == Mirror.Child {
            children.map { "\($0.label ?? "_"): \(type(of: $0.value))" }
        }
        let owner = Animal()
        let values: [Any] = [
            Point(x: 1, y: 2), (1, "a"), Expression.sum(.number(1), .number(2)), Optional(Point(x: 3, y: 4)) as Any,
            [1, 2, 3], ["a": 1], Dog(owner: owner), Puppy(owner: owner), Custom(), 42, Shapes(),
        ]
        for value in values {
            let children = RuntimeMirror(reflecting: value).children
            let indexed = children.indices.map { "\(children[$0].label ?? "_"): \(type(of: children[$0].value))" }
            #expect(lines(children) == indexed, "\(type(of: value))")
            var iterator = children.makeIterator()
            var count = 0
            while iterator.next() != nil { count += 1 }
            #expect(count == children.count && iterator.next() == nil)
            // Dictionary order is the dictionary's, the same in both mirrors of one value.
            #expect(lines(children) == lines(Mirror(reflecting: value).children), "\(type(of: value))")
        }
        withExtendedLifetime(owner) {}
    }

    @Test("A noncopyable child is an empty value; a function child has its type")
    func unavailableChildren() {
        // A class's stored property of a generic parameter bound to an optional noncopyable
        // type: no copy can be made, and it holds no function.
        let holding = Holding<Ticket?>(Ticket())
        let children = Array(RuntimeMirror(reflecting: holding).children)
        #expect(children.map(\.label) == ["held", "count"])
        #expect(!(children[0].value is WithheldFunction))
        #expect(children[1].value as? Int == 3)
        #expect(RuntimeMirror(reflecting: Shapes()).children.first?.value is (Int) -> Int)
    }

    @Test("A class metatype holding a subclass, and Float80: the same tree as Mirror's")
    func metatypesAndFloat80() {
        let metatype: StoredFormBase.Type = StoredFormSubclass.self
        #expect(RuntimeMirror(reflecting: metatype).subjectType is StoredFormSubclass.Type.Type)
        #expect(firstDifference(metatype) == nil)
        #expect(firstDifference(HoldsClassMetatype()) == nil)
        #expect(firstDifference(HoldsClassMetatype().kind as Any.Type) == nil)
        #if arch(x86_64) || arch(i386)
        #expect(RuntimeMirror(reflecting: Float80(1.5)).displayStyle == nil)
        #expect(firstDifference(Float80(1.5)) == nil)
        #expect(firstDifference((Float80(2), 1)) == nil)
        #endif
    }

    @Test("Subject types: Substring and StaticString report String, as Mirror says")
    func textTypes() {
        #expect(RuntimeMirror(reflecting: Substring("a")).subjectType is String.Type)
        #expect(RuntimeMirror(reflecting: "a" as StaticString).subjectType is String.Type)
        #expect(RuntimeMirror(reflecting: Character("a")).subjectType is Character.Type)
    }

    @Test("descendant follows labels and positions as Mirror's does")
    func descendants() {
        struct Order {
            var lines: [Point]
            var note: String?
        }
        let order = Order(lines: [Point(x: 1, y: 2), Point(x: 3, y: 4)], note: "n")
        let mirror = Mirror(reflecting: order)
        let runtime = RuntimeMirror(reflecting: order)
        #expect(runtime.descendant("lines", 1, "y") as? Int == mirror.descendant("lines", 1, "y") as? Int)
        #expect(runtime.descendant("note", "some") as? String == "n")
        #expect(runtime.descendant("lines", 2) == nil && mirror.descendant("lines", 2) == nil)
        #expect(runtime.descendant("nothing") == nil)
        #expect(runtime.descendant(0, 0, "x") as? Int == 1)
    }

    @Test("Explicit initializers: children, styles and ancestors as Mirror's")
    func explicit() {
        let owner = Animal()
        let puppy = Puppy(owner: owner)
        let generated = RuntimeMirror(puppy, children: ["age": 1], displayStyle: .class)
        let standard = Mirror(puppy, children: ["age": 1], displayStyle: .class)
        #expect(tree(generated, depth: 1) == tree(standard, depth: 1))
        let suppressed = RuntimeMirror(puppy, unlabeledChildren: [1, 2], ancestorRepresentation: .suppressed)
        #expect(suppressed.superclassMirror == nil && suppressed.children.map(\.label) == [nil, nil])
        // A custom ancestor two levels up: the level between is generated.
        let custom = Mirror(owner, children: ["custom": true])
        let customized = RuntimeMirror(puppy, children: ["age": 1], ancestorRepresentation: .customized { custom })
        let oracle = Mirror(puppy, children: ["age": 1], ancestorRepresentation: .customized { custom })
        #expect(tree(customized, depth: 0) == tree(oracle, depth: 0))
        #expect(RuntimeMirror(reflecting: 1).description == Mirror(reflecting: 1).description)
        #expect(RuntimeMirror(Mirror(reflecting: Point(x: 1, y: 2))).children.map(\.label) == ["x", "y"])
    }

    @Test("A custom ancestor made for a CustomLeafReflectable base stands for every class above")
    func leafAncestors() {
        let value = LeafDerived()
        let ancestor = { value.baseMirror }
        let ours = RuntimeMirror(value, children: ["z": 3], ancestorRepresentation: .customized(ancestor))
        let theirs = Mirror(value, children: ["z": 3], ancestorRepresentation: .customized(ancestor))
        // Mirror's superclass mirror is the ancestor itself, not a generated `LeafMiddle`.
        #expect(theirs.superclassMirror?.subjectType == LeafBase.self)
        #expect(ours.superclassMirror?.subjectType == LeafBase.self)
        #expect(tree(ours, depth: 1) == tree(theirs, depth: 1))
        // An ancestor of a base that is not a leaf: the level between is generated, as before.
        let plain = { Mirror(value as LeafMiddle, children: ["y": 2]) }
        #expect(
            tree(RuntimeMirror(value, children: [:], ancestorRepresentation: .customized(plain)), depth: 1)
                == tree(Mirror(value, children: [:], ancestorRepresentation: .customized(plain)), depth: 1)
        )
        #expect(RuntimeMirror.suppressesDescendants(value.baseMirror))
        #expect(!RuntimeMirror.suppressesDescendants(Mirror(reflecting: 1)))
    }

    @Test("Children are made from any collection of children, as Mirror.Children is")
    func childrenFromCollections() {
        let mirror = RuntimeMirror(reflecting: Point(x: 1, y: 2))
        let sorted = RuntimeMirror.Children(mirror.children.sorted { ($0.label ?? "") > ($1.label ?? "") })
        #expect(sorted.map(\.label) == ["y", "x"])
        #expect(sorted[0].value as? Int == 2 && sorted.indices == 0..<2)
        let standard = Mirror.Children(Mirror(reflecting: Point(x: 1, y: 2)).children.reversed())
        #expect(RuntimeMirror.Children(standard).map(\.label) == standard.map(\.label))
        #expect(RuntimeMirror.Children([Mirror.Child]()).isEmpty)
        // As swift-snapshot-testing's `sort` writes it, with the alias: `Mirror.Children(array)`.
        typealias Mirror = RuntimeMirror
        func sort(_ children: Mirror.Children) -> Mirror.Children {
            .init(children.map { $0 }.sorted { ($0.label ?? "") < ($1.label ?? "") })
        }
        let explicit = Mirror(Point(x: 1, y: 2), children: sort(sorted))
        #expect(explicit.children.map(\.label) == ["x", "y"])
    }

    @Test("Random values nested in random containers: the same tree as Mirror's, the same descendants")
    func fuzz() {
        var generator = SplitMix64(state: 0x3133_0001)
        let owner = Animal()
        let leaves: [() -> Any] = [
            { 7 }, { "text" }, { 2.5 }, { true }, { Point(x: 1, y: 2) }, { Expression.number(3) }, { Expression.empty },
            { Dog(owner: owner) }, { Custom() }, { Character("x") }, { Int8(3) }, { [UInt8]() }, { Shapes() },
            { Optional<String>.none as Any }, { Substring("s") }, { Int.self },
        ]
        func value(depth: Int) -> Any {
            guard depth > 0 else { return leaves.randomElement(using: &generator)!() }
            let inner = value(depth: depth - 1)
            switch Int.random(in: 0..<8, using: &generator) {
            case 0: return [inner, value(depth: depth - 1)]
            case 1: return Optional(inner) as Any
            case 2: return (inner, label: value(depth: depth - 1))
            case 3: return ["k": inner]
            case 4: return Holder<Any>(inner)
            case 5: return Expression.sum(.number(1), .empty) as Any
            case 6: return [inner][...]
            default: return inner
            }
        }
        var compared = 0
        for _ in 0..<400 {
            let sample = value(depth: Int.random(in: 0...4, using: &generator))
            #expect(firstDifference(sample, depth: 4) == nil)
            // A random path of positions, followed by both.
            let path = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
                Int.random(in: 0..<3, using: &generator)
            }
            let mirror = Mirror(reflecting: sample)
            let runtime = RuntimeMirror(reflecting: sample)
            let (expected, actual): (Any?, Any?) =
                switch path.count {
                case 1: (mirror.descendant(path[0]), runtime.descendant(path[0]))
                case 2: (mirror.descendant(path[0], path[1]), runtime.descendant(path[0], path[1]))
                default: (mirror.descendant(path[0], path[1], path[2]), runtime.descendant(path[0], path[1], path[2]))
                }
            #expect((expected == nil) == (actual == nil), "\(path) in \(type(of: sample))")
            if let expected, let actual { #expect("\(type(of: expected))" == "\(type(of: actual))") }
            compared += 1
        }
        #expect(compared == 400)
        withExtendedLifetime(owner) {}
    }
}
