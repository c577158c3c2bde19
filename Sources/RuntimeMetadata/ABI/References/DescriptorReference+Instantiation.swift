// DescriptorReference+Instantiation.swift
//
// Instantiates a generic nominal type from its descriptor and arguments, the way a metadata
// access function expects its key arguments (swiftlang/swift include/swift/ABI/GenericContext.h
// and TargetTypeContextDescriptor::getAccessFunction in include/swift/ABI/Metadata.h): one
// word per pack shape class (the pack's length), then one word per key parameter (metadata,
// a pack pointer, or an integer value), then one witness table per key protocol requirement.
// Requirement subjects are resolved with swift_getTypeByMangledNameInContext against the
// arguments gathered so far, so requirements on associated types work as the runtime's own.
// Non-key requirements (same-type, base-class, layout) are checked before the access
// function runs, so a violation is reported rather than handed to the runtime.

extension DescriptorReference {
    /// Why an instantiation failed.
    enum InstantiationFailure: Error, Sendable {
        /// The number of arguments does not match the parameters.
        case argumentCount(expected: Int, actual: Int)
        /// An argument is of the wrong sort (a type for a value parameter and so on).
        case argumentKind(index: Int)
        /// A requirement's subject or type did not resolve.
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
        guard isGeneric, let context = unsafe genericContext else { return [] }
        var admitting = Set<Int>()
        let requirements = unsafe context.requirements
        for index in unsafe requirements.indices {
            if let inverted = unsafe requirements[index].invertedProtocols, inverted.protocols & 1 != 0 {
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
        guard isGeneric, let context = unsafe genericContext else {
            guard arguments.isEmpty else { return .failure(.argumentCount(expected: 0, actual: arguments.count)) }
            return nonGenericMetadata.map { .success($0) } ?? .failure(.accessFailed)
        }
        let parameters = unsafe context.parameters
        guard parameters.count == arguments.count else {
            return .failure(.argumentCount(expected: parameters.count, actual: arguments.count))
        }
        let keyCount = unsafe context.keyArgumentCount
        let shapeCount = unsafe context.shapeClassCount
        var words = [UInt](repeating: 0, count: max(keyCount, 1))
        var slot = shapeCount
        for (index, (parameter, argument)) in zip(parameters, arguments).enumerated() {
            guard parameter & 0x80 != 0 else { continue }
            guard slot < keyCount else { return .failure(.argumentCount(expected: slot, actual: keyCount)) }
            switch (parameter & 0x3F, argument) {
            case (0, .type(let type)):
                words[slot] = type.identity
            case (1, .pack(let types)):
                let shape = unsafe context.packShapes.first { Int($0.index) == slot }.map { Int($0.shapeClass) } ?? 0
                guard shape < shapeCount else { return .failure(.argumentKind(index: index)) }
                words[shape] = UInt(types.count)
                // Packs passed to the runtime must outlive the metadata, which is forever.
                let pack = UnsafeMutablePointer<UInt>.allocate(capacity: max(types.count, 1))
                for (position, type) in types.enumerated() { unsafe pack[position] = type.identity }
                words[slot] = UInt(bitPattern: pack)
            case (2, .value(let value)):
                words[slot] = UInt(bitPattern: value)
            default:
                return .failure(.argumentKind(index: index))
            }
            slot += 1
        }
        return unsafe words.withUnsafeMutableBufferPointer {
            buffer -> Result<MetadataReference, InstantiationFailure> in
            let base = UnsafeRawPointer(buffer.baseAddress!)
            func resolve(_ name: UnsafeRawPointer?) -> MetadataReference? {
                guard let name = unsafe name else { return nil }
                let measured = unsafe MangledNameLayout(name)
                return unsafe RuntimeEntryPoints.typeByMangledName(
                    measured.address,
                    length: measured.length,
                    context: address,
                    genericArguments: base
                ).map(MetadataReference.init)
            }
            let requirements = unsafe context.requirements
            for index in unsafe requirements.indices {
                let requirement = unsafe requirements[index]
                let flags = unsafe requirement.flags
                // Inverted protocols (`T: ~Copyable`) constrain no argument here (the resolver
                // checks `Copyable` through `parametersAdmittingNoncopyable`) and name no
                // subject to resolve.
                if unsafe requirement.kind == 5 { continue }
                guard flags & 0x20 == 0 else { return .failure(.unresolvableRequirement("pack requirement")) }
                guard let subject = unsafe resolve(requirement.param) else {
                    return .failure(
                        .unresolvableRequirement(
                            unsafe requirement.param.map { unsafe MangledNameLayout($0).printable } ?? "?"
                        )
                    )
                }
                switch unsafe requirement.kind {
                case 0:
                    guard let protocolDescriptor = unsafe requirement.protocolDescriptor else {
                        return .failure(.unresolvableRequirement("protocol"))
                    }
                    let witnessTable = unsafe RuntimeEntryPoints.conformsToProtocol(subject.address, protocolDescriptor)
                    guard let witnessTable = unsafe witnessTable else {
                        return .failure(
                            .missingConformance(
                                subject: subject,
                                protocolName: unsafe ProtocolReference(protocolDescriptor).qualifiedName
                            )
                        )
                    }
                    if flags & 0x80 != 0 {
                        guard slot < keyCount else { return .failure(.accessFailed) }
                        unsafe buffer[slot] = UInt(bitPattern: witnessTable)
                        slot += 1
                    }
                case 1:
                    guard let other = unsafe resolve(requirement.type) else {
                        return .failure(.unresolvableRequirement("same-type"))
                    }
                    guard other == subject else {
                        return .failure(.violatedRequirement("\(subject.qualifiedName) == \(other.qualifiedName)"))
                    }
                case 2:
                    guard let base = unsafe resolve(requirement.type) else {
                        return .failure(.unresolvableRequirement("base class"))
                    }
                    var current: MetadataReference? = subject
                    var found = false
                    while let type = current {
                        if type == base { found = true; break }
                        current = type.superclass
                    }
                    guard found else {
                        return .failure(.violatedRequirement("\(subject.qualifiedName): \(base.qualifiedName)"))
                    }
                case 0x1F:
                    // GenericRequirementLayoutKind::Class: the subject must be a class type.
                    let kind = MetadataKind(rawValue: subject.rawKind)
                    let isClassBoundExistential = subject.existential.map { $0.flags & 0x8000_0000 == 0 } ?? false
                    guard kind.isClass || isClassBoundExistential else {
                        return .failure(.violatedRequirement("\(subject.qualifiedName): AnyObject"))
                    }
                default:
                    continue
                }
            }
            return unsafe metadata(keyArguments: Array(buffer.prefix(keyCount))).map { .success($0) }
                ?? .failure(.accessFailed)
        }
    }
}
