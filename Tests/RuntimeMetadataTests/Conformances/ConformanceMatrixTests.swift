// ConformanceMatrixTests.swift
//
// Every (type, protocol) cell of a 44-type by 11-protocol matrix agrees with `as?`, and
// opening values agrees with `as? any P`.

import Fixtures
import Foundation
import RuntimeMetadata
import Testing

/// One protocol column: its descriptor and the `as?` oracle.
struct ProtocolColumn: Sendable, CustomStringConvertible {
    let name: String
    let descriptor: @Sendable () throws -> ProtocolDescriptor
    let oracle: @Sendable (Any.Type) -> Bool
    var description: String { name }
}

/// The matrix's types.
let matrixTypes: [Any.Type] = [
    Int.self, String.self, Double.self, Bool.self, [Int].self, [String: Int].self, Set<Int>.self, Int?.self,
    ReferenceFixture?.self, Point.self, EightFieldStruct.self, StringHolder.self, GenericBox<Point>.self,
    GenericBox<ReferenceFixture>.self, GenericEnum<Int>.self, GenericEnum<ReferenceFixture>.self, Shape.self,
    MultiPayloadEnum.self, CompassDirection.self, RawValueEnum.self, IndirectTree.self, ReferenceFixture.self,
    BaseClass.self, DerivedClass.self, GenericBaseClass<Int>.self, GenericSubclass.self, FoundationSubclass.self,
    TreeNode.self, FixtureError.self, (any Error).self, (Int, Int).self, ((Int) -> Int).self, Int.Type.self,
    Any.self, AnyObject.self, (any Describable).self, Date.self, URL.self, Data.self, UUID.self, Decimal.self,
    Int.IntExtensionNested.self, [Point].self, [ReferenceFixture].self,
]

/// The matrix's protocols: plain, class-bound, inheriting, with associated types, from this
/// package and from the standard library.
let matrixProtocols: [ProtocolColumn] = [
    ProtocolColumn(name: "Describable", descriptor: { try ProtocolDescriptor((any Describable).self) }) {
        $0 is any Describable.Type
    },
    ProtocolColumn(name: "DetailedDescribable", descriptor: { try ProtocolDescriptor((any DetailedDescribable).self) })
    {
        $0 is any DetailedDescribable.Type
    },
    ProtocolColumn(name: "Identified", descriptor: { try ProtocolDescriptor((any Identified).self) }) {
        $0 is any Identified.Type
    },
    ProtocolColumn(name: "ClassBoundProtocol", descriptor: { try ProtocolDescriptor((any ClassBoundProtocol).self) }) {
        $0 is any ClassBoundProtocol.Type
    },
    ProtocolColumn(name: "FixtureProtocol", descriptor: { try ProtocolDescriptor((any FixtureProtocol).self) }) {
        $0 is any FixtureProtocol.Type
    },
    ProtocolColumn(name: "Equatable", descriptor: { try ProtocolDescriptor((any Equatable).self) }) {
        $0 is any Equatable.Type
    },
    ProtocolColumn(name: "Hashable", descriptor: { try ProtocolDescriptor((any Hashable).self) }) {
        $0 is any Hashable.Type
    },
    ProtocolColumn(name: "Comparable", descriptor: { try ProtocolDescriptor((any Comparable).self) }) {
        $0 is any Comparable.Type
    },
    ProtocolColumn(name: "Error", descriptor: { try ProtocolDescriptor((any Error).self) }) { $0 is any Error.Type },
    ProtocolColumn(
        name: "CustomStringConvertible",
        descriptor: { try ProtocolDescriptor((any CustomStringConvertible).self) }
    ) {
        $0 is any CustomStringConvertible.Type
    },
    ProtocolColumn(name: "Sequence", descriptor: { try ProtocolDescriptor((any Sequence).self) }) {
        $0 is any Sequence.Type
    },
]

@Suite("Conformance matrix")
struct ConformanceMatrixTests {
    @Test("Every cell agrees with as?", arguments: matrixProtocols)
    func matrix(_ column: ProtocolColumn) throws {
        let descriptor = try column.descriptor()
        var conforming = 0
        for type in matrixTypes {
            let expected = column.oracle(type)
            #expect(descriptor.isConformed(by: type) == expected, "\(type): \(column.name)")
            // Asked twice: the cached answer agrees too.
            #expect((descriptor.conformance(of: type) != nil) == expected, "\(type): \(column.name), cached")
            if expected { conforming += 1 }
        }
        #expect(conforming > 0)
    }

    @Test("Marker protocols get an explicit answer, not false")
    func markerProtocols() {
        #expect(throws: RuntimeMetadataError.markerProtocol(name: "Swift.Sendable")) {
            try ProtocolDescriptor(named: "Swift.Sendable")
        }
        #expect(throws: RuntimeMetadataError.markerProtocol(name: "Swift.BitwiseCopyable")) {
            try ProtocolDescriptor(named: "Swift.BitwiseCopyable")
        }
        // (any Sendable).self is Any.self at run time: the marker is erased.
        #expect(throws: RuntimeMetadataError.notAProtocol(typeName: "Any")) {
            try ProtocolDescriptor((any Sendable).self)
        }
    }

    @Test("Opening values agrees with as? any P, and calls reach the same witnesses")
    func openingValues() throws {
        let describable = try ProtocolDescriptor((any Describable).self)
        let values: [Any] = [
            Point(x: 1, y: 2), 5, "text", Shape.point, [Point(x: 3, y: 4)], GenericBox(value: Point(x: 5, y: 6)),
            GenericBox(value: 1.5), DerivedClass(derivedValue: 1), EightFieldStruct.sample, CompassDirection.east,
            FixtureError.failed(code: 1),
            // An error that was an `any Error` before it became `Any`.
            FixtureError.failed(code: 2) as any Error,
        ]
        for value in values {
            let opened = describable.open(value, as: (any Describable).self)
            let cast = value as? any Describable
            #expect((opened == nil) == (cast == nil), "\(value)")
            if let opened, let cast {
                #expect(opened.describe() == cast.describe())
            }
        }
        let classBound = try ProtocolDescriptor((any ClassBoundProtocol).self)
        let object = ReferenceFixture(id: 3, name: "c")
        let openedObject = try #require(classBound.open(object as Any, as: (any ClassBoundProtocol).self))
        #expect(openedObject === object)
        #expect(classBound.open(Point(x: 1, y: 1) as Any, as: (any ClassBoundProtocol).self) == nil)
        // A subclass instance stored in Any under its superclass: its own conformance counts.
        let fixtureProtocol = try ProtocolDescriptor((any FixtureProtocol).self)
        let upcast: Any = DerivedClass(derivedValue: 2) as BaseClass
        #expect(upcast as? any FixtureProtocol != nil)
        #expect(fixtureProtocol.open(upcast, as: (any FixtureProtocol).self) != nil)
        #expect(
            fixtureProtocol.open(BaseClass(baseValue: 1, baseName: "base") as Any, as: (any FixtureProtocol).self)
                == nil
        )
        // The wrong existential for the protocol is refused.
        #expect(describable.open(Point(x: 1, y: 1) as Any, as: (any Identified).self) == nil)
        #expect(describable.open(Point(x: 1, y: 1) as Any, as: Any.self) == nil)
    }

    @Test("Opened values own exactly one copy: objects and boxes are released once, inline and boxed")
    func openedOwnership() throws {
        let describable = try ProtocolDescriptor((any Describable).self)
        let classBound = try ProtocolDescriptor((any ClassBoundProtocol).self)
        var object = ReferenceFixture(id: 1, name: "owned")
        // A class instance: the opened existential holds a reference, released with it.
        for _ in 0..<1000 {
            let held: Any = object
            let opened = try #require(classBound.open(held, as: (any ClassBoundProtocol).self))
            #expect(opened === object)
        }
        #expect(isKnownUniquelyReferenced(&object))
        // A value holding the object, inline and in a box (four words): the copy retains it
        // once, and dropping the copy releases it once; the `Any` it came from is untouched.
        for _ in 0..<1000 {
            let inline: Any = HoldsObject(object: object)
            let boxed: Any = HoldsObjectWide(object: object)
            let openedInline = try #require(describable.open(inline, as: (any Describable).self))
            let openedBoxed = try #require(describable.open(boxed, as: (any Describable).self))
            #expect(openedInline.describe() == "owned")
            #expect(openedBoxed.describe() == "owned")
            #expect((inline as? HoldsObject)?.object === object)
            #expect((boxed as? HoldsObjectWide)?.object === object)
        }
        #expect(isKnownUniquelyReferenced(&object))
    }

    @Test("Lending a value as any P agrees with as? any P, copies nothing, and lets the body keep a copy")
    func lendingValues() throws {
        let describable = try ProtocolDescriptor((any Describable).self)
        let values: [Any] = [
            Point(x: 1, y: 2), 5, "text", Shape.point, GenericBox(value: Point(x: 5, y: 6)),
            // Stored out of line in the container (more than three words).
            EightFieldStruct.sample, DerivedClass(derivedValue: 1), DerivedClass(derivedValue: 3) as BaseClass,
            FixtureError.failed(code: 1), FixtureError.failed(code: 2) as any Error, Date(timeIntervalSince1970: 0),
        ]
        for value in values {
            let cast = value as? any Describable
            let described = describable.withOpened(value, as: (any Describable).self) { $0.describe() }
            #expect(described == cast?.describe(), "\(value)")
            // A copy made in the body outlives the call and is an ordinary existential.
            let kept = describable.withOpened(value, as: (any Describable).self) { copy $0 }
            #expect(kept?.describe() == cast?.describe())
            #expect(kept.map { String(reflecting: type(of: $0)) } == cast.map { String(reflecting: type(of: $0)) })
        }
        // A class instance is lent, not copied: the body sees the same object, and neither
        // lending nor a copy kept by the body leaves a reference behind once dropped.
        let classBound = try ProtocolDescriptor((any ClassBoundProtocol).self)
        weak var released: ReferenceFixture?
        do {
            let object = ReferenceFixture(id: 3, name: "c")
            released = object
            let boxed: Any = object
            for _ in 0..<3 {
                #expect(classBound.withOpened(boxed, as: (any ClassBoundProtocol).self) { $0 === object } == true)
                let kept = classBound.withOpened(boxed, as: (any ClassBoundProtocol).self) { copy $0 }
                #expect(kept === object)
                // `open` returns its own reference: retained once, released when dropped.
                let opened = classBound.open(boxed, as: (any ClassBoundProtocol).self)
                #expect(opened === object)
                // In an opaque existential, the object is the buffer's first word.
                let fixture = try ProtocolDescriptor((any FixtureProtocol).self)
                let openedOpaque = try #require(fixture.open(boxed, as: (any FixtureProtocol).self))
                #expect((openedOpaque as? ReferenceFixture) === object)
            }
        }
        #expect(released == nil)
        #expect(classBound.withOpened(Point(x: 1, y: 1) as Any, as: (any ClassBoundProtocol).self) { _ in true } == nil)
        // The wrong existential for the protocol is refused without calling the body.
        var called = false
        #expect(
            describable.withOpened(Point(x: 1, y: 1) as Any, as: (any Identified).self) { _ in called = true } == nil
        )
        #expect(describable.withOpened(Point(x: 1, y: 1) as Any, as: Any.self) { _ in called = true } == nil)
        #expect(!called)
        // Errors thrown by the body propagate.
        #expect(throws: FixtureError.self) {
            _ = try describable.withOpened(Point(x: 1, y: 1) as Any, as: (any Describable).self) { _ in
                throw FixtureError.failed(code: 9)
            }
        }
    }

    @Test("A stored visitor closure is lent each kind of value, as as? opens it, and keeps nothing")
    func lendingToStoredVisitors() throws {
        let describable = try ProtocolDescriptor((any Describable).self)
        // Closures stored as a framework stores the visitor it was given, and passed on: the
        // optimizer cannot see them where withOpened calls them.
        let visitors = StoredVisitors(
            describe: { $0.describe() },
            keep: { copy $0 }
        )
        weak var released: DerivedClass?
        do {
            let object = DerivedClass(derivedValue: 7)
            released = object
            let values: [Any] = [
                Point(x: 1, y: 2), 5, "text", Shape.point, GenericBox(value: Point(x: 5, y: 6)),
                EightFieldStruct.sample, object, object as BaseClass, FixtureError.failed(code: 1),
                FixtureError.failed(code: 2) as any Error, Optional(Point(x: 3, y: 4)) as Any,
            ]
            for _ in 0..<100 {
                for value in values {
                    let cast = value as? any Describable
                    #expect(visitors.lend(value, to: describable) == cast?.describe(), "\(value)")
                    let kept = visitors.keep(value, from: describable)
                    #expect(kept?.describe() == cast?.describe())
                }
            }
        }
        // Neither the lending nor the copies the visitor kept and dropped leave a reference.
        #expect(released == nil)
    }

    @Test("An opened subclass instance stored under its superclass is described by its own class")
    func openingRecordsTheDynamicClass() throws {
        let describable = try ProtocolDescriptor((any Describable).self)
        // The subclass is generic: its witness reads `T` from the metadata it is given, which
        // must be the subclass's, not the superclass's the `Any` was made with.
        let values: [Any] = [
            OpeningSubclass<String>(payload: "s") as OpeningBase, OpeningSubclass<[Int]>(payload: [1]) as OpeningBase,
        ]
        for value in values {
            let expected = try #require(value as? any Describable).describe()
            #expect(describable.open(value, as: (any Describable).self)?.describe() == expected)
            #expect(describable.withOpened(value, as: (any Describable).self) { $0.describe() } == expected)
            let opened = try #require(describable.open(value, as: (any Describable).self))
            #expect(type(of: opened) == type(of: try #require(value as? any Describable)))
        }
    }

    @Test("Opening types agrees with as? any P.Type")
    func openingTypes() throws {
        let describable = try ProtocolDescriptor((any Describable).self)
        func typeName<T: Describable>(_: T.Type) -> String { String(reflecting: T.self) }
        for type in matrixTypes {
            let opened = describable.open(type, as: (any Describable.Type).self)
            #expect((opened != nil) == (type is any Describable.Type), "\(type)")
            if let opened {
                #expect(typeName(opened) == String(reflecting: type))
            }
        }
        #expect(describable.open(Int.self, as: (any Identified.Type).self) == nil)
    }

    @Test("Associated types resolve through the conformance")
    func associatedTypes() throws {
        let identified = try ProtocolDescriptor((any Identified).self)
        #expect(identified.associatedTypeNames == ["ID", "Payload"])
        let point = try #require(identified.conformance(of: Point.self))
        #expect(point.associatedType(named: "ID") == TypeMetadata(Int.self))
        #expect(point.associatedType(named: "Payload") == TypeMetadata([String].self))
        #expect(point.associatedType(named: "Missing") == nil)
        // The witness table names the conformance record it was built from.
        #expect(point.record?.typeDescriptor?.qualifiedName == "Fixtures.Point")
        #expect(point.record?.protocolDescriptor == identified)
        let holder = try #require(identified.conformance(of: StringHolder.self))
        #expect(holder.associatedType(named: "ID") == TypeMetadata(String.self))
        let sequence = try ProtocolDescriptor((any Sequence).self)
        #expect(sequence.conformance(of: [Int].self)?.associatedType(named: "Element") == TypeMetadata(Int.self))
        #expect(
            sequence.conformance(of: Set<String>.self)?.associatedType(named: "Iterator")
                == TypeMetadata(Set<String>.Iterator.self)
        )
    }

    @Test("Protocol descriptors: names, requirements, inheritance, class constraint")
    func protocolDescriptors() throws {
        let hashable = try ProtocolDescriptor(named: "Swift.Hashable")
        #expect(hashable == (try ProtocolDescriptor((any Hashable).self)))
        #expect(hashable.name == "Hashable" && hashable.moduleName == "Swift")
        #expect(hashable.inheritedProtocols.map(\.qualifiedName) == ["Swift.Equatable"])
        let detailed = try ProtocolDescriptor((any DetailedDescribable).self)
        #expect(detailed.inheritedProtocols == [try ProtocolDescriptor((any Describable).self)])
        #expect(detailed.requirements.map(\.kind) == [.baseProtocol, .getter])
        #expect(try ProtocolDescriptor((any ClassBoundProtocol).self).isClassBound)
        #expect(!(try ProtocolDescriptor((any Describable).self).isClassBound))
        #expect(try ProtocolDescriptor((any Error).self).isError)
        let identified = try ProtocolDescriptor((any Identified).self)
        // `associatedtype ID: Hashable` adds an associated conformance beside the two associated types.
        let kinds = identified.requirements.map(\.kind)
        #expect(kinds.filter { $0 == .associatedType }.count == 2)
        #expect(kinds.filter { $0 == .associatedConformance }.count == 1)
        #expect(kinds.last == .getter)
        #expect(throws: RuntimeMetadataError.self) { try ProtocolDescriptor(Int.self) }
        #expect(throws: RuntimeMetadataError.self) { try ProtocolDescriptor((any Describable & FixtureProtocol).self) }
        #expect(throws: RuntimeMetadataError.self) { try ProtocolDescriptor(named: "Nowhere.Nothing") }
    }

    @Test("Every protocol a type conforms to, through superclasses and conditions that hold")
    func protocolsOfType() throws {
        let names = Set(TypeMetadata(GenericSubclass.self).conformances.map(\.qualifiedName))
        #expect(names.contains("Fixtures.Describable"))  // from BaseClass
        let boxOfPoint = Set(TypeMetadata(GenericBox<Point>.self).conformances.map(\.qualifiedName))
        #expect(boxOfPoint.isSuperset(of: ["Fixtures.Describable", "Swift.Equatable"]))
        let boxOfObject = Set(TypeMetadata(GenericBox<ReferenceFixture>.self).conformances.map(\.qualifiedName))
        #expect(!boxOfObject.contains("Fixtures.Describable") && !boxOfObject.contains("Swift.Equatable"))
        let point = Set(TypeMetadata(Point.self).conformances.map(\.qualifiedName))
        #expect(
            point.isSuperset(of: ["Fixtures.Describable", "Fixtures.Identified", "Swift.Hashable", "Swift.Equatable"])
        )
        for descriptor in TypeMetadata(Shape.self).conformances {
            #expect(descriptor.isConformed(by: Shape.self))
        }
    }

    @Test("Compositions agree with as? any P & Q")
    func compositions() throws {
        for type in matrixTypes {
            #expect(
                try TypeMetadata(type).conforms(to: (any Describable & Equatable).self)
                    == (type is any (Describable & Equatable).Type),
                "\(type)"
            )
            #expect(
                try TypeMetadata(type).conforms(to: (any BaseClass & Describable).self)
                    == (type is any (BaseClass & Describable).Type),
                "\(type)"
            )
        }
        #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(Int.self).conforms(to: Int.self) }
    }

    @Test("Records: all conformers of a protocol, generic ones with their conditions")
    func records() throws {
        let describable = try ProtocolDescriptor((any Describable).self)
        let records = describable.conformanceRecords()
        let names = Set(records.compactMap { $0.typeDescriptor?.qualifiedName })
        #expect(
            names.isSuperset(of: [
                "Fixtures.Point", "Fixtures.GenericBox", "Swift.Array", "Swift.Int", "Fixtures.BaseClass",
            ])
        )
        let box = try #require(records.first { $0.typeDescriptor?.qualifiedName == "Fixtures.GenericBox" })
        #expect(box.isGeneric)
        #expect(box.conditionalRequirements.map(\.protocolName) == ["Fixtures.Describable"])
        let conforming = describable.conformingTypes()
        #expect(conforming.contains(TypeMetadata(Point.self)) && conforming.contains(TypeMetadata(Int.self)))
        #expect(conforming.allSatisfy { describable.isConformed(by: $0.type!) })
        let comparable = try ProtocolDescriptor((any Comparable).self)
        let retroactive = try #require(
            comparable.conformanceRecords().first { $0.typeDescriptor?.qualifiedName == "Swift.Bool" }
        )
        #expect(retroactive.isRetroactive)
        #expect(retroactive.retroactiveModuleName == "Fixtures")
        #expect(retroactive.image.fileName.contains("RuntimeMetadataPackageTests"))
    }

    @Test("Instantiating a generic descriptor checks its requirements")
    func instantiation() throws {
        let set = try #require(TypeMetadata(Set<Int>.self).descriptor)
        #expect(try set.instantiate(with: [.type(TypeMetadata(String.self))]) == TypeMetadata(Set<String>.self))
        #expect(throws: RuntimeMetadataError.self) {
            try set.instantiate(with: [.type(TypeMetadata(EightFieldStruct.self))])
        }
        #expect(throws: RuntimeMetadataError.self) { try set.instantiate(with: []) }
        #expect(throws: RuntimeMetadataError.self) { try set.instantiate(with: [.value(3)]) }
        let box = try #require(TypeMetadata(ConstrainedBox<Int>.self).descriptor)
        let error = try #require(throws: RuntimeMetadataError.self) {
            try box.instantiate(with: [.type(TypeMetadata(MixedAlignmentStruct.self))])
        }
        #expect("\(error)".contains("Swift.Hashable"))
    }

    @Test("Instantiation checks base-class, layout, same-type and associated-type requirements as the compiler does")
    func instantiationRequirementKinds() throws {
        // Base class: the class itself or a subclass; an unrelated class or an enum is refused.
        let needsBase = try #require(TypeMetadata(NeedsBase<InstantiationBase>.self).descriptor)
        #expect(
            try needsBase.instantiate(with: [.type(TypeMetadata(InstantiationSubclass.self))])
                == TypeMetadata(NeedsBase<InstantiationSubclass>.self)
        )
        let unrelated = try #require(throws: RuntimeMetadataError.self) {
            try needsBase.instantiate(with: [.type(TypeMetadata(OpeningBase.self))])
        }
        #expect("\(unrelated)".contains("InstantiationBase"))
        #expect(throws: RuntimeMetadataError.self) {
            try needsBase.instantiate(with: [.type(TypeMetadata(InstantiationEnum.self))])
        }
        // AnyObject: a class; not a struct, and not a class-bound existential, which the compiler
        // refuses too ("'NeedsObject' requires that 'any P' be a class type").
        let needsObject = try #require(TypeMetadata(NeedsObject<OpeningBase>.self).descriptor)
        #expect(
            try needsObject.instantiate(with: [.type(TypeMetadata(InstantiationSubclass.self))])
                == TypeMetadata(NeedsObject<InstantiationSubclass>.self)
        )
        #expect(throws: RuntimeMetadataError.self) {
            try needsObject.instantiate(with: [.type(TypeMetadata(Int.self))])
        }
        #expect(throws: RuntimeMetadataError.self) {
            try needsObject.instantiate(with: [.type(TypeMetadata((any ClassBoundInstantiationProtocol).self))])
        }
        // Same-type on an associated type, resolved through the witness table gathered before it.
        let intElements = try #require(TypeMetadata(NeedsIntElements<[Int]>.self).descriptor)
        #expect(
            try intElements.instantiate(with: [.type(TypeMetadata(Set<Int>.self))])
                == TypeMetadata(NeedsIntElements<Set<Int>>.self)
        )
        let wrongElement = try #require(throws: RuntimeMetadataError.self) {
            try intElements.instantiate(with: [.type(TypeMetadata([String].self))])
        }
        #expect("\(wrongElement)".contains("Swift.String"))
        // A protocol requirement on an associated type: closures and existentials are not Hashable.
        let hashableElements = try #require(TypeMetadata(NeedsHashableElements<[Int]>.self).descriptor)
        #expect(
            try hashableElements.instantiate(with: [.type(TypeMetadata([InstantiationEnum].self))])
                == TypeMetadata(NeedsHashableElements<[InstantiationEnum]>.self)
        )
        #expect(throws: RuntimeMetadataError.self) {
            try hashableElements.instantiate(with: [.type(TypeMetadata([() -> Void].self))])
        }
        #expect(throws: RuntimeMetadataError.self) {
            try hashableElements.instantiate(with: [.type(TypeMetadata([any Describable].self))])
        }
        // From generic code: the argument known only as a type parameter.
        func instantiated<Element: Collection>(_: Element.Type) throws -> TypeMetadata {
            try intElements.instantiate(with: [.type(TypeMetadata(Element.self))])
        }
        #expect(try instantiated(ArraySlice<Int>.self) == TypeMetadata(NeedsIntElements<ArraySlice<Int>>.self))
    }
}

/// Fixtures of the instantiation requirement kinds.
class InstantiationBase {}
final class InstantiationSubclass: InstantiationBase {}
enum InstantiationEnum: Hashable { case one, two }
protocol ClassBoundInstantiationProtocol: AnyObject {}
struct NeedsBase<T: InstantiationBase> {}
struct NeedsObject<T: AnyObject> {}
struct NeedsIntElements<C: Collection> where C.Element == Int {}
struct NeedsHashableElements<S: Sequence> where S.Element: Hashable {}

/// A non-generic superclass that does not conform to `Describable`.
class OpeningBase {}

/// A generic subclass whose conformance uses its generic argument.
final class OpeningSubclass<Payload>: OpeningBase, Describable {
    let payload: Payload
    init(payload: Payload) { self.payload = payload }
    func describe() -> String { "OpeningSubclass<\(Payload.self)>(\(payload))" }
}

/// A value that fits an existential's buffer and holds an object.
private struct HoldsObject: Describable {
    var object: ReferenceFixture
    func describe() -> String { object.name }
}

/// A value too large for the buffer (in a box) that holds an object.
private struct HoldsObjectWide: Describable {
    var object: ReferenceFixture
    var a = 1, b = 2, c = 3
    func describe() -> String { object.name }
}

/// Visitor closures held as a framework holds them, called through `withOpened`.
struct StoredVisitors {
    let describe: (any Describable) -> String
    let keep: (any Describable) -> any Describable

    @inline(never)
    func lend(_ value: Any, to descriptor: ProtocolDescriptor) -> String? {
        descriptor.withOpened(value, as: (any Describable).self, describe)
    }

    @inline(never)
    func keep(_ value: Any, from descriptor: ProtocolDescriptor) -> (any Describable)? {
        descriptor.withOpened(value, as: (any Describable).self, keep)
    }
}
