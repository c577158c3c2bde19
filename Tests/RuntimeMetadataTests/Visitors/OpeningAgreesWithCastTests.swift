// OpeningAgreesWithCastTests.swift
//
// Opening agrees with `as?` wherever `as?` looks through a container.

import Fixtures
import Testing

@testable import RuntimeMetadata

@Suite("Opening agrees with as?")
struct OpeningAgreesWithCastTests {
    /// What `as?` says, and what the library says, for the same value.
    static func agree(_ value: Any, descriptor: ProtocolDescriptor) -> (cast: Bool, opened: Bool, lent: Bool) {
        let opened = descriptor.open(value, as: (any FixtureProtocol).self)
        let lent = descriptor.withOpened(value, as: (any FixtureProtocol).self) { _ in true } ?? false
        return (value as? any FixtureProtocol != nil, opened != nil, lent)
    }

    @Test("Optionals, nested optionals, AnyObject boxes, AnyHashable and nested existentials are looked through")
    func lookThrough() throws {
        let descriptor = try ProtocolDescriptor((any FixtureProtocol).self)
        let point = Point(x: 1, y: 2)
        let values: [Any] = [
            point,
            Optional(point) as Any,
            Optional(Optional(point)) as Any,
            Optional<Point>.none as Any,
            Optional<Optional<Point>>.some(nil) as Any,
            point as AnyObject,
            Optional(point as AnyObject) as Any,
            Holder<Any>(point).held,
            "not a conformer",
            Optional("not a conformer") as Any,
            "not a conformer" as AnyObject,
            AnyHashable(point),
            Optional(AnyHashable(point)) as Any,
            AnyHashable(Optional(point)),
            AnyHashable("not a conformer"),
            AnyHashable(1 as Int8),
        ]
        for value in values {
            let answers = Self.agree(value, descriptor: descriptor)
            #expect(answers.opened == answers.cast, "\(value)")
            #expect(answers.lent == answers.cast, "\(value)")
        }
        // The opened value is the conformer itself.
        let opened = descriptor.open(Optional(Optional(point)) as Any, as: (any FixtureProtocol).self)
        #expect((opened as? Point) == point)
        let unboxed = descriptor.open(point as AnyObject, as: (any FixtureProtocol).self)
        #expect((unboxed as? Point) == point)
        let unhashed = descriptor.withOpened(AnyHashable(point), as: (any FixtureProtocol).self) { $0 as? Point }
        #expect(unhashed == point)
    }
}
