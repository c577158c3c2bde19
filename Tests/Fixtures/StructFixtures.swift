// StructFixtures.swift
//
// Value types, each named after the layout feature it exercises.

public import Foundation

/// No stored properties: size 0, stride 1.
public struct EmptyStruct: Equatable, Sendable {
    public init() {}
}

/// One word-sized property.
public struct SingleFieldStruct: Equatable, Sendable {
    public var value: Int
    public init(value: Int) { self.value = value }
}

/// Properties whose alignments force padding between them.
public struct MixedAlignmentStruct: Sendable {
    public var a: Int8
    public var b: Int64
    public var c: Int16
    public var d: Bool
    public var e: Double
    public init(a: Int8, b: Int64, c: Int16, d: Bool, e: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.e = e
    }
}

/// Two integers; conforms to the fixture protocol.
public struct Point: Equatable, Hashable, Sendable, FixtureProtocol {
    public var x: Int
    public var y: Int
    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}

/// A `let` string and a `var` array: non-POD fields.
public struct StringHolder: Equatable, Sendable {
    public let name: String
    public var tags: [String]
    public init(name: String, tags: [String]) {
        self.name = name
        self.tags = tags
    }
}

/// Eight fields of mixed kinds, the shape benchmarks compare against `Mirror`.
public struct EightFieldStruct: Equatable, Sendable {
    public var id: Int
    public var title: String
    public var score: Double
    public var isActive: Bool
    public var count: Int32
    public var values: [Int]
    public var note: String?
    public var ratio: Float

    public init(
        id: Int,
        title: String,
        score: Double,
        isActive: Bool,
        count: Int32,
        values: [Int],
        note: String?,
        ratio: Float
    ) {
        self.id = id
        self.title = title
        self.score = score
        self.isActive = isActive
        self.count = count
        self.values = values
        self.note = note
        self.ratio = ratio
    }

    /// A sample value.
    public static var sample: EightFieldStruct {
        EightFieldStruct(
            id: 1,
            title: "title",
            score: 2.5,
            isActive: true,
            count: 3,
            values: [4, 5],
            note: "n",
            ratio: 0.5
        )
    }
}

/// Structs nested as fields.
public struct NestedStruct: Equatable, Sendable {
    public var point: Point
    public var holder: StringHolder
    public init(point: Point, holder: StringHolder) {
        self.point = point
        self.holder = holder
    }
}

/// Types nested in an enum namespace.
public enum Namespace {
    /// A struct nested in an enum.
    public struct NestedStruct: Equatable, Sendable {
        public var level: Int
        public init(level: Int) { self.level = level }

        /// A struct nested two levels deep.
        public struct DeeperStruct: Equatable, Sendable {
            public var name: String
            public var flag: Bool
            public init(name: String, flag: Bool) {
                self.name = name
                self.flag = flag
            }
        }
    }

    /// An enum nested in an enum.
    public enum NestedEnum: Equatable, Sendable {
        case first
        case second(Int)
    }
}

/// A generic struct with one parameter.
public struct GenericBox<T> {
    public var value: T
    public init(value: T) { self.value = value }
}

extension GenericBox: Equatable where T: Equatable {}
extension GenericBox: Sendable where T: Sendable {}

/// A generic struct with two parameters of different layouts.
public struct GenericPair<A, B> {
    public var first: A
    public var second: B
    public init(first: A, second: B) {
        self.first = first
        self.second = second
    }
}

/// A generic struct whose parameter has a protocol requirement (a witness-table key argument).
public struct ConstrainedBox<T: Hashable>: Equatable {
    public var set: Set<T>
    public init(set: Set<T>) { self.set = set }
}

/// A generic struct nested in a generic struct.
public struct GenericOuter<T> {
    /// The nested generic type: its metadata carries both levels' arguments.
    public struct Inner<U> {
        public var outer: T
        public var inner: U
        public init(outer: T, inner: U) {
            self.outer = outer
            self.inner = inner
        }
    }
}

/// An integer generic parameter.
public struct ValueGenericStruct<let N: Int, T> {
    public var items: InlineArray<N, T>
    public var tail: T
    public init(items: InlineArray<N, T>, tail: T) {
        self.items = items
        self.tail = tail
    }
}

/// A parameter pack.
public struct PackStruct<each T> {
    public var values: (repeat each T)
    public var marker: Int
    public init(values: (repeat each T), marker: Int) {
        self.values = values
        self.marker = marker
    }
}

/// Weak, unowned and unowned(unsafe) references beside a strong one.
public struct OwnershipStruct {
    public weak var weakObject: ReferenceFixture?
    public unowned var unownedObject: ReferenceFixture
    public unowned(unsafe) var unmanagedObject: ReferenceFixture
    public var strong: ReferenceFixture
    public init(strong: ReferenceFixture) {
        self.weakObject = strong
        self.unownedObject = strong
        self.unmanagedObject = strong
        self.strong = strong
    }
}

/// Foundation value types as fields.
public struct FoundationFieldsStruct: Equatable, @unchecked Sendable {
    public var date: Date
    public var url: URL
    public var data: Data
    public var uuid: UUID
    public var decimal: Decimal

    /// A sample value.
    public static var sample: FoundationFieldsStruct {
        FoundationFieldsStruct(
            date: Date(timeIntervalSince1970: 1_000),
            url: URL(string: "https://example.com")!,
            data: Data([1, 2, 3]),
            uuid: UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)),
            decimal: Decimal(12)
        )
    }
}

/// Closures as fields: thick function values.
public struct ClosureHolder {
    public var action: () -> Void = {}
    public var transform: (Int) throws -> String = { String($0) }
    public init() {}
}

/// Existential fields of each container layout.
public struct ExistentialHolder {
    public var any: Any
    public var proto: any FixtureProtocol
    public var object: AnyObject
    public var composed: any FixtureProtocol & ClassBoundProtocol
    public var error: any Error
    public var classConstrained: any BaseClass & FixtureProtocol

    /// A sample value.
    public static var sample: ExistentialHolder {
        ExistentialHolder(
            any: 1,
            proto: Point(x: 1, y: 2),
            object: ReferenceFixture.shared,
            composed: ReferenceFixture.shared,
            error: FixtureError.failed(code: 3),
            classConstrained: DerivedClass(derivedValue: 1)
        )
    }
}

/// Tuple fields, labelled and not, and the empty tuple.
public struct TupleHolder {
    public var pair: (Int, String)
    public var labeled: (x: Int, y: Double)
    public var empty: ()
    public init(pair: (Int, String), labeled: (x: Int, y: Double), empty: ()) {
        self.pair = pair
        self.labeled = labeled
        self.empty = empty
    }
}

/// Optionals, nested optionals and an optional enum with payloads.
public struct OptionalNesting: Equatable {
    public var a: Int?
    public var b: Int??
    public var c: String?
    public var d: Shape?
    public init(a: Int?, b: Int??, c: String?, d: Shape?) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
    }
}

/// Metatype fields, thin and existential.
public struct MetatypeHolder {
    public var type: Any.Type
    public var intType: Int.Type
    public var protocolType: any FixtureProtocol.Type
    public init(type: Any.Type, intType: Int.Type, protocolType: any FixtureProtocol.Type) {
        self.type = type
        self.intType = intType
        self.protocolType = protocolType
    }
}

/// A `let` and a `var`.
public struct LetVarStruct: Equatable {
    public let constant: Int
    public var variable: Int
    public init(constant: Int, variable: Int) {
        self.constant = constant
        self.variable = variable
    }
}

/// A stored property of opaque type, recorded as its underlying type.
public struct OpaqueFieldStruct {
    public var count: some Equatable = 1
    public init() {}
}

/// A class reference and a plain field: identity equality for the reference.
public struct ClassHoldingStruct {
    public var object: ReferenceFixture
    public var count: Int
    public init(object: ReferenceFixture, count: Int) {
        self.object = object
        self.count = count
    }
}

/// A noncopyable struct: invisible to `Any.Type`, but not to `TypeMetadata(of:)`.
public struct NoncopyableStruct: ~Copyable {
    public var handle: Int
    public init(handle: Int) { self.handle = handle }
}

/// A noncopyable struct holding a noncopyable field, whose type 6.3 hides from reflection.
public struct HoldsNoncopyable: ~Copyable {
    public var inner: NoncopyableStruct
    public var count: Int
    public init(inner: consuming NoncopyableStruct, count: Int) {
        self.inner = inner
        self.count = count
    }
}

/// Noncopyable unless its argument is copyable.
public struct ConditionallyCopyable<T: ~Copyable>: ~Copyable {
    public var value: T
    public init(value: consuming T) { self.value = value }
}

extension ConditionallyCopyable: Copyable where T: Copyable {}

/// A noncopyable enum.
public enum NoncopyableEnum: ~Copyable {
    case a(Int)
    case b
}

extension Int {
    /// A type nested in an extension of a type from another module.
    public struct IntExtensionNested: Equatable {
        public var value: Int
        public init(value: Int) { self.value = value }
    }
}

/// A private struct, whose parent is an anonymous context.
private struct PrivateFixture {
    var secret: Int
}

/// The private fixture's metatype, for name tests.
public let privateFixtureType: Any.Type = PrivateFixture.self
