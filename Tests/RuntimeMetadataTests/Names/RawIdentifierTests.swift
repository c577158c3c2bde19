// RawIdentifierTests.swift
//
// Raw identifiers in names, as the compiler and `Mirror` spell them.

import Testing

@testable import RuntimeMetadata

@Suite("Raw identifiers")
struct RawIdentifierTests {
    typealias RawLabelled = (`a b`: Int, c: String)
    typealias Keyword = (`class`: Int, `1x`: Double)
    typealias KeywordLabel = (`class`: Int, b: Int)

    @Test("Raw-identifier tuple labels keep their backticks both ways, as the compiler and Mirror have them")
    func tupleLabels() throws {
        let metadata = TypeMetadata(RawLabelled.self)
        let mirrorLabels = Mirror(reflecting: (`a b`: 1, c: "x") as RawLabelled).children.map(\.label)
        #expect(metadata.tupleElements.map(\.label) == mirrorLabels)
        #expect(metadata.tupleElements.count == 2)
        #expect(metadata.name == String(reflecting: RawLabelled.self))
        // By name such a tuple is refused with a clear error (the runtime builds another tuple
        // from the same label string); by mangled name it resolves.
        let error = #expect(throws: RuntimeMetadataError.self) {
            try TypeMetadata(named: "(`a b`: Swift.Int, c: Swift.String)")
        }
        #expect(error.map { "\($0)".contains("mangled name") } == true)
        #expect(try TypeMetadata(mangledName: _mangledTypeName(Keyword.self)!) == TypeMetadata(Keyword.self))
        #expect(TypeMetadata(Keyword.self).tupleElements.map(\.label) == ["class", "`1x`"])
        // An escaped keyword is a plain label.
        #expect(try TypeMetadata(named: "(`class`: Swift.Int, b: Swift.Int)") == TypeMetadata(KeywordLabel.self))
        #expect(try TypeMetadata(mangledName: _mangledTypeName(RawLabelled.self)!) == metadata)
    }

    @Test("A backticked plain identifier is that identifier, as in Swift source")
    func escapedIdentifiers() throws {
        #expect(try TypeMetadata(named: "`Swift`.Int") == TypeMetadata(Int.self))
        #expect(try TypeMetadata(named: "Swift.`Int`") == TypeMetadata(Int.self))
        #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(named: "`Swift.Int`") }
    }
}
