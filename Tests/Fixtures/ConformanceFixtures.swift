// ConformanceFixtures.swift
//
// Protocols and conformances of each kind the conformance matrix needs: plain, class-bound,
// inheriting, with associated types; conditional, inherited through a superclass, retroactive.

/// A plain protocol with one requirement.
public protocol Describable {
    func describe() -> String
}

/// A protocol that inherits another.
public protocol DetailedDescribable: Describable {
    var detail: String { get }
}

/// A protocol with associated types.
public protocol Identified {
    associatedtype ID: Hashable
    associatedtype Payload
    var identifier: ID { get }
}

extension Point: Describable {
    public func describe() -> String { "Point(\(x), \(y))" }
}

extension Point: Identified {
    public typealias Payload = [String]
    public var identifier: Int { x }
}

extension Shape: DetailedDescribable {
    public func describe() -> String { "Shape" }
    public var detail: String { "\(self)" }
}

extension StringHolder: Identified {
    public typealias Payload = Void
    public var identifier: String { name }
}

/// Conformance inherited by every subclass.
extension BaseClass: Describable {
    public func describe() -> String { "BaseClass(\(baseValue))" }
}

/// A conditional conformance of a generic type of this module.
extension GenericBox: Describable where T: Describable {
    public func describe() -> String { "Box(\(value.describe()))" }
}

/// A conditional conformance of a standard library type to this module's protocol.
extension Array: Describable where Element: Describable {
    public func describe() -> String { map { $0.describe() }.joined(separator: ", ") }
}

extension Int: Describable {
    public func describe() -> String { "Int(\(self))" }
}

extension ReferenceFixture: Identified {
    public typealias Payload = ReferenceFixture
    public var identifier: ObjectIdentifier { ObjectIdentifier(self) }
}

/// A retroactive conformance: this module owns neither `Bool` nor `Comparable`.
extension Bool: @retroactive Comparable {
    public static func < (lhs: Bool, rhs: Bool) -> Bool { !lhs && rhs }
}

extension CompassDirection: Describable {
    public func describe() -> String { "\(self)" }
}

extension FixtureError: Describable {
    public func describe() -> String { "FixtureError" }
}
