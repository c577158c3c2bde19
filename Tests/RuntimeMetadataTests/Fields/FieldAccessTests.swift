// FieldAccessTests.swift
//
// Checked reads and writes of stored properties, compared with the values read and written
// through ordinary Swift property access.

import Fixtures
import RuntimeMetadata
import Testing

@Suite("Field access")
struct FieldAccessTests {
    @Test("Reads equal property access for every field of the eight-field struct")
    func reads() throws {
        let value = EightFieldStruct.sample
        let metadata = TypeMetadata(EightFieldStruct.self)
        #expect(try metadata.field(named: "id").value(in: value, as: Int.self) == value.id)
        #expect(try metadata.field(named: "title").value(in: value, as: String.self) == value.title)
        #expect(try metadata.field(named: "score").value(in: value, as: Double.self) == value.score)
        #expect(try metadata.field(named: "isActive").value(in: value, as: Bool.self) == value.isActive)
        #expect(try metadata.field(named: "count").value(in: value, as: Int32.self) == value.count)
        #expect(try metadata.field(named: "values").value(in: value, as: [Int].self) == value.values)
        #expect(try metadata.field(named: "note").value(in: value, as: String?.self) == value.note)
        #expect(try metadata.field(named: "ratio").value(in: value, as: Float.self) == value.ratio)
        #expect(try metadata.field(at: 0).value(in: value, as: Int.self) == value.id)
        // Reading through the runtime's cast: as Any, and into an optional.
        #expect(try metadata.field(named: "id").value(in: value) as? Int == value.id)
        #expect(try metadata.field(named: "id").value(in: value, as: Int?.self) == value.id)
    }

    @Test("Plain data of every size up to an Any's buffer, and past it, reads as Any as Mirror shows it")
    func plainDataAsAny() throws {
        let value = PlainSizes()
        let metadata = TypeMetadata(PlainSizes.self)
        let mirror = Mirror(reflecting: value)
        let fields = try metadata.fields.array
        #expect(fields.count == mirror.children.count)
        for (field, child) in zip(fields, mirror.children) {
            // The read as `Any`: from the value of exactly the declaring type (the copy of the
            // bytes), from an `Any` holding it, and from generic code.
            let direct = try field.value(in: value)
            let held = try field.value(in: value as Any)
            func generic<T>(_ root: T) throws -> Any { try field.value(in: root) }
            for read in [direct, held, try generic(value)] {
                #expect(String(reflecting: read) == String(reflecting: child.value), "\(field.name)")
                #expect(type(of: read) == type(of: child.value), "\(field.name)")
            }
        }
        // Each value is a whole copy: changing the source later does not change it.
        var changing = PlainSizes()
        let before = try metadata.field(named: "triple").value(in: changing)
        changing.triple = (0, 0, 0)
        #expect(String(reflecting: before) == String(reflecting: PlainSizes().triple))
    }

    @Test("Writes change exactly the written property")
    func writes() throws {
        var value = EightFieldStruct.sample
        var expected = value
        let metadata = TypeMetadata(EightFieldStruct.self)
        try metadata.field(named: "title").setValue("changed", in: &value)
        expected.title = "changed"
        #expect(value == expected)
        try metadata.field(named: "values").setValue([9, 8, 7], in: &value)
        expected.values = [9, 8, 7]
        #expect(value == expected)
        try metadata.field(named: "note").setValue(String?.none, in: &value)
        expected.note = nil
        #expect(value == expected)
        // A value that casts to the property's type is accepted: String into String?.
        try metadata.field(named: "note").setValue("again", in: &value)
        expected.note = "again"
        #expect(value == expected)
    }

    @Test("A wrong-typed write throws and changes nothing")
    func mismatchedWrite() throws {
        var value = EightFieldStruct.sample
        let original = value
        let field = try TypeMetadata(EightFieldStruct.self).field(named: "id")
        #expect(
            throws: RuntimeMetadataError.typeMismatch(
                expected: "Swift.Int",
                actual: "Swift.String",
                context: "field 'id' of 'Fixtures.EightFieldStruct'"
            )
        ) {
            try field.setValue("seven", in: &value)
        }
        #expect(throws: RuntimeMetadataError.self) { try field.setValue(7.5, in: &value) }
        #expect(value == original)
        #expect(throws: RuntimeMetadataError.self) { _ = try field.value(in: value, as: String.self) }
        // A root of another type is rejected before anything is read.
        #expect(throws: RuntimeMetadataError.self) { _ = try field.value(in: Point(x: 1, y: 2), as: Int.self) }
        var point = Point(x: 1, y: 2)
        #expect(throws: RuntimeMetadataError.self) { try field.setValue(1, in: &point) }
        #expect(point == Point(x: 1, y: 2))
    }

    @Test("Class instances: own and inherited properties, through the instance and through Any")
    func classes() throws {
        let object = GenericSubclass(extra: 1.5)
        let metadata = TypeMetadata(GenericSubclass.self)
        #expect(try metadata.field(named: "extra").value(in: object, as: Double.self) == object.extra)
        #expect(try metadata.field(named: "element").value(in: object, as: Int.self) == object.element)
        #expect(try metadata.field(named: "baseName").value(in: object, as: String.self) == object.baseName)
        var reference = object
        try metadata.field(named: "baseValue").setValue(99, in: &reference)
        #expect(object.baseValue == 99)
        // A superclass's field read from a subclass instance held as the superclass or as Any.
        let base: BaseClass = object
        #expect(try TypeMetadata(BaseClass.self).field(named: "baseValue").value(in: base, as: Int.self) == 99)
        let any: Any = object
        #expect(try metadata.field(named: "extra").value(in: any, as: Double.self) == 1.5)
        #expect(throws: RuntimeMetadataError.self) {
            _ = try metadata.field(named: "extra").value(in: BaseClass(baseValue: 1, baseName: "b"), as: Double.self)
        }
        let foundation = FoundationSubclass()
        #expect(
            try TypeMetadata(FoundationSubclass.self).field(named: "marker").value(in: foundation, as: Int.self) == 42
        )
        #expect(
            try TypeMetadata(FoundationSubclass.self).field(named: "label").value(in: foundation, as: String.self)
                == foundation.label
        )
    }

    @Test("Weak, unowned and unowned(unsafe) properties read and write through their references")
    func referenceOwnership() throws {
        let first = ReferenceFixture(id: 1, name: "first")
        let second = ReferenceFixture(id: 2, name: "second")
        var value = OwnershipStruct(strong: first)
        let metadata = TypeMetadata(OwnershipStruct.self)
        #expect(try metadata.field(named: "weakObject").value(in: value, as: ReferenceFixture?.self) === first)
        #expect(try metadata.field(named: "unownedObject").value(in: value, as: ReferenceFixture.self) === first)
        #expect(try metadata.field(named: "unmanagedObject").value(in: value, as: ReferenceFixture.self) === first)
        try metadata.field(named: "weakObject").setValue(second, in: &value)
        #expect(value.weakObject === second)
        try metadata.field(named: "weakObject").setValue(ReferenceFixture?.none, in: &value)
        #expect(value.weakObject == nil)
        try metadata.field(named: "unownedObject").setValue(second, in: &value)
        #expect(value.unownedObject === second)
        withExtendedLifetime((first, second)) {}
    }

    @Test("Existential, tuple and closure properties")
    func otherFieldKinds() throws {
        var holder = ExistentialHolder.sample
        let metadata = TypeMetadata(ExistentialHolder.self)
        #expect(try metadata.field(named: "any").value(in: holder) as? Int == 1)
        try metadata.field(named: "any").setValue("now a string", in: &holder)
        #expect(holder.any as? String == "now a string")
        #expect(try metadata.field(named: "proto").value(in: holder, as: Point.self) == Point(x: 1, y: 2))
        try metadata.field(named: "proto").setValue(Point(x: 5, y: 6), in: &holder)
        #expect(holder.proto as? Point == Point(x: 5, y: 6))
        #expect(throws: RuntimeMetadataError.self) { try metadata.field(named: "proto").setValue(3, in: &holder) }
        let tuples = TupleHolder(pair: (1, "p"), labeled: (x: 2, y: 3.5), empty: ())
        let pair = try TypeMetadata(TupleHolder.self).field(named: "labeled").value(
            in: tuples,
            as: (x: Int, y: Double).self
        )
        #expect(pair.x == 2 && pair.y == 3.5)
    }

    @Test("Values held in Any or an existential are opened, read and written back")
    func existentialRoots() throws {
        let field = try TypeMetadata(Point.self).field(named: "y")
        var any: Any = Point(x: 1, y: 2)
        #expect(try field.value(in: any, as: Int.self) == 2)
        try field.setValue(5, in: &any)
        #expect(any as? Point == Point(x: 1, y: 5))
        var proto: any FixtureProtocol = Point(x: 3, y: 4)
        try field.setValue(6, in: &proto)
        #expect(proto as? Point == Point(x: 3, y: 6))
        var other: Any = "not a point"
        #expect(throws: RuntimeMetadataError.self) { try field.setValue(1, in: &other) }
        #expect(other as? String == "not a point")
    }

    @Test(
        "A write through an existential root changes that root only: copies made before keep their value, boxed or inline"
    )
    func existentialRootsKeepValueSemantics() throws {
        // Five words: stored in a box, which a copy of the container shares until one is written.
        struct Wide: Sequence, Equatable {
            var a = 1, b = 2, c = 3, d = 4, e = 5
            func makeIterator() -> IndexingIterator<[Int]> { [a, b, c, d, e].makeIterator() }
        }
        let a = try TypeMetadata(Wide.self).field(named: "a")
        let y = try TypeMetadata(Point.self).field(named: "y")
        func wrapped<T>(_ value: T) -> Any { value }

        var any: Any = Wide()
        let anyCopy = any
        try a.setValue(100, in: &any)
        #expect(any as? Wide == Wide(a: 100))
        #expect(anyCopy as? Wide == Wide())

        // A constrained existential: the same box sharing (this write once reached the copy).
        var sequence: any Sequence<Int> = Wide()
        let sequenceCopy = sequence
        try a.setValue(200, in: &sequence)
        #expect(Array(sequence) == [200, 2, 3, 4, 5])
        #expect(Array(sequenceCopy) == [1, 2, 3, 4, 5])

        // An `Any` holding an `Any`, as generic code makes one: each box on the way is unshared.
        var nested = wrapped(Wide() as Any)
        let nestedCopy = nested
        try a.setValue(300, in: &nested)
        #expect(nested as? Wide == Wide(a: 300))
        #expect(nestedCopy as? Wide == Wide())

        // Inline in the container: the copy has a buffer of its own.
        var point: Any = Point(x: 1, y: 2)
        let pointCopy = point
        try y.setValue(9, in: &point)
        #expect(point as? Point == Point(x: 1, y: 9))
        #expect(pointCopy as? Point == Point(x: 1, y: 2))

        // A unique box is written where it is, a shared one first copied: both, many times over.
        for round in 0..<100 {
            let keep = any
            try a.setValue(round, in: &any)
            #expect((any as? Wide)?.a == round)
            #expect((keep as? Wide)?.a == (round == 0 ? 100 : round - 1))
        }

        // A refused write leaves the value as it was, and its copies too.
        #expect(throws: RuntimeMetadataError.self) { try a.setValue("text", in: &sequence) }
        #expect(Array(sequence) == [200, 2, 3, 4, 5])
        #expect(Array(sequenceCopy) == [1, 2, 3, 4, 5])
    }

    @Test(
        "Writes through shared boxes from generic code: an over-aligned value, a closure, a constrained existential, a class"
    )
    func existentialRootsFromGenericCode() throws {
        struct Aligned: Equatable {
            var vector = SIMD4<Double>(1, 2, 3, 4)
            var tag = 1
        }
        struct Handlers {
            var run: () -> Int = { 1 }
            var padding = (0, 0, 0)
        }
        struct Wide: Sequence {
            var a = 1, b = 2, c = 3, d = 4, e = 5
            func makeIterator() -> IndexingIterator<[Int]> { [a, b, c, d, e].makeIterator() }
        }
        final class Box { var value = 1 }
        func write<Root, Value>(_ field: Field, _ value: Value, in root: inout Root) throws {
            try field.setValue(value, in: &root)
        }

        // Aligned to more than a word: the box's value starts past the header at its alignment.
        #expect(MemoryLayout<Aligned>.alignment > MemoryLayout<Int>.alignment)
        var aligned: Any = Aligned()
        let alignedCopy = aligned
        try write(try TypeMetadata(Aligned.self).field(named: "tag"), 9, in: &aligned)
        try write(try TypeMetadata(Aligned.self).field(named: "vector"), SIMD4<Double>(5, 6, 7, 8), in: &aligned)
        #expect(aligned as? Aligned == Aligned(vector: SIMD4(5, 6, 7, 8), tag: 9))
        #expect(alignedCopy as? Aligned == Aligned())

        // A box holding a closure is copied with it; the closure itself, at its declared
        // abstraction, is refused (no reabstraction thunk), and nothing changes.
        var handlers: Any = Handlers()
        let handlersCopy = handlers
        try write(try TypeMetadata(Handlers.self).field(named: "padding"), (7, 8, 9), in: &handlers)
        #expect((handlers as? Handlers).map { $0.padding == (7, 8, 9) } == true)
        #expect((handlers as? Handlers)?.run() == 1)
        #expect((handlersCopy as? Handlers).map { $0.padding == (0, 0, 0) } == true)
        #expect(throws: RuntimeMetadataError.self) {
            try write(try TypeMetadata(Handlers.self).field(named: "run"), { 2 } as () -> Int, in: &handlers)
        }
        #expect((handlers as? Handlers)?.run() == 1)
        #expect((handlersCopy as? Handlers)?.run() == 1)

        var sequence: any Sequence<Int> = Wide()
        let sequenceCopy = sequence
        try write(try TypeMetadata(Wide.self).field(named: "e"), 50, in: &sequence)
        #expect(Array(sequence) == [1, 2, 3, 4, 50])
        #expect(Array(sequenceCopy) == [1, 2, 3, 4, 5])

        // A class instance is shared by every holder of the reference, as a property write on
        // the object itself is.
        let object = Box()
        var boxed: Any = object
        let boxedCopy = boxed
        try write(try TypeMetadata(Box.self).field(named: "value"), 3, in: &boxed)
        #expect(object.value == 3)
        #expect((boxedCopy as? Box)?.value == 3)
    }

    @Test("Unknown field names and indices throw")
    func unknownFields() {
        let metadata = TypeMetadata(Point.self)
        #expect(throws: RuntimeMetadataError.noSuchField(name: "z", typeName: "Fixtures.Point")) {
            _ = try metadata.field(named: "z")
        }
        #expect(throws: RuntimeMetadataError.fieldIndexOutOfRange(index: 2, count: 2, typeName: "Fixtures.Point")) {
            _ = try metadata.field(at: 2)
        }
        #expect(throws: RuntimeMetadataError.self) { _ = try TypeMetadata(Int?.self).fields }
    }

    @Test("Names are found as == finds them: short ASCII, long, non-ASCII and canonically equivalent")
    func namesAsEqualityFindsThem() throws {
        // Each field's name, and spellings that are == to it (or not), in types whose names are
        // all short ASCII and in types with a long or non-ASCII name among them.
        func check<T>(_ value: T, _ queries: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
            let metadata = TypeMetadata(T.self)
            let labels = Mirror(reflecting: value).children.map(\.label!)
            let fields = try metadata.fields
            for query in queries + labels {
                let expected = labels.firstIndex { $0 == query }
                let found = try? metadata.field(named: query)
                #expect(found?.name == expected.map { labels[$0] }, "\(query)", sourceLocation: sourceLocation)
                #expect(found?.offset == expected.map { fields[$0].offset }, "\(query)", sourceLocation: sourceLocation)
            }
        }
        try check(NamedShort(), ["b", "B", "bb", "", "a\u{0}", "abcdefghijklmno", "abcdefghijklmnop"])
        try check(NamedLong(), ["a", "abcdefghijklmnop", "abcdefghijklmno", "\u{212A}", "K", "é", "e\u{301}"])
        try check(NamedUnicode(), ["K", "\u{212A}", "é", "e\u{301}", "x", "caf\u{E9}"])
    }

    @Test("A hidden noncopyable field type cannot be read")
    func hiddenType() throws {
        let field = try TypeMetadata(of: HoldsNoncopyable.self).field(named: "inner")
        #expect(throws: RuntimeMetadataError.self) { _ = try field.value(in: 0, as: Int.self) }
    }

    @Test("Values too large for an Any's buffer are copied into boxes of their own, owned by the Any")
    func boxedCopies() throws {
        final class Token {}
        struct Large {
            var token: Token
            var words = (1, 2, 3, 4)
            var text = String(repeating: "t", count: 40)
        }
        struct Wide {
            var vector = SIMD8<Float>(1, 2, 3, 4, 5, 6, 7, 8)
            var tail: UInt8 = 9
        }
        struct Holder {
            var large: Large
            var wide = Wide()
        }
        weak var released: Token?
        var copies: [Any] = []
        do {
            let token = Token()
            released = token
            var holder = Holder(large: Large(token: token))
            let type = TypeMetadata(Holder.self)
            for _ in 0..<3 {
                copies.append(try type.field(named: "large").value(in: holder))
                copies.append(try #require(ValueWalker().node(for: holder).child(at: 0)?.value))
            }
            let wide = try type.field(named: "wide").value(in: holder)
            // The copies are the values, with the alignment the box gives them (SIMD8<Float> is
            // 32-byte aligned).
            #expect((wide as? Wide)?.vector == SIMD8<Float>(1, 2, 3, 4, 5, 6, 7, 8) && (wide as? Wide)?.tail == 9)
            // Independent of the original: changing it leaves them as they were.
            holder.large.words.0 = 99
            holder.large.text = "changed"
            for copy in copies {
                let large = try #require(copy as? Large)
                #expect(large.words.0 == 1 && large.text.count == 40 && large.token === token)
            }
        }
        // Each copy keeps the object alive, and releases it when dropped.
        #expect(released != nil)
        copies.removeAll()
        #expect(released == nil)
    }

}

/// Plain data of sizes 1, 2, 3, 5 (with an odd tail), 16, 24 (the whole buffer) and 25 (boxed
/// in an `Any`), a payload enum and a non-plain neighbour, at offsets that are not all aligned
/// to a word.
private struct PlainSizes {
    var byte: UInt8 = 0xA5
    var half: Int16 = -2
    var triple: (UInt8, UInt8, UInt8) = (1, 2, 3)
    var five: (Int32, UInt8) = (-7, 9)
    var name = "between"
    var pair: (Int, Int) = (.min, .max)
    var buffer: (Int, Double, Int) = (1, 2.5, 3)
    var boxed: (Int, Int, Int, UInt8) = (4, 5, 6, 7)
    var shape: PlainShape = .rectangle(width: 2, height: 3)
    var flag = true
}

private enum PlainShape {
    case none
    case rectangle(width: Int32, height: Int32)
}

/// Short ASCII names only, of several lengths.
private struct NamedShort {
    var a = 0
    var b = 0
    var abcdefghijklmno = 0
}

/// A name too long to be a small string, beside short ones.
private struct NamedLong {
    var a = 0
    var abcdefghijklmnop = 0
    var K = 0
}

/// Non-ASCII names: a Kelvin sign, which is == to "K", and a precomposed é.
private struct NamedUnicode {
    var K = 0
    var é = 0
    var x = 0
}
