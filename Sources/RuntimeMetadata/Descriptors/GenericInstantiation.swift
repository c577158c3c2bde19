// GenericInstantiation.swift
//
// Instantiates a generic nominal type from its descriptor and arguments. The key arguments are
// gathered as a metadata access function expects them (swiftlang/swift
// include/swift/ABI/GenericContext.h; ABI/References/GenericArgumentVector.swift): one word per
// pack shape class, one per key parameter, then one witness table per key protocol requirement.
// The requirements are checked by the one GenericRequirementChecker, in the environment of the
// arguments gathered so far, so requirements on associated types resolve as the runtime's own
// do. Every requirement is checked before the access function runs, so a violation is reported
// rather than handed to the runtime.

extension DescriptorReference {
    /// Why an instantiation failed.
    enum InstantiationFailure: Error, Sendable {
        /// The number of arguments does not match the parameters.
        case argumentCount(expected: Int, actual: Int)
        /// An argument is of the wrong sort (a type for a value parameter and so on).
        case argumentKind(index: Int)
        /// A requirement's subject or type did not resolve, or is of a kind not checked here.
        case unresolvableRequirement(String)
        /// A conformance requirement is not met.
        case missingConformance(subject: MetadataReference, protocolName: String)
        /// A same-type, base-class or layout requirement is not met.
        case violatedRequirement(String)
        /// The access function returned incomplete metadata, or there is none.
        case accessFailed
    }

    /// The generic parameters, by index over every level's, that admit noncopyable arguments:
    /// those an inverted-protocols requirement frees from `Copyable` (`T: ~Copyable`). Every
    /// other type parameter requires `Copyable`, as the compiler's generic signatures do.
    var parametersAdmittingNoncopyable: Set<Int> {
        guard isGeneric else { return [] }
        var admitting = Set<Int>()
        for requirement in genericRequirementReferences {
            if let inverted = requirement.invertedProtocols, inverted.protocols & 1 != 0 {
                admitting.insert(inverted.parameter)
            }
        }
        return admitting
    }

    /// Instantiates the type with arguments for every generic parameter, outer contexts' first.
    /// - Parameter arguments: One argument per generic parameter.
    /// - Returns: The complete metadata.
    func instantiate(_ arguments: [MetadataReference.GenericArgumentValue]) -> Result<
        MetadataReference, InstantiationFailure
    > {
        guard isGeneric, !genericParameters.isEmpty else {
            guard arguments.isEmpty else { return .failure(.argumentCount(expected: 0, actual: arguments.count)) }
            return nonGenericMetadata.map { .success($0) } ?? .failure(.accessFailed)
        }
        let parameters = genericParameters
        guard parameters.count == arguments.count else {
            return .failure(.argumentCount(expected: parameters.count, actual: arguments.count))
        }
        let keyCount = genericKeyArgumentCount
        let shapeCount = genericShapeClassCount
        // Shape classes, then key parameters; the witness tables follow them.
        let keyParameterCount = parameters.filter { $0 & 0x80 != 0 }.count
        let vector = GenericArgumentVector(count: keyCount, witnessSlot: shapeCount + keyParameterCount)
        var slot = shapeCount
        for (index, (parameter, argument)) in zip(parameters, arguments).enumerated() {
            guard parameter & 0x80 != 0 else { continue }
            guard slot < keyCount else { return .failure(.argumentCount(expected: slot, actual: keyCount)) }
            switch (parameter & 0x3F, argument) {
            case (0, .type(let type)):
                vector.store(type.identity, at: slot)
            case (1, .pack(let types)):
                let shape = packShapeClass(ofKeySlot: slot) ?? 0
                guard shape < shapeCount else { return .failure(.argumentKind(index: index)) }
                vector.store(UInt(types.count), at: shape)
                vector.storePack(types, at: slot)
            case (2, .value(let value)):
                vector.store(UInt(bitPattern: value), at: slot)
            default:
                return .failure(.argumentKind(index: index))
            }
            slot += 1
        }
        switch GenericRequirementChecker.check(
            genericRequirementReferences,
            in: .arguments(vector, context: self),
            inverted: .checkedByCaller,
            conformance: { subject, protocolReference in
                ProtocolDescriptor(protocolReference).conformanceWitnessTable(of: subject)
            }
        ) {
        case .satisfied:
            // The vector owns the packs the arguments point to: kept until the access returns.
            return withExtendedLifetime(vector) {
                metadata(keyArguments: vector.keyArguments).map { .success($0) } ?? .failure(.accessFailed)
            }
        case .unsatisfied(.missingConformance(let subject, let protocolName)):
            return .failure(.missingConformance(subject: subject, protocolName: protocolName))
        case .unsatisfied(.violated(let requirement)):
            return .failure(.violatedRequirement(requirement))
        case .undecided(let reason):
            return .failure(.unresolvableRequirement(reason))
        }
    }
}
