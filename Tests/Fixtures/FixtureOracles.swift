// FixtureOracles.swift
//
// Expectations computed at run time by the compiler and the standard library, never by
// RuntimeMetadata: sizes from MemoryLayout, offsets from MemoryLayout.offset(of:), names from
// String(reflecting:), labels from Mirror.

import ResilientFixtures

/// One fixture type with the oracle facts about it.
public struct FixtureCase: Sendable, CustomStringConvertible {
    /// The type.
    public let type: Any.Type
    /// `MemoryLayout<T>.size`.
    public let size: Int
    /// `MemoryLayout<T>.stride`.
    public let stride: Int
    /// `MemoryLayout<T>.alignment`.
    public let alignment: Int
    /// `String(reflecting: T.self)`.
    public let name: String
    /// Stored properties with `MemoryLayout<T>.offset(of:)`, in declaration order.
    public let offsets: [(name: String, offset: Int)]
    /// Makes a sample value, when the fixture has one.
    public let sample: (@Sendable () -> Any)?

    /// The type's name.
    public var description: String { name }

    /// Describes a type with the compiler's facts about it.
    /// - Parameters:
    ///   - type: The type.
    ///   - sample: A sample value.
    ///   - offsets: Each stored property's name and key path.
    /// - Returns: The fixture case.
    public static func make<T>(
        _ type: T.Type,
        sample: (@Sendable () -> T)? = nil,
        offsets: [(String, PartialKeyPath<T>)] = []
    ) -> FixtureCase {
        let boxed: (@Sendable () -> Any)? = sample.map { make in { @Sendable () -> Any in make() } }
        return FixtureCase(
            type: type,
            size: MemoryLayout<T>.size,
            stride: MemoryLayout<T>.stride,
            alignment: MemoryLayout<T>.alignment,
            name: String(reflecting: type),
            offsets: offsets.compactMap { name, path in MemoryLayout<T>.offset(of: path).map { (name, $0) } },
            sample: boxed
        )
    }
}

/// Every fixture, by layout feature.
public enum Fixtures {
    /// Value types with stored properties.
    public static let structs: [FixtureCase] = [
        .make(EmptyStruct.self, sample: { EmptyStruct() }),
        .make(SingleFieldStruct.self, sample: { SingleFieldStruct(value: 7) }, offsets: [("value", \.value)]),
        .make(
            MixedAlignmentStruct.self,
            sample: { MixedAlignmentStruct(a: 1, b: 2, c: 3, d: true, e: 4.5) },
            offsets: [("a", \.a), ("b", \.b), ("c", \.c), ("d", \.d), ("e", \.e)]
        ),
        .make(Point.self, sample: { Point(x: 1, y: 2) }, offsets: [("x", \.x), ("y", \.y)]),
        .make(
            StringHolder.self,
            sample: { StringHolder(name: "n", tags: ["a"]) },
            offsets: [("name", \.name), ("tags", \.tags)]
        ),
        .make(
            EightFieldStruct.self,
            sample: { .sample },
            offsets: [
                ("id", \.id), ("title", \.title), ("score", \.score), ("isActive", \.isActive),
                ("count", \.count), ("values", \.values), ("note", \.note), ("ratio", \.ratio),
            ]
        ),
        .make(
            NestedStruct.self,
            sample: { NestedStruct(point: Point(x: 3, y: 4), holder: StringHolder(name: "h", tags: [])) },
            offsets: [("point", \.point), ("holder", \.holder)]
        ),
        .make(Namespace.NestedStruct.self, sample: { .init(level: 1) }, offsets: [("level", \.level)]),
        .make(
            Namespace.NestedStruct.DeeperStruct.self,
            sample: { .init(name: "deep", flag: false) },
            offsets: [("name", \.name), ("flag", \.flag)]
        ),
        .make(GenericBox<Int>.self, sample: { GenericBox(value: 5) }, offsets: [("value", \.value)]),
        .make(GenericBox<String>.self, sample: { GenericBox(value: "five") }, offsets: [("value", \.value)]),
        .make(
            GenericPair<Int8, [Double]>.self,
            sample: { GenericPair(first: 1, second: [2]) },
            offsets: [("first", \.first), ("second", \.second)]
        ),
        .make(ConstrainedBox<String>.self, sample: { ConstrainedBox(set: ["x"]) }, offsets: [("set", \.set)]),
        .make(
            GenericOuter<Int>.Inner<String>.self,
            sample: { .init(outer: 1, inner: "i") },
            offsets: [("outer", \.outer), ("inner", \.inner)]
        ),
        .make(
            ValueGenericStruct<3, Int16>.self,
            sample: { ValueGenericStruct(items: [1, 2, 3], tail: 9) },
            offsets: [("items", \.items), ("tail", \.tail)]
        ),
        .make(
            PackStruct<Int, String, Bool>.self,
            sample: { PackStruct(values: (1, "two", true), marker: 4) },
            offsets: [("marker", \.marker)]
        ),
        .make(
            OwnershipStruct.self,
            sample: { OwnershipStruct(strong: ReferenceFixture.shared) },
            offsets: [("weakObject", \.weakObject), ("strong", \.strong)]
        ),
        .make(
            FoundationFieldsStruct.self,
            sample: { .sample },
            offsets: [("date", \.date), ("url", \.url), ("data", \.data), ("uuid", \.uuid), ("decimal", \.decimal)]
        ),
        .make(
            ClosureHolder.self,
            sample: { ClosureHolder() },
            offsets: [("action", \.action), ("transform", \.transform)]
        ),
        .make(
            ExistentialHolder.self,
            sample: { .sample },
            offsets: [
                ("any", \.any), ("proto", \.proto), ("object", \.object), ("composed", \.composed), ("error", \.error),
                ("classConstrained", \.classConstrained),
            ]
        ),
        .make(
            TupleHolder.self,
            sample: { TupleHolder(pair: (1, "p"), labeled: (x: 2, y: 3.5), empty: ()) },
            offsets: [("pair", \.pair), ("labeled", \.labeled), ("empty", \.empty)]
        ),
        .make(
            OptionalNesting.self,
            sample: { OptionalNesting(a: 1, b: .some(nil), c: "c", d: .circle(radius: 1)) },
            offsets: [("a", \.a), ("b", \.b), ("c", \.c), ("d", \.d)]
        ),
        .make(
            MetatypeHolder.self,
            sample: { MetatypeHolder(type: Int.self, intType: Int.self, protocolType: Point.self) },
            offsets: [("type", \.type), ("intType", \.intType), ("protocolType", \.protocolType)]
        ),
        .make(
            LetVarStruct.self,
            sample: { LetVarStruct(constant: 1, variable: 2) },
            offsets: [("constant", \.constant), ("variable", \.variable)]
        ),
        .make(InlineArray<4, UInt8>.self, sample: { [1, 2, 3, 4] }),
        .make(
            ConditionallyCopyable<Int>.self,
            sample: { ConditionallyCopyable(value: 3) },
            offsets: [("value", \.value)]
        ),
        .make(OpaqueFieldStruct.self, sample: { OpaqueFieldStruct() }, offsets: [("count", \.count)]),
        .make(Int.IntExtensionNested.self, sample: { .init(value: 2) }, offsets: [("value", \.value)]),
        .make(SIMD4<Float>.self, sample: { SIMD4(1, 2, 3, 4) }),
        .make(
            HoldsResilientStruct.self,
            sample: { HoldsResilientStruct(before: 1, resilient: ResilientStruct(first: 2, second: "r"), after: 3) },
            offsets: [("before", \.before), ("resilient", \.resilient), ("after", \.after)]
        ),
        .make(
            ClassHoldingStruct.self,
            sample: { ClassHoldingStruct(object: .shared, count: 2) },
            offsets: [("object", \.object), ("count", \.count)]
        ),
    ]

    /// Enums, from empty to multi-payload and indirect.
    public static let enums: [FixtureCase] = [
        .make(EmptyEnum.self),
        .make(SingleCaseEnum.self, sample: { .only }),
        .make(CompassDirection.self, sample: { .south }),
        .make(RawValueEnum.self, sample: { .b }),
        .make(SinglePayloadEnum.self, sample: { .value(3) }),
        .make(MultiPayloadEnum.self, sample: { .pair(1, 2.5) }),
        .make(MixedOrderEnum.self, sample: { .p2("two") }),
        .make(IndirectTree.self, sample: { .node(.leaf(1), .leaf(2)) }),
        .make(PartiallyIndirectEnum.self, sample: { .list(.value(1)) }),
        .make(GenericEnum<String>.self, sample: { .pair("a", "b") }),
        .make(ClassPayloadEnum.self, sample: { .object(.shared) }),
        .make(Shape.self, sample: { .rectangle(width: 2, height: 3) }),
        .make(Optional<Int>.self, sample: { 5 }),
        .make(Optional<Optional<String>>.self, sample: { .some(nil) }),
        .make(Optional<ReferenceFixture>.self, sample: { .shared }),
        .make(Namespace.NestedEnum.self, sample: { .second(2) }),
    ]

    /// Classes: roots, subclasses, generic classes and subclasses of classes from other modules.
    public static let classes: [FixtureCase] = [
        .make(ReferenceFixture.self, sample: { ReferenceFixture(id: 1, name: "r") }),
        .make(BaseClass.self, sample: { BaseClass(baseValue: 1, baseName: "b") }),
        .make(DerivedClass.self, sample: { DerivedClass(derivedValue: 2) }),
        .make(GenericBaseClass<String>.self, sample: { GenericBaseClass(element: "e") }),
        .make(GenericSubclass.self, sample: { GenericSubclass(extra: 3) }),
        .make(DoubleGenericSubclass<Int8>.self, sample: { DoubleGenericSubclass(more: 4) }),
        .make(FoundationSubclass.self, sample: { FoundationSubclass() }),
        .make(TreeNode.self, sample: { TreeNode(label: "root") }),
        .make(CounterActor.self, sample: { CounterActor() }),
        .make(ResilientSubclass.self, sample: { ResilientSubclass() }),
        .make(ResilientGenericSubclass<Int16>.self, sample: { ResilientGenericSubclass(more: 7) }),
    ]

    /// Structural types: tuples, functions, existentials and metatypes.
    public static let structural: [FixtureCase] = [
        .make(Void.self, sample: { () }),
        .make((Int, String).self, sample: { (1, "one") }),
        .make((Int8, Int64, Int16).self, sample: { (1, 2, 3) }),
        .make((a: Int, b: String).self, sample: { (a: 1, b: "b") }),
        .make((Int8, label: Double).self, sample: { (1, label: 2) }),
        .make(((Int) -> String).self, sample: { { String($0) } }),
        .make((@Sendable () async throws -> Void).self),
        .make(Any.self, sample: { 42 as Any }),
        .make(AnyObject.self, sample: { ReferenceFixture.shared }),
        .make((any FixtureProtocol).self, sample: { Point(x: 1, y: 1) }),
        .make((any ClassBoundProtocol).self, sample: { ReferenceFixture.shared }),
        .make((any FixtureProtocol & ClassBoundProtocol).self, sample: { ReferenceFixture.shared }),
        .make((any BaseClass & FixtureProtocol).self),
        .make((any Error).self),
        .make((any Hashable).self, sample: { AnyHashable(1) }),
        .make(Int.Type.self, sample: { Int.self }),
        .make((any FixtureProtocol).Type.self),
        .make((any FixtureProtocol.Type).self),
        .make((any Sequence<Int>).self, sample: { [1] }),
    ]

    /// Every copyable fixture.
    public static var all: [FixtureCase] { structs + enums + classes + structural }
}
