// PublicAPIFuzzTests.swift
//
// The fuzz targets of RuntimeMetadata's public API (names, mangled names, field writes, enum
// payloads, instances, nested shapes), run by TestSupport's `FuzzRun`: deterministic, bounded,
// each in a child process. Every input must either succeed or throw a typed
// `RuntimeMetadataError`, and a failed write must leave the value as it was.

import Fixtures
import Foundation
import TestSupport
import Testing
import ValueDump

@testable import RuntimeMetadata

/// Mutations of text: replacing, inserting, repeating and cutting pieces.
enum Mutator {
    static func mutate(_ text: String, tokens: [String], using generator: inout SplitMix64) -> String {
        var bytes = Array(text.utf8)
        let steps = Int.random(in: 1...4, using: &generator)
        for _ in 0..<steps {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0...bytes.count, using: &generator)
            let token = Array(tokens.randomElement(using: &generator)!.utf8)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0:
                bytes.insert(contentsOf: token, at: position)
            case 1:
                let end = min(bytes.count, position + Int.random(in: 0...4, using: &generator))
                bytes.replaceSubrange(position..<end, with: token)
            case 2:
                let end = min(bytes.count, position + Int.random(in: 0...8, using: &generator))
                bytes.removeSubrange(position..<end)
            case 3:
                // Nesting: repeat a piece many times.
                let count = [2, 10, 100, 300, 2_000].randomElement(using: &generator)!
                bytes.insert(contentsOf: Array(repeating: token, count: count).joined(), at: position)
            case 4:
                bytes = Array(bytes.prefix(position))
            default:
                bytes.insert(UInt8.random(in: 0x20...0x7E, using: &generator), at: position)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Human names to start from.
let nameCorpus: [String] =
    Fixtures.all.map(\.name) + [
        "Swift.Int", "Swift.Dictionary<Swift.String, Swift.Array<Swift.Int>>", "(x: Swift.Int, Swift.String)",
        "Swift.Optional<Swift.Int>", "[Swift.Int: Swift.String]", "Swift.Int?", "Swift.Equatable & Swift.Hashable",
        "Swift.Int.Type", "Fixtures.FixtureProtocol.Protocol", "Swift.InlineArray<3, Swift.Int>",
        "Fixtures.PackStruct<Pack{Swift.Int, Swift.String}>", "(Swift.Int) -> Swift.String",
        "Builtin.Int64", "Builtin.FixedArray<4, Swift.Int>", "(Builtin.RawPointer, Builtin.Vec2xFPIEEE64)",
    ]

/// Pieces of names to mutate with.
let nameTokens: [String] = [
    "<", ">", "(", ")", ",", ".", ":", "&", "?", "!", "[", "]", "{", "}", " ", "`", "$", "->", "async ", "throws ",
    "inout ", "Swift.Int", "Swift.Optional<", "Swift.Array<", "Pack{", ".Type", ".Protocol", "any ", "@Sendable ",
    "-1", "0", "9223372036854775807", "(unknown context at $0)", "(extension in Swift):", "é", "\u{0}", "Fixtures.",
    "Swift.InlineArray<", "Fixtures.NoncopyableStruct", "Swift.AnyObject", "Any", "`a b`", "Builtin.FixedArray<",
    "Builtin.Int64", "Builtin.Vec4xInt32", "Builtin.",
]

/// Pieces of mangled names to mutate with.
let mangledTokens: [String] = [
    "$", "$2", "$2_", "$s", "_", "y", "G", "t", "c", "Sg", "Sa", "SD", "Si", "SS", "Sq", "x", "q_", "qd__", "Qz",
    "A", "AA", "Xp", "m", "p", "Bi64_", "0", "9", "99999", "Yb", "YaK", "z", "XSq", "SH_p", "_p", "Xl", "Xc",
    "8Fixtures", "5PointV", "C", "V", "O", "P", "a", "XZ", "13$0", "BV", "Bp", "Bf64_", "Bv4_", "$3_", "$_",
]

/// Returns its argument as `Any` from generic code: a container of a container for `T == Any`.
private func fuzzWrapped<T>(_ value: T) -> Any { value }

/// Makes a value of enum `E` from a random case name and payload, and reads it back.
private func fuzzEnum<E>(_: E.Type, _ run: inout FuzzRun, _ generator: inout SplitMix64, payloads: [Any?]) {
    let metadata = TypeMetadata(E.self)
    let names = ((try? metadata.cases) ?? []).map(\.name) + ["", "nope", "some", "none"]
    let name = names.randomElement(using: &generator)!
    let payload = payloads.randomElement(using: &generator)!
    run.attempt("\(metadata.name).\(name)(\(payload.map { "\(Swift.type(of: $0))" } ?? "nil"))")
    do {
        let value: E = try metadata.makeValue(case: name, payload: payload)
        run.resolved += 1
        #expect(try metadata.caseName(of: value) == name)
        _ = try? metadata.payload(of: value, as: Any.self)
        _ = TypeMetadata.layoutEquals(value, value)
    } catch {
        run.refused += 1
    }
}

@Suite("Public API fuzzing")
struct PublicAPIFuzzTests {
    @Test("Random and mutated type names: a type or a typed error, never a crash")
    func names() async {
        let result = await #expect(
            processExitsWith: .success,
            observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            var generator = SplitMix64(state: 0x5EED_0001)
            var run = FuzzRun("names", inputs: 6_000)
            while run.hasBudget {
                let base = nameCorpus.randomElement(using: &generator)!
                let name = Mutator.mutate(base, tokens: nameTokens, using: &generator)
                run.attempt(name)
                do {
                    let metadata = try TypeMetadata(named: name)
                    run.resolved += 1
                    // What users read next must not crash either.
                    _ = metadata.name
                    _ = metadata.size
                    _ = try? metadata.fields.count
                    _ = try? metadata.cases.count
                } catch {
                    run.refused += 1
                }
            }
            run.report()
        }
        FuzzRun.printReport(result)
    }

    @Test("Random and mutated mangled names: a type or a typed error, never a crash")
    func mangledNames() async {
        let result = await #expect(
            processExitsWith: .success,
            observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            var generator = SplitMix64(state: 0x5EED_0002)
            var run = FuzzRun("mangled names", inputs: 6_000)
            let corpus = Fixtures.all.compactMap { _mangledTypeName($0.type) } + hostileMangledNames
            while run.hasBudget {
                let base = corpus.randomElement(using: &generator)!
                let name = Mutator.mutate(base, tokens: mangledTokens, using: &generator)
                run.attempt(name)
                do {
                    let metadata = try TypeMetadata(mangledName: name)
                    run.resolved += 1
                    _ = metadata.name
                    _ = metadata.mangledName
                } catch {
                    run.refused += 1
                }
            }
            run.report()
        }
        FuzzRun.printReport(result)
    }

    @Test("Random field writes and reads through Any roots: written, or refused with the value unchanged")
    func fieldValues() async {
        let result = await #expect(
            processExitsWith: .success,
            observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            var generator = SplitMix64(state: 0x5EED_0003)
            var run = FuzzRun("field values", inputs: 20_000)
            // Objects an unowned field may refer to stay alive for the whole run.
            let dog = Dog()
            let cat = Cat()
            // Each sample rewrapped: an array upcast from `[@Sendable () -> Any]` goes through a
            // runtime cast that fails on the attribute (Swift 6.3.1).
            let samples: [() -> Any] = Fixtures.all.compactMap(\.sample).map { sample in { sample() } }
            let roots: [() -> Any] =
                samples + [
                    { Callbacks() }, { HoldsExistential(item: Point(x: 1, y: 2), anything: "a") },
                    { SpeakerReferences(delegate: dog, owner: cat) }, { Holder<Any>(Point(x: 3, y: 4)) },
                ]
            let values: [Any] = [
                0, -1, Int.max, "text", "", 2.5, Double.nan, true, Int32(3), Float(1), UInt8(7), [1, 2], ["a"],
                Optional<String>.none as Any, Optional("some") as Any, Point(x: 9, y: 9), ReferenceFixture.shared, dog,
                { (x: Int) in x } as Any, Holder<Any>(1).held, Date(timeIntervalSince1970: 0), [String: Int](),
                Optional<any Speaker>.some(dog) as Any, (1, "tuple"), EightFieldStruct.sample,
            ]
            while run.hasBudget {
                var root = roots.randomElement(using: &generator)!()
                let metadata = TypeMetadata(Swift.type(of: root))
                guard let fields = try? metadata.fields, !fields.isEmpty else { continue }
                let field = fields[Int.random(in: 0..<fields.count, using: &generator)]
                let value = values.randomElement(using: &generator)!
                run.attempt("\(metadata.name).\(field.name) = \(Swift.type(of: value))")
                let before = try? field.value(in: root)
                do {
                    try field.setValue(value, in: &root)
                    run.resolved += 1
                    let after = try field.value(in: root)
                    // Compared when the value is of the property's type and equal to itself
                    // (NaN is not, by `==`, which layout equality follows).
                    if let type = field.type, TypeMetadata(Swift.type(of: value)) == type,
                        TypeMetadata.layoutEquals(value, value)
                    {
                        #expect(TypeMetadata.layoutEquals(after, value), "\(metadata.name).\(field.name)")
                    }
                } catch {
                    run.refused += 1
                    let after = try? field.value(in: root)
                    if let before, let after, TypeMetadata.layoutEquals(before, before) {
                        #expect(TypeMetadata.layoutEquals(before, after), "\(metadata.name).\(field.name) changed")
                    }
                }
            }
            withExtendedLifetime((dog, cat)) {}
            run.report()
        }
        FuzzRun.printReport(result)
    }

    @Test("Random enum cases and payloads: made and read back, or refused with a typed error")
    func enumPayloads() async {
        let result = await #expect(
            processExitsWith: .success,
            observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            var generator = SplitMix64(state: 0x5EED_0004)
            var run = FuzzRun("enum payloads", inputs: 20_000)
            let payloads: [Any?] = [
                nil, 1, "s", 2.5, (1, 2.5), CompassDirection.north, IndirectTree.leaf(1), { (x: Int) in x },
                Optional<Int>.none as Any, [1], Point(x: 1, y: 1), GenericBox(value: { (x: Int) in x }),
                PartiallyIndirectEnum.value(1),
            ]
            while run.hasBudget {
                switch Int.random(in: 0..<8, using: &generator) {
                case 0: fuzzEnum(Shape.self, &run, &generator, payloads: payloads)
                case 1: fuzzEnum(MultiPayloadEnum.self, &run, &generator, payloads: payloads)
                case 2: fuzzEnum(IndirectTree.self, &run, &generator, payloads: payloads)
                case 3: fuzzEnum(PartiallyIndirectEnum.self, &run, &generator, payloads: payloads)
                case 4: fuzzEnum(Callback.self, &run, &generator, payloads: payloads)
                case 5: fuzzEnum(Int?.self, &run, &generator, payloads: payloads)
                case 6: fuzzEnum(MixedOrderEnum.self, &run, &generator, payloads: payloads)
                default: fuzzEnum(GenericEnum<Int>.self, &run, &generator, payloads: payloads)
                }
            }
            run.report()
        }
        FuzzRun.printReport(result)
    }

    @Test("Random instance creation: made with the values given, or refused with a typed error")
    func instances() async {
        let result = await #expect(
            processExitsWith: .success,
            observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            var generator = SplitMix64(state: 0x5EED_0005)
            var run = FuzzRun("instances", inputs: 10_000)
            let dog = Dog()
            let types: [Any.Type] =
                Fixtures.all.map(\.type) + [
                    Callbacks.self, HoldsExistential.self, SpeakerReferences.self, Holder<Any>.self, TreeNode.self,
                    ReferenceFixture.self, DerivedClass.self, GenericSubclass.self, Shape.self, (Int, String).self,
                ]
            let values: [Any] = [
                0, -1, "text", 2.5, Double.nan, true, Int32(3), Float(1), [1, 2], ["a"], Optional<String>.none as Any,
                Optional("some") as Any, Point(x: 9, y: 9), ReferenceFixture.shared, dog, { (x: Int) in x } as Any,
                [String: Int](), (1, "tuple"), EightFieldStruct.sample, TreeNode(label: "n"),
            ]
            while run.hasBudget {
                let metadata = TypeMetadata(types.randomElement(using: &generator)!)
                let fieldNames: [String]? = try? metadata.fields.map(\.name)
                let names = (fieldNames ?? metadata.tupleElements.map(\.name)) + ["nope"]
                var given: [String: Any] = [:]
                for _ in 0..<Int.random(in: 0...names.count, using: &generator) {
                    given[names.randomElement(using: &generator)!] = values.randomElement(using: &generator)!
                }
                let filling = Bool.random(using: &generator)
                run.attempt("\(metadata.name) \(given.keys.sorted()) filling: \(filling)")
                do {
                    let made = try metadata.makeInstance(given, fillingMissingFields: filling)
                    run.resolved += 1
                    #expect(TypeMetadata(Swift.type(of: made)) == metadata)
                    // Each value given of the property's own type reads back as given.
                    let fields: [Field] = (try? metadata.fields.array) ?? []
                    for field in fields {
                        guard let value = given[field.name], let type = field.type,
                            TypeMetadata(Swift.type(of: value)) == type, TypeMetadata.layoutEquals(value, value),
                            let read = try? field.value(in: made)
                        else { continue }
                        #expect(TypeMetadata.layoutEquals(read, value), "\(metadata.name).\(field.name)")
                    }
                    // And the new value walks and dumps like any other.
                    var text = ""
                    ValueDump.dump(made, to: &text)
                    #expect(!text.isEmpty)
                } catch {
                    run.refused += 1
                }
            }
            withExtendedLifetime(dog) {}
            run.report()
        }
        FuzzRun.printReport(result)
    }

    @Test("Nested Any, noncopyable members, functions under generic tuples: read or refused")
    func nestedShapes() async {
        let result = await #expect(
            processExitsWith: .success,
            observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            var generator = SplitMix64(state: 0x5EED_0006)
            var run = FuzzRun("nested shapes", inputs: 6_000)
            typealias F = (Int) -> Int
            let describable = try? ProtocolDescriptor((any Describable).self)
            let leaves: [Any] = [
                Point(x: 1, y: 2), 42, "text", Optional(Point(x: 3, y: 4)) as Any, Optional<Point>.none as Any,
                FixtureError.failed(code: 2), Dog(), Point(x: 5, y: 6) as any Describable, [Point(x: 7, y: 8)],
            ]
            while run.hasBudget {
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:
                    // Any nested by generic code at a random depth: open agrees with as?.
                    let leaf = leaves.randomElement(using: &generator)!
                    var value = leaf
                    let depth = [0, 1, 2, 3, 10, 100, 1_000].randomElement(using: &generator)!
                    for _ in 0..<depth { value = fuzzWrapped(value) }
                    run.attempt("nested Any \(Swift.type(of: leaf)) depth \(depth)")
                    let oracle = (value as? any Describable)?.describe()
                    let opened = describable?.open(value, as: (any Describable).self)?.describe()
                    #expect(opened == oracle, "depth \(depth)")
                    #expect(describable?.withOpened(value, as: (any Describable).self) { $0.describe() } == oracle)
                    let projected = try? ExistentialContents.projectedValue(of: value, as: Any.self)
                    #expect(projected.map { TypeMetadata(Swift.type(of: $0)) } == TypeMetadata(Swift.type(of: leaf)))
                    if oracle != nil { run.resolved += 1 } else { run.refused += 1 }
                case 1:
                    // Classes with noncopyable members: walked and dumped, as Mirror does where it can.
                    let holders: [AnyObject] = [TicketHolder(), TicketSub(), Holding(Ticket()), Holding(Lock.free)]
                    let holder = holders.randomElement(using: &generator)!
                    run.attempt("noncopyable members of \(Swift.type(of: holder))")
                    let node = ValueWalker().node(for: holder)
                    #expect(node.partsUnavailable == nil)
                    #expect(!node.children.isEmpty)
                    for child in node.children where child.value == nil {
                        #expect(child.declaredType?.isCopyable == false)
                    }
                    var text = ""
                    ValueDump.dump(holder, to: &text)
                    #expect(text.contains("count") || text.contains("base"))
                    run.resolved += 1
                default:
                    // Functions under tuples and optionals of generic parameters: read, written,
                    // or refused with the value unchanged.
                    let offset = Int.random(in: -5...5, using: &generator)
                    var two = Two<F>(pair: ({ $0 + offset }, { $0 - offset }), optional: nil, mixed: ({ $0 }, { $0 }))
                    let name = ["pair", "optional", "mixed"].randomElement(using: &generator)!
                    let replacement: Any = [
                        ({ $0 * 2 }, { $0 * 3 }) as (F, F), Optional<F>.some({ $0 + 9 }) as Any, 7, "x",
                        ({ $0 }, 1) as (F, Int),
                    ].randomElement(using: &generator)!
                    run.attempt("Two<F>.\(name) = \(Swift.type(of: replacement))")
                    guard let field = try? TypeMetadata(Two<F>.self).field(named: name) else { continue }
                    do {
                        try field.setValue(replacement, in: &two)
                        run.resolved += 1
                        if let pair = replacement as? (F, F) { #expect(two.pair.0(1) == pair.0(1)) }
                    } catch {
                        run.refused += 1
                        #expect(two.pair.0(10) == 10 + offset && two.pair.1(10) == 10 - offset)
                    }
                    _ = try? field.value(in: two)
                    let payload = TwoCase<F>.two({ $0 + offset }, { $0 })
                    let read = try? TypeMetadata(TwoCase<F>.self).payload(of: payload, as: (F, F).self)
                    #expect(read.map { $0.0(0) } == offset)
                }
            }
            run.report()
        }
        FuzzRun.printReport(result)
    }
}
