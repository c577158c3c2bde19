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
    var nestsDeeply: Bool {
        var level: Set<MetadataReference> = [self]
        for _ in 0..<Self.nestingNamedOnCallerStack {
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

    /// The name as `String(reflecting:)` prints it, on the reserve stack for a deep type.
    var safeQualifiedName: String {
        nestsDeeply ? ReserveStack.run { qualifiedName } : qualifiedName
    }

    /// The mangled name, on the reserve stack for a deep type.
    var safeMangledName: String? {
        nestsDeeply ? ReserveStack.run { mangledName } : mangledName
    }
}
