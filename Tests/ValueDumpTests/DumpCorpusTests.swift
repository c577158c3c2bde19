// DumpCorpusTests.swift
//
// ValueDump.dump against Swift.dump on a wider corpus of the values the compiler and the
// standard library produce: lazy storage and property wrappers (`$__lazy_storage_$_` and `_`
// names), closures of every convention, generic classes and nested generic types, local types,
// actors, indirect and generic enums, deep optionals, floating-point specials, 128-bit integers,
// lazy and wrapped collections, key paths, metatypes of compositions, opaque result types,
// errors, and Foundation values. `Data` is left out: its custom mirror shows the address of a
// copy it makes, which differs between any two dumps.

import FixturesWithoutReflection
import Foundation
import RuntimeMetadata
import Testing
import ValueDump

private struct Lazy {
    lazy var computed: Int = 3
    var plain = 1
}

@propertyWrapper private struct Clamped { var wrappedValue: Int; var projectedValue: String { "p" } }
private struct Wrapped { @Clamped var value = 3; var f: () -> Int = { 1 }; var g: ((Int) -> Int)? = nil }

private class Base<T> { var base: T; init(_ t: T) { base = t } }
private final class Derived: Base<String> {
    var own = 2; weak var weakSelf: Derived?; unowned var un: Base<String>
    let keep = Base("u")
    init() { un = keep; super.init("b"); weakSelf = self }
}
private indirect enum Tree { case leaf(Int), node(Tree, Tree), empty }
private enum Raw: String { case a = "x", b }
private enum Gen<T, U> { case one(T), two(U, T), none }
private actor Counter { var count = 1 }
private struct Empty {}

private struct Outer<T> { struct Inner<U> { var t: T; var u: U }; enum Kind { case a(T), b } }
private protocol P1 {}; private protocol P2 {}
extension Int: P1, P2 {}
private func opaque() -> some Equatable { Outer<Int>.Inner(t: 1, u: "x").u }
private struct ManyFields {
    var a0 = 0, a1 = 1, a2 = 2, a3 = 3, a4 = 4, a5 = 5, a6 = 6, a7 = 7, a8 = 8, a9 = 9, b0 = "b0", b1: [Int]? = nil,
        b2 = (1, 2, 3, 4, 5, 6, 7, 8)
}
private final class Node { var next: Node?; var value: Int; init(_ v: Int, _ n: Node?) { value = v; next = n } }
private struct Functions {
    var c: @convention(c) (Int32) -> Int32 = { $0 }
    var s: @Sendable () -> Void = {}
    var m: @MainActor () -> Void = {}
    var thin: @convention(thin) () -> Void = {}
    var gen: ([Int]) throws -> Int? = { $0.first }
}

/// Custom mirrors with chains of superclass mirrors, customized and generated.
private class MirroredBase: CustomReflectable {
    var a = 1
    var customMirror: Mirror { Mirror(self, children: ["a": a, "pair": [1, 2]], displayStyle: .class) }
}
private class MirroredChild: MirroredBase {
    var b = "b"
    override var customMirror: Mirror {
        Mirror(
            self,
            children: ["b": b],
            displayStyle: .class,
            ancestorRepresentation: .customized { super.customMirror }
        )
    }
}
private final class MirroredGrandchild: MirroredChild {
    override var customMirror: Mirror {
        Mirror(self, children: [], ancestorRepresentation: .customized { super.customMirror })
    }
}
private class PlainBase { var base = [3, 4] }
private final class GeneratedChild: PlainBase, CustomReflectable {
    var customMirror: Mirror { Mirror(self, children: ["own": 5], ancestorRepresentation: .generated) }
}
/// Three class levels, the middle one without stored properties, and optional functions.
private class Level0 { var x = 0; var callback: (() -> Void)? = {} }
private class Level1: Level0 {}
private final class Level2: Level1 { var y = [[1, 2], [3]]; var none: (() -> Void)? = nil; var f: () -> Int = { 1 } }

/// Values without a description, which `debugPrint` writes from their mirrors.
private enum Listing { case draft, listed(at: Int), sold(buyer: String, price: Double), tagged(String) }
private enum Wrapping {
    case pair(Int, (x: Int, String)), boxed(Lazy), maybe(Int?), object(Level0), nested(Listing?), kind(Any.Type)
    case any(Any), function(() -> Int), custom(MirroredBase), mixed(a: Int, Int, c: [Int])
}
private indirect enum Chain { case end, link(Int, Chain) }
private struct Summarized {
    var name = "n"
    var point = (x: 1, 2)
    var listing = Listing.sold(buyer: "b", price: 2.5)
    var flags: [Bool] = [true]
    var inner = Lazy()
    var object = Level0()
    var kind: Any.Type = Int.self
    var maybe: Listing? = .listed(at: 3)
    var empty = Empty()
}
private struct WithFunction { var f: (Int) -> Int = { $0 } }
private struct WithCustom { var m = MirroredBase() }

/// Expects each value's dump to be the standard library's, naming the values that differ.
private func expectSameDumps(_ values: [Any], sourceLocation: SourceLocation = #_sourceLocation) {
    for (index, value) in values.enumerated() {
        var mirror = ""
        Swift.dump(value, to: &mirror)
        var ours = ""
        ValueDump.dump(value, to: &ours)
        #expect(
            ours == mirror,
            "value \(index), \(type(of: value)):\nValueDump:\n\(ours)\nMirror:\n\(mirror)",
            sourceLocation: sourceLocation
        )
    }
}

@Suite("ValueDump against Swift.dump: the wider corpus")
struct ValueDumpCorpusTests {
    @Test("nested generic and local types, existentials, metatypes, functions, cycles, errors")
    func compilerTypes() {
        func local() -> Any { struct LocalType<T> { var x: T }; return LocalType(x: [1]) }
        let ring = Node(1, nil); ring.next = Node(2, ring)
        let values: [Any] = [
            Outer<Int>.Inner(t: 1, u: "s"), Outer<String>.Kind.a("z"), Outer<Int>.Kind.b,
            (1 as any P1) as Any, (any P1 & P2).self, (any P1.Type).self, opaque(), ManyFields(), ring,
            Int??????.some(.some(.some(nil))) as Any, local(), Functions(), NSError(domain: "d", code: 3),
            CocoaError(.fileNoSuchFile) as any Error, Never?.none as Any, [Never](),
            Result<Int, any Error>.failure(CocoaError(.coderInvalidValue)),
            (Int, String).self, ((Int) -> Void).self, Optional<Int>.self, AnyObject.self, [ring, ring],
        ]
        expectSameDumps(values)
        // The ring is the test's own cycle: broken so that its nodes go (LeakSanitizer would
        // report them).
        ring.next = nil
    }

    @Test("storage the compiler names, actors, enums, numbers, collections, Foundation values")
    func standardValues() {
        let values: [Any] = [
            Lazy(), Wrapped(), Derived(), Tree.node(.leaf(1), .node(.empty, .leaf(2))), Raw.b,
            Gen<Int, String>.two("s", 1),
            Gen<Int, String>.none, Counter(), Empty(), (), (a: 1, 2, c: (3, d: 4)),
            Float.nan, -0.0, Double.infinity, Float80(1.5), Int8.min, UInt64.max, Int.min, Int.max, -1, 0, 9, 10,
            -10, 99, 100, [Int.min, -7, 0, 1_000_000] as Any, (Int.max, a: Int.min),
            Character("🇩🇪"), Unicode.Scalar(65)!, "abc"[...], StaticString("st"),
            0..<3, 1...4, [Int](), [String: Int](), Set<String>(),
            Optional<Any>.some(Optional<Int>.none as Any) as Any, Int??.some(nil) as Any,
            [1, nil, 3] as [Int?], ["a": nil] as [String: Int?],
            \Lazy.plain, ObjectIdentifier(Empty.self), AnyHashable(3), AnyHashable("s"),
            SIMD4<Float>(1, 2, 3, 4), Duration.seconds(2), Int.self, (any Equatable).self,
            Date(timeIntervalSince1970: 0), UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            URL(string: "https://a.b/c?d=1")!, Decimal(12.5), NSNumber(value: 3),
            "multi\nline\t\"quoted\" \u{0}", String(repeating: "x", count: 100),
            [1: [2: [3: "deep"]]], ContiguousArray([1.5]), [[Any]]([[1, "a"], []]),
            (1, "a") as Any, Result<Int, CocoaError>.success(1), Mirror.DisplayStyle.struct,
            UnsafePointer<Int>(bitPattern: 0x1000)!, OpaquePointer(bitPattern: 0x2000)!,
            Int128(5), UInt128.max, [Int8](repeating: 1, count: 3), "é".unicodeScalars, "ab".utf8,
            CollectionOfOne(1), EmptyCollection<Int>(), repeatElement(1, count: 2), [1, 2].reversed(),
            [3, 4].lazy.map { $0 },
            [5, 6].enumerated(), zip([1], ["a"]), stride(from: 0, to: 4, by: 2),
            KeyValuePairs(dictionaryLiteral: ("k", 1)),
            // Optionals whose wrapped value has a description, and ones whose has none.
            Lazy?.some(Lazy()) as Any, Raw?.some(.a) as Any, Derived?.some(Derived()) as Any,
            Double?.some(.nan) as Any, Optional(NSNumber(value: 2)) as Any, Optional([1, 2]) as Any,
            Optional("q\"uote") as Any, Optional(Character("x")) as Any, Optional((1, "t")) as Any,
            // Metatypes in optionals, which `dump` numbers on the optional's line too.
            Optional(Int.self) as Any, Optional.some(Optional(Empty.self)) as Any, Optional<Any>.some(Lazy.self) as Any,
            [Optional(Lazy.self), Optional(Lazy.self)] as Any, Optional<Any>.some(1) as Any,
        ]
        expectSameDumps(values)
    }

    @Test("optionals of values without a description, written as debugPrint writes them")
    func debugPrintedSummaries() {
        var chain = Chain.end
        for index in 0..<100 { chain = .link(index, chain) }
        let values: [Any] = [
            Listing.draft, Listing.listed(at: 3), Listing.sold(buyer: "b", price: 0.1), Listing.tagged("t\"q"),
            Wrapping.pair(1, (x: 2, "s")), Wrapping.boxed(Lazy()), Wrapping.maybe(nil), Wrapping.maybe(4),
            Wrapping.object(Level2()), Wrapping.nested(.listed(at: 1)), Wrapping.nested(nil), Wrapping.kind(Int?.self),
            Wrapping.any(Listing.draft), Wrapping.any((1, b: "2")), Wrapping.function({ 1 }),
            Wrapping.custom(MirroredChild()),
            Wrapping.mixed(a: 1, 2, c: [3]), Summarized(), WithFunction(), WithCustom(), Empty(), (1, (a: 2, "3")),
            (a: Listing.draft, b: Optional(Listing.tagged("x"))), Listing??.some(.some(.draft)) as Any,
            Listing??.some(nil) as Any,
            Chain.link(1, .link(2, .end)), chain, Gen<Listing, Int>.two(3, .draft), Outer<Listing>.Kind.a(.draft),
            UnreflectedEnum?.none as Any, UnreflectedEnum.alpha(1), UnreflectedEnum.beta,
            UnreflectedStruct(first: 1, second: "s"), UnreflectedClass(),
            UnreflectedEmptyStruct(), (any P1).self, Level0.self, [Listing.draft], ["k": Listing.listed(at: 1)],
        ]
        // Each value as an optional's payload, and inside a struct's optional field: the
        // summaries of both lines are the wrapped value as `debugPrint` writes it.
        expectSameDumps(values)
        expectSameDumps(values.map { Optional.some($0) as Any })
        expectSameDumps(values.map { [Optional.some($0)] as Any })
    }

    @Test("every cut: each value at every item budget and every depth limit")
    func everyCut() {
        let values: [Any] = [
            MirroredChild(), MirroredGrandchild(), GeneratedChild(), Level2(), Wrapped(), [[1, 2], [], [3]],
            ["k": [1, 2]],
            Set([1]), (a: 1, (2, [3, 4])), Tree.node(.leaf(1), .node(.empty, .leaf(2))),
            Gen<[Int], String>.two("s", [1, 2]), [MirroredChild(), MirroredChild()], ManyFields(),
        ]
        for (index, value) in values.enumerated() {
            var full = ""
            Swift.dump(value, to: &full)
            let lines = full.split(separator: "\n").count
            for maxItems in 0...lines + 1 {
                for maxDepth in 0...6 {
                    var mirror = ""
                    Swift.dump(value, to: &mirror, maxDepth: maxDepth, maxItems: maxItems)
                    var ours = ""
                    ValueDump.dump(value, to: &ours, maxDepth: maxDepth, maxItems: maxItems)
                    #expect(
                        ours == mirror,
                        "value \(index), maxItems \(maxItems), maxDepth \(maxDepth):\n\(ours)\nMirror:\n\(mirror)"
                    )
                }
            }
        }
    }
}
