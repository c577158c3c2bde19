// EnumFixtures.swift
//
// Enums, each named after the tag layout it exercises.

/// No cases: uninhabited.
public enum EmptyEnum {}

/// One case without payload: size 0.
public enum SingleCaseEnum: Equatable, CaseIterable {
    case only
}

/// Four cases without payload.
public enum CompassDirection: Equatable, CaseIterable {
    case north, east, south, west
}

/// Raw values do not change the layout.
public enum RawValueEnum: String, Equatable, CaseIterable {
    case a = "A"
    case b
}

/// One payload case and one empty case: uses the payload's extra inhabitants.
public enum SinglePayloadEnum: Equatable {
    case value(Int)
    case none
}

/// Several payload cases: tag bits or an extra tag byte.
public enum MultiPayloadEnum: Equatable, Sendable {
    case int(Int)
    case string(String)
    case pair(Int, Double)
    case empty
    case another
}

/// Payload and empty cases interleaved: the runtime orders payload cases first.
public enum MixedOrderEnum: Equatable, Sendable {
    case e1
    case p1(Int)
    case e2
    case p2(String)
}

/// An indirect enum: every payload is boxed.
public indirect enum IndirectTree: Equatable {
    case leaf(Int)
    case node(IndirectTree, IndirectTree)
}

/// One indirect case beside a direct one.
public enum PartiallyIndirectEnum: Equatable {
    case value(Int)
    indirect case list(PartiallyIndirectEnum)
}

/// A generic enum.
public enum GenericEnum<T> {
    case one(T)
    case pair(T, T)
    case nothing
}

extension GenericEnum: Equatable where T: Equatable {}

/// A class payload beside a trivial one.
public enum ClassPayloadEnum: Equatable {
    case object(ReferenceFixture)
    case number(Int)

    public static func == (lhs: ClassPayloadEnum, rhs: ClassPayloadEnum) -> Bool {
        switch (lhs, rhs) {
        case (.object(let a), .object(let b)): a === b
        case (.number(let a), .number(let b)): a == b
        default: false
        }
    }
}

/// Labelled payloads.
public enum Shape: Equatable, Sendable {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case point
}

/// An error type for existential fixtures.
public enum FixtureError: Error, Equatable {
    case failed(code: Int)
}
