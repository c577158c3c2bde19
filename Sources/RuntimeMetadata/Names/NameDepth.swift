// NameDepth.swift
//
// The runtime names a type (`swift_getTypeName`, `swift_getMangledTypeName`) by building a
// demangling tree of it, recursing once per level of nesting. A type the program builds at run
// time, through generic recursion, can nest thousands of levels deep, past any thread's stack.
// Such a type is named on the reserve stack; whether it is that deep is found level by level,
// without recursion, and each level is de-duplicated so that shared structure is visited once.

extension MetadataReference {
    /// The nesting past which a type is named on ``ReserveStack``; the runtime names this many
    /// levels on a 512 KiB stack (RuntimeMetadataLimits.swift).
    static var nestingNamedOnCallerStack: Int { 64 }

    /// Whether the type nests deeper than ``nestingNamedOnCallerStack``, through generic
    /// arguments, tuple elements, function parameters and results, metatypes' instance types,
    /// a fixed-size array's element and an existential's superclass.
    var nestsDeeply: Bool { nestsDeeper(than: Self.nestingNamedOnCallerStack) }

    /// Whether the type's name has more than `levels` levels of nesting (the name itself is
    /// one), found level by level, each level's types once, in work bounded by `levels`.
    /// - Parameter levels: The levels.
    /// - Returns: Whether the name nests deeper.
    func nestsDeeper(than levels: Int) -> Bool {
        var level: Set<MetadataReference> = [self]
        for _ in 0..<levels {
            var next: Set<MetadataReference> = []
            for type in level { next.formUnion(type.nameChildren) }
            if next.isEmpty { return false }
            level = next
        }
        return true
    }

    /// The types one level inside this one, as its name spells them.
    var nameChildren: [MetadataReference] {
        var children: [MetadataReference] = []
        for argument in genericArguments {
            switch argument {
            case .type(let type): children.append(type)
            case .pack(let types): children += types
            case .value: break
            }
        }
        children += tupleElements.map(\.type)
        if let function {
            children += function.parameters.map(\.type)
            children.append(function.result)
        }
        if let instance = instanceType { children.append(instance) }
        if let element = fixedArray?.element { children.append(element) }
        if let superclass = existential?.superclass { children.append(superclass) }
        return children
    }

    /// The name as `String(reflecting:)` prints it, on the reserve stack for a deep type, and
    /// abbreviated past ``RuntimeMetadataLimits/maximumNamedNesting`` levels.
    var safeQualifiedName: String { name(maximumNesting: RuntimeMetadataLimits.maximumNamedNesting) }

    /// The name as `String(reflecting:)` prints it, spelled to `limit` levels of nesting: a
    /// type that nests deeper is spelled from its structure down to the limit, each part that
    /// fits the levels left named whole, and what lies deeper written `…`.
    ///
    /// The runtime's namer recurses once per level and overflows even the reserve stack past
    /// about 50,000 levels, and the name of a type that deep is as long as the type is deep;
    /// the spelled levels are bounded by `limit`, and so are the work and the name's length.
    /// - Parameter limit: The levels spelled, at least 1.
    /// - Returns: The name.
    func name(maximumNesting limit: Int) -> String {
        let limit = max(limit, 1)
        guard nestsDeeper(than: limit) else { return nestsDeeply ? ReserveStack.run { qualifiedName } : qualifiedName }
        // The spelling recurses once per level spelled, and names whole only parts that the
        // runtime names on the caller's stack.
        guard limit > Self.nestingNamedOnCallerStack else { return abbreviatedName(levels: limit) }
        return ReserveStack.run { abbreviatedName(levels: limit) }
    }

    /// The mangled name, on the reserve stack for a deep type; `nil` past
    /// ``RuntimeMetadataLimits/maximumNamedNesting`` levels, where a mangled name cannot be
    /// abbreviated.
    var safeMangledName: String? {
        guard nestsDeeply else { return mangledName }
        guard !nestsDeeper(than: RuntimeMetadataLimits.maximumNamedNesting) else { return nil }
        return ReserveStack.run { mangledName }
    }

    /// This type spelled from its structure, its parts in `levels - 1` levels.
    /// - Parameter levels: The levels left, this one included.
    /// - Returns: The name.
    private func abbreviatedName(levels: Int) -> String {
        structuralName { part in
            guard levels > 1 else { return "…" }
            // A part that fits the levels left, and that the runtime names on this stack, is
            // named whole; a deeper one is spelled in turn.
            let fits = !part.nestsDeeper(than: min(levels - 1, Self.nestingNamedOnCallerStack))
            return fits ? part.qualifiedName : part.abbreviatedName(levels: levels - 1)
        }
    }
}
