// ExistentialMetadata.swift

/// The constraints of an existential type such as `any P & Q`, `any Base & P`, `Any` or `AnyObject`.
public struct ExistentialMetadata: Hashable, Sendable, CustomStringConvertible {
    /// The qualified names of the protocols, in the runtime's canonical order (not source order).
    public let protocolNames: [String]

    /// Whether the existential only holds class instances (`AnyObject`, class-bound protocols, a superclass).
    public let isClassBound: Bool

    /// The superclass constraint of `any Base & P`, or `nil`.
    public let superclass: TypeMetadata?

    /// The number of witness tables a value of the existential carries.
    public let witnessTableCount: Int

    /// Whether this is `any Error`, which boxes its value in a single reference.
    public let isError: Bool

    /// The protocols and constraints.
    public var description: String {
        var parts = protocolNames
        if let superclass { parts.insert(superclass.name, at: 0) }
        if parts.isEmpty { return isClassBound ? "AnyObject" : "Any" }
        return "any " + parts.joined(separator: " & ")
    }
}

extension TypeMetadata {
    /// The constraints of an existential type; `nil` for other kinds.
    public var existential: ExistentialMetadata? {
        guard let summary = record.reference.existential else { return nil }
        typealias Flag = ExistentialTypeMetadataLayout.Flag
        return ExistentialMetadata(
            protocolNames: summary.protocols.map(\.qualifiedName),
            isClassBound: summary.flags & Flag.classConstraintMask == 0,
            superclass: summary.superclass.map(TypeMetadata.init),
            witnessTableCount: Int(summary.flags & Flag.numWitnessTablesMask),
            isError: (summary.flags & Flag.specialProtocolMask) >> Flag.specialProtocolShift == 1
        )
    }
}
