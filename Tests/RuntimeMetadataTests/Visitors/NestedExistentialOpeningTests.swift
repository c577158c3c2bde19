// NestedExistentialOpeningTests.swift
//
// Opening values that generic code nested in `Any` containers, or returned from an array of
// existentials, checked against `as?`.

import Fixtures
import Testing

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

@Suite("Opening values nested by generic code")
struct NestedExistentialOpeningTests {
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
}
