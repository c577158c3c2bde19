// InstanceCreationTests.swift
//
// Making structs, classes and tuples from field values. The expectations restate
// wickwirew/Runtime's factory tests (a person struct and a generic person class made with empty
// values, a generic class holding a class, tuples of two, ten and nested elements) in this
// project's fixtures, checked against `==`, `===`, `MemoryLayout` and deinitializers.

import Fixtures
import RuntimeMetadata
import Synchronization
import Testing

private struct Pet: Equatable {
    var name = "Nacho"
    var age = 12
}

private struct Person: Equatable {
    var firstName = "Jobie"
    var lastName = "Gillis"
    var age = 40
    var pet = Pet()
    var favoriteNumbers = [1, 2, 3]
    var nickname: String? = "J"
    var scores: [String: Double] = ["a": 1]
    var tags: Set<Int> = [1]
    var isMember = true
    var ratio: Float = 0.5
}

private final class PetObject {
    var name = "Nacho"
    var age = 12
}

private final class PersonObject<Tag> {
    var firstName = "Jobie"
    var age = 40
    var pet = PetObject()
    var favoriteNumbers = [1, 2, 3]
}

/// Counts deinitializers by object id, to check that made objects are released and release
/// what they hold. Each test tracks ids of its own: the suite's tests run in parallel, and one
/// shared count saw the others' objects go.
private let deinitCounts = Mutex<[Int: Int]>([:])

/// The deinitializers run so far of `Tracked` objects with an id.
private func deinitCount(id: Int) -> Int { deinitCounts.withLock { $0[id, default: 0] } }

private final class Tracked {
    let id: Int
    init(id: Int) { self.id = id }
    deinit { deinitCounts.withLock { [id] in $0[id, default: 0] += 1 } }
}

private class Base {
    var baseName = "base"
    let tracked: Tracked? = nil
}

/// The object `unowned(unsafe)` properties point to: it lives as long as the process.
nonisolated(unsafe) private let sharedBase = Base()

private final class Derived: Base {
    var level = 1
    weak var parent: Derived?
    unowned(unsafe) var owner: Base
    override init() {
        owner = sharedBase
        super.init()
    }
}

/// Unowned (safe) and lazy storage, and a generic property.
private final class Holder<Value> {
    unowned let owner: Tracked
    lazy var computed = 5
    var value: Value
    init(owner: Tracked, value: Value) {
        self.owner = owner
        self.value = value
    }
}

private struct WithClosure {
    var callback: () -> Int
    var label: String
}

private struct WithCharacter {
    var name: String
    var initial: Character
}

private struct WithDirection {
    var label: String
    var direction: Direction
}

private struct Outer {
    var inner: WithDirection
}

private final class Chain {
    var next: Chain
    init(next: Chain) { self.next = next }
}

private enum Direction { case north, south }

private actor Counter {
    var count = 0
}

@Suite("Instance creation")
struct InstanceCreationTests {
    @Test("a struct from values by name equals the one its initializer makes")
    func structByName() throws {
        let expected = Person(
            firstName: "Ada",
            lastName: "Lovelace",
            age: 36,
            pet: Pet(name: "Rex", age: 3),
            favoriteNumbers: [7],
            nickname: nil,
            scores: ["x": 2],
            tags: [3, 4],
            isMember: false,
            ratio: 2
        )
        let values: [String: Any] = [
            "firstName": "Ada", "lastName": "Lovelace", "age": 36, "pet": Pet(name: "Rex", age: 3),
            "favoriteNumbers": [7], "nickname": String?.none as Any, "scores": ["x": 2.0], "tags": Set([3, 4]),
            "isMember": false, "ratio": Float(2),
        ]
        let made = try TypeMetadata(Person.self).makeInstance(values, as: Person.self)
        #expect(made == expected)
        // Untyped, as generic code gets it.
        let untyped = try TypeMetadata(Person.self).makeInstance(values)
        #expect(untyped as? Person == expected)
        // An Int fills an optional property: the cast is `as?`'s.
        var withNickname = values
        withNickname["nickname"] = "Countess"
        #expect(try TypeMetadata(Person.self).makeInstance(withNickname, as: Person.self).nickname == "Countess")
    }

    @Test("empty values: a struct of numbers, strings, collections, optionals and structs (Runtime's testStruct)")
    func structWithEmptyValues() throws {
        let person = try TypeMetadata(Person.self).makeInstance([:], fillingMissingFields: true, as: Person.self)
        #expect(person.firstName == "")
        #expect(person.lastName == "")
        #expect(person.age == 0)
        #expect(person.pet == Pet(name: "", age: 0))
        #expect(person.favoriteNumbers == [])
        #expect(person.nickname == nil)
        #expect(person.scores == [:])
        #expect(person.tags == [])
        #expect(person.isMember == false)
        #expect(person.ratio == 0)
        // The untyped form, and emptyValue, agree.
        #expect(try TypeMetadata(Person.self).emptyValue() as? Person == person)
        // Given values win over empty ones.
        let named = try TypeMetadata(Person.self).makeInstance(["age": 5], fillingMissingFields: true, as: Person.self)
        #expect(named.age == 5 && named.firstName == "")
    }

    @Test("a generic class with a class property, made with empty values (Runtime's testClass)")
    func genericClassWithEmptyValues() throws {
        let type = TypeMetadata(PersonObject<Int>.self)
        let person = try type.makeInstance([:], fillingMissingFields: true, as: PersonObject<Int>.self)
        #expect(person.firstName == "")
        #expect(person.age == 0)
        #expect(person.pet.name == "")
        #expect(person.pet.age == 0)
        #expect(person.favoriteNumbers == [])
        // The object behaves as one its initializer made: its properties can be set and read.
        person.pet.name = "Rex"
        person.favoriteNumbers.append(9)
        #expect(person.pet.name == "Rex" && person.favoriteNumbers == [9])
        #expect(Swift.type(of: person) == PersonObject<Int>.self)
    }

    @Test("a class instance holds its values, inherited ones included; deinit runs and releases them")
    func classDeinit() throws {
        let before = deinitCount(id: 1)
        let type = TypeMetadata(Derived.self)
        #expect(try type.fields.map(\.name) == ["baseName", "tracked", "level", "parent", "owner"])
        do {
            var object: Derived
            weak var weakParent: Derived?
            do {
                let parent = Derived()
                weakParent = parent
                object = try type.makeInstance(
                    [
                        "baseName": "made", "tracked": Tracked(id: 1), "level": 7, "parent": parent,
                        "owner": sharedBase,
                    ],
                    as: Derived.self
                )
                #expect(object.baseName == "made")
                #expect(object.tracked?.id == 1)
                #expect(object.level == 7)
                #expect(object.parent === parent)
                #expect(object.owner === sharedBase)
            }
            // The weak property was a real weak reference: the parent went with its last strong one.
            #expect(weakParent == nil)
            #expect(object.parent == nil)
            #expect(deinitCount(id: 1) == before)
            // The object is uniquely owned, as one from an initializer.
            #expect(isKnownUniquelyReferenced(&object))
        }
        // The object is gone, and with it the one reference to its Tracked.
        #expect(deinitCount(id: 1) == before + 1)
    }

    @Test("a value that does not cast throws before anything is made, naming the field")
    func mismatch() throws {
        let before = deinitCount(id: 2)
        let error = #expect(throws: RuntimeMetadataError.self) {
            try TypeMetadata(Derived.self).makeInstance([
                "baseName": "made", "tracked": Tracked(id: 2), "level": "seven", "parent": Derived(),
                "owner": Base(),
            ])
        }
        guard case .typeMismatch(let expected, let actual, let context)? = error else {
            Issue.record("expected a type mismatch, got \(String(describing: error))")
            return
        }
        #expect(expected == "Swift.Int")
        #expect(actual == "Swift.String")
        #expect(context.hasPrefix("field 'level' of "))
        // The Tracked given was released with the dictionary: nothing was kept.
        #expect(deinitCount(id: 2) == before + 1)
    }

    @Test("missing, unknown and surplus values throw with what is wrong")
    func missingAndUnknown() {
        let type = TypeMetadata(Pet.self)
        #expect(throws: RuntimeMetadataError.missingValue(name: "age", typeName: type.name)) {
            try type.makeInstance(["name": "Rex"])
        }
        #expect(throws: RuntimeMetadataError.noSuchField(name: "color", typeName: type.name)) {
            try type.makeInstance(["name": "Rex", "age": 1, "color": "red"])
        }
        #expect(throws: RuntimeMetadataError.wrongValueCount(expected: 2, actual: 1, typeName: type.name)) {
            try type.makeInstance(orderedValues: ["Rex"])
        }
    }

    @Test("values in declaration order")
    func ordered() throws {
        #expect(try TypeMetadata(Pet.self).makeInstance(orderedValues: ["Rex", 3]) as? Pet == Pet(name: "Rex", age: 3))
        // A closure property stores its function at the abstraction the declaration gives it, which
        // only the compiler's reabstraction thunks convert to: refused, as setValue refuses it.
        #expect(
            throws: RuntimeMetadataError.functionNotReabstractable(
                typeName: "() -> Swift.Int",
                context: "field 'callback' of '\(TypeMetadata(WithClosure.self).name)'"
            )
        ) {
            try TypeMetadata(WithClosure.self).makeInstance(orderedValues: [{ 41 + 1 }, "x"])
        }
    }

    @Test("empty values: the first field without one is named, however deep")
    func noEmptyValue() throws {
        #expect(
            throws: RuntimeMetadataError.noEmptyValue(
                typeName: TypeMetadata(Direction.self).name,
                context: "field 'direction' of '\(TypeMetadata(WithDirection.self).name)'"
            )
        ) {
            try TypeMetadata(WithDirection.self).makeInstance(["label": "x"], fillingMissingFields: true)
        }
        #expect(
            throws: RuntimeMetadataError.noEmptyValue(
                typeName: TypeMetadata(Direction.self).name,
                context:
                    "field 'inner' of '\(TypeMetadata(Outer.self).name)', field 'direction' of '\(TypeMetadata(WithDirection.self).name)'"
            )
        ) {
            try TypeMetadata(Outer.self).emptyValue()
        }
        // A Character has no obvious empty value: its storage holds exactly one grapheme.
        #expect(throws: RuntimeMetadataError.self) {
            try TypeMetadata(WithCharacter.self).makeInstance([:], fillingMissingFields: true)
        }
        // Given the field without one, the rest fill.
        let made = try TypeMetadata(WithCharacter.self).makeInstance(
            ["initial": Character("A")],
            fillingMissingFields: true,
            as: WithCharacter.self
        )
        #expect(made.name == "" && made.initial == "A")
        #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(Direction.self).emptyValue() }
        // A chain of classes that holds itself ends at the depth limit, with an error.
        #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(Chain.self).emptyValue() }
    }

    @Test("tuples: empty, one element, two labelled, ten elements and nested structs (Runtime's tuple factory)")
    func tuples() throws {
        let empty = try TypeMetadata(Void.self).makeInstance([:])
        #expect(empty is Void)
        let pair = try TypeMetadata((name: String, age: Int).self).makeInstance(
            [:],
            fillingMissingFields: true,
            as: (name: String, age: Int).self
        )
        #expect(pair.name == "" && pair.age == 0)
        typealias Ten = (String, Int, Bool, Double, Float, [UInt8], [UInt16: UInt32], Set<UInt64>, Int32, Int8?)
        let ten = try TypeMetadata(Ten.self).makeInstance([:], fillingMissingFields: true, as: Ten.self)
        #expect(ten.0 == "" && ten.1 == 0 && ten.2 == false && ten.3 == 0 && ten.4 == 0)
        #expect(ten.5 == [] && ten.6 == [:] && ten.7 == [] && ten.8 == 0 && ten.9 == nil)
        let nested = try TypeMetadata((Pet, Pet).self).makeInstance(
            [:],
            fillingMissingFields: true,
            as: (Pet, Pet).self
        )
        #expect(nested.0 == Pet(name: "", age: 0) && nested.1 == Pet(name: "", age: 0))
        // By label and by Mirror's `.N` name, and in order.
        let mixed = try TypeMetadata((Int, label: String).self).makeInstance(
            [".0": 4, "label": "four"],
            as: (Int, label: String).self
        )
        #expect(mixed.0 == 4 && mixed.label == "four")
        let ordered = try TypeMetadata((Int, String).self).makeInstance(orderedValues: [1, "one"])
        let typed = try #require(ordered as? (Int, String))
        #expect(typed.0 == 1 && typed.1 == "one")
    }

    @Test("kinds without instances made this way are refused")
    func refusedKinds() {
        #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(Direction.self).makeInstance([:]) }
        #expect(throws: RuntimeMetadataError.self) { try TypeMetadata((any Error).self).makeInstance([:]) }
        #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(Int.Type.self).makeInstance([:]) }
        // An actor's executor state is set up only by its initializer.
        #expect(TypeMetadata(Counter.self).descriptor?.isActor == true)
        #expect(TypeMetadata(Derived.self).descriptor?.isActor == false)
        #expect(throws: RuntimeMetadataError.self) {
            try TypeMetadata(Counter.self).makeInstance(["count": 1])
        }
    }

    @Test("made from generic code, with the type known only as metadata")
    func fromGenericCode() throws {
        func make<T>(_: T.Type, _ values: [String: Any]) throws -> T {
            try TypeMetadata(T.self).makeInstance(values, as: T.self)
        }
        #expect(try make(Pet.self, ["name": "A", "age": 1]) == Pet(name: "A", age: 1))
        let metatype: Any.Type = Pet.self
        let made = try TypeMetadata(metatype).makeInstance(["name": "B", "age": 2])
        #expect(made as? Pet == Pet(name: "B", age: 2))
        // Values arriving as `Any`, as from a decoder.
        let decoded: [String: Any] = ["name": "C" as Any, "age": 3 as Any]
        #expect(try make(Pet.self, decoded) == Pet(name: "C", age: 3))
    }

    @Test("unowned and lazy storage, and a generic class's T property")
    func unownedLazyGeneric() throws {
        let before = deinitCount(id: 9)
        do {
            let owner = Tracked(id: 9)
            let type = TypeMetadata(Holder<[String]>.self)
            #expect(try type.fields.map(\.name) == ["owner", "$__lazy_storage_$_computed", "value"])
            let holder = try type.makeInstance(
                ["owner": owner, "value": ["a"]],
                fillingMissingFields: true,
                as: Holder<[String]>.self
            )
            #expect(holder.owner === owner)
            #expect(holder.value == ["a"])
            // The lazy property's storage was filled with nil: its initializer runs on first use.
            #expect(holder.computed == 5)
        }
        // The owner is gone with its one strong reference: the unowned property did not keep it
        // alive, and releasing the holder released nothing twice.
        #expect(deinitCount(id: 9) == before + 1)
    }

    @Test("weak and unowned properties are never filled with a new object, which would dangle")
    func referenceStorageEmptyValues() throws {
        let type = TypeMetadata(OwnershipStruct.self)
        let error = #expect(throws: RuntimeMetadataError.self) {
            try type.makeInstance([:], fillingMissingFields: true)
        }
        guard case .noEmptyValue(let typeName, let context)? = error else {
            Issue.record("expected noEmptyValue, got \(String(describing: error))")
            return
        }
        #expect(typeName == TypeMetadata(ReferenceFixture.self).name)
        #expect(context.hasPrefix("field 'unownedObject' of "))
        // Given the unowned ones, the weak one is filled with nil, the strong one with a new object.
        let shared = ReferenceFixture.shared
        let made = try type.makeInstance(
            ["unownedObject": shared, "unmanagedObject": shared],
            fillingMissingFields: true,
            as: OwnershipStruct.self
        )
        #expect(made.weakObject == nil)
        #expect(made.unownedObject === shared && made.unmanagedObject === shared)
        #expect(made.strong !== shared)
    }
}
