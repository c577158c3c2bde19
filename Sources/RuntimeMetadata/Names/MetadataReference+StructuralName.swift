// MetadataReference+StructuralName.swift
//
// A type's name as `String(reflecting:)` prints it, spelled from its metadata's structure and
// its descriptors' names alone, never through the runtime: for metadata copied from another
// process (the census of RemoteProcess), whose runtime is not this one. The spellings are the
// runtime's demangler's (swiftlang/swift lib/Demangling/NodePrinter.cpp) as Swift 6.3 prints
// them: `(Swift.Int) throws -> ()`, `@Swift.MainActor @Sendable () async -> ()`,
// `(inout Swift.Int, __owned Swift.String) -> ()`, `Module.P & Swift.AnyObject`,
// `Module.P.Protocol`, `any Swift.Sequence<Self.Swift.Sequence.Element == Swift.Int>`; anonymous
// contexts are spelled relative to their image, as the listings spell them.

extension MetadataReference {
    /// The name as `String(reflecting:)` prints it, built from the type's structure, with each
    /// anonymous context spelled `(unknown context at FILE+0xOFFSET)`, a parameter pack
    /// `Pack{A, B}`, a constrained existential from its shape; `nil` where a part is of a kind
    /// this spelling does not cover (a builtin type), or nests deeper than names may.
    var structuralReflectingName: String? { structuralReflectingName(depth: 0) }

    private func structuralReflectingName(depth: Int) -> String? {
        guard depth < RuntimeMetadataLimits.maximumNameNesting else { return nil }
        func part(_ type: MetadataReference) -> String? { type.structuralReflectingName(depth: depth + 1) }
        let kind = rawKind
        if let descriptor = typeDescriptor {
            var arguments: [String] = []
            for argument in genericArguments {
                switch argument {
                case .type(let type):
                    guard let name = part(type) else { return nil }
                    arguments.append(name)
                case .value(let value): arguments.append(String(value))
                case .pack(let elements):
                    // A parameter pack, as the runtime's demangler prints one: `Pack{A, B}`.
                    var names: [String] = []
                    for element in elements {
                        guard let name = part(element) else { return nil }
                        names.append(name)
                    }
                    arguments.append("Pack{" + names.joined(separator: ", ") + "}")
                }
            }
            return descriptor.portableQualifiedName(arguments: arguments)
        }
        switch kind {
        case MetadataKind.tuple.rawValue:
            var elements: [String] = []
            for element in tupleElements {
                guard let name = part(element.type) else { return nil }
                elements.append(element.label.isEmpty ? name : element.label + ": " + name)
            }
            return "(" + elements.joined(separator: ", ") + ")"
        case MetadataKind.function.rawValue:
            return functionReflectingName(part)
        case MetadataKind.existential.rawValue:
            return existentialReflectingName(part)
        case MetadataKind.metatype.rawValue:
            guard let instance = instanceType, let name = part(instance) else { return nil }
            let isExistential =
                instance.rawKind == MetadataKind.existential.rawValue
                || instance.rawKind == MetadataKind.existentialMetatype.rawValue
            return name + (isExistential ? ".Protocol" : ".Type")
        case MetadataKind.existentialMetatype.rawValue:
            guard let instance = instanceType, let name = part(instance) else { return nil }
            return name + ".Type"
        case MetadataKind.extendedExistential.rawValue:
            return constrainedExistentialReflectingName(part)
        default:
            return nil
        }
    }

    /// A function type's name: its attributes, parameters, effects and result.
    private func functionReflectingName(_ part: (MetadataReference) -> String?) -> String? {
        guard let function else { return nil }
        typealias Flag = FunctionTypeMetadataLayout.Flag
        typealias ExtendedFlag = FunctionTypeMetadataLayout.ExtendedFlag
        var prefix = ""
        if function.extendedFlags & ExtendedFlag.isolationMask == ExtendedFlag.isolatedAny {
            prefix += "@isolated(any) "
        }
        if let actor = function.globalActor {
            guard let name = part(actor) else { return nil }
            prefix += "@" + name + " "
        }
        if function.flags & Flag.sendableMask != 0 { prefix += "@Sendable " }
        switch (function.flags & Flag.conventionMask) >> Flag.conventionShift {
        case 0: break
        case 1: prefix += "@convention(block) "
        case 2: prefix += "@convention(thin) "
        case 3: prefix += "@convention(c) "
        default: return nil
        }
        var parameters: [String] = []
        for parameter in function.parameters {
            guard var name = part(parameter.type) else { return nil }
            // ParameterFlags (include/swift/ABI/MetadataValues.h): ownership in the low 7 bits
            // (1 inout, 2 shared, 3 owned), variadic 0x80, isolated 0x400, sending 0x800.
            let flags = parameter.flags
            if flags & 0x80 != 0 { name += "..." }
            // `borrowing` (shared) is the default's spelling.
            switch flags & 0x7F {
            case 1: name = "inout " + name
            case 3: name = "__owned " + name
            default: break
            }
            if flags & 0x800 != 0 { name = "sending " + name }
            if flags & 0x400 != 0 { name = "isolated " + name }
            parameters.append(name)
        }
        var effects = ""
        if function.flags & Flag.asyncMask != 0 { effects += " async" }
        if let thrown = function.thrownError {
            guard let name = part(thrown) else { return nil }
            effects += " throws(" + name + ")"
        } else if function.flags & Flag.throwsMask != 0 {
            effects += " throws"
        }
        guard let result = part(function.result) else { return nil }
        let sending = function.extendedFlags & ExtendedFlag.sendingResultMask != 0 ? "sending " : ""
        return prefix + "(" + parameters.joined(separator: ", ") + ")" + effects + " -> " + sending + result
    }

    /// An existential's name: `Any`, `Swift.AnyObject`, or its superclass and protocols.
    private func existentialReflectingName(_ part: (MetadataReference) -> String?) -> String? {
        guard let existential else { return nil }
        var parts: [String] = []
        if let superclass = existential.superclass {
            guard let name = part(superclass) else { return nil }
            parts.append(name)
        }
        parts += existential.protocols.map(\.descriptor.portableQualifiedName)
        let isClassBound =
            existential.flags & ExistentialTypeMetadataLayout.Flag.classConstraintMask == 0
            && existential.superclass == nil
        if isClassBound && !existential.protocols.contains(where: \.isClassBound) {
            parts.append("Swift.AnyObject")
        }
        return parts.isEmpty ? "Any" : parts.joined(separator: " & ")
    }

    /// A constrained existential's name, as the runtime builds it
    /// (`_buildDemanglingForExtendedExistential` in stdlib/public/runtime/Demangle.cpp): its
    /// shape's existential type demangled, `any Swift.Sequence<Self.Swift.Sequence.Element == A>`,
    /// with each side of a same-type requirement that is one of the generalization signature's
    /// parameters (`A`, `B`, … at depth 0, as the demangler names them) replaced by the name of
    /// the argument the metadata holds for it.
    /// - Parameter part: Names a generalization argument.
    /// - Returns: The name, or `nil` where a part cannot be named.
    private func constrainedExistentialReflectingName(_ part: (MetadataReference) -> String?) -> String? {
        guard let shape = constrainedExistentialShape,
            let text = MangledTypeNameText.demangled(shape.existentialType)
        else { return nil }
        var arguments: [String] = []
        for argument in shape.arguments {
            guard let name = part(argument) else { return nil }
            arguments.append(name)
        }
        guard text.hasPrefix("any "), text.hasSuffix(">"), let open = text.firstIndex(of: "<") else {
            return arguments.isEmpty ? text : nil
        }
        let list = text[text.index(after: open)..<text.index(before: text.endIndex)]
        var requirements: [String] = []
        for requirement in Self.topLevelPieces(of: list, separatedBy: ", ") {
            let sides = Self.topLevelPieces(of: requirement, separatedBy: " == ")
            guard sides.count == 2 else {
                requirements.append(String(requirement))
                continue
            }
            var substituted: [String] = []
            for side in sides {
                if let index = Self.genericParameterIndex(side) {
                    guard index < arguments.count else { return nil }
                    substituted.append(arguments[index])
                } else {
                    substituted.append(String(side))
                }
            }
            requirements.append(substituted.joined(separator: " == "))
        }
        return text[...open] + requirements.joined(separator: ", ") + ">"
    }

    /// The pieces of `text` between occurrences of `separator` outside brackets.
    /// - Parameters:
    ///   - text: The text.
    ///   - separator: What separates the pieces.
    /// - Returns: The pieces, at least one.
    private static func topLevelPieces(of text: Substring, separatedBy separator: String) -> [Substring] {
        var pieces: [Substring] = []
        var depth = 0
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            switch text[index] {
            case "<", "(", "[": depth += 1
            case ")", "]": depth -= 1
            // The `>` of a function's `->` closes nothing.
            case ">" where index == text.startIndex || text[text.index(before: index)] != "-": depth -= 1
            default: break
            }
            if depth == 0, text[index...].hasPrefix(separator) {
                pieces.append(text[start..<index])
                index = text.index(index, offsetBy: separator.count)
                start = index
                continue
            }
            index = text.index(after: index)
        }
        pieces.append(text[start...])
        return pieces
    }

    /// The index of a generic parameter at depth 0 from the name the demangler gives it
    /// (`genericParameterName` in lib/Demangling/NodePrinter.cpp: `A` for 0, `Z` for 25, its
    /// base-26 digits least significant first, so `AB` for 26), or `nil` for any other text.
    /// - Parameter name: The text.
    /// - Returns: The index.
    private static func genericParameterIndex(_ name: Substring) -> Int? {
        guard !name.isEmpty, name.count <= 4, name.allSatisfy({ $0 >= "A" && $0 <= "Z" }) else { return nil }
        var index = 0
        var scale = 1
        for character in name.unicodeScalars {
            index += Int(character.value - 65) * scale
            scale *= 26
        }
        return index
    }
}
