// MetadataReference+SafeName.swift
//
// The runtime cannot name every type. `swift_getTypeName` and `swift_getMangledTypeName`
// (and so `String(reflecting:)`, `_typeName` and `_mangledTypeName`) dereference a null pointer
// in `_swift_buildDemanglingForMetadata` for a constrained existential metatype, such as
// `any Sequence<Int>.Type`, and for every type that contains one (`[any Sequence<Int>.Type]`),
// with Swift 6.3.1 on Linux. Such a type is named here from its structure instead, in the
// runtime's spelling for the parts it can name; it has no mangled name. The runtime also
// names the builtin `Builtin.FixedArray<N, T>` (`InlineArray`'s storage) `<<< invalid type >>>`
// and mangles it to nothing: it is spelled from its structure too, and mangled as the
// compiler mangles it (`$3_SiBV` for `Builtin.FixedArray<4, Swift.Int>`).

extension MetadataReference {
    /// The name as `String(reflecting:)` prints it; for a type the runtime cannot name, the
    /// same spelling built from the type's structure.
    var qualifiedName: String {
        guard containsUnnamableType else { return runtimeQualifiedName }
        var contains: [MetadataReference: Bool] = [:]
        markUnnamableParts(in: &contains)
        return structuralName { $0.partName(contains) }
    }

    /// The runtime's mangled name, without `$s`; for a type with a fixed-size array inside,
    /// the mangling spelled from its structure (MetadataReference+StructuralMangling.swift);
    /// `nil` for a constrained existential the runtime cannot name, or a type holding a fixed
    /// array beside a part that is not spelled out there.
    var mangledName: String? {
        guard containsUnnamableType else { return runtimeMangledName }
        if let fixedArray, fixedArray.count >= 0, !fixedArray.element.containsUnnamableType,
            let element = fixedArray.element.runtimeMangledName
        {
            // docs/ABI/Mangling.rst: `type ::= type type 'BV'`, the count first, mangled as an
            // integer generic argument (`$_` for 0, `$<n-1>_` for n), as in `InlineArray`'s
            // name; the element, mangled first, keeps its own substitutions.
            let count = fixedArray.count == 0 ? "$_" : "$\(fixedArray.count - 1)_"
            return count + element + "BV"
        }
        return structuralMangledName
    }

    /// Whether the runtime cannot name this type itself, whatever its parts: a constrained
    /// existential it cannot name, or a fixed-size array.
    var isUnnamedByRuntime: Bool {
        isUnnamableExistential || rawKind == MetadataKind.fixedArray.rawValue
    }

    /// Whether this is a constrained existential whose value is not stored in an opaque or
    /// class container (a metatype, an explicit layout): the kinds the runtime cannot name.
    var isUnnamableExistential: Bool {
        guard rawKind == MetadataKind.extendedExistential.rawValue else { return false }
        switch constrainedExistential?.specialKind {
        case .none?, .class?: return false
        default: return true
        }
    }

    /// Whether the type is, or contains at any depth, a type the runtime cannot name. The
    /// structure is walked level by level, each type once, without recursion.
    var containsUnnamableType: Bool {
        var seen: Set<MetadataReference> = [self]
        var pending = [self]
        while let type = pending.popLast() {
            if type.isUnnamedByRuntime { return true }
            for child in type.namedParts where seen.insert(child).inserted { pending.append(child) }
        }
        return false
    }

    /// The types a name spells inside this one, a constrained existential's arguments included.
    private var namedParts: [MetadataReference] {
        var parts = nameChildren
        if let constrained = constrainedExistential { parts += constrained.arguments }
        return parts
    }

    /// Records, for this type and every type inside it, whether it contains a type the runtime
    /// cannot name: children before parents, each type once, without recursion.
    /// - Parameter contains: The answers, by type.
    private func markUnnamableParts(in contains: inout [MetadataReference: Bool]) {
        var pending: [(type: MetadataReference, childrenDone: Bool)] = [(self, false)]
        while let (type, childrenDone) = pending.popLast() {
            if childrenDone {
                contains[type] = type.isUnnamedByRuntime || type.namedParts.contains { contains[$0] == true }
                continue
            }
            guard contains[type] == nil else { continue }
            // A placeholder, so that a type met again before it is decided is not expanded twice.
            contains[type] = false
            pending.append((type, true))
            for child in type.namedParts where contains[child] == nil { pending.append((child, false)) }
        }
    }

    /// The name of a part: the runtime's, where it can name the part, else built from its
    /// structure.
    /// - Parameter contains: Which parts contain an unnamable type.
    /// - Returns: The name.
    private func partName(_ contains: [MetadataReference: Bool]) -> String {
        contains[self] == true ? structuralName { $0.partName(contains) } : runtimeQualifiedName
    }

    /// The name built from the type's structure, each part named by `partName`: the runtime's
    /// name where it can name the part, else the part's own structure (recursing only along the
    /// parts that contain an unnamable type), or an abbreviation (``name(maximumNesting:)``). A
    /// deep type is named on the reserve stack by its caller (``safeQualifiedName``).
    /// - Parameter partName: Names a part.
    /// - Returns: The name.
    func structuralName(_ partName: (MetadataReference) -> String) -> String {
        if let constrained = constrainedExistential {
            var constraints = constrained.protocols.map(\.qualifiedName)
            if constrained.isClassBound { constraints.append("Swift.AnyObject") }
            var text = "any " + (constraints.isEmpty ? "Swift.Any" : constraints.joined(separator: " & "))
            if !constrained.arguments.isEmpty {
                text += "<" + constrained.arguments.map(partName).joined(separator: ", ") + ">"
            }
            return isUnnamableExistential ? text + ".Type" : text
        }
        if let instance = instanceType { return partName(instance) + ".Type" }
        if let function {
            let parameters = function.parameters.map { partName($0.type) }.joined(separator: ", ")
            return "(" + parameters + ") -> " + partName(function.result)
        }
        if rawKind == MetadataKind.tuple.rawValue {
            let elements = tupleElements.map { element in
                element.label.isEmpty
                    ? partName(element.type) : element.label + ": " + partName(element.type)
            }
            return "(" + elements.joined(separator: ", ") + ")"
        }
        if let fixedArray {
            return "Builtin.FixedArray<\(fixedArray.count), \(partName(fixedArray.element))>"
        }
        if let descriptor = typeDescriptor {
            let arguments = genericArguments.map { argument in
                switch argument {
                case .type(let type): partName(type)
                case .pack(let types): "Pack{" + types.map(partName).joined(separator: ", ") + "}"
                case .value(let value): String(value)
                }
            }
            return descriptor.qualifiedName + (arguments.isEmpty ? "" : "<" + arguments.joined(separator: ", ") + ">")
        }
        return "<a type the runtime cannot name>"
    }
}
