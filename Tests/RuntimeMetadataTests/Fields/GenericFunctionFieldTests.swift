// GenericFunctionFieldTests.swift
//
// Functions held through tuples and optionals of generic parameters: read, written and made as
// payloads at the generic abstraction, refused where they are stored at their own.

import Testing

@testable import RuntimeMetadata

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

@Suite("Functions under generic tuples")
struct GenericFunctionFieldTests {
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
