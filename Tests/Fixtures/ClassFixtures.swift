// ClassFixtures.swift
//
// Classes, each named after the class layout feature it exercises.

public import Foundation
public import ResilientFixtures

/// A final root class with two stored properties.
public final class ReferenceFixture: ClassBoundProtocol, FixtureProtocol, @unchecked Sendable {
    public var id: Int
    public var name: String
    public init(id: Int, name: String) {
        self.id = id
        self.name = name
    }

    /// A shared instance.
    public static let shared = ReferenceFixture(id: 0, name: "shared")
}

/// A root class that others inherit from.
public class BaseClass {
    public var baseValue: Int
    public let baseName: String
    public init(baseValue: Int, baseName: String) {
        self.baseValue = baseValue
        self.baseName = baseName
    }
}

/// A subclass: its field offsets follow the superclass's.
public class DerivedClass: BaseClass, FixtureProtocol {
    public var derivedValue: Double
    public init(derivedValue: Double) {
        self.derivedValue = derivedValue
        super.init(baseValue: 1, baseName: "derived")
    }
}

/// A generic subclass of a non-generic class.
public class GenericBaseClass<T>: BaseClass {
    public var element: T
    public init(element: T) {
        self.element = element
        super.init(baseValue: 2, baseName: "generic")
    }
}

/// A non-generic subclass of a generic class: singleton metadata initialization.
public final class GenericSubclass: GenericBaseClass<Int> {
    public var extra: Double
    public init(extra: Double) {
        self.extra = extra
        super.init(element: 10)
    }
}

/// A generic subclass of a generic class instantiated with its own parameter.
public final class DoubleGenericSubclass<U>: GenericBaseClass<[U]> {
    public var more: U
    public init(more: U) {
        self.more = more
        super.init(element: [more])
    }
}

/// A subclass of a class from another module, whose layout is only known at run time.
public final class FoundationSubclass: JSONDecoder, @unchecked Sendable {
    public var marker: Int = 42
    public var label: String = "decoder"
}

/// A class with a weak back reference and strong children.
public final class TreeNode {
    public var label: String
    public weak var parent: TreeNode?
    public var children: [TreeNode] = []
    public unowned(unsafe) var root: TreeNode?
    public init(label: String) {
        self.label = label
        self.root = nil
    }
}

/// An actor: a class whose metadata carries the default actor storage.
public actor CounterActor {
    public var count: Int = 0
    public let name: String = "counter"
    public init() {}
}

/// A subclass of a resilient class from another module: its field offsets count from a
/// start the runtime computes (HasResilientSuperclass).
public final class ResilientSubclass: ResilientBase {
    public var extra: Double = 2.5
    public var tag: Int8 = 3
}

/// A generic subclass of a resilient generic class: generic arguments and fields after a
/// superclass of unknown size.
public final class ResilientGenericSubclass<U>: ResilientGenericBase<[U]> {
    public var more: U
    public init(more: U) {
        self.more = more
        super.init(element: [more])
    }
}

/// A struct holding a resilient struct from another module.
public struct HoldsResilientStruct {
    public var before: Int8
    public var resilient: ResilientStruct
    public var after: Int8
    public init(before: Int8, resilient: ResilientStruct, after: Int8) {
        self.before = before
        self.resilient = resilient
        self.after = after
    }
}
