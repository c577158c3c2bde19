// ReliabilityFixtures.swift
//
// Types behind the reliability reproducers: existential roots in generic code, weak and
// unowned class-bound existential fields, and function values stored with their own
// calling convention.

/// A class-bound protocol with a requirement, so that a call through it dispatches.
public protocol Speaker: AnyObject {
    /// What the speaker says.
    func speak() -> String
}

/// A speaker.
public final class Dog: Speaker {
    public init() {}
    public func speak() -> String { "woof" }
}

/// Another speaker, of another class.
public final class Cat: Speaker {
    public init() {}
    public func speak() -> String { "meow" }
}

/// Weak and unowned class-bound existential fields.
public struct SpeakerReferences {
    public weak var delegate: (any Speaker)?
    public unowned var owner: any Speaker
    public init(delegate: (any Speaker)?, owner: any Speaker) {
        self.delegate = delegate
        self.owner = owner
    }
}

/// A value of generic type, as frameworks hold what their users give them.
public struct Holder<Held> {
    public var held: Held
    public init(_ held: Held) { self.held = held }
}

/// An existential field.
public struct HoldsExistential {
    public var item: any FixtureProtocol
    public var anything: Any
    public init(item: any FixtureProtocol, anything: Any) {
        self.item = item
        self.anything = anything
    }
}

/// Function values in fields: alone, optional, in a tuple, and through a generic parameter.
public struct Callbacks {
    public var transform: (Int) -> Int
    public var optional: ((Int) -> Int)?
    public var pair: ((Int) -> Int, Int)
    public var boxed: GenericBox<(Int) -> Int>
    public var count: Int
    public init() {
        transform = { $0 + 1 }
        optional = { $0 + 2 }
        pair = ({ $0 + 3 }, 3)
        boxed = GenericBox(value: { $0 + 4 })
        count = 4
    }
}

/// Function values as enum payloads.
public enum Callback {
    case run((Int) -> Int)
    case generic(GenericBox<(Int) -> Int>)
    case none
}
