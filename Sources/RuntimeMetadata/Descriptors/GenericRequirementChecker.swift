// GenericRequirementChecker.swift
//
// Checks the generic requirements of a conformance record against a type, the way the runtime's
// `_checkGenericRequirements` does (swiftlang/swift stdlib/public/runtime/ProtocolConformance.cpp):
// each requirement's subject is resolved against the type's generic arguments, then
//
// - a protocol requirement needs a conformance, whose witness table becomes an instantiation
//   argument when the requirement has a key argument;
// - a same-type requirement needs the two types to be the same metadata;
// - a base-class requirement needs the subject to be the class or one of its subclasses;
// - a layout requirement (`AnyObject`) needs a class.
//
// Kinds the library does not decide (same conformance, same shape, inverted protocols, pack
// and value requirements, an existential tested against a layout or base class) make the check
// undecided: a conformance is then left to the runtime, an instantiation fails with the reason.
// The same checker serves both: a conformance's conditional requirements are resolved against
// the type's generic arguments, an instantiation's against the key arguments gathered so far
// (RequirementEnvironment).

/// The outcome of checking a list of requirements.
enum RequirementCheck {
    /// Every requirement holds; the witness tables of the key requirements, in order.
    case satisfied([WitnessTableReference])
    /// A requirement does not hold.
    case unsatisfied(RequirementFailure)
    /// A requirement is of a kind left to the runtime, or a name did not resolve.
    case undecided(reason: String)
}

/// Why a requirement does not hold.
enum RequirementFailure: Error, Sendable {
    /// A protocol requirement: the subject does not conform.
    case missingConformance(subject: MetadataReference, protocolName: String)
    /// A same-type, base-class or layout requirement, spelled out.
    case violated(String)
}

/// What an inverted-protocols requirement (`T: ~Copyable`) means to the caller.
enum InvertedProtocolRequirements {
    /// The caller checks copyability itself (an instantiation checks every parameter that no
    /// inverted requirement frees): such a requirement constrains nothing here.
    case checkedByCaller
    /// Left to the runtime.
    case undecided
}

/// Checks generic requirements in an environment: a type's generic arguments, or the
/// arguments of an instantiation being gathered.
enum GenericRequirementChecker {
    /// Checks `requirements`, in order.
    /// - Parameters:
    ///   - requirements: The requirements, in order.
    ///   - environment: Where the requirements' parameters are bound. The witness table of each
    ///     key protocol requirement is bound as it is found, so later requirements can name
    ///     associated types through it.
    ///   - inverted: What an inverted-protocols requirement means to the caller.
    ///   - conformance: Finds the witness table by which a type conforms to a protocol.
    /// - Returns: The outcome.
    static func check(
        _ requirements: [GenericRequirementReference],
        in environment: RequirementEnvironment,
        inverted: InvertedProtocolRequirements = .undecided,
        conformance: (MetadataReference, ProtocolReference) -> WitnessTableReference?
    ) -> RequirementCheck {
        var arguments: [WitnessTableReference] = []
        for requirement in requirements {
            if requirement.kind == 5, inverted == .checkedByCaller { continue }
            // Pack (0x20) and value (0x40) requirements are the runtime's.
            guard requirement.flags & 0x60 == 0 else { return .undecided(reason: "pack or value requirement") }
            switch requirement.kind {
            case 0, 1, 2, 0x1F: break
            default: return .undecided(reason: "requirement of kind \(requirement.kind)")
            }
            guard let subject = requirement.subject(in: environment) else {
                return .undecided(reason: requirement.subjectName)
            }
            switch requirement.kind {
            case 0:
                guard let protocolReference = requirement.protocolReference else {
                    return .undecided(reason: "protocol")
                }
                guard let table = conformance(subject, protocolReference) else {
                    return .unsatisfied(
                        .missingConformance(subject: subject, protocolName: protocolReference.qualifiedName)
                    )
                }
                if requirement.hasKeyArgument {
                    guard environment.bindWitnessTable(table) else {
                        return .undecided(reason: "more key arguments than the context declares")
                    }
                    arguments.append(table)
                }
            case 1:
                guard let other = requirement.constraintType(in: environment) else {
                    return .undecided(reason: "same-type")
                }
                if other != subject {
                    return .unsatisfied(.violated("\(subject.qualifiedName) == \(other.qualifiedName)"))
                }
            case 2:
                guard let base = requirement.constraintType(in: environment) else {
                    return .undecided(reason: "base class")
                }
                let violation = RequirementFailure.violated("\(subject.qualifiedName): \(base.qualifiedName)")
                guard MetadataKind(rawValue: subject.rawKind).isClass else {
                    return subject.existential == nil ? .unsatisfied(violation) : .undecided(reason: "base class")
                }
                var current: MetadataReference? = subject
                while let candidate = current, candidate != base { current = candidate.superclass }
                if current == nil { return .unsatisfied(violation) }
            default:
                // GenericRequirementLayoutKind::Class, the only layout.
                guard requirement.layoutKind == 0 else { return .undecided(reason: "layout") }
                let kind = MetadataKind(rawValue: subject.rawKind)
                if kind.isClass || kind == .foreignClass { continue }
                guard subject.existential == nil else {
                    return .undecided(reason: "\(subject.qualifiedName): AnyObject")
                }
                return .unsatisfied(.violated("\(subject.qualifiedName): AnyObject"))
            }
        }
        return .satisfied(arguments)
    }
}
