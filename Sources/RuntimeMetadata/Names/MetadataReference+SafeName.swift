// MetadataReference+SafeName.swift
//
// The runtime cannot name every type. `swift_getTypeName` and `swift_getMangledTypeName`
// (and so `String(reflecting:)`, `_typeName` and `_mangledTypeName`) dereference a null pointer
// in `_swift_buildDemanglingForMetadata` for a constrained existential metatype, such as
// `any Sequence<Int>.Type`, and for every type that contains one (`[any Sequence<Int>.Type]`),
// with Swift 6.3.1 on Linux. Such a type is named here from its structure instead, in the
// runtime's spelling for the parts it can name; it has no mangled name.

extension MetadataReference {
    /// The name as `String(reflecting:)` prints it; for a type the runtime cannot name, the
    /// same spelling built from the type's structure.
    var qualifiedName: String {
        containsUnnamableType ? structuralName : runtimeQualifiedName
    }

    /// The runtime's mangled name, without `$s`; `nil` for a type the runtime cannot name.
    var mangledName: String? {
        containsUnnamableType ? nil : runtimeMangledName
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
            if type.isUnnamableExistential { return true }
            var children = type.nameChildren
            if let constrained = type.constrainedExistential { children += constrained.arguments }
            for child in children where seen.insert(child).inserted { pending.append(child) }
        }
        return false
    }

    /// The name built from the type's structure, each part named by ``qualifiedName``.
    private var structuralName: String {
        if let constrained = constrainedExistential {
            var constraints = constrained.protocols.map(\.qualifiedName)
            if constrained.isClassBound { constraints.append("Swift.AnyObject") }
            var text = "any " + (constraints.isEmpty ? "Swift.Any" : constraints.joined(separator: " & "))
            if !constrained.arguments.isEmpty {
                text += "<" + constrained.arguments.map(\.qualifiedName).joined(separator: ", ") + ">"
            }
            return isUnnamableExistential ? text + ".Type" : text
        }
        if let instance = instanceType { return instance.qualifiedName + ".Type" }
        if let function {
            let parameters = function.parameters.map(\.type.qualifiedName).joined(separator: ", ")
            return "(" + parameters + ") -> " + function.result.qualifiedName
        }
        if rawKind == MetadataKind.tuple.rawValue {
            let elements = tupleElements.map { element in
                element.label.isEmpty ? element.type.qualifiedName : element.label + ": " + element.type.qualifiedName
            }
            return "(" + elements.joined(separator: ", ") + ")"
        }
        if let fixedArray {
            return "Builtin.FixedArray<\(fixedArray.count), \(fixedArray.element.qualifiedName)>"
        }
        if let descriptor = typeDescriptor {
            let arguments = genericArguments.map { argument in
                switch argument {
                case .type(let type): type.qualifiedName
                case .pack(let types): "Pack{" + types.map(\.qualifiedName).joined(separator: ", ") + "}"
                case .value(let value): String(value)
                }
            }
            return descriptor.qualifiedName + (arguments.isEmpty ? "" : "<" + arguments.joined(separator: ", ") + ">")
        }
        return "<a type the runtime cannot name>"
    }
}
