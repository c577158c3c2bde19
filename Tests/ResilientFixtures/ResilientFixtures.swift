// ResilientFixtures.swift
//
// Built with -enable-library-evolution: classes here are resilient, so a subclass in another
// module learns their size only at run time and its descriptor has HasResilientSuperclass.

/// A resilient root class.
open class ResilientBase {
    public var baseCount: Int = 1
    public var baseName: String = "resilient"
    public init() {}
}

/// A resilient generic class.
open class ResilientGenericBase<T> {
    public var element: T
    public init(element: T) { self.element = element }
}

/// A resilient struct, whose size clients learn from its value witnesses.
public struct ResilientStruct {
    public var first: Int
    public var second: String
    public init(first: Int, second: String) {
        self.first = first
        self.second = second
    }
}
