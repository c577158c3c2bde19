// NoReflectionFixtures.swift
//
// Built with -disable-reflection-metadata: the compiler emits no field descriptors, so field
// names, field types and case names are unknown to the runtime.

/// A struct whose fields the runtime cannot name.
public struct UnreflectedStruct: Equatable {
    public var first: Int
    public var second: String
    public init(first: Int, second: String) {
        self.first = first
        self.second = second
    }
}

/// An enum whose cases the runtime cannot name.
public enum UnreflectedEnum: Equatable {
    case alpha(Int)
    case beta
}

/// A class whose fields the runtime cannot name.
public final class UnreflectedClass {
    public var value: Int = 1
    public init() {}
}

/// A struct without stored properties, which needs no reflection metadata.
public struct UnreflectedEmptyStruct {
    public init() {}
}
