// ValueWalkerTests.swift
//
// The value walker's nodes against Mirror (labels, children, display styles), the declared
// types of the fields, `===` and ObjectIdentifier, `switch` on enum cases, and generic code
// with the type parameter pinned to `Any`, as generic callers have it.

import FixturesWithoutReflection
import RuntimeMetadata
import Testing

private protocol Named {}
extension String: Named {}

private struct Profile {
    var name = "Ada"
    var age = 36
    var any: Any = 4.5
    var named: any Named = "named"
    var tags = ["a", "b"]
    var nickname: String? = nil
    var callback: () -> Int = { 1 }
    var optionalCallback: (() -> Int)? = nil
}

private class Base {
    var id = 1
}

private final class Derived: Base {
    var label = "derived"
    weak var parent: Derived?
}

private enum Event {
    case tap(x: Int, y: Int)
    case key(Character)
    case idle
}

private struct Custom: CustomReflectable {
    var stored = 1
    var customMirror: Mirror { Mirror(self, children: ["shown": "yes"]) }
}

private final class Ring {
    var next: Ring?
}

/// A class-bound protocol with a primary associated type, for class-constrained existentials.
private protocol Source<Element>: AnyObject {
    associatedtype Element
    func next() -> Element
}

private final class Counter: Source {
    var count = 0
    func next() -> Int { count }
}

/// Constrained existentials (`any P<T>`) as fields: an opaque one, with a boxed value too, and a
/// class-constrained one.
private struct Streams {
    var numbers: any Sequence<Int> = [1, 2, 3]
    var large: any Sequence<Int> = (0..<8).map { $0 }.lazy.map { $0 * 2 }.filter { $0 > 0 }.map { $0 }
    var source: any Source<Int>
}

/// A node built from generic code, with `T` pinned to the existential.
private func node<T>(_ value: T, as _: T.Type, walker: ValueWalker = ValueWalker()) -> ValueNode {
    walker.node(for: value)
}

@Suite("Value walker")
struct ValueWalkerTests {
    @Test("a struct's children are Mirror's, with their declared types and dynamic values")
    func structChildren() throws {
        let profile = Profile()
        let node = ValueWalker().node(for: profile)
        #expect(node.style == .struct)
        #expect(node.type == TypeMetadata(Profile.self))
        let children = node.children
        #expect(children.map(\.label) == Mirror(reflecting: profile).children.map(\.label))
        #expect(node.childCount == children.count)
        let declared = children.map { $0.declaredType?.name }
        #expect(
            declared == [
                "Swift.String", "Swift.Int", "Any", String(reflecting: (any Named).self), "Swift.Array<Swift.String>",
                "Swift.Optional<Swift.String>", "() -> Swift.Int", "Swift.Optional<() -> Swift.Int>",
            ]
        )
        #expect(children[0].value as? String == "Ada")
        #expect(children[1].value as? Int == 36)
        // Existentials are looked through: the value is the Double, the declared type `Any`.
        #expect(children[2].value.map { type(of: $0) == Double.self } == true)
        #expect(children[3].value as? String == "named")
        #expect(children[4].value as? [String] == ["a", "b"])
        let nickname = try #require(children[5].value)
        #expect((nickname as? String?) == .some(nil))
        // A function at its declaration's abstraction is withheld; an optional's nil is not.
        #expect(children[6].value == nil)
        let missing = try #require(children[7].value)
        #expect((missing as? (() -> Int)?).map { $0 == nil } == true)
    }

    @Test("a class instance: its hierarchy, each property's declaring class, its identity")
    func classChildren() {
        let parent = Derived()
        let object = Derived()
        object.parent = parent
        let node = ValueWalker().node(for: object)
        #expect(node.style == .class)
        #expect(node.classHierarchy == [TypeMetadata(Derived.self), TypeMetadata(Base.self)])
        #expect(node.objectIdentifier == ObjectIdentifier(object))
        let children = node.children
        #expect(children.map(\.label) == ["id", "label", "parent"])
        #expect(
            children.map(\.declaringType) == [
                TypeMetadata(Base.self), TypeMetadata(Derived.self), TypeMetadata(Derived.self),
            ]
        )
        // A weak property reads as the optional it is, pointing at the same object.
        let weakParent = children[2].value as? Derived?
        #expect(weakParent??.label == "derived")
        #expect(weakParent.flatMap { $0 } === parent)
        // Mirror splits the same properties between the class and its superclass mirror.
        let mirror = Mirror(reflecting: object)
        #expect(mirror.children.map(\.label) == ["label", "parent"])
        #expect(mirror.superclassMirror?.children.map(\.label) == ["id"])
        // Through a superclass-typed reference, the dynamic class is walked.
        let base: Base = object
        #expect(ValueWalker().node(for: base).classHierarchy.first == TypeMetadata(Derived.self))
    }

    @Test("enums and optionals: the case, its payload under the case's name")
    func enums() throws {
        let tap = ValueWalker().node(for: Event.tap(x: 1, y: 2))
        #expect(tap.style == .enum)
        #expect(tap.enumCase?.name == "tap")
        let payload = try #require(tap.children.first)
        #expect(payload.label == Mirror(reflecting: Event.tap(x: 1, y: 2)).children.first?.label)
        let pair = try #require(payload.value as? (x: Int, y: Int))
        #expect(pair.x == 1 && pair.y == 2)
        let idle = ValueWalker().node(for: Event.idle)
        #expect(idle.enumCase?.name == "idle" && idle.childCount == 0)
        let key = ValueWalker().node(for: Event.key("k"))
        #expect(key.children.first?.value as? Character == "k")
        let some = ValueWalker().node(for: Optional(3) as Any)
        #expect(
            some.style == .optional && some.children.first?.label == "some" && some.children.first?.value as? Int == 3
        )
        #expect(ValueWalker().node(for: Optional<Int>.none as Any).childCount == 0)
        // The case's name, as `switch` names the case; nil for other values.
        let events: [Event] = [.tap(x: 1, y: 2), .key("k"), .idle]
        for event in events {
            let expected: String
            switch event {
            case .tap: expected = "tap"
            case .key: expected = "key"
            case .idle: expected = "idle"
            }
            let node = ValueWalker().node(for: event)
            #expect(node.caseName == expected && node.enumCase?.name == expected)
            #expect(node.enumCase?.hasPayload == (node.childCount == 1))
        }
        #expect(ValueWalker().node(for: Optional<Int>.none as Any).caseName == "none")
        #expect(ValueWalker().node(for: Optional(3) as Any).caseName == "some")
        #expect(ValueWalker().node(for: 3).caseName == nil && ValueWalker().node(for: 3).enumCase == nil)
        // A node keeps the case of the value it was made from, as the value it holds does.
        var changing = Event.idle
        let before = ValueWalker().node(for: changing)
        changing = .key("x")
        #expect(before.caseName == "idle" && ValueWalker().node(for: changing).caseName == "key")
        // Random access: sets and dictionaries reach a child through those before it.
        #expect(!ValueWalker().node(for: Set([1])).hasRandomAccessChildren)
        #expect(!ValueWalker().node(for: ["k": 1]).hasRandomAccessChildren)
        #expect(ValueWalker().node(for: Event.idle).hasRandomAccessChildren)
    }

    @Test("collections through their conformances; tuples by element")
    func collections() throws {
        let array = ValueWalker().node(for: [3, 4])
        #expect(array.style == .collection && array.children.compactMap { $0.value as? Int } == [3, 4])
        let dictionary = ValueWalker().node(for: ["k": 1])
        #expect(dictionary.style == .dictionary)
        let entry = try #require(dictionary.children.first?.value as? (key: String, value: Int))
        #expect(entry.key == "k" && entry.value == 1)
        #expect(ValueWalker().node(for: Set([5])).style == .set)
        let tuple = ValueWalker().node(for: (a: 1, "b"))
        #expect(tuple.style == .tuple && tuple.children.map(\.label) == ["a", ".1"])
        // Leaves: numbers and strings have no parts, whatever their storage.
        #expect(ValueWalker().node(for: "text").style == .leaf)
        #expect(ValueWalker().node(for: 1.5).childCount == 0)
        #expect(ValueWalker().node(for: Int.self).objectIdentifier == ObjectIdentifier(Int.self))
    }

    @Test(
        "array elements by position from the array's storage: every alignment, boxed and existential elements, as the array's own subscript and Mirror read them"
    )
    func arrayElements() throws {
        struct Wide: Equatable {
            var name: String
            var values: [Int]
            var weight: Double
        }
        // One array per element alignment (1, 2, 4, 8, 16), a value too large for an Any's
        // buffer, references, existentials, optionals, nested arrays, and an empty array.
        let object = Base()
        let arrays: [Any] = [
            [UInt8(1), 2, 255], [Int16(-3), 7], [Float(1.5), -2], [1, 2, 3],
            [SIMD4<Float>(1, 2, 3, 4), SIMD4(5, 6, 7, 8)],
            [Wide(name: "a", values: [1], weight: 0.5), Wide(name: "b", values: [], weight: 2)],
            [object, object], [1, "two", 3.0, [4]] as [Any], ["x", nil, "z"] as [String?], [[1], [2, 3]],
            ContiguousArray([9, 8]), [Int](), [(1, "a"), (2, "b")],
            [object as AnyObject, object], [Event.tap(x: 1, y: 2), .idle], [{ 1 }, { 2 }] as [() -> Int],
        ]
        for array in arrays {
            let node = ValueWalker().node(for: array)
            let mirror = Mirror(reflecting: array)
            #expect(node.style == .collection && node.hasRandomAccessChildren, "\(type(of: array))")
            #expect(node.childCount == mirror.children.count, "\(type(of: array))")
            let expected = mirror.children.map { String(reflecting: $0.value) }
            #expect(node.children.map { $0.value.map { String(reflecting: $0) } } == expected)
            #expect((0..<node.childCount).map { node.child(at: $0)?.value.map { String(reflecting: $0) } } == expected)
            #expect(node.child(at: node.childCount) == nil && node.child(at: -1) == nil)
            // Each element is declared with the array's element type.
            let elementType = try #require(TypeMetadata(type(of: array)).genericArguments.first?.type)
            #expect(node.children.allSatisfy { $0.declaredType == elementType })
            #expect(node.declaredType(ofChildAt: 0) == (node.childCount > 0 ? elementType : nil))
            #expect(node.label(ofChildAt: 0) == nil)
        }
        // Typed reads load from the storage, as the array's subscript reads it.
        let bytes = ValueWalker().node(for: [UInt8(1), 2, 255])
        #expect((0..<3).map { bytes.child(at: $0, as: UInt8.self) } == [1, 2, 255])
        #expect(bytes.child(at: 3, as: UInt8.self) == nil && bytes.child(at: -1, as: UInt8.self) == nil)
        let vectors = [SIMD4<Float>(1, 2, 3, 4), SIMD4(5, 6, 7, 8)]
        let vectorNode = ValueWalker().node(for: vectors)
        #expect(vectorNode.child(at: 1, as: SIMD4<Float>.self) == vectors[1])
        let wide = [Wide(name: "a", values: [1], weight: 0.5), Wide(name: "b", values: [7, 8], weight: 2)]
        let wideNode = ValueWalker().node(for: wide)
        #expect(wideNode.child(at: 1, as: Wide.self) == wide[1])
        #expect(wideNode.child(at: 1)?.value as? Wide == wide[1])
        // Another type is cast, as `as?` casts the element.
        #expect(ValueWalker().node(for: [1, 2]).child(at: 1, as: Double.self) == nil)
        #expect(ValueWalker().node(for: [1, 2]).child(at: 1, as: Int?.self) == .some(2))
        // The elements of a class array are the objects themselves.
        let objects = ValueWalker().node(for: [object, object])
        #expect(objects.children.allSatisfy { ($0.value as? Base) === object })
        // A slice is read through its conformance: its storage begins elsewhere.
        let slice = ValueWalker().node(for: [1, 2, 3, 4][1...2])
        #expect(slice.children.compactMap { $0.value as? Int } == [2, 3] && slice.childCount == 2)
        // From generic code, the array reaching the walker through a type parameter.
        func elements<T>(_ value: T) -> [Int] {
            ValueWalker().node(for: value).children.compactMap { $0.value as? Int }
        }
        #expect(elements([5, 6, 7]) == [5, 6, 7] && elements([5, 6, 7] as Any) == [5, 6, 7])
        // A copy of an element outlives the node and the array it came from.
        var copied: Any?
        do {
            let names = ["a long string that is not small", "another long string, not small either"]
            copied = ValueWalker().node(for: names).child(at: 1)?.value
        }
        #expect(copied as? String == "another long string, not small either")
    }

    @Test("custom mirrors replace stored structure only on request")
    func customReflectable() {
        #expect(ValueWalker().node(for: Custom()).children.map(\.label) == ["stored"])
        let honoured = ValueWalker(honorsCustomReflectable: true).node(for: Custom())
        #expect(honoured.style == .custom)
        #expect(honoured.children.map(\.label) == ["shown"])
        #expect(honoured.children.first?.value as? String == "yes")
    }

    @Test("from generic code, with the existential pinned: the value inside is walked")
    func genericCode() {
        let walked = node(Profile() as Any, as: Any.self)
        #expect(walked.type == TypeMetadata(Profile.self))
        #expect(walked.childCount == 8)
        let named = node("x" as any Named, as: (any Named).self)
        #expect(named.type == TypeMetadata(String.self))
        let nested = node(Optional(Profile()) as Any, as: Any.self)
        #expect(nested.style == .optional)
        // A child's own node, read from a node made in generic code: the optional's profile,
        // and the profile's `any` property, looked through to the value it holds.
        let walker = ValueWalker()
        let profile = walker.node(forChildAt: 0, of: nested)
        #expect(profile?.type == TypeMetadata(Profile.self))
        #expect(profile.flatMap { walker.node(forChildAt: 2, of: $0) }?.type == TypeMetadata(Double.self))
        #expect(walker.node(forChildAt: 6, of: walked) == nil)
    }

    @Test("constrained existentials (any P<T>) are looked through, opaque and class-constrained, as Mirror does")
    func constrainedExistentials() throws {
        let counter = Counter()
        let streams = Streams(source: counter)
        let children = ValueWalker().node(for: streams).children
        let mirror = Array(Mirror(reflecting: streams).children)
        #expect(children.map(\.label) == mirror.map(\.label))
        for (child, expected) in zip(children, mirror) {
            let value = try #require(child.value)
            #expect(TypeMetadata(type(of: value)) == TypeMetadata(type(of: expected.value)), "\(child.label ?? "")")
            #expect(String(reflecting: value) == String(reflecting: expected.value))
        }
        #expect(children[0].declaredType == TypeMetadata((any Sequence<Int>).self))
        #expect((children[0].value as? [Int]) == [1, 2, 3])
        #expect(children[2].value.map { ($0 as AnyObject) === counter } == true)
        // From generic code, with the constrained existential pinned, and through an `Any`.
        let pinned = node(streams.numbers, as: (any Sequence<Int>).self)
        #expect(pinned.type == TypeMetadata([Int].self))
        #expect(pinned.childCount == 3)
        let wrapped = node(streams.numbers as Any, as: Any.self)
        #expect(wrapped.type == TypeMetadata([Int].self))
        let object = node(streams.source, as: (any Source<Int>).self)
        #expect(object.objectIdentifier == ObjectIdentifier(counter))
        // A field read as `Any` is the value inside, as the walker has it.
        let numbers = try TypeMetadata(Streams.self).field(named: "numbers").value(in: streams)
        #expect((numbers as? [Int]) == [1, 2, 3])
        // Layout equality compares what the containers hold.
        let same = Streams(numbers: [1, 2, 3], large: streams.large, source: counter)
        #expect(TypeMetadata.layoutEquals(streams, same))
        #expect(!TypeMetadata.layoutEquals(streams, Streams(numbers: [1, 2], large: streams.large, source: counter)))
        #expect(
            !TypeMetadata.layoutEquals(streams, Streams(numbers: [1, 2, 3], large: streams.large, source: Counter()))
        )
    }

    @Test("a constrained existential metatype (any Sequence<Int>.Type) is walked, dumped and compared without looping")
    func constrainedExistentialMetatype() throws {
        struct Holder {
            var kind: any Sequence<Int>.Type = [Int].self
        }
        let holder = Holder()
        #expect(TypeMetadata((any Sequence<Int>.Type).self).kind == .extendedExistential)
        let child = try #require(ValueWalker().node(for: holder).children.first)
        let value = try #require(child.value)
        let mirrored = try #require(Mirror(reflecting: holder).children.first?.value)
        #expect(String(reflecting: value) == String(reflecting: mirrored))
        #expect(TypeMetadata.layoutEquals(holder, Holder()))
        #expect(!TypeMetadata.layoutEquals(holder, Holder(kind: Set<Int>.self)))
    }

    @Test("types without reflection metadata are leaves that say why")
    func withoutReflection() {
        let walked = ValueWalker().node(for: UnreflectedStruct(first: 1, second: "a"))
        #expect(walked.childCount == 0)
        #expect(
            walked.partsUnavailable == .missingReflectionMetadata(typeName: TypeMetadata(UnreflectedStruct.self).name)
        )
    }

    @Test("walk: depth first, cycles visited once, skip and stop")
    func walk() {
        let first = Ring()
        let second = Ring()
        first.next = second
        second.next = first
        var visits: [(depth: Int, label: String?, revisit: Bool)] = []
        ValueWalker().walk(first) { visit in
            visits.append((visit.depth, visit.label, visit.isRevisit))
            return .visitChildren
        }
        // first, its optional next, second, second's optional next, first again (a revisit).
        #expect(visits.map(\.depth) == [0, 1, 2, 3, 4])
        #expect(visits.map(\.label) == [nil, "next", "some", "next", "some"])
        #expect(visits.map(\.revisit) == [false, false, false, false, true])
        first.next = nil
        var count = 0
        ValueWalker().walk(Profile()) { visit in
            count += 1
            return visit.depth == 0 ? .visitChildren : .skipChildren
        }
        // The root and its eight children, less the withheld callback.
        #expect(count == 8)
        count = 0
        ValueWalker().walk([1, 2, 3]) { _ in
            count += 1
            return count == 2 ? .stop : .visitChildren
        }
        #expect(count == 2)
    }

    @Test("children by position: each is forEachChild's, labels and types without the value, typed reads as as? reads")
    func childrenByPosition() throws {
        let walker = ValueWalker(honorsCustomReflectable: true)
        let object = Derived()
        object.parent = object
        let values: [Any] = [
            Profile(), object, Event.tap(x: 1, y: 2), Event.key("k"), Event.idle, Optional("s") as Any,
            Optional<Int>.none as Any, [3, 4, 5], ["k": 1], Set([7]), (a: 1, "b", c: [2.5]), Custom(), "leaf",
        ]
        for value in values {
            let node = walker.node(for: value)
            let children = node.children
            #expect(node.childCount == children.count, "\(type(of: value))")
            for (index, child) in children.enumerated() {
                let byPosition = try #require(node.child(at: index))
                #expect(byPosition.label == child.label)
                #expect(node.label(ofChildAt: index) == child.label)
                #expect(byPosition.declaredType == child.declaredType)
                #expect(node.declaredType(ofChildAt: index) == child.declaredType)
                #expect(byPosition.declaringType == child.declaringType)
                #expect(byPosition.value.map { String(reflecting: $0) } == child.value.map { String(reflecting: $0) })
                // Read as `Any`, a child is its value; read as `Int`, as `as?` reads it.
                #expect(
                    node.child(at: index, as: Any.self).map { String(reflecting: $0) }
                        == child.value.map { String(reflecting: $0) }
                )
                #expect(node.child(at: index, as: Int.self) == child.value.flatMap { $0 as? Int })
                // The child's own node, read without a `ValueChild`: the node of its value, and
                // none for a withheld function.
                let childNode = walker.node(forChildAt: index, of: node)
                #expect((childNode == nil) == (child.value == nil), "\(type(of: value)) \(index)")
                if let childNode, let childValue = child.value {
                    let expected = walker.node(for: childValue)
                    #expect(childNode.type == expected.type && childNode.style == expected.style)
                    #expect(childNode.type == TypeMetadata(type(of: childValue)))
                    #expect(String(reflecting: childNode.value) == String(reflecting: childValue))
                    #expect(childNode.childCount == expected.childCount)
                }
            }
            #expect(walker.node(forChildAt: children.count, of: node) == nil)
            #expect(walker.node(forChildAt: -1, of: node) == nil)
            #expect(node.child(at: children.count) == nil && node.child(at: -1) == nil)
            #expect(node.label(ofChildAt: children.count) == nil && node.declaredType(ofChildAt: -1) == nil)
            #expect(node.child(at: children.count, as: Int.self) == nil)
        }
        // Typed reads: the exact type loads, others cast, the wrong type is nil.
        let profile = walker.node(for: Profile())
        #expect(profile.child(at: 0, as: String.self) == "Ada")
        #expect(profile.child(at: 1, as: Int.self) == 36)
        #expect(profile.child(at: 1, as: Int?.self) == .some(36))
        #expect(profile.child(at: 1, as: String.self) == nil)
        #expect(profile.child(at: 2, as: Double.self) == 4.5)
        #expect(profile.child(at: 4, as: [String].self) == ["a", "b"])
        // A function stored at its declaration's abstraction is withheld, typed or not.
        #expect(profile.child(at: 6, as: (() -> Int).self) == nil)
        // A weak property reads as its optional, pointing at the same object.
        let derived = walker.node(for: object)
        #expect(derived.child(at: 2, as: Derived?.self).flatMap { $0 } === object)
        #expect(derived.child(at: 0, as: Int.self) == 1)
        object.parent = nil
        // Each class's properties are one range, as Mirror splits them between its levels.
        #expect(derived.childIndices(declaredBy: TypeMetadata(Derived.self)) == 1..<3)
        #expect(derived.childIndices(declaredBy: TypeMetadata(Base.self)) == 0..<1)
        let mirror = Mirror(reflecting: object)
        #expect(
            derived.childIndices(declaredBy: TypeMetadata(Derived.self)).map { derived.label(ofChildAt: $0) }
                == mirror.children.map(\.label)
        )
        #expect(
            derived.childIndices(declaredBy: TypeMetadata(Base.self)).map { derived.label(ofChildAt: $0) }
                == mirror.superclassMirror?.children.map(\.label)
        )
        #expect(derived.childIndices(declaredBy: TypeMetadata(Int.self)).isEmpty)
        // A node's own value read as its exact type, as `as?` reads it; other types are nil.
        #expect(walker.node(for: 4.5).value(as: Double.self) == 4.5)
        #expect(walker.node(for: "text" as any Equatable).value(as: String.self) == "text")
        #expect(walker.node(for: Profile()).value(as: Profile.self)?.tags == ["a", "b"])
        #expect(walker.node(for: object).value(as: Derived.self) === object)
        #expect(walker.node(for: object).value(as: Base.self) == nil && (object as Base) as? Derived === object)
        #expect(walker.node(for: 3).value(as: Int?.self) == nil && walker.node(for: 3).value(as: Double.self) == nil)
        #expect(profile.childIndices(declaredBy: TypeMetadata(Profile.self)).isEmpty)
    }
}
