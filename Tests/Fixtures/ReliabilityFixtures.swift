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

/// A linked list that is not Equatable: layout equality must walk it without recursion.
public indirect enum PlainList: Sendable {
    case node(Int, PlainList)
    case end

    /// A list of `count` nodes holding 0, 1, 2…, with `last` in the final node.
    public static func make(count: Int, last: Int? = nil) -> PlainList {
        var list = PlainList.end
        for index in stride(from: count - 1, through: 0, by: -1) {
            list = .node(index == count - 1 ? (last ?? index) : index, list)
        }
        return list
    }
}

/// The Equatable twin of ``PlainList``, whose synthesized `==` is the oracle.
public indirect enum EquatableList: Equatable {
    case node(Int, EquatableList)
    case end
}

/// An Equatable class whose `==` compares contents.
public final class ContentBox: Equatable, @unchecked Sendable {
    public let value: [String]
    public init(_ value: [String]) { self.value = value }
    public static func == (lhs: ContentBox, rhs: ContentBox) -> Bool { lhs.value == rhs.value }
}

/// A struct holding an Equatable class, an error and class-bound existentials; not Equatable.
public struct HoldsReferences {
    public var box: ContentBox
    public var error: any Error
    public var object: AnyObject
    public var speaker: any Speaker
    public init(box: ContentBox, error: any Error, object: AnyObject, speaker: any Speaker) {
        self.box = box
        self.error = error
        self.object = object
        self.speaker = speaker
    }
}

/// An error with a payload.
public struct CodedError: Error, Equatable {
    public var code: Int
    public var message: String
    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }
}

/// A zero-sized field between two others.
public struct HoldsEmpty {
    public var before: Int
    public var empty: EmptyStruct
    public var after: Int8
    public init() {
        before = 1
        empty = EmptyStruct()
        after = 2
    }
}
