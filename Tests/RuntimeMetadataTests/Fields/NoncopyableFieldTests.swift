// NoncopyableFieldTests.swift
//
// The fields of a noncopyable struct: hidden types reported, offsets checked against
// `MemoryLayout`.

import Testing

@testable import RuntimeMetadata

@Suite("Fields of noncopyable types")
struct NoncopyableFieldTests {
    @Test("A noncopyable struct's fields: hidden types reported, offsets as the layout has them")
    func noncopyableStructFields() throws {
        let fields = try TypeMetadata(of: TicketPair.self).fields
        #expect(fields.map(\.name) == ["first", "number"])
        #expect(fields[0].isTypeHidden && fields[0].type == nil)
        #expect(fields[1].type == TypeMetadata(Int.self))
        #expect(fields[1].offset == MemoryLayout<Ticket>.size)
    }
}
