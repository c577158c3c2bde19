// LayoutTests.swift
//
// Every fixture's layout against MemoryLayout, its name against String(reflecting:), its
// stored property offsets against MemoryLayout.offset(of:) and its labels against Mirror.

import Fixtures
import RuntimeMetadata
@_spi(Reflection) import Swift
import Testing

@Suite("Layout")
struct LayoutTests {
    /// `_EachFieldOptions.classType`, spelled by value: upstream declares it a `static var`.
    static let classType = _EachFieldOptions(rawValue: 1 << 0)

    @Test("Size, stride and alignment equal MemoryLayout's", arguments: Fixtures.all)
    func sizes(_ fixture: FixtureCase) {
        let metadata = TypeMetadata(fixture.type)
        #expect(metadata.size == fixture.size)
        #expect(metadata.stride == fixture.stride)
        #expect(metadata.alignment == fixture.alignment)
    }

    @Test("The name equals String(reflecting:)", arguments: Fixtures.all)
    func name(_ fixture: FixtureCase) {
        #expect(TypeMetadata(fixture.type).name == fixture.name)
        #expect(TypeMetadata(fixture.type).description == fixture.name)
    }

    @Test("The metatype round-trips", arguments: Fixtures.all)
    func metatype(_ fixture: FixtureCase) throws {
        let type = try #require(TypeMetadata(fixture.type).type)
        #expect(ObjectIdentifier(type) == ObjectIdentifier(fixture.type))
    }

    @Test("The mangled name equals _mangledTypeName", arguments: Fixtures.all)
    func mangledName(_ fixture: FixtureCase) {
        #expect(TypeMetadata(fixture.type).mangledName == _mangledTypeName(fixture.type))
    }

    @Test("The kind agrees with Mirror's display style", arguments: Fixtures.all)
    func kind(_ fixture: FixtureCase) throws {
        let metadata = TypeMetadata(fixture.type)
        guard let sample = fixture.sample?() else { return }
        // A sample stored in `Any` is opened to its dynamic type, so only compare when the
        // fixture's static type is the dynamic type.
        guard ObjectIdentifier(type(of: sample)) == ObjectIdentifier(fixture.type) else { return }
        switch Mirror(reflecting: sample).displayStyle {
        case .struct: #expect(metadata.kind == .struct)
        case .class: #expect(metadata.kind == .class)
        case .enum: #expect(metadata.kind == .enum)
        case .optional: #expect(metadata.kind == .optional)
        case .tuple: #expect(metadata.kind == .tuple)
        default: #expect(![.struct, .class, .enum, .optional, .tuple].contains(metadata.kind))
        }
    }

    @Test("Field offsets equal MemoryLayout.offset(of:) and names equal Mirror's labels", arguments: Fixtures.structs)
    func structFields(_ fixture: FixtureCase) throws {
        let metadata = TypeMetadata(fixture.type)
        let fields = try metadata.fields
        for expected in fixture.offsets {
            let field = try #require(fields.first { $0.name == expected.name }, "missing \(expected.name)")
            #expect(field.offset == expected.offset, "\(expected.name)")
        }
        if metadata.kind == .struct, let sample = fixture.sample?() {
            let labels = Mirror(reflecting: sample).children.map(\.label)
            #expect(fields.map(\.name) == labels.map { $0 ?? "" })
        }
    }

    @Test("Field types equal the types Mirror sees", arguments: Fixtures.structs)
    func structFieldTypes(_ fixture: FixtureCase) throws {
        let metadata = TypeMetadata(fixture.type)
        guard metadata.kind == .struct, let sample = fixture.sample?() else { return }
        let fields = try metadata.fields
        for (field, child) in zip(fields, Mirror(reflecting: sample).children) where field.ownership == .strong {
            let fieldType = try #require(field.type, "\(field.name)")
            // Mirror opens existentials to the dynamic type; compare only concrete fields.
            guard fieldType.kind != .existential, fieldType.kind != .existentialMetatype else { continue }
            #expect(fieldType == TypeMetadata(type(of: child.value)), "\(field.name)")
        }
    }

    @Test("Class fields include superclasses', with Mirror's labels", arguments: Fixtures.classes)
    func classFields(_ fixture: FixtureCase) throws {
        let metadata = TypeMetadata(fixture.type)
        #expect(metadata.kind == .class)
        let sample = try #require(fixture.sample?())
        var mirrorLabels: [String] = []
        var mirror: Mirror? = Mirror(reflecting: sample)
        var chain: [Mirror] = []
        while let current = mirror {
            chain.append(current)
            mirror = current.superclassMirror
        }
        for current in chain.reversed() {
            mirrorLabels += current.children.map { $0.label ?? "" }
        }
        let fields = try metadata.fields
        let own = Set(try metadata.ownFields.map(\.name))
        // Foundation's classes are built without reflection metadata for some fields on
        // Linux; compare the fixture's own fields exactly and the rest as a suffix.
        #expect(Array(fields.map(\.name).suffix(own.count)) == Array(mirrorLabels.suffix(own.count)))
        for field in fields {
            #expect(field.offset >= 16, "\(field.name) overlaps the heap header")
            if let size = metadata.instanceSize, let type = field.type {
                #expect(field.offset + type.size <= size, "\(field.name)")
            }
        }
    }

    @Test(
        "Class field names, offsets and types equal the standard library's _forEachField",
        arguments: Fixtures.classes
    )
    func classFieldsAgainstStandardLibrary(_ fixture: FixtureCase) throws {
        var expected: [(name: String, offset: Int, type: Any.Type)] = []
        let walked = _forEachField(of: fixture.type, options: Self.classType) { name, offset, type, _ in
            expected.append((String(cString: name), offset, type))
            return true
        }
        try #require(walked, "the standard library cannot walk \(fixture.name)")
        let fields = try TypeMetadata(fixture.type).fields
        #expect(fields.map(\.name) == expected.map(\.name))
        #expect(fields.map(\.offset) == expected.map(\.offset))
        for (field, oracle) in zip(fields, expected) {
            #expect(field.type == TypeMetadata(oracle.type), "\(field.name)")
        }
    }

    @Test("Struct field offsets and types equal the standard library's _forEachField", arguments: Fixtures.structs)
    func structFieldsAgainstStandardLibrary(_ fixture: FixtureCase) throws {
        guard TypeMetadata(fixture.type).kind == .struct else { return }
        var expected: [(name: String, offset: Int, type: Any.Type)] = []
        let walked = _forEachField(of: fixture.type) { name, offset, type, _ in
            expected.append((String(cString: name), offset, type))
            return true
        }
        try #require(walked)
        let fields = try TypeMetadata(fixture.type).fields
        #expect(fields.map(\.name) == expected.map(\.name))
        #expect(fields.map(\.offset) == expected.map(\.offset))
        for (field, oracle) in zip(fields, expected) {
            #expect(field.type == TypeMetadata(oracle.type), "\(field.name)")
        }
    }

    @Test("Value witness flags agree with the standard library's facts")
    func witnessFlags() {
        #expect(TypeMetadata(Int.self).isPOD)
        #expect(!TypeMetadata(String.self).isPOD)
        #expect(TypeMetadata(Point.self).isPOD == _isPOD(Point.self))
        #expect(TypeMetadata(StringHolder.self).isPOD == _isPOD(StringHolder.self))
        #expect(TypeMetadata(OwnershipStruct.self).isBitwiseTakable == false)
        #expect(TypeMetadata(Point.self).isBitwiseTakable)
        #expect(TypeMetadata(Int?.self).extraInhabitantCount == 0)
        #expect(TypeMetadata(ReferenceFixture.self).extraInhabitantCount > 0)
        #expect(TypeMetadata((Int, Int, Int, Int).self).isInlineStorage == false)
        #expect(TypeMetadata(Int.self).isInlineStorage)
        #expect(TypeMetadata(MultiPayloadEnum.self).hasEnumWitnesses)
        #expect(!TypeMetadata(Point.self).hasEnumWitnesses)
    }
}
