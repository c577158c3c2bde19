// DumpTests.swift
//
// ValueDump.dump against the standard library's Mirror-based dump, character for character,
// on a corpus of values: nested structs, classes with superclasses and cycles, enums with
// payloads, tuples, optionals, collections, existentials, metatypes, closures, Foundation types
// through their custom mirrors, types without reflection metadata, and the depth and item
// limits.

import Fixtures
import FixturesWithoutReflection
import Foundation
import RuntimeMetadata
import TestSupport
import Testing
import ValueDump

private struct Address {
    var street = "1 Infinite Loop"
    var zip: Int? = 95014
}

private struct Contact {
    var name = "Ada \"The Countess\" Lovelace\n"
    var age: Int8 = 36
    var height = 1.65
    var address = Address()
    var tags: [String] = ["math", "engines"]
    var scores: [String: Int] = ["a": 1]
    var ids: Set<Int> = [7]
    var initial: Character = "A"
    var point = (x: 1, 2)
    var nothing: String? = nil
    var nested: Int?? = .some(nil)
}

/// Constrained existentials, opaque (inline and boxed) and class-constrained.
private protocol Producer<Output>: AnyObject {
    associatedtype Output
}

private final class Emitter: Producer {
    typealias Output = String
    var emitted = 2
}

private struct Pipeline {
    var input: any Sequence<Int> = [1, 2]
    var boxed: any Collection<String> = ["a": "b", "c": "d"].keys.sorted().reversed()
    var producer: any Producer<String> = Emitter()
    var kind: any Sequence<Int>.Type = [Int].self
}

private protocol Shape {}
extension Int: Shape {}

private struct Holder {
    var any: Any = 42
    var shape: any Shape = 7
    var anyArray: [Any] = [1, "two", 3.0]
    var metatype: Any.Type = Int.self
    var sameMetatype: Any.Type = Int.self
    var object: AnyObject? = nil
}

private enum Payloads {
    case none
    case one(Int)
    case labelled(radius: Double)
    case two(Int, name: String)
    indirect case boxed(Payloads)
}

private class Animal {
    var name = "Rex"
    weak var owner: Person?
}

private final class Dog: Animal {
    var good = true
}

private final class Person {
    var name = "Ada"
    var pets: [Animal] = []
    var best: Animal?
}

private final class Empty {}

private class EmptyBase {
    var x = 1
}

private final class EmptyDerived: EmptyBase {}

private struct Described: CustomStringConvertible {
    var a = 1
    var description: String { "described" }
}

private struct DebugDescribed: CustomDebugStringConvertible, CustomStringConvertible {
    var a = 1
    var description: String { "plain" }
    var debugDescription: String { "debug" }
}

private struct Custom: CustomReflectable {
    var hidden = 1
    var customMirror: Mirror { Mirror(self, children: ["shown": 2, "also": "three"], displayStyle: .struct) }
}

private struct Generic<T> {
    var value: T
    var list: [T]
}

private struct WithClosures {
    var callback: () -> Int = { 1 }
    var optionalCallback: (() -> Void)? = {}
    var missingCallback: ((Int) -> Int)? = nil
    var generic = Generic<() -> Int>(value: { 2 }, list: [])
}

private final class Node {
    var value: Int
    var next: Node?
    init(value: Int, next: Node?) {
        self.value = value
        self.next = next
    }
}

/// Both dumps of a value, as text.
private func dumps<T>(_ value: T, name: String? = nil, indent: Int = 0, maxDepth: Int = .max, maxItems: Int = .max)
    -> (ours: String, mirror: String)
{
    var ours = ""
    var mirror = ""
    ValueDump.dump(value, to: &ours, name: name, indent: indent, maxDepth: maxDepth, maxItems: maxItems)
    Swift.dump(value, to: &mirror, name: name, indent: indent, maxDepth: maxDepth, maxItems: maxItems)
    return (ours, mirror)
}

/// A dump with the addresses of temporary copies (`Data`'s mirror shows the address of its
/// bytes, which for inline data live in a copy made for the mirror) replaced by a placeholder.
private func withoutTemporaryAddresses(_ text: String) -> String {
    text.replacing(/0x[0-9a-f]{16}/, with: "0x…").replacing(/pointerValue: \d+/, with: "pointerValue: …")
}

/// Expects both dumps to be equal, printing both when they are not.
private func expectSameDump<T>(
    _ value: T,
    name: String? = nil,
    maxDepth: Int = .max,
    maxItems: Int = .max,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let (ours, mirror) = dumps(value, name: name, maxDepth: maxDepth, maxItems: maxItems)
    #expect(
        withoutTemporaryAddresses(ours) == withoutTemporaryAddresses(mirror),
        "ValueDump:\n\(ours)\nMirror:\n\(mirror)",
        sourceLocation: sourceLocation
    )
}

@Suite("ValueDump against Swift.dump")
struct ValueDumpTests {
    @Test("nested structs, strings, numbers, collections, tuples and optionals")
    func structs() {
        expectSameDump(Contact())
        expectSameDump(Contact(), name: "contact")
        expectSameDump(Address(street: "", zip: nil))
        expectSameDump([Contact(), Contact()])
        expectSameDump(["b": [1, 2], "a": []] as [String: [Int]])
        expectSameDump((1, "two", (3.0, [4])))
        expectSameDump(Optional(Optional(5)))
        expectSameDump(Int?.none)
        expectSameDump(ContiguousArray([1, 2])[...])
        expectSameDump(Set(["x"]))
        expectSameDump(42)
        expectSameDump("text")
        expectSameDump(())
        // Strings that need escaping or are not ASCII, and integers at their extremes.
        expectSameDump([
            "", "back\\slash", "tab\there", "bell\u{7}", "delete\u{7F}", "café", "🙂 face", "quote\"", "cr\r\n",
        ])
        expectSameDump([Int.min, -1, 0, Int.max])
        expectSameDump((label: "a\"b", count: -42))
        expectSameDump(Pipeline())
    }

    @Test("existentials, metatypes and objects are looked through and numbered")
    func existentials() {
        let shared = Empty()
        var holder = Holder()
        holder.object = shared
        expectSameDump(holder)
        expectSameDump([shared, shared] as [AnyObject])
        expectSameDump(holder as Any)
        expectSameDump([Int.self, String.self, Int.self] as [Any.Type])
    }

    @Test("Thin metatype properties, stored in no bytes: dumped and diffed as Swift.dump and == see them")
    func thinMetatypes() async {
        // Each crashed before stored forms were read (child processes keep a regression contained).
        await #expect(processExitsWith: .success) {
            expectSameDump(ThinMetatypeHolder(a: 3, b: 4))
            expectSameDump(ThinMetatypeObject())
            let changes = ValueDump.differences(ThinMetatypeHolder(), ThinMetatypeHolder(b: 3))
            #expect(changes.map(\.path) == [".b"])
            #expect(ValueDump.differences(ThinMetatypeHolder(), ThinMetatypeHolder()).isEmpty)
            var forms = StoredForms()
            forms.tuple.0 = 8
            forms.optional = nil
            #expect(ValueDump.differences(StoredForms(), forms).map(\.path).sorted() == [".optional", ".tuple.0"])
            var text = ""
            ValueDump.dump(StoredForms(), to: &text)
            #expect(text.contains("- .1: Swift.Int"))
        }
    }

    @Test("enums: no payload, single, labelled, several, indirect")
    func enums() {
        let values: [Payloads] = [.none, .one(1), .labelled(radius: 2), .two(3, name: "x"), .boxed(.boxed(.one(4)))]
        for value in values { expectSameDump(value) }
        expectSameDump(values)
    }

    @Test("classes: superclass sections, weak references and cycles")
    func classes() {
        let person = Person()
        let dog = Dog()
        dog.owner = person
        person.pets = [dog, Animal()]
        person.best = dog
        expectSameDump(person)
        expectSameDump(dog)
        expectSameDump(Empty())
        expectSameDump(EmptyDerived())
        // A cycle through strong references.
        let first = Node(value: 1, next: nil)
        let second = Node(value: 2, next: first)
        first.next = second
        expectSameDump(first)
        first.next = nil
    }

    @Test("descriptions, debug descriptions and custom mirrors win as in Mirror")
    func custom() {
        expectSameDump(Described())
        expectSameDump(DebugDescribed())
        expectSameDump(Custom())
        expectSameDump([Custom()])
        expectSameDump(Generic(value: Described(), list: [DebugDescribed()]))
        expectSameDump(1...3)
        expectSameDump(0..<2)
        expectSameDump(KeyValuePairs(dictionaryLiteral: ("a", 1)))
        expectSameDump(CollectionOfOne(1))
    }

    @Test("Foundation types through their custom mirrors")
    func foundation() throws {
        expectSameDump(Date(timeIntervalSinceReferenceDate: 1000))
        expectSameDump(try #require(URL(string: "https://example.com/a?b=c")))
        expectSameDump(Data([1, 2, 3]))
        expectSameDump(try #require(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")))
        expectSameDump(Decimal(string: "1.5"))
        expectSameDump(["date": Date(timeIntervalSinceReferenceDate: 0)] as [String: Date])
    }

    @Test("closures: stored at their declaration's abstraction, printed without being copied")
    func closures() {
        expectSameDump(WithClosures())
        expectSameDump({ 1 } as () -> Int)
    }

    @Test("types without reflection metadata print as Mirror prints them")
    func withoutReflection() {
        expectSameDump(UnreflectedStruct(first: 1, second: "a"))
        expectSameDump(UnreflectedEnum.alpha(2))
        expectSameDump(UnreflectedEnum.beta)
        expectSameDump(UnreflectedClass())
        expectSameDump(UnreflectedEmptyStruct())
    }

    @Test("maxDepth, maxItems and indentation cut where the standard library cuts")
    func limits() {
        let person = Person()
        person.pets = [Dog(), Animal(), Dog()]
        for depth in 0..<4 {
            expectSameDump(Contact(), maxDepth: depth)
            expectSameDump(person, maxDepth: depth)
        }
        for items in [0, 1, 2, 3, 5, 8, 13, 40] {
            expectSameDump(Contact(), maxItems: items)
            expectSameDump(person, maxItems: items)
            expectSameDump(Array(0..<10), maxItems: items)
        }
        let (ours, mirror) = dumps(Contact(), name: "c", indent: 3)
        #expect(ours == mirror)
    }

    @Test("strings with apostrophes, quotes and backslashes are escaped on every path, as debugDescription does")
    func escapes() {
        struct Quoted {
            var text = "it's"
            var all = "'\"\\ ' \t é"
            var list = ["don't", "plain", "\\"]
            var maybe: String? = "o'clock"
            var key = AnyHashable("rock 'n' roll")
            var keyed = ["it's": "y'all"]
            var pair = ("'", 1)
            var character: Character = "'"
            var substring = "ab'cd".dropFirst()
        }
        enum Said { case quote(String), pair(who: String, what: String?) }
        expectSameDump(Quoted())
        expectSameDump("it's")
        expectSameDump("it's" as Any)
        expectSameDump(Optional("it's"))
        expectSameDump(["'": ["''"]])
        expectSameDump(Said.quote("'"))
        expectSameDump(Said.pair(who: "O'Brien", what: "can't"))
        expectSameDump([AnyHashable("'"), AnyHashable(1)])
    }

    @Test("tuples holding closures are written element by element, each closure as (Function)")
    func tuplesWithClosures() throws {
        enum Alert {
            case confirm(title: String, action: () -> Void)
            case none
            indirect case nested(((String, () -> Int), Int))
            case maybe(Int, (() -> Void)?)
        }
        final class Holder {
            var pair: (label: String, run: (Int) -> Int) = ("b", { $0 })
        }
        struct Screen {
            var pair: (String, () -> Int) = ("x", { 1 })
            var alert = Alert.confirm(title: "Delete?", action: {})
            var nested = Alert.nested((("n", { 2 }), 3))
            var holder = Holder()
            var none: (Int, (() -> Void)?) = (1, nil)
            var some: (Int, (() -> Void)?) = (1, {})
            var deep: (Int, ((String, (Int) -> Int), [Int])) = (1, (("d", { $0 }), [2]))
        }
        expectSameDump(Screen())
        expectSameDump(Alert.confirm(title: "it's", action: {}))
        expectSameDump(Alert.maybe(1, nil))
        expectSameDump(Alert.maybe(1, {}))
        expectSameDump([Alert.confirm(title: "a", action: {}), .none])
        // The walker hands out the tuple with each closure withheld.
        let node = ValueWalker().node(for: Screen())
        let pair = try #require(node.child(at: 0)?.value as? (String, WithheldFunction))
        #expect(pair.0 == "x")
        let alert = ValueWalker().node(for: Alert.confirm(title: "t", action: {}))
        let payload = try #require(alert.child(at: 0)?.value as? (title: String, action: WithheldFunction))
        #expect(payload.title == "t")
        #expect(alert.child(at: 0)?.declaredType == TypeMetadata((title: String, action: () -> Void).self))
    }

    @Test("deep lists: the dump matches at depth 1,000; the walk keeps its own stack at 200,000")
    func deep() {
        var head: Node? = nil
        // A dump's indentation grows with depth, so its text grows with the square of it.
        for value in 0..<1000 { head = Node(value: value, next: head) }
        expectSameDump(head)
        // A tenth as deep under a sanitizer (TestScale).
        let count = TestScale.scaled(200_000, minimum: 2_000)
        for value in 1000..<count { head = Node(value: value, next: head) }
        var visits = 0
        var deepest = 0
        ValueWalker().walk(head as Any) { visit in
            visits += 1
            deepest = max(deepest, visit.depth)
            return .visitChildren
        }
        // Each node: the optional, its object, and the object's value.
        #expect(visits == 3 * count + 1)
        #expect(deepest == 2 * count)
        // With a depth limit the dump stops early, at any depth of the value.
        expectSameDump(head, maxDepth: 3)
        expectSameDump(head, maxItems: 10)
        // Unlink iteratively: releasing the list recursively would overflow the stack.
        while let node = head {
            head = node.next
            node.next = nil
        }
    }

    @Test("generic code and fixtures from another module")
    func genericCode() {
        func dumpBoth<T>(_ value: T) -> (String, String) {
            var ours = ""
            var mirror = ""
            ValueDump.dump(value, to: &ours)
            Swift.dump(value, to: &mirror)
            return (ours, mirror)
        }
        let (ours, mirror) = dumpBoth(Generic(value: Contact(), list: [Contact()]))
        #expect(ours == mirror)
        let (anyOurs, anyMirror) = dumpBoth(Contact() as Any)
        #expect(anyOurs == anyMirror)
        let samples = (Fixtures.structs + Fixtures.enums + Fixtures.classes + Fixtures.structural).compactMap(\.sample)
        #expect(samples.count > 20)
        for sample in samples {
            let (fixtureOurs, fixtureMirror) = dumpBoth(sample())
            #expect(
                withoutTemporaryAddresses(fixtureOurs) == withoutTemporaryAddresses(fixtureMirror),
                "ValueDump:\n\(fixtureOurs)\nMirror:\n\(fixtureMirror)"
            )
        }
    }
}

/// A value whose dump changes from one process to the next: hashed collections and a local
/// type, whose anonymous context the runtime names by its address.
func unstableValue() -> Any {
    struct Local { var name = "local" }
    let tags = Set((0..<40).map { "tag \($0)" })
    let scores = Dictionary(uniqueKeysWithValues: (0..<40).map { ("player \($0)", [$0, $0 * 2]) })
    let nested: [Int: Set<Int>] = [3: [1, 2, 3], 1: [9, 8], 2: []]
    return (tags, scores, nested, Local(), [Local].self)
}

@Suite("ValueDump's stable option")
struct StableDumpTests {
    @Test("Sorted entries: the same lines as Swift.dump, keys in order, local types without addresses")
    func sortedEntries() {
        let value = unstableValue()
        var stable = ""
        ValueDump.dump(value, to: &stable, options: .stable)
        var standard = ""
        Swift.dump(value, to: &standard)
        // The oracle: Swift.dump's lines, in its order; the stable text has the same lines but
        // the anonymous context's address, in the sorted order.
        let portable = TextBufferOracle.withoutAddresses(standard)
        #expect(stable.split(separator: "\n").sorted() == portable.split(separator: "\n").sorted())
        #expect(!stable.contains("(unknown context at $"))
        #expect(stable.contains("(unknown context).Local"))
        let tagLines = stable.split(separator: "\n").filter { $0.hasPrefix("    - \"tag ") }
        #expect(tagLines.count == 40)
        #expect(tagLines == tagLines.sorted())
        let keyLines = stable.split(separator: "\n").filter { $0.hasPrefix("      - key: \"player ") }
        #expect(keyLines.count == 40)
        #expect(keyLines == keyLines.sorted())
        // Without the option, the text is Swift.dump's.
        var plain = ""
        ValueDump.dump(value, to: &plain)
        #expect(plain == standard)
    }

    @Test("The stable text is the same in two processes")
    func twoProcesses() async throws {
        var outputs: [String] = []
        for _ in 0..<2 {
            let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                var text = ""
                ValueDump.dump(unstableValue(), to: &text, options: .stable)
                print(text, terminator: "")
            }
            outputs.append(String(decoding: result?.standardOutputContent ?? [], as: UTF8.self))
        }
        #expect(outputs[0].count > 1_000)
        #expect(outputs[0] == outputs[1])
        // The same text in this process too.
        var text = ""
        ValueDump.dump(unstableValue(), to: &text, options: .stable)
        #expect(text == outputs[0])
    }
}
