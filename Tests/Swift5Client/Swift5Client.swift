// Swift5Client.swift
//
// Calls of the public API compiled in Swift 5 language mode, where an `Any` passed to a
// generic parameter is not opened at the call site: the root reaches the library as `Any`.

import Fixtures
import RuntimeMetadata
import ValueDump

/// Calls made the way a Swift 5 client makes them.
public enum Swift5Client {
    /// Writes `x` of a `Point` held in a plain `var a: Any`, then reads it back.
    /// - Returns: The `x` read back through the library, and the `x` of the value `a` holds.
    public static func writeThroughAny() throws -> (read: Int, held: Int?) {
        var a: Any = Point(x: 1, y: 2)
        let field = try TypeMetadata(Point.self).field(named: "x")
        try field.setValue(5, in: &a)
        let read = try field.value(in: a, as: Int.self)
        return (read, (a as? Point)?.x)
    }

    /// Writes `a` of a value an `Any` stores in a box that a copy of the `Any` shares, from
    /// generic code, then reads it back typed from the `Any`.
    /// - Returns: The `a` the written `Any` holds, the copy's, and the one read back.
    public static func writeSharedBox() throws -> (written: Int?, copy: Int?, read: Int) {
        let field = try TypeMetadata(WideValue.self).field(named: "a")
        func write<Root>(_ root: inout Root) throws { try field.setValue(7, in: &root) }
        var a: Any = WideValue()
        let copy = a
        try write(&a)
        let read = try field.value(in: a, as: Int.self)
        return ((a as? WideValue)?.a, (copy as? WideValue)?.a, read)
    }

    /// Writes a class instance's property through a plain `var a: Any` holding the object.
    /// - Returns: The label read back from the object itself.
    public static func writeClassThroughAny() throws -> String {
        let node = TreeNode(label: "before")
        var a: Any = node
        try TypeMetadata(TreeNode.self).field(named: "label").setValue("after", in: &a)
        return node.label
    }

    /// Opens an `Optional` holding a conformer, as `as?` would.
    /// - Returns: Whether the library and `as?` both open it.
    public static func openOptional() throws -> (library: Bool, cast: Bool) {
        let value: Any = Optional(Point(x: 1, y: 2)) as Any
        let descriptor = try ProtocolDescriptor((any FixtureProtocol).self)
        return (descriptor.open(value, as: (any FixtureProtocol).self) != nil, value as? any FixtureProtocol != nil)
    }

    /// Reads `x` of a `Point` held in an `any FixtureProtocol`.
    /// - Returns: The value read.
    public static func readThroughExistential() throws -> Int {
        let p: any FixtureProtocol = Point(x: 11, y: 2)
        return try TypeMetadata(Point.self).field(named: "x").value(in: p, as: Int.self)
    }

    /// Makes a `Point` and a `TreeNode` from values held in `Any`s, and walks them, in the
    /// Swift 5 language mode, with the values arriving as a decoder would hand them over.
    /// - Returns: The point made, the tree node's label, and the labels of the walk's visits.
    public static func makeAndWalk() throws -> (point: Point?, label: String?, parts: [String?]) {
        let values: [String: Any] = ["x": 3 as Any, "y": 4 as Any]
        let point = try TypeMetadata(Point.self).makeInstance(values) as? Point
        let node = try TypeMetadata(TreeNode.self).makeInstance(["label": "made"], fillingMissingFields: true)
        var parts: [String?] = []
        ValueWalker().walk(point as Any) { visit in
            parts.append(visit.label)
            return .visitChildren
        }
        return (point, (node as? TreeNode)?.label, parts)
    }

    /// Compares values, reads fields as `Any` and names enum cases, with the values in `Any`s
    /// as a Swift 5 client holds them (generic parameters are `Any`, not the dynamic types).
    /// - Returns: Layout equality of equal points, of NaNs, of a tuple holding a NaN and of
    ///   different points; `x` read as `Any` from a point and from an `Any`; the case name of a
    ///   payload case in an `Any`; the element count a walk reports for a constrained existential.
    public static func compareReadAndName() throws -> (
        equal: [Bool], fieldsAsAny: [Int?], caseName: String, sequenceChildren: Int
    ) {
        let one: Any = Point(x: 1, y: 2)
        let same: Any = Point(x: 1, y: 2)
        let other: Any = Point(x: 1, y: 3)
        let nan: Any = Double.nan
        let tuple: Any = (1, Double.nan)
        let equal = [
            TypeMetadata.layoutEquals(one, same), TypeMetadata.layoutEquals(nan, nan),
            TypeMetadata.layoutEquals(tuple, tuple), TypeMetadata.layoutEquals(one, other),
        ]
        let field = try TypeMetadata(Point.self).field(named: "x")
        let fieldsAsAny = [try field.value(in: Point(x: 7, y: 0)) as? Int, try field.value(in: one) as? Int]
        let caseName = try TypeMetadata(MultiPayloadEnum.self).caseName(of: MultiPayloadEnum.pair(1, 2) as Any)
        let sequence: any Sequence<Int> = [4, 5, 6]
        return (equal, fieldsAsAny, caseName, ValueWalker().node(for: sequence).childCount)
    }

    /// Reads the children of values held in `Any`s as nodes of their own
    /// (`ValueWalker.node(forChildAt:of:)`), in the Swift 5 language mode: a class instance with
    /// weak and `unowned(unsafe)` properties, an enum's payload, an array of structs, a tuple
    /// with a closure, a constrained existential, and a closure.
    /// - Returns: For each value, its children's dynamic type names as the walker reads them
    ///   (`nil` for a child without a node), and as `Mirror` reads them.
    public static func childNodes() -> (walker: [[String?]], mirror: [[String?]]) {
        let tree = TreeNode(label: "root")
        tree.children = [TreeNode(label: "leaf")]
        let sequence: any Sequence<Int> = [4, 5]
        let values: [Any] = [
            tree, Shape.rectangle(width: 1, height: 2), [Point(x: 1, y: 2), Point(x: 3, y: 4)],
            (1, { 2 } as () -> Int), sequence, { 3 } as () -> Int,
        ]
        let walker = ValueWalker()
        let walked = values.map { value -> [String?] in
            let node = walker.node(for: value)
            return (0..<node.childCount).map { walker.node(forChildAt: $0, of: node)?.type.name }
        }
        let mirrored = values.map { value in
            Mirror(reflecting: value).children.map { String(reflecting: type(of: $0.value)) as String? }
        }
        return (walked, mirrored)
    }

    /// Reflects values held in `Any` through RuntimeMirror and through Mirror, from generic code,
    /// as a Swift 5 framework that switched with `typealias Mirror = RuntimeMirror` does.
    /// - Returns: For each value, its subject type, display style and children's labels and
    ///   dynamic types, by RuntimeMirror and by Mirror.
    public static func mirrors() -> (runtime: [String], mirror: [String]) {
        func describe<M>(
            _ value: some Any,
            _ reflect: (Any) -> M,
            _ parts: (M) -> (Any.Type, Mirror.DisplayStyle?, [Mirror.Child])
        ) -> String {
            let (subject, style, children) = parts(reflect(value))
            let listed = children.map { "\($0.label ?? "_"): \(type(of: $0.value))" }
            return "\(subject) \(style.map { "\($0)" } ?? "-") \(listed)"
        }
        let tree = TreeNode(label: "root")
        tree.children = [TreeNode(label: "leaf")]
        let values: [Any] = [
            tree, Shape.rectangle(width: 1, height: 2), [Point(x: 1, y: 2)], (1, label: "two"),
            Optional(Point(x: 3, y: 4)) as Any, ["k": 1], Int.self as Any.Type,
        ]
        let runtime = values.map {
            describe($0, RuntimeMirror.init(reflecting:)) { ($0.subjectType, $0.displayStyle, Array($0.children)) }
        }
        let mirror = values.map {
            describe($0, Mirror.init(reflecting:)) { ($0.subjectType, $0.displayStyle, Array($0.children)) }
        }
        return (runtime, mirror)
    }

    /// Opens values held in `Any` as `any P`, reads a constrained existential's container from
    /// generic code, and names a constrained existential metatype, as a Swift 5 client does.
    /// - Returns: The opened values' descriptions (a struct, a class instance, an enum and an
    ///   array, with `nil` for a value that does not conform); whether a class instance came
    ///   back as the same object, and is uniquely referenced again once the opened copies are
    ///   gone; the dynamic type and protocols of an `any Sequence<Int>`; and the name of
    ///   `[any Sequence<Int>.Type]`.
    public static func openContainAndName() throws -> (
        described: [String?], sameObject: Bool, uniqueAfterwards: Bool, dynamicType: String, protocols: [String],
        metatypeName: String
    ) {
        let describable = try ProtocolDescriptor((any Describable).self)
        let values: [Any] = [
            Point(x: 1, y: 2), BaseClass(baseValue: 1, baseName: "base"), CompassDirection.east, [Point(x: 3, y: 4)],
            "no",
        ]
        let described = values.map { describable.open($0, as: (any Describable).self)?.describe() }
        var object = BaseClass(baseValue: 1, baseName: "base")
        let sameObject = describable.open(object as Any, as: (any Describable).self) as? BaseClass === object
        let uniqueAfterwards = isKnownUniquelyReferenced(&object)
        func contents<T>(_ value: T) throws -> ExistentialContents { try ExistentialContents(of: value, as: T.self) }
        let sequence: any Sequence<Int> = [1, 2]
        func pinned<T>(_ value: T, as _: T.Type) throws -> ExistentialContents { try contents(value) }
        let read = try pinned(sequence, as: (any Sequence<Int>).self)
        return (
            described, sameObject, uniqueAfterwards, read.dynamicType.name,
            read.conformances.map(\.protocolDescriptor.qualifiedName),
            TypeMetadata([any Sequence<Int>.Type].self).name
        )
    }
}

/// A screen's state as a Swift 5 client holds it: a tuple holding a closure, an existential,
/// an object and an enum.
public struct Swift5ConfirmScreen {
    public var confirm: (title: String, action: () -> Void)
    public var shape: any Describable
    public var owner: BaseClass
    public var heading: CompassDirection
}

extension Swift5Client {
    /// The diff of two screens from generic code, each change in a part of another kind, and
    /// the title the walker reads beside the withheld closure; and a builtin's mangled name
    /// resolved back.
    public static func diffAndBuiltins() throws -> (
        paths: [String], title: String?, dumped: String, builtinRoundTrips: Bool
    ) {
        let action: () -> Void = {}
        let owner = BaseClass(baseValue: 1, baseName: "owner")
        let before = Swift5ConfirmScreen(
            confirm: ("Delete?", action),
            shape: Point(x: 1, y: 2),
            owner: owner,
            heading: .north
        )
        var after = before
        after.confirm.title = "Remove?"
        after.shape = Point(x: 1, y: 3)
        after.heading = .east
        func diffed<T>(_ lhs: T, _ rhs: T) -> [String] { ValueDump.differences(lhs, rhs).map(\.path) }
        let walked = ValueWalker().node(for: after).child(at: 0)?.value
        var text = ""
        ValueDump.dump(after, to: &text)
        let storage = try TypeMetadata(Int.self).fields[0].type
        let roundTrips = try storage.map { try TypeMetadata(mangledName: $0.mangledName ?? "") == $0 } ?? false
        return (
            diffed(before as Any, after as Any),
            (walked as? (title: String, action: WithheldFunction))?.title,
            text,
            roundTrips
        )
    }
}

extension Swift5Client {
    /// Values lent to a stored visitor closure from generic code, and elements of a generic
    /// store lent in place, in Swift 5 mode.
    public static func lendToStoredVisitorAndInPlace() throws -> (visited: [String?], stored: [String]) {
        let describable = try ProtocolDescriptor((any Describable).self)
        let visitor: (any Describable) -> String = { $0.describe() }
        func visitAll<Values: Sequence>(_ values: Values) -> [String?] where Values.Element == Any {
            values.map { describable.withOpened($0, as: (any Describable).self, visitor) }
        }
        let values: [Any] = [Point(x: 1, y: 2), BaseClass(baseValue: 1, baseName: "base"), WideValue(), "no"]
        func described<Element: Describable>(_ elements: ContiguousArray<Element>) -> [String] {
            elements.indices.map { index in InPlace.withElement(at: index, of: elements) { $0.describe() } }
        }
        return (visitAll(values), described(ContiguousArray([Point(x: 3, y: 4), Point(x: 5, y: 6)])))
    }
}

/// Five words: an `Any` stores it in a box of its own.
public struct WideValue: Equatable {
    public var a = 1, b = 2, c = 3, d = 4, e = 5
    public init() {}
}
