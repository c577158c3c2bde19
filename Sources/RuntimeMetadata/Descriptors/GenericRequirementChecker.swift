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
// and value requirements, a class-bound existential tested against a layout or base class)
// make the check undecided, and the caller asks the runtime.

/// The outcome of checking a list of requirements.
enum RequirementCheck {
    /// Every requirement holds; the witness tables of the key requirements, in order.
    case satisfied([WitnessTableReference])
    /// A requirement does not hold.
    case unsatisfied
    /// A requirement is of a kind left to the runtime, or a name did not resolve.
    case undecided
}

/// Checks generic requirements against a type's generic arguments.
enum GenericRequirementChecker {
    /// Checks `requirements`, whose generic parameters are those of `type`'s descriptor.
    /// - Parameters:
    ///   - requirements: The requirements, in order.
    ///   - type: The type whose arguments the requirements' parameters name.
    ///   - conformance: Finds the witness table by which a type conforms to a protocol.
    /// - Returns: The outcome.
    static func check(
        _ requirements: [GenericRequirementReference],
        in type: MetadataReference,
        conformance: (MetadataReference, ProtocolReference) -> WitnessTableReference?
    ) -> RequirementCheck {
        var arguments: [WitnessTableReference] = []
        for requirement in requirements {
            // Pack (0x20) and value (0x40) requirements are the runtime's.
            guard requirement.flags & 0x60 == 0 else { return .undecided }
            switch requirement.kind {
            case 0, 1, 2, 0x1F: break
            default: return .undecided
            }
            guard let subject = requirement.subject(in: type) else { return .undecided }
            switch requirement.kind {
            case 0:
                guard let protocolReference = requirement.protocolReference else { return .undecided }
                guard let table = conformance(subject, protocolReference) else { return .unsatisfied }
                if requirement.hasKeyArgument { arguments.append(table) }
            case 1:
                guard let other = requirement.constraintType(in: type) else { return .undecided }
                if other != subject { return .unsatisfied }
            case 2:
                guard let base = requirement.constraintType(in: type) else { return .undecided }
                guard MetadataKind(rawValue: subject.rawKind).isClass else {
                    return subject.existential == nil ? .unsatisfied : .undecided
                }
                var current: MetadataReference? = subject
                while let candidate = current, candidate != base { current = candidate.superclass }
                if current == nil { return .unsatisfied }
            default:
                // GenericRequirementLayoutKind::Class, the only layout.
                guard requirement.layoutKind == 0 else { return .undecided }
                let kind = MetadataKind(rawValue: subject.rawKind)
                if kind.isClass || kind == .foreignClass { continue }
                return subject.existential == nil ? .unsatisfied : .undecided
            }
        }
        return .satisfied(arguments)
    }
}
