// NoncopyableMemberTests.swift
//
// Values with noncopyable stored properties walked as `Mirror` and `Swift.dump` show them: the
// other parts copied, the noncopyable ones listed without a value. The fixture types are shared
// with the fuzz targets (PublicAPIFuzzTests.swift) and the field tests.

import Testing
import ValueDump

@testable import RuntimeMetadata

/// A noncopyable value type.
struct Ticket: ~Copyable {
    var serial = 7
    var seat = 8
}

/// A noncopyable enum.
enum Lock: ~Copyable {
    case held(Int)
    case free
}

/// A class holding noncopyable stored properties between copyable ones.
final class TicketHolder {
    var ticket = Ticket()
    var count = 1
    var lock = Lock.held(2)
    var name = "holder"
}

/// A subclass of a class holding a noncopyable stored property.
class TicketBase {
    var ticket = Ticket()
    var base = 5
}

final class TicketSub: TicketBase {
    var own = 6
}

/// A class whose stored property is a generic parameter bound to a noncopyable type: its
/// type resolves, and it cannot be copied (`Swift.dump` traps on it).
final class Holding<T: ~Copyable> {
    var held: T
    var count = 3
    init(_ held: consuming T) { self.held = held }
}

/// A noncopyable struct holding a noncopyable stored property.
struct TicketPair: ~Copyable {
    var first = Ticket()
    var number = 2
}

/// The standard library's dump of a value.
private func standardDump<T>(_ value: T) -> String {
    var text = ""
    Swift.dump(value, to: &text)
    return text
}

/// ValueDump's dump of a value.
private func ourDump<T>(_ value: T) -> String {
    var text = ""
    ValueDump.dump(value, to: &text)
    return text
}

@Suite("Walking noncopyable members")
struct NoncopyableMemberTests {
    @Test("A class with noncopyable stored properties walks its other parts, as Mirror and Swift.dump do")
    func noncopyableMembers() throws {
        for value in [TicketHolder(), TicketSub() as TicketBase, TicketSub()] as [AnyObject] {
            let node = ValueWalker().node(for: value)
            #expect(node.partsUnavailable == nil, "\(node.partsUnavailable.map { "\($0)" } ?? "")")
            let mirror = Mirror(reflecting: value)
            var mirrorLabels = mirror.children.map(\.label)
            var superMirror = mirror.superclassMirror
            while let next = superMirror {
                mirrorLabels = next.children.map(\.label) + mirrorLabels
                superMirror = next.superclassMirror
            }
            #expect(node.children.map(\.label) == mirrorLabels)
            #expect(!node.classHierarchy.isEmpty)
            #expect(ourDump(value) == standardDump(value))
        }
        let holder = TicketHolder()
        let children = ValueWalker().node(for: holder).children
        try #require(children.map { $0.value.map { "\($0)" } } == ["()", "1", "()", "holder"])
        #expect(children[0].declaredType == TypeMetadata(Void.self))
        let ticketField = try TypeMetadata(TicketHolder.self).field(named: "ticket")
        #expect(ticketField.isTypeHidden && ticketField.type == nil)
        #expect(ticketField.offset == 16)
    }

    @Test("A stored property of a generic parameter bound to a noncopyable type is listed, never copied")
    func noncopyableGenericMember() throws {
        let holding = Holding(Ticket())
        let node = ValueWalker().node(for: holding)
        #expect(node.partsUnavailable == nil)
        let children = node.children
        try #require(children.map(\.label) == ["held", "count"])
        #expect(children[0].value == nil)
        #expect(children[0].declaredType == TypeMetadata(of: Ticket.self))
        #expect(children[1].value as? Int == 3)
        let name = TypeMetadata(of: Ticket.self).name
        #expect(ourDump(holding).contains("- held: (noncopyable \(name))"))
        #expect(ourDump(holding).contains("- count: 3"))
        let held = try TypeMetadata(Holding<Ticket>.self).field(named: "held")
        #expect(throws: RuntimeMetadataError.noncopyableType(typeName: name)) { try held.value(in: holding) }
        let hidden = try TypeMetadata(TicketHolder.self).field(named: "ticket")
        #expect(throws: RuntimeMetadataError.self) { try hidden.value(in: TicketHolder()) }
    }
}
