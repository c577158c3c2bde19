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
        let cap = Self.nestingNamedOnCallerStack + 1
        let heights = cappedHeights(within: limit + cap, cap: cap)
        guard limit > Self.nestingNamedOnCallerStack else { return abbreviatedName(levels: limit, heights) }
        return ReserveStack.run { abbreviatedName(levels: limit, heights) }
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
    /// - Parameters:
    ///   - levels: The levels left, this one included.
    ///   - heights: The capped heights of the parts (``cappedHeights(within:cap:)``).
    /// - Returns: The name.
    private func abbreviatedName(levels: Int, _ heights: [MetadataReference: Int]) -> String {
        structuralName { part in
            guard levels > 1 else { return "…" }
            // A part that fits the levels left, and that the runtime names on this stack, is
            // named whole; a deeper one is spelled in turn.
            let height = heights[part] ?? Self.nestingNamedOnCallerStack + 1
            let fits = height <= min(levels - 1, Self.nestingNamedOnCallerStack)
            return fits ? part.qualifiedName : part.abbreviatedName(levels: levels - 1, heights)
        }
    }

    /// The height of each type within `depth` levels of this one (the levels its name nests:
    /// 1 for a type without parts), capped at `cap`; a type deeper than `depth` counts as `cap`.
    /// Found children first, each type once, without recursion: the work grows with the types
    /// within `depth`, where a level-by-level check per part (``nestsDeeper(than:)``) would cost
    /// `cap` steps per part spelled.
    /// - Parameters:
    ///   - depth: The levels explored.
    ///   - cap: The largest height recorded.
    /// - Returns: The heights, by type.
    private func cappedHeights(within depth: Int, cap: Int) -> [MetadataReference: Int] {
        var heights: [MetadataReference: Int] = [:]
        var pending: [(type: MetadataReference, level: Int, children: [MetadataReference]?)] = [(self, 1, nil)]
        while let (type, level, children) = pending.popLast() {
            if let children {
                heights[type] = min(cap, 1 + (children.map { heights[$0] ?? cap }.max() ?? 0))
                continue
            }
            guard heights[type] == nil else { continue }
            // A placeholder, so that a type met again before it is decided is not expanded twice.
            heights[type] = cap
            guard level < depth else { continue }
            let parts = type.nameChildren
            pending.append((type, level, parts))
            for part in parts where heights[part] == nil { pending.append((part, level + 1, nil)) }
        }
        return heights
    }
}
