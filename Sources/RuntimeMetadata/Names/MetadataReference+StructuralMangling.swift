// MetadataReference+StructuralMangling.swift
//
// A mangled name built from a type's structure, for a type that holds a part the runtime
// cannot mangle (`Builtin.FixedArray<N, T>`, whose metadata `swift_getMangledTypeName`
// mangles to nothing) somewhere inside: `Swift.Array<Builtin.FixedArray<2, Swift.Int>>`.
//
// The runtime's own mangling of the other parts cannot be pasted in: a mangling refers back to
// nodes it mangled earlier by index (substitutions, docs/ABI/Mangling.rst "Substitutions"),
// and a part mangled on its own counts from zero. So every part is mangled here, spelled out
// without substitutions, which the grammar allows and every demangler reads: nominal types by
// their context chain (`Sa`, `4main3BoxV`; MangledTypeNameText.contextMangling), bound generic
// arguments (`y ... G`), tuples (`..._...t`), metatypes (`m`), fixed-size arrays
// (`$<n-1>_ ... BV`) and builtin leaves. A part spelled otherwise (a private or local type, a
// generic type nested in a generic type or an extension, a function, an existential, a pack)
// gives no name.

extension MetadataReference {
    /// The type's mangling spelled from its structure without substitutions, or `nil` when a
    /// part is not among the kinds this spells out.
    var structuralMangledName: String? {
        var output = ""
        var pending: [MangleStep] = [.type(self)]
        var steps = 0
        while let step = pending.popLast() {
            steps += 1
            guard steps <= RuntimeMetadataLimits.maximumNameLength else { return nil }
            switch step {
            case .text(let text):
                output += text
            case .type(let type):
                guard let expansion = type.mangleSteps() else { return nil }
                pending.append(contentsOf: expansion.reversed())
            }
        }
        return output
    }

    /// One piece of a mangling still to write: text as it is, or a type to expand.
    private enum MangleStep {
        case text(String)
        case type(MetadataReference)
    }

    /// The pieces of this type's mangling, parts left to expand; `nil` when it is not spelled.
    private func mangleSteps() -> [MangleStep]? {
        if rawKind == MetadataKind.fixedArray.rawValue {
            // `type ::= type type 'BV'`: the count as an integer generic argument, then the element.
            guard let fixedArray, fixedArray.count >= 0 else { return nil }
            let count = fixedArray.count == 0 ? "$_" : "$\(fixedArray.count - 1)_"
            return [.text(count), .type(fixedArray.element), .text("BV")]
        }
        if rawKind == MetadataKind.tuple.rawValue {
            // `tuple ::= type-list 't'`; `type-list ::= list-type '_' list-type* | 'y'`.
            let elements = tupleElements
            guard !elements.isEmpty else { return [.text("yt")] }
            var steps: [MangleStep] = []
            for (index, element) in elements.enumerated() {
                steps.append(.type(element.type))
                if !element.label.isEmpty {
                    guard let label = MangledTypeNameText.identifier(element.label) else { return nil }
                    steps.append(.text(label))
                }
                if index == 0 { steps.append(.text("_")) }
            }
            return steps + [.text("t")]
        }
        if rawKind == MetadataKind.metatype.rawValue, let instance = instanceType {
            return [.type(instance), .text("m")]
        }
        if let descriptor = typeDescriptor {
            guard let context = Self.contextMangling(descriptor) else { return nil }
            let arguments = genericArguments
            guard !arguments.isEmpty else { return [.text(context)] }
            var steps: [MangleStep] = [.text(context + "y")]
            for argument in arguments {
                switch argument {
                case .type(let type): steps.append(.type(type))
                case .value(let value) where value >= 0: steps.append(.text(value == 0 ? "$_" : "$\(value - 1)_"))
                default: return nil
                }
            }
            return steps + [.text("G")]
        }
        // A builtin leaf (`Bi64_`, `Bp`): no context, no substitution. Only the opaque kind is
        // asked: the runtime's mangler crashes on a constrained existential metatype.
        guard rawKind == MetadataKind.opaque.rawValue, let builtin = runtimeMangledName, builtin.hasPrefix("B"),
            !builtin.contains("A")
        else { return nil }
        return [.text(builtin)]
    }

    /// A nominal type's context spelled in full (`MangledTypeNameText.contextMangling`), when
    /// its generic arguments are one level, its own: `nil` for a type nested in a generic type
    /// or in an extension, whose arguments the mangling groups by level.
    private static func contextMangling(_ descriptor: DescriptorReference) -> String? {
        if descriptor.isGeneric {
            var ancestor = descriptor.parent
            var depth = 0
            while let context = ancestor, !context.isModule {
                guard depth < 64, !context.isGeneric, !context.isExtension else { return nil }
                ancestor = context.parent
                depth += 1
            }
        }
        return MangledTypeNameText.contextMangling(descriptor, depth: 0)
    }
}
