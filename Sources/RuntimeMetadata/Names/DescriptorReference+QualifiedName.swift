// DescriptorReference+QualifiedName.swift
//
// The names the runtime prints for contexts (swiftlang/swift stdlib/public/runtime/Demangle.cpp
// and the demangler's printer, as `String(reflecting:)` shows them): the qualified name of a
// context descriptor, its extensions' and anonymous contexts' spellings, and the canonical order
// of protocols in a composition. Read from the descriptors' safe handles in ABI/References.

extension DescriptorReference {
    /// The name the runtime prints for the context, generic arguments left out:
    /// `Module.Outer.Inner`, `(extension in Module):Swift.Int.Nested`,
    /// `Module.(unknown context at $55d9edc65fe0).Private`, and imported C types under their
    /// ABI names (`__C.CFRunLoopRef`).
    var qualifiedName: String { qualifiedName(portable: false) }

    /// ``qualifiedName`` with each anonymous context spelled relative to its image,
    /// `(unknown context at libFoo.so+0x1a2b)`, which names the same context in every process
    /// that loads the same file; ``anonymousContextAddressSpelling(_:)`` reads it back.
    var portableQualifiedName: String { qualifiedName(portable: true) }

    /// The most contexts a qualified name spells: deeper ones, which only a corrupt image read
    /// from a file can have (a parent that leads back to its child), are written `…`.
    private static let maximumContextDepth = 256

    /// ``portableQualifiedName`` with a type's generic arguments, outermost first, each
    /// context's own after its name: `Module.Outer<Swift.Int>.Inner<Swift.String>`, as
    /// `String(reflecting:)` spells a nested generic type.
    /// - Parameter arguments: The names of the type's key generic arguments, in order.
    /// - Returns: The name; arguments beyond the contexts' parameters are left out.
    func portableQualifiedName(arguments: [String]) -> String {
        var remaining = arguments[...]
        return qualifiedName(portable: true, arguments: &remaining)
    }

    /// The number of key generic parameters the nearest generic parent declares, cumulatively.
    private var parentKeyParameterCount: Int {
        var context = parent
        var depth = 0
        while let current = context, depth < Self.maximumContextDepth {
            if current.hasGenericContext { return current.keyGenericParameterCount }
            context = current.parent
            depth += 1
        }
        return 0
    }

    /// ``qualifiedName(portable:depth:)``, with each context's own arguments taken from the front
    /// of `arguments` after its name.
    private func qualifiedName(portable: Bool, arguments: inout ArraySlice<String>, depth: Int = 0) -> String {
        func own(_ name: String) -> String {
            let count = max(0, keyGenericParameterCount - parentKeyParameterCount)
            let taken = arguments.prefix(count)
            arguments = arguments.dropFirst(taken.count)
            return taken.isEmpty ? name : name + "<" + taken.joined(separator: ", ") + ">"
        }
        if isModule || depth >= Self.maximumContextDepth { return qualifiedName(portable: portable, depth: depth) }
        if isExtension {
            // The extended type's name, its arguments the extension's.
            let plain = qualifiedName(portable: portable, depth: depth)
            return own(plain)
        }
        let plain = qualifiedName(portable: portable, depth: depth)
        guard let parent else { return own(plain) }
        // This context's own component: its name without its parents' (a name of at most a few
        // hundred contexts, spelled once per level).
        let parentPlain = parent.qualifiedName(portable: portable, depth: depth + 1)
        let component = plain.hasPrefix(parentPlain + ".") ? String(plain.dropFirst(parentPlain.count + 1)) : plain
        let parentName = parent.qualifiedName(portable: portable, arguments: &arguments, depth: depth + 1)
        return parentName + "." + own(component)
    }

    private func qualifiedName(portable: Bool, depth: Int = 0) -> String {
        if isModule { return name }
        guard depth < Self.maximumContextDepth else { return "…" }
        if isExtension {
            // The portable spelling reads the descriptors only: the runtime's name of the
            // extended type spells its anonymous contexts by address, and a read image's
            // types have no metadata.
            let extended =
                (portable ? nil : extendedType.map { Self.stripGenericArguments($0.qualifiedName) })
                ?? extendedTypeDescriptor?.qualifiedName(portable: portable, depth: depth + 1)
                ?? extendedTypeDemangled.map(Self.stripGenericArguments)
                // A bound extended type whose arguments refer to other contexts, as a
                // constrained extension's does (`Swift.Task<Swift.Never, Swift.Never>`).
                ?? extendedContextParts.flatMap(MangledTypeNameText.demangled).map(Self.stripGenericArguments)
                ?? "?"
            return "(extension in \(moduleName)):\(extended)"
        }
        let abiName = hasImportInfo ? importInfo.first { $0.kind == "N" }?.value : nil
        let own = isAnonymous ? anonymousSpelling(portable: portable) : abiName ?? name
        guard let parent else { return own }
        return "\(parent.qualifiedName(portable: portable, depth: depth + 1)).\(own)"
    }

    /// An anonymous context as the runtime prints it (its address), or relative to its image.
    private func anonymousSpelling(portable: Bool) -> String {
        if portable, let (file, offset) = imageLocation {
            return "(unknown context at \(file)+0x\(String(offset, radix: 16)))"
        }
        return "(unknown context at $\(String(identity, radix: 16)))"
    }

    /// The runtime's spelling of an anonymous context given relative to its image: the
    /// `(unknown context at $…)` of the context at that offset of the loaded image of that
    /// file name, or `nil` when the text is not such a spelling or no such image is loaded.
    /// - Parameter text: A name component, such as `(unknown context at libFoo.so+0x1a2b)`.
    /// - Returns: The component as the runtime prints it in this process.
    static func anonymousContextAddressSpelling(_ text: String) -> String? {
        let prefix = "(unknown context at "
        guard text.hasPrefix(prefix), text.hasSuffix(")"), let plus = text.lastIndex(of: "+") else { return nil }
        let file = String(text[text.index(text.startIndex, offsetBy: prefix.count)..<plus])
        let number = text[text.index(after: plus)..<text.index(before: text.endIndex)]
        guard number.hasPrefix("0x"), let offset = UInt(number.dropFirst(2), radix: 16),
            let address = DescriptorReference.identity(inImageNamed: file, offset: offset)
        else { return nil }
        return "(unknown context at $\(String(address, radix: 16)))"
    }

    /// Removes every `<…>` group from a name.
    static func stripGenericArguments(_ name: String) -> String {
        var depth = 0
        var result = ""
        for character in name {
            if character == "<" {
                depth += 1
            } else if character == ">" {
                depth -= 1
            } else if depth == 0 {
                result.append(character)
            }
        }
        return result
    }
}

extension ProtocolReference {
    /// The order of `TypeDecl::compare` in swiftlang/swift lib/AST/Decl.cpp, which fixes the
    /// order of protocols in an existential: by the depth of the enclosing context, then the
    /// module's name, then the enclosing types', then the protocol's own name.
    /// - Parameters:
    ///   - lhs: A protocol.
    ///   - rhs: Another protocol.
    /// - Returns: Whether `lhs` comes first.
    static func canonicallyPrecedes(_ lhs: ProtocolReference, _ rhs: ProtocolReference) -> Bool {
        func path(_ reference: ProtocolReference) -> [String] {
            var names: [String] = []
            var current: DescriptorReference? = reference.descriptor
            while let context = current, names.count < 64 {
                names.append(context.name)
                current = context.parent
            }
            return names.reversed()
        }
        let left = path(lhs)
        let right = path(rhs)
        if left.count != right.count { return left.count < right.count }
        for (a, b) in zip(left, right) where a != b { return a < b }
        return false
    }

}
