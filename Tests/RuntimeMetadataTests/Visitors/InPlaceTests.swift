// InPlaceTests.swift
//
// `InPlace.withElement(at:of:_:)` against the arrays' own subscripts: every element of arrays
// of every kind of element type, read in unspecialized generic code as a framework reads its
// stores, a change to the array's owner during the call, thrown errors, and an index out of
// range, which traps as the subscript does (in a child process).

import Fixtures
import Testing

@testable import RuntimeMetadata

/// A generic view of a nested type, as a view graph stores them.
struct InPlaceLayer<Content> {
    var content: Content
    var depth: Int
}

/// Nests a value `depth` times, each level a distinct generic type made at run time.
func inPlaceNested(_ depth: Int) -> Any {
    func wrap<T>(_ value: T, _ level: Int) -> Any { InPlaceLayer(content: value, depth: level) }
    var value: Any = "leaf"
    for level in 0..<depth {
        func open<T>(_ inner: T) -> Any { wrap(inner, level) }
        value = _openExistential(value, do: open)
    }
    return value
}

/// The elements an array holds, read both ways in code that is not specialized for them.
@inline(never)
func inPlaceReadings<Element>(_ elements: ContiguousArray<Element>, describe: (Element) -> String) -> (
    inPlace: [String], subscripted: [String]
) {
    var inPlace: [String] = []
    var subscripted: [String] = []
    for index in elements.indices {
        inPlace.append(InPlace.withElement(at: index, of: elements) { describe($0) })
        subscripted.append(describe(elements[index]))
    }
    return (inPlace, subscripted)
}

/// An owner whose array a lent element's body changes.
final class InPlaceOwner {
    var items: ContiguousArray<String> = ["first", "second"]
}

/// An error a lending body throws.
enum InPlaceError: Error, Equatable {
    case refused(String)
}

@Suite("InPlace: array elements lent where the buffer holds them")
struct InPlaceTests {
    @Test("Each element of each kind of type, read in generic code, equals the subscript's")
    func elementsAgainstSubscript() {
        let describe: (Any) -> String = { String(describing: $0) }
        let objects = ContiguousArray((0..<5).map { ReferenceFixture(id: $0, name: "r\($0)") })
        let values: ContiguousArray<Any> = [1, "two", 3.5, Point(x: 1, y: 2), [4, 5], Optional<Int>.none as Any]
        let existentials: ContiguousArray<any Describable> = [Point(x: 3, y: 4), Point(x: 5, y: 6)]
        let strings = ContiguousArray((0..<1_000).map { "element \($0), long enough to be stored on the heap" })
        let tuples = ContiguousArray((0..<8).map { (UInt8($0), "t\($0)", [Double($0)]) })
        let nested: ContiguousArray<Any> = [inPlaceNested(1), inPlaceNested(50), inPlaceNested(300)]
        let bytes = ContiguousArray<UInt8>(0..<255)
        let shapes = ContiguousArray([Shape.point, Shape.circle(radius: 2), Shape.point])
        let offsets = [1, 7, -3]
        let closures = ContiguousArray(offsets.map { offset in { (x: Int) in x + offset } })

        let cases: [(inPlace: [String], subscripted: [String])] = [
            inPlaceReadings(objects) { describe(ObjectIdentifier($0)) },
            inPlaceReadings(values, describe: describe),
            inPlaceReadings(existentials) { $0.describe() },
            inPlaceReadings(strings, describe: describe),
            inPlaceReadings(tuples, describe: describe),
            inPlaceReadings(nested, describe: describe),
            inPlaceReadings(bytes, describe: describe),
            inPlaceReadings(shapes, describe: describe),
            inPlaceReadings(closures) { String($0(100)) },
        ]
        for (inPlace, subscripted) in cases {
            #expect(inPlace == subscripted)
            #expect(!inPlace.isEmpty)
        }
        // Arrays lend their elements the same way.
        let array = Array(strings)
        for index in [0, 1, 499, 999] {
            #expect(InPlace.withElement(at: index, of: array) { $0 } == array[index])
        }
    }

    @Test("A change to the array's owner during the call leaves the lent element as it was")
    func ownerChangedDuringTheCall() {
        let owner = InPlaceOwner()
        let items = owner.items
        let read = InPlace.withElement(at: 1, of: items) { element -> String in
            // The owner's array grows (its elements move to a new buffer) and is emptied.
            for index in 0..<10_000 { owner.items.append("item \(index)") }
            owner.items.removeAll()
            return element + " still"
        }
        #expect(read == "second still")
        #expect(owner.items.isEmpty)
        #expect(items == ["first", "second"])
        // The owner's property passed straight: the call holds its own reference to the buffer.
        owner.items = ["first", "second"]
        let direct = InPlace.withElement(at: 0, of: owner.items) { element -> String in
            for index in 0..<10_000 { owner.items.append("item \(index)") }
            owner.items = []
            return element + " still"
        }
        #expect(direct == "first still")
    }

    @Test("An error thrown by the body is rethrown with its type")
    func typedErrors() {
        let names: ContiguousArray = ["ada", "grace"]
        #expect(throws: InPlaceError.refused("grace")) {
            try InPlace.withElement(at: 1, of: names) { (name) throws(InPlaceError) -> Int in
                throw .refused(name)
            }
        }
        // A body that does not throw needs no `try`.
        let count: Int = InPlace.withElement(at: 0, of: names) { $0.count }
        #expect(count == 3)
    }

    @Test("An index out of range traps, as the subscript does")
    func indexOutOfRange() async {
        await #expect(processExitsWith: .failure) {
            let names: ContiguousArray = ["only"]
            _ = InPlace.withElement(at: 1, of: names) { $0 }
        }
        await #expect(processExitsWith: .failure) {
            let names = ["only"]
            _ = InPlace.withElement(at: -1, of: names) { $0 }
        }
        await #expect(processExitsWith: .failure) {
            let empty = ContiguousArray<Int>()
            _ = InPlace.withElement(at: 0, of: empty) { $0 }
        }
    }
}
