// TypeNameTests.swift
//
// Types from names: every fixture's String(reflecting:) name and mangled name resolve back to
// its metadata, and malformed or unknown names throw errors that name the failing part.

import Fixtures
import RuntimeMetadata
import Testing

/// `PackStruct` with an empty pack, spelled through a generic function.
private func emptyPackStructType<each T>(_ types: repeat (each T).Type) -> Any.Type {
    PackStruct<repeat each T>.self
}

@Suite("Type names")
struct TypeNameTests {
    @Test("String(reflecting:) names resolve to the same metadata", arguments: Fixtures.all)
    func reflectingNames(_ fixture: FixtureCase) throws {
        let metadata = TypeMetadata(fixture.type)
        // Function types and extended existentials have no parsable name form.
        guard metadata.kind != .function, metadata.kind != .extendedExistential else { return }
        #expect(try TypeMetadata(named: fixture.name) == metadata)
    }

    @Test("Mangled names resolve to the same metadata as _typeByName", arguments: Fixtures.all)
    func mangledNames(_ fixture: FixtureCase) throws {
        let mangled = try #require(_mangledTypeName(fixture.type))
        guard _typeByName(mangled) != nil else {
            // The runtime cannot resolve some of its own manglings (extended existentials).
            #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(mangledName: mangled) }
            return
        }
        #expect(try TypeMetadata(mangledName: mangled) == TypeMetadata(fixture.type))
        #expect(try TypeMetadata(mangledName: "$s" + mangled) == TypeMetadata(fixture.type))
    }

    @Test("Sugared and composed spellings")
    func spellings() throws {
        let cases: [(String, Any.Type)] = [
            ("Swift.Dictionary<Swift.String, Fixtures.GenericBox<Swift.Int>>", [String: GenericBox<Int>].self),
            ("[Swift.String: [Swift.Int]]", [String: [Int]].self),
            ("Swift.Int?", Int?.self),
            ("Swift.Optional<Swift.Optional<Swift.String>>", String??.self),
            ("(Swift.Int, label: Swift.String)", (Int, label: String).self),
            ("()", Void.self),
            ("Fixtures.FixtureProtocol & Fixtures.ClassBoundProtocol", (any FixtureProtocol & ClassBoundProtocol).self),
            ("any Fixtures.FixtureProtocol", (any FixtureProtocol).self),
            ("Fixtures.BaseClass & Fixtures.FixtureProtocol", (any BaseClass & FixtureProtocol).self),
            ("Swift.Int.Type", Int.Type.self),
            ("Fixtures.FixtureProtocol.Type", (any FixtureProtocol.Type).self),
            ("Fixtures.FixtureProtocol.Protocol", (any FixtureProtocol).Type.self),
            ("Any", Any.self),
            ("Swift.AnyObject", AnyObject.self),
            ("Fixtures.GenericOuter<Swift.Int>.Inner<Swift.String>", GenericOuter<Int>.Inner<String>.self),
            ("Fixtures.ValueGenericStruct<3, Swift.Int16>", ValueGenericStruct<3, Int16>.self),
            ("Swift.InlineArray<2, Swift.Bool>", InlineArray<2, Bool>.self),
            ("Fixtures.PackStruct<Pack{Swift.Int, Swift.String}>", PackStruct<Int, String>.self),
            ("Fixtures.PackStruct<Pack{}>", emptyPackStructType()),
            ("Fixtures.ConstrainedBox<Swift.String>", ConstrainedBox<String>.self),
            ("Fixtures.DoubleGenericSubclass<Swift.Double>", DoubleGenericSubclass<Double>.self),
            (String(reflecting: privateFixtureType), privateFixtureType),
            ("(extension in Fixtures):Swift.Int.IntExtensionNested", Int.IntExtensionNested.self),
        ]
        for (name, type) in cases {
            #expect(try TypeMetadata(named: name) == TypeMetadata(type), "\(name)")
        }
    }

    @Test("Noncopyable types resolve by name, from the records the runtime does not register")
    func noncopyableNames() throws {
        #expect(try TypeMetadata(named: "Fixtures.NoncopyableStruct") == TypeMetadata(of: NoncopyableStruct.self))
        #expect(try TypeMetadata(named: "Fixtures.NoncopyableEnum") == TypeMetadata(of: NoncopyableEnum.self))
        #expect(TypeDescriptor.allLoaded().contains { $0.qualifiedName == "Fixtures.HoldsNoncopyable" })
    }

    @Test("A name resolves before the type is used elsewhere")
    func unusedType() throws {
        let metadata = try TypeMetadata(named: "Fixtures.GenericPair<Swift.UInt8, Fixtures.Shape>")
        #expect(metadata.name == "Fixtures.GenericPair<Swift.UInt8, Fixtures.Shape>")
        #expect(metadata.size == MemoryLayout<GenericPair<UInt8, Shape>>.size)
    }

    @Test(
        "Bad names throw an error naming the failing part",
        arguments: [
            ("", ""),
            ("Swift.Dictionary<Swift.String", "end of name"),
            ("Swift.Dictionary<Swift.String, Swift.Int", "end of name"),
            ("Nowhere.Nothing", "Nowhere.Nothing"),
            ("Swift.Dictionary<Swift.String, Nowhere.Nothing>", "Nowhere.Nothing"),
            ("Swift.Dictionary<Swift.String>", "Swift.Dictionary"),
            ("Fixtures.ConstrainedBox<Fixtures.MixedAlignmentStruct>", "Fixtures.ConstrainedBox"),
            ("Swift.Int<Swift.String>", "Swift.Int"),
            ("Swift.Array<3>", "Swift.Array"),
            ("Swift.Int)", ")"),
            ("(Swift.Int) -> Swift.Int", "(Swift.Int) -> Swift.Int"),
            ("Swift.Int.Protocol", "Swift.Int.Protocol"),
            ("Swift.Int & Swift.String", "Swift.Int"),
            ("5", "5"),
        ]
    )
    func badNames(_ name: String, _ part: String) throws {
        let error = try #require(throws: RuntimeMetadataError.self) { try TypeMetadata(named: name) }
        guard case .unresolvableName(let whole, let failedPart, let reason) = error else {
            Issue.record("unexpected error \(error)")
            return
        }
        #expect(whole == name)
        #expect(failedPart.hasPrefix(part) || part.isEmpty, "part '\(failedPart)' for \(name): \(reason)")
        #expect(!reason.isEmpty)
    }

    @Test("Bad mangled names throw instead of reading memory")
    func badMangledNames() {
        for name in ["", "$s", "4main3XyzV", "ZZZ9", "\u{01}\u{00}\u{00}\u{00}\u{00}", "SaySiG\u{02}"] {
            #expect(throws: RuntimeMetadataError.self, "\(name.debugDescription)") {
                try TypeMetadata(mangledName: name)
            }
        }
    }

    @Test("Repeated lookups return the cached result")
    func cached() throws {
        let first = try TypeMetadata(named: "Swift.Array<Fixtures.Point>")
        let second = try TypeMetadata(named: "Swift.Array<Fixtures.Point>")
        #expect(first == second)
        #expect(first == TypeMetadata([Point].self))
    }
}
