// SecondRoundTests.swift
//
// The second adversarial round's wrong answers, each checked against an oracle no one here
// wrote (`as?`, `MemoryLayout`, `Mirror`, `Swift.dump`): containers nested by generic code,
// an error stored in an error, noncopyable stored properties, functions under generic tuples.

import Fixtures
import Testing
import ValueDump

@testable import RuntimeMetadata

/// Returns its argument as `Any` from generic code: with `T == Any` or `T == any P`, the `Any`
/// holds a container, not the value.
private func wrap<T>(_ value: T) -> Any { value }

/// A type that conforms to nothing of the fixtures'.
private struct Plain {}

/// An `Any` nested `depth` times by generic code.
private func nested(_ value: Any, depth: Int) -> Any {
    var result = value
    for _ in 0..<depth { result = wrap(result) }
    return result
}

/// A collection's first element, returned as `Any` from generic code.
private func firstElement<C: Collection>(of collection: C) -> Any? { collection.first }

/// An error stored in `any Error` from generic code: with `T == any Error` (`Error`
/// self-conforms), the box holds a box.
private func boxedError<T: Error>(_ error: T) -> any Error { error }

/// A noncopyable value type.
struct Ticket: ~Copyable {
    var serial = 7
    var seat = 8
}

/// A noncopyable enum.
enum Lock: ~Copyable {
    case held(Int)
    case free
}

/// A class holding noncopyable stored properties between copyable ones.
final class TicketHolder {
    var ticket = Ticket()
    var count = 1
    var lock = Lock.held(2)
    var name = "holder"
}

/// A subclass of a class holding a noncopyable stored property.
class TicketBase {
    var ticket = Ticket()
    var base = 5
}

final class TicketSub: TicketBase {
    var own = 6
}

/// A class whose stored property is a generic parameter bound to a noncopyable type: its
/// type resolves, and it cannot be copied (`Swift.dump` traps on it).
final class Holding<T: ~Copyable> {
    var held: T
    var count = 3
    init(_ held: consuming T) { self.held = held }
}

/// A noncopyable struct holding a noncopyable stored property.
struct TicketPair: ~Copyable {
    var first = Ticket()
    var number = 2
}

/// Two values of one generic parameter, in a tuple.
struct Two<T> {
    var pair: (T, T)
    var optional: T?
    var mixed: (T, (Int) -> Int)
}

/// A payload of two values of one generic parameter, and one of the parameter's optional.
enum TwoCase<T> {
    case two(T, T)
    case labeled(first: T, second: T)
    case maybe(T?)
    case mixed(T, (Int) -> Int)
}

/// A generic class with a tuple of its parameters, reached from generic code.
final class PairBox<T> {
    var pair: (T, T)
    init(_ pair: (T, T)) { self.pair = pair }
}

/// Reads and writes a `(T, T)` field from generic code.
private func swapped<T>(_ two: Two<T>) throws -> Two<T> {
    let field = try TypeMetadata(Two<T>.self).field(named: "pair")
    let pair = try field.value(in: two, as: (T, T).self)
    var copy = two
    try field.setValue((pair.1, pair.0), in: &copy)
    return copy
}

/// The standard library's dump of a value.
private func standardDump<T>(_ value: T) -> String {
    var text = ""
    Swift.dump(value, to: &text)
    return text
}

/// ValueDump's dump of a value.
private func ourDump<T>(_ value: T) -> String {
    var text = ""
    ValueDump.dump(value, to: &text)
    return text
}

@Suite("Reliability: second round")
struct SecondRoundTests {
    @Test("open and withOpened look through Any nested by generic code, as as? does", arguments: [1, 2, 3, 10, 1_000])
    func nestedAny(depth: Int) throws {
        let describable = try ProtocolDescriptor((any Describable).self)
        let point = Point(x: 4, y: 5)
        let values: [Any] = [
            nested(point, depth: depth), nested(point as any Describable, depth: depth),
            nested(wrap(point as any Describable), depth: depth), nested(Optional(point) as Any, depth: depth),
        ]
        for value in values {
            let oracle = try #require(value as? any Describable, "as? opens it")
            let opened = try #require(describable.open(value, as: (any Describable).self), "depth \(depth)")
            #expect(opened.describe() == oracle.describe())
            #expect(describable.withOpened(value, as: (any Describable).self) { $0.describe() } == oracle.describe())
        }
        // What as? refuses, open refuses: a nested value that does not conform, a nested nil.
        for value in [nested(Plain(), depth: depth), nested(Optional<Point>.none as Any, depth: depth)] {
            #expect(value as? any Describable == nil)
            #expect(describable.open(value, as: (any Describable).self) == nil)
        }
    }

    @Test("An element of [any P] returned as Any by a generic Collection function opens")
    func elementOfExistentialArray() throws {
        let describable = try ProtocolDescriptor((any Describable).self)
        let array: [any Describable] = [Point(x: 1, y: 2), FixtureError.failed(code: 1)]
        let first = try #require(firstElement(of: array))
        #expect((first as? any Describable)?.describe() == "Point(1, 2)")
        #expect(describable.open(first, as: (any Describable).self)?.describe() == "Point(1, 2)")
        let fromAnyArray = try #require(firstElement(of: array.map { $0 as Any }))
        #expect(describable.open(fromAnyArray, as: (any Describable).self)?.describe() == "Point(1, 2)")
    }

    @Test("An any Error stored in an any Error pairs the inner error's type with its own conformance")
    func errorInError() throws {
        let inner: any Error = FixtureError.failed(code: 3)
        let outer = boxedError(inner as any Error)
        let twice = boxedError(outer as any Error)
        let errorProtocol = try ProtocolDescriptor((any Error).self)
        let expected = try #require(errorProtocol.conformance(of: FixtureError.self))
        for value in [outer, twice] {
            let contents = try ExistentialContents(of: value, as: (any Error).self)
            #expect(contents.dynamicType == TypeMetadata(FixtureError.self))
            #expect(contents.conformances == [expected])
            #expect(contents.conformances.allSatisfy { $0.type == contents.dynamicType })
            #expect(
                try ExistentialContents.projectedValue(of: value, as: (any Error).self) as? FixtureError
                    == .failed(code: 3)
            )
        }
    }

    @Test("A class with noncopyable stored properties walks its other parts, as Mirror and Swift.dump do")
    func noncopyableMembers() throws {
        for value in [TicketHolder(), TicketSub() as TicketBase, TicketSub()] as [AnyObject] {
            let node = ValueWalker().node(for: value)
            #expect(node.partsUnavailable == nil, "\(node.partsUnavailable.map { "\($0)" } ?? "")")
            let mirror = Mirror(reflecting: value)
            var mirrorLabels = mirror.children.map(\.label)
            var superMirror = mirror.superclassMirror
            while let next = superMirror {
                mirrorLabels = next.children.map(\.label) + mirrorLabels
                superMirror = next.superclassMirror
            }
            #expect(node.children.map(\.label) == mirrorLabels)
            #expect(!node.classHierarchy.isEmpty)
            #expect(ourDump(value) == standardDump(value))
        }
        let holder = TicketHolder()
        let children = ValueWalker().node(for: holder).children
        try #require(children.map { $0.value.map { "\($0)" } } == ["()", "1", "()", "holder"])
        #expect(children[0].declaredType == TypeMetadata(Void.self))
        let ticketField = try TypeMetadata(TicketHolder.self).field(named: "ticket")
        #expect(ticketField.isTypeHidden && ticketField.type == nil)
        #expect(ticketField.offset == 16)
    }

    @Test("A stored property of a generic parameter bound to a noncopyable type is listed, never copied")
    func noncopyableGenericMember() throws {
        let holding = Holding(Ticket())
        let node = ValueWalker().node(for: holding)
        #expect(node.partsUnavailable == nil)
        let children = node.children
        try #require(children.map(\.label) == ["held", "count"])
        #expect(children[0].value == nil)
        #expect(children[0].declaredType == TypeMetadata(of: Ticket.self))
        #expect(children[1].value as? Int == 3)
        let name = TypeMetadata(of: Ticket.self).name
        #expect(ourDump(holding).contains("- held: (noncopyable \(name))"))
        #expect(ourDump(holding).contains("- count: 3"))
        let held = try TypeMetadata(Holding<Ticket>.self).field(named: "held")
        #expect(throws: RuntimeMetadataError.noncopyableType(typeName: name)) { try held.value(in: holding) }
        let hidden = try TypeMetadata(TicketHolder.self).field(named: "ticket")
        #expect(throws: RuntimeMetadataError.self) { try hidden.value(in: TicketHolder()) }
    }

    @Test("A noncopyable struct's fields: hidden types reported, offsets as the layout has them")
    func noncopyableStructFields() throws {
        let fields = try TypeMetadata(of: TicketPair.self).fields
        #expect(fields.map(\.name) == ["first", "number"])
        #expect(fields[0].isTypeHidden && fields[0].type == nil)
        #expect(fields[1].type == TypeMetadata(Int.self))
        #expect(fields[1].offset == MemoryLayout<Ticket>.size)
    }

    @Test(
        "Functions held through a tuple or optional of generic parameters read and write; structural ones are refused"
    )
    func functionsUnderGenericTuples() throws {
        typealias F = (Int) -> Int
        let two = Two<F>(pair: ({ $0 + 1 }, { $0 * 10 }), optional: { $0 - 1 }, mixed: ({ $0 + 2 }, { $0 + 3 }))
        let metadata = TypeMetadata(Two<F>.self)
        let pair = try metadata.field(named: "pair").value(in: two, as: (F, F).self)
        #expect(pair.0(1) == two.pair.0(1) && pair.1(1) == two.pair.1(1))
        let optional = try metadata.field(named: "optional").value(in: two, as: F?.self)
        #expect(optional?(5) == 4)
        var written = two
        let newPair: (F, F) = ({ $0 + 100 }, { $0 + 200 })
        try metadata.field(named: "pair").setValue(newPair, in: &written)
        #expect(written.pair.0(1) == 101 && written.pair.1(1) == 201)
        let fromGeneric = try swapped(two)
        #expect(fromGeneric.pair.0(1) == 10 && fromGeneric.pair.1(1) == 2)
        // The tuple's second element is declared `(Int) -> Int`: at its own abstraction, refused.
        #expect(throws: RuntimeMetadataError.self) { _ = try metadata.field(named: "mixed").value(in: two) }
        let box = PairBox<F>(({ $0 + 7 }, { $0 + 8 }))
        let boxed = try TypeMetadata(PairBox<F>.self).field(named: "pair").value(in: box, as: (F, F).self)
        #expect(boxed.0(0) == 7 && boxed.1(0) == 8)
        // The walker hands the parts out, as Mirror does; the tuple holding a structural
        // function stands in with its functions withheld (each of them, the generic
        // parameter's too).
        let children = ValueWalker().node(for: two).children
        try #require(children.map { $0.value != nil } == [true, true, true])
        #expect((children[0].value as? (F, F)).map { $0.0(1) } == 2)
        #expect(children[2].value is (WithheldFunction, WithheldFunction))
        #expect(children[2].declaredType == TypeMetadata((F, F).self))
    }

    @Test("Payloads of generic parameters in tuples and optionals read and make; structural ones are refused")
    func functionPayloadsUnderGenericTuples() throws {
        typealias F = (Int) -> Int
        let metadata = TypeMetadata(TwoCase<F>.self)
        let two = TwoCase<F>.two({ $0 + 1 }, { $0 + 2 })
        let payload = try #require(try metadata.payload(of: two, as: (F, F).self))
        #expect(payload.0(0) == 1 && payload.1(0) == 2)
        let labeled = try #require(
            try metadata.payload(
                of: TwoCase<F>.labeled(first: { $0 + 3 }, second: { $0 + 4 }),
                as: (first: F, second: F).self
            )
        )
        #expect(labeled.first(0) == 3 && labeled.second(0) == 4)
        let maybe = try metadata.payload(of: TwoCase<F>.maybe({ $0 + 5 }), as: F?.self)
        #expect(maybe??(0) == 5)
        let newPayload: (F, F) = ({ $0 * 2 }, { $0 * 3 })
        let made: TwoCase<F> = try metadata.makeValue(case: "two", payload: newPayload)
        guard case .two(let first, let second) = made else {
            Issue.record("made the wrong case")
            return
        }
        #expect(first(5) == 10 && second(5) == 15)
        #expect(throws: RuntimeMetadataError.self) {
            _ = try metadata.payload(of: TwoCase<F>.mixed({ $0 }, { $0 }), as: Any.self)
        }
    }
}
