// MangledTypeNameText.swift
//
// A mangled type name read from an image, made readable without metadata: as a mangling with
// each symbolic reference replaced by its context's mangling, and as the runtime's demangler
// prints it (`swift_demangle`, swiftlang/swift stdlib/public/runtime/Demangle.cpp), each
// symbolic reference spelled as its context's portable qualified name. Works for images read
// from files (Image.read), where nothing can be instantiated, and for loaded ones.
//
// The demangler cannot resolve symbolic references, so each is replaced by a placeholder that
// it can demangle and that takes the same number of substitution slots (the ASTMangler's
// substitution table, docs/ABI/Mangling.rst "Substitutions"): a symbolic reference is one slot.
// A bound generic of standard types, `Swift.Array<(Swift.Character, Swift.Character, …)>`,
// is one slot and stands for a non-generic type. Each name is demangled through two families of
// placeholders, which must agree: a field of a placeholder's very type is left unread, not misread. A generic type's or a protocol's placeholder
// needs an identifier, one slot more; a name with substitutions after such a placeholder is
// not demangled rather than misread.

/// The readable forms of a mangled type name's pieces.
enum MangledTypeNameText {
    /// The mangling with each symbolic reference replaced by its context's mangling, such as
    /// `Say4main3FooVG`; `nil` when a reference names a context that has no mangling of its own
    /// (an anonymous context, whose private discriminator the descriptors do not keep), or when
    /// a substitution follows a reference (the replacement takes other substitution slots).
    /// - Parameter parts: The name's pieces.
    /// - Returns: The mangling.
    static func mangling(_ parts: [MangledNamePart]) -> String? {
        var result = ""
        var replaced = false
        for part in parts {
            switch part {
            case .text(let text):
                // A context's mangling takes other substitution slots than the one symbolic
                // reference it replaces: a later substitution would name the wrong node.
                if replaced && text.contains("A") { return nil }
                result += text
            case .context(let context):
                guard let mangled = contextMangling(context, depth: 0) else { return nil }
                result += mangled
                replaced = true
            case .unresolved: return nil
            }
        }
        return result
    }

    /// The name as the runtime's demangler prints it, each symbolic reference spelled as its
    /// context's portable qualified name: `Swift.Array<app.Foo>`; `nil` when it cannot be
    /// demangled.
    /// - Parameter parts: The name's pieces.
    /// - Returns: The demangled name.
    static func demangled(_ parts: [MangledNamePart]) -> String? {
        // Two families of placeholders: where a field's own type spells one family's
        // placeholder (which the other family's text shows), the other family is read.
        guard let first = placeholderText(parts, family: 0), let second = placeholderText(parts, family: 1) else {
            return nil
        }
        for (chosen, other) in [(first, second), (second, first)]
        where !chosen.replacements.contains(where: { other.text.contains($0.placeholder) }) {
            var text = chosen.text
            // The longest placeholders first: none is a part of another, but be certain.
            for (placeholder, name) in chosen.replacements.sorted(by: { $0.placeholder.count > $1.placeholder.count }) {
                text = text.replacing(placeholder, with: name)
            }
            return text
        }
        return nil
    }

    /// The demangled text with one family of placeholders, and what each stands for: standard
    /// elements `SJ` (`Swift.Character`) and identifiers `_n_` for family 0, `Sb`
    /// (`Swift.Bool`) and `Zn_` for family 1.
    private static func placeholderText(_ parts: [MangledNamePart], family: Int) -> (
        text: String, replacements: [(placeholder: String, name: String)]
    )? {
        let mark = family == 0 ? "_" : "Z"
        let element = family == 0 ? ("SJ", "Swift.Character") : ("Sb", "Swift.Bool")
        var symbol = "$s"
        var replacements: [(placeholder: String, name: String)] = []
        var shifted = false
        for (index, part) in parts.enumerated() {
            switch part {
            case .text(let text):
                // A substitution after a placeholder of two slots would name the wrong node.
                if shifted && text.contains("A") { return nil }
                symbol += text
            case .context(let context):
                let number = replacements.count
                let nextIsGenericArguments: Bool
                if index + 1 < parts.count, case .text(let next) = parts[index + 1], next.hasPrefix("y") {
                    nextIsGenericArguments = true
                } else {
                    nextIsGenericArguments = false
                }
                let name = context.portableQualifiedName
                if context.isProtocol {
                    let identifier = "\(mark)\(number)_"
                    symbol += "s\(identifier.utf8.count)\(identifier)P"
                    replacements.append(("Swift.\(identifier)", name))
                    shifted = true
                } else if nextIsGenericArguments {
                    // The generic arguments come one list per nesting level, so the placeholder
                    // nests as deep as the type: `Swift._0_<A, B>._0_1_` for
                    // `Swift.Dictionary<A, B>.Iterator`.
                    var levels: [DescriptorReference] = [context]
                    while let parent = levels.last?.parent, (16...18).contains(parent.rawKind), levels.count < 64 {
                        levels.append(parent)
                    }
                    levels.reverse()
                    for (level, type) in levels.enumerated() {
                        let identifier = level == 0 ? "\(mark)\(number)_" : "\(mark)\(number)_\(level)_"
                        symbol += (level == 0 ? "s" : "") + "\(identifier.utf8.count)\(identifier)V"
                        replacements.append(
                            level == 0
                                ? ("Swift.\(identifier)", type.portableQualifiedName)
                                : (".\(identifier)", ".\(type.name)")
                        )
                    }
                    shifted = true
                } else {
                    let elements = [element.0 + "_" + element.0, element.0] + Array(repeating: "Su", count: number)
                    symbol += "Say" + elements.joined() + "tG"
                    let spelled = Array(repeating: element.1, count: 3) + Array(repeating: "Swift.UInt", count: number)
                    replacements.append(("Swift.Array<(" + spelled.joined(separator: ", ") + ")>", name))
                }
            case .unresolved: return nil
            }
        }
        symbol += "D"
        guard let text = RuntimeEntryPoints.demangle(symbol), text != symbol else { return nil }
        return (text, replacements)
    }

    /// The mangling of a context: a module, a nominal type, a protocol or an extension, each
    /// with its parents; `nil` for anonymous and other contexts.
    static func contextMangling(_ context: DescriptorReference, depth: Int) -> String? {
        guard depth < 64 else { return nil }
        if context.isModule { return moduleMangling(context.name) }
        if context.isExtension {
            guard let extended = context.extendedContextParts, let first = extended.first else { return nil }
            let extendedMangling: String?
            switch first {
            case .context(let type): extendedMangling = contextMangling(type, depth: depth + 1)
            case .text(let text) where extended.count == 1 && !text.hasSuffix("G"): extendedMangling = text
            default: extendedMangling = nil
            }
            guard let extendedMangling, let module = moduleMangling(context.moduleName) else { return nil }
            return extendedMangling + module + "E"
        }
        let suffix: String
        switch context.rawKind {
        case 3: suffix = "P"
        case 16: suffix = "C"
        case 17: suffix = "V"
        case 18: suffix = "O"
        default: return nil
        }
        guard let parent = context.parent else { return nil }
        if parent.isModule, parent.name == "Swift", let known = standardSubstitutions[context.name] {
            return known
        }
        guard let parentMangling = contextMangling(parent, depth: depth + 1), let identifier = identifier(context.name)
        else { return nil }
        return parentMangling + identifier + suffix
    }

    /// A module's mangling: `s` for Swift, `So` for imported C declarations.
    private static func moduleMangling(_ name: String) -> String? {
        switch name {
        case "Swift": "s"
        case "__C": "So"
        case "__C_Synthesized": "SC"
        default: identifier(name)
        }
    }

    /// `<length><characters>` for a plain ASCII identifier; `nil` for one that would need
    /// Punycode or does not start as an identifier does.
    static func identifier(_ name: String) -> String? {
        let bytes = Array(name.utf8)
        guard let first = bytes.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
            bytes.allSatisfy({
                $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "$")
                    || ($0 < 0x80 && Character(Unicode.Scalar($0)).isLetter)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
            })
        else { return nil }
        return "\(bytes.count)\(name)"
    }

    /// The standard library's one-letter substitutions (`Si` for `Swift.Int`, `SQ` for
    /// `Swift.Equatable`), by unqualified name: read from the runtime's own demangler, which
    /// prints what each `S` + letter stands for.
    private static let standardSubstitutions: [String: String] = {
        var table: [String: String] = [:]
        for scalar in Array(UInt8(ascii: "A")...UInt8(ascii: "Z")) + Array(UInt8(ascii: "a")...UInt8(ascii: "z")) {
            let mangling = "S" + String(Unicode.Scalar(scalar))
            guard let text = RuntimeEntryPoints.demangle("$s" + mangling + "D"), text.hasPrefix("Swift."),
                !text.dropFirst(6).contains(where: { !$0.isLetter && !$0.isNumber && $0 != "_" })
            else { continue }
            table[String(text.dropFirst(6))] = mangling
        }
        return table
    }()
}
