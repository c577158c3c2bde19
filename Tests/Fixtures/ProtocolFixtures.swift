// ProtocolFixtures.swift
//
// Protocols of each flavour.

/// A plain protocol.
public protocol FixtureProtocol {}

/// A class-bound protocol.
public protocol ClassBoundProtocol: AnyObject {}

/// A protocol with associated types.
public protocol ContainerProtocol {
    associatedtype Element
    associatedtype Index: Comparable
    var first: Element? { get }
}

/// A protocol that inherits another.
public protocol InheritingProtocol: FixtureProtocol, Equatable {}
