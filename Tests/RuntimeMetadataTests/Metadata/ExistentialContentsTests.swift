// ExistentialContentsTests.swift
//
// What existential containers hold, against type(of:), as?, ===, and the conformances
// ProtocolDescriptor finds for the dynamic type.

import Fixtures
import RuntimeMetadata
import Testing

/// A value too large for a container's three-word buffer: it lives in a box.
private struct Wide: Equatable, CustomStringConvertible {
    var a = 1, b = 2, c = 3, d = 4
    var description: String { "wide" }
}

/// Wraps a value in an `Any` from generic code: with `T == Any` the result is a container
/// holding a container.
private func wrapped<T>(_ value: T) -> Any { value }

/// The conformance `ProtocolDescriptor` finds for a type, for comparison with a container's.
private func expectedConformance(_ protocolType: Any.Type, _ type: Any.Type) throws -> Conformance {
    try #require(try ProtocolDescriptor(protocolType).conformance(of: type))
}

@Suite("Existential contents")
struct ExistentialContentsTests {
    @Test("Any: the dynamic type and value, no tables; nested containers are looked through")
    func any() throws {
        let plain: Any = 42
        let contents = try ExistentialContents(of: plain, as: Any.self)
        #expect(contents.dynamicType == TypeMetadata(Int.self))
        #expect(contents.conformances.isEmpty)
        #expect(try ExistentialContents.projectedValue(of: plain, as: Any.self) as? Int == 42)
        let nested = wrapped(plain as Any)
        #expect(try ExistentialContents(of: nested, as: Any.self).dynamicType == TypeMetadata(Int.self))
        #expect(try ExistentialContents.projectedValue(of: nested, as: Any.self) as? Int == 42)
        let wide: Any = Wide()
        #expect(try ExistentialContents(of: wide, as: Any.self).dynamicType == TypeMetadata(Wide.self))
        #expect(try ExistentialContents.projectedValue(of: wide, as: Any.self) as? Wide == Wide())
    }

    @Test("any P and compositions: one table per protocol, each the conformance of the dynamic type")
    func protocols() throws {
        let equatable: any Equatable = "text"
        let single = try ExistentialContents(of: equatable, as: (any Equatable).self)
        #expect(single.dynamicType == TypeMetadata(String.self))
        #expect(single.conformances == [try expectedConformance((any Equatable).self, String.self)])

        let composed: any Hashable & CustomStringConvertible = 7
        let contents = try ExistentialContents(of: composed, as: (any Hashable & CustomStringConvertible).self)
        #expect(contents.dynamicType == TypeMetadata(Int.self))
        let expected = try [
            expectedConformance((any Hashable).self, Int.self),
            expectedConformance((any CustomStringConvertible).self, Int.self),
        ]
        #expect(Set(contents.conformances) == Set(expected))
        #expect(contents.conformances.count == 2)
        // In the order the existential type's metadata lists its protocols.
        let listed = try #require(TypeMetadata((any Hashable & CustomStringConvertible).self).existential)
        #expect(contents.conformances.map(\.protocolDescriptor.qualifiedName) == listed.protocolNames)
        #expect(
            try ExistentialContents.projectedValue(of: composed, as: (any Hashable & CustomStringConvertible).self)
                as? Int == 7
        )

        let boxed: any CustomStringConvertible = Wide()
        #expect(
            try ExistentialContents(of: boxed, as: (any CustomStringConvertible).self).conformances.map(\.type) == [
                TypeMetadata(Wide.self)
            ]
        )
        #expect(
            try ExistentialContents.projectedValue(of: boxed, as: (any CustomStringConvertible).self) as? Wide == Wide()
        )
    }

    @Test("Class-bound existentials and AnyObject: the object's class, the same object")
    func classBound() throws {
        let object = ReferenceFixture.shared
        let bound: any ClassBoundProtocol = object
        let contents = try ExistentialContents(of: bound, as: (any ClassBoundProtocol).self)
        #expect(contents.dynamicType == TypeMetadata(ReferenceFixture.self))
        #expect(
            contents.conformances == [try expectedConformance((any ClassBoundProtocol).self, ReferenceFixture.self)]
        )
        #expect(
            try ExistentialContents.projectedValue(of: bound, as: (any ClassBoundProtocol).self) as? ReferenceFixture
                === object
        )
        let anyObject: AnyObject = object
        let plain = try ExistentialContents(of: anyObject, as: AnyObject.self)
        #expect(plain.dynamicType == TypeMetadata(ReferenceFixture.self))
        #expect(plain.conformances.isEmpty)
        // A subclass instance held as a base-class-constrained existential reports the subclass.
        let derived: any BaseClassAndFixture = DerivedClass(derivedValue: 1.5)
        let derivedContents = try ExistentialContents(of: derived, as: (any BaseClassAndFixture).self)
        #expect(derivedContents.dynamicType == TypeMetadata(DerivedClass.self))
        // The superclass constraint stores no table: the protocol's table follows the object.
        #expect(
            derivedContents.conformances == [try expectedConformance((any FixtureProtocol).self, DerivedClass.self)]
        )
    }

    @Test("any Error: the error's type, value and Error conformance")
    func error() throws {
        let error: any Error = FixtureError.failed(code: 3)
        let contents = try ExistentialContents(of: error, as: (any Error).self)
        #expect(contents.dynamicType == TypeMetadata(FixtureError.self))
        #expect(contents.conformances == [try expectedConformance((any Error).self, FixtureError.self)])
        #expect(
            try ExistentialContents.projectedValue(of: error, as: (any Error).self) as? FixtureError == .failed(code: 3)
        )
    }

    @Test("From generic code, with the type parameter bound to the existential")
    func genericCode() throws {
        func contents<T>(_ value: T) throws -> ExistentialContents { try ExistentialContents(of: value, as: T.self) }
        let held: any Equatable = 5
        func pinned<T>(_ value: T, as _: T.Type) throws -> ExistentialContents { try contents(value) }
        let read = try pinned(held, as: (any Equatable).self)
        #expect(read.dynamicType == TypeMetadata(Int.self))
        #expect(read.conformances == [try expectedConformance((any Equatable).self, Int.self)])
        // Bound to the dynamic type instead (Swift opened the existential): refused, not misread.
        #expect(throws: RuntimeMetadataError.self) { try contents(5) }
    }

    @Test("Constrained existentials: a table per protocol of the requirement signature, as the compiler sizes them")
    func constrained() throws {
        // Opaque: the buffer, the metadata, then the tables; the compiler's size counts them.
        let numbers: any Sequence<Int> = [1, 2, 3]
        let contents = try ExistentialContents(of: numbers, as: (any Sequence<Int>).self)
        #expect(contents.dynamicType == TypeMetadata([Int].self))
        #expect(contents.conformances == [try expectedConformance((any Sequence).self, [Int].self)])
        #expect(MemoryLayout<any Sequence<Int>>.size == 4 * 8 + contents.conformances.count * 8)
        #expect(
            try ExistentialContents.projectedValue(of: numbers, as: (any Sequence<Int>).self) as? [Int] == [1, 2, 3]
        )

        // A value too large for the buffer, in its box.
        let wide: any Sequence<Int> = WideSequence()
        let wideContents = try ExistentialContents(of: wide, as: (any Sequence<Int>).self)
        #expect(wideContents.dynamicType == TypeMetadata(WideSequence.self))
        #expect(wideContents.conformances == [try expectedConformance((any Sequence).self, WideSequence.self)])
        #expect(
            try ExistentialContents.projectedValue(of: wide, as: (any Sequence<Int>).self) as? WideSequence
                == WideSequence()
        )

        // Two protocols: two tables, each the dynamic type's own conformance.
        typealias Described = any Collection<Int> & CustomStringConvertible
        let described: Described = [4, 5]
        let both = try ExistentialContents(of: described, as: Described.self)
        #expect(both.dynamicType == TypeMetadata([Int].self))
        #expect(
            Set(both.conformances)
                == Set([
                    try expectedConformance((any Collection).self, [Int].self),
                    try expectedConformance((any CustomStringConvertible).self, [Int].self),
                ])
        )
        #expect(both.conformances.count == 2)
        #expect(MemoryLayout<Described>.size == 4 * 8 + both.conformances.count * 8)

        // Class-bound: the object, then the tables; no metadata is stored.
        typealias ObjectSequence = any Sequence<Int> & AnyObject
        let object = CountingSequence()
        let bound: ObjectSequence = object
        let boundContents = try ExistentialContents(of: bound, as: ObjectSequence.self)
        #expect(boundContents.dynamicType == TypeMetadata(CountingSequence.self))
        #expect(boundContents.conformances == [try expectedConformance((any Sequence).self, CountingSequence.self)])
        #expect(MemoryLayout<ObjectSequence>.size == 8 + boundContents.conformances.count * 8)
        #expect(
            try ExistentialContents.projectedValue(of: bound, as: ObjectSequence.self) as? CountingSequence === object
        )

        // From generic code pinned to the existential.
        func pinned<T>(_ value: T, as _: T.Type) throws -> ExistentialContents {
            try ExistentialContents(of: value, as: T.self)
        }
        #expect(try pinned(numbers, as: (any Sequence<Int>).self) == contents)

        // A constrained existential metatype has no container laid out here: refused.
        let metatype: any Sequence<Int>.Type = [Int].self
        #expect(throws: RuntimeMetadataError.self) {
            try ExistentialContents(of: metatype, as: (any Sequence<Int>.Type).self)
        }
    }

    @Test("Values that are not of an existential type are refused")
    func notExistential() {
        #expect(throws: RuntimeMetadataError.self) { try ExistentialContents(of: 42, as: Int.self) }
        #expect(throws: RuntimeMetadataError.self) {
            try ExistentialContents.projectedValue(of: "text", as: String.self)
        }
        #expect(throws: RuntimeMetadataError.self) { try ExistentialContents(of: Optional<Any>.some(1), as: Any?.self) }
    }
}

/// A base class and a protocol: a class-bound existential with a superclass constraint.
typealias BaseClassAndFixture = BaseClass & FixtureProtocol

/// A sequence of four words: an existential holds it in a box.
private struct WideSequence: Sequence, Equatable {
    var a = 1, b = 2, c = 3, d = 4
    func makeIterator() -> IndexingIterator<[Int]> { [a, b, c, d].makeIterator() }
}

/// A class sequence, for a class-bound constrained existential.
private final class CountingSequence: Sequence {
    func makeIterator() -> IndexingIterator<[Int]> { [1, 2].makeIterator() }
}
