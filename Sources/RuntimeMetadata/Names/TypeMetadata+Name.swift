// TypeMetadata+Name.swift

import Synchronization

/// A resolved name.
private final class NamedType: CacheEntry {
    let tableKey: StringKey
    let metadata: TypeMetadata

    init(key: StringKey, metadata: TypeMetadata) {
        self.tableKey = key
        self.metadata = metadata
    }
}

/// Resolved names: names as `String(reflecting:)` prints them, and mangled names.
private var namedTypes: ConcurrentTable<NamedType> { ConcurrentTable(.namedTypes) }

extension TypeMetadata {
    /// Finds a type by the name `String(reflecting:)` prints for it.
    ///
    /// Generic arguments, tuples, optionals, arrays, dictionaries, protocol compositions and
    /// metatypes are understood, along with the sugar `[T]`, `[K: V]` and `T?`, and the builtin
    /// types the standard library stores (`Builtin.Int64`, `Builtin.RawPointer`,
    /// `Builtin.FixedArray<4, Swift.Int>`, the types of `_value` and `_storage` fields).
    /// Constrained existentials (`any Sequence<Int>`) are not resolved.
    ///
    /// ```swift
    /// let type = try TypeMetadata(named: "Swift.Dictionary<Swift.String, Swift.Array<Swift.Int>>")
    /// ```
    ///
    /// A nominal type is found among the type descriptors of every loaded image, so it need not
    /// have been used before; generic types are instantiated after their requirements are
    /// checked. The result is cached per name: a second lookup takes no lock and allocates nothing.
    /// - Parameter name: The type's name.
    /// - Throws: ``RuntimeMetadataError/unresolvableName(name:part:reason:)`` naming the part that
    ///   failed: a syntax error, an unknown type, a wrong number of generic arguments, or an unmet
    ///   requirement.
    public init(named name: String) throws(RuntimeMetadataError) {
        let key = StringKey(name, namespace: 0)
        if let cached = namedTypes.entry(for: key) {
            self = cached.withObject { $0.metadata }
            return
        }
        // A nested name is parsed and resolved on the reserve stack: both recurse once per level,
        // as does the runtime's instantiation, whatever the caller's stack.
        let nesting = TypeName.nesting(of: Array(name.utf8))
        let resolved =
            nesting > Self.nestingOnCallerStack
            ? ReserveStack.run { Result { () throws(RuntimeMetadataError) in try Self.resolve(named: name) } }
            : Result { () throws(RuntimeMetadataError) in try Self.resolve(named: name) }
        let metadata = TypeMetadata(try resolved.get())
        _ = namedTypes.entry(for: key) { NamedType(key: key, metadata: metadata) }
        self = metadata
    }

    /// Finds a type by its mangled name, as `_mangledTypeName` returns it (a leading `$s` is
    /// accepted), or as ``mangledName`` returns it: builtin types included (`Bi64_`, and
    /// `$3_SiBV` for `Builtin.FixedArray<4, Swift.Int>`, which `_mangledTypeName` cannot mangle).
    ///
    /// The name is validated before the runtime's type lookup sees it, because that lookup
    /// trusts its input and crashes on some malformed names (`$`, `$SS_Sitc`). The runtime's
    /// demangler, which only prints, turns the name into text; the text is parsed and resolved
    /// like a name given to ``init(named:)``, with the same limits. Function types, which names
    /// do not resolve, are handed to the runtime's lookup once every type they mention has
    /// resolved. The result is cached per name.
    ///
    /// - Parameter mangledName: The mangled name, such as `SaySiG`.
    /// - Throws: ``RuntimeMetadataError/unresolvableName(name:part:reason:)`` when the name is not a
    ///   valid type mangling or names a type that does not resolve, or contains control bytes
    ///   (which the runtime would read as symbolic references into memory);
    ///   ``RuntimeMetadataError/limitExceeded(_:value:context:)`` past ``RuntimeMetadataLimits``.
    public init(mangledName: String) throws(RuntimeMetadataError) {
        var plain = Substring(mangledName)
        if plain.hasPrefix("$s") { plain = plain.dropFirst(2) }
        guard !plain.isEmpty else {
            throw .unresolvableName(name: mangledName, part: mangledName, reason: "the name is empty")
        }
        guard plain.utf8.count <= RuntimeMetadataLimits.maximumNameLength else {
            throw .limitExceeded(.nameLength, value: plain.utf8.count, context: Self.shortened(mangledName))
        }
        guard plain.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
            throw .unresolvableName(
                name: mangledName,
                part: mangledName,
                reason: "a mangled name given as text must be printable ASCII"
            )
        }
        let name = String(plain)
        let key = StringKey(name, namespace: 1)
        if let cached = namedTypes.entry(for: key) {
            self = cached.withObject { $0.metadata }
            return
        }
        // Long names may nest deeply: every step, the runtime's included, runs on the reserve stack.
        let resolved =
            name.utf8.count > Self.mangledLengthOnCallerStack
            ? ReserveStack.run { Result { () throws(RuntimeMetadataError) in try Self.resolve(mangledName: name) } }
            : Result { () throws(RuntimeMetadataError) in try Self.resolve(mangledName: name) }
        let metadata = TypeMetadata(try resolved.get())
        _ = namedTypes.entry(for: key) { NamedType(key: key, metadata: metadata) }
        self = metadata
    }

    /// The longest mangled name resolved on the caller's stack; longer ones run on ``ReserveStack``.
    private static var mangledLengthOnCallerStack: Int { 64 }

    /// Validates and resolves a mangled name without `$s`.
    private static func resolve(mangledName name: String) throws(RuntimeMetadataError) -> MetadataReference {
        // A type mangling is the symbol `$s` + type + `D` (docs/ABI/Mangling.rst, "type mangling").
        let symbol = "$s" + name + "D"
        guard let text = RuntimeEntryPoints.demangle(symbol), text != symbol else {
            throw .unresolvableName(name: name, part: name, reason: "not a valid type mangling")
        }
        let tree: TypeName
        do {
            tree = try TypeName.parse(text)
        } catch {
            if let (limit, value) = error.limit { throw .limitExceeded(limit, value: value, context: shortened(name)) }
            throw .unresolvableName(
                name: name,
                part: shortened(text),
                reason:
                    "the runtime's demangler prints '\(error.part)' here, which is not a type this library validates (\(error.reason))"
            )
        }
        if case .nominal(let components) = tree,
            let mangling = BuiltinTypeNames.manglings[TypeNameIndex.key(components.map(\.name))],
            mangling != name
        {
            // The `D` that makes a type mangling a symbol completed the name: `B` + `D` is
            // `Builtin.DefaultActorStorage`, but `B` is no type.
            throw .unresolvableName(name: name, part: name, reason: "not a valid type mangling")
        }
        guard tree.containsFunction || tree.containsRawLabel else {
            return try checkedLayout(resolve(tree, in: text, index: TypeNameIndex.shared), of: tree, in: name)
        }
        // Function types, and tuples with raw-identifier labels, resolve through the runtime,
        // once every type they mention has.
        try validateComponents(of: tree, in: text)
        guard let reference = MetadataReference(mangledName: name) else {
            throw .unresolvableName(name: name, part: name, reason: "the runtime cannot resolve this mangled name")
        }
        return reference
    }

    /// Resolves every type a tree mentions outside function types, and checks the function
    /// types' parameters and results the same way.
    private static func validateComponents(of tree: TypeName, in text: String) throws(RuntimeMetadataError) {
        var pending = [tree]
        while let next = pending.popLast() {
            switch next {
            case .value(let value):
                throw .unresolvableName(
                    name: text,
                    part: String(value),
                    reason: "an integer is only valid as a generic argument"
                )
            case .nominal(let components) where next.containsFunction:
                // Generic arguments that hold functions: check them, and the type without them.
                pending += next.children.filter { if case .value = $0 { false } else { true } }
                let key = TypeNameIndex.key(components.map(\.name))
                guard TypeNameIndex.shared.types(named: key).first != nil else {
                    throw .unresolvableName(
                        name: text,
                        part: key,
                        reason: "no loaded image declares a type with this name"
                    )
                }
            case .nominal:
                _ = try resolve(next, in: text, index: TypeNameIndex.shared)
            default:
                pending += next.children
            }
        }
    }

    /// The deepest name resolved on the caller's stack; deeper ones run on ``ReserveStack``.
    private static var nestingOnCallerStack: Int { 16 }

    /// Parses and resolves a name.
    private static func resolve(named name: String) throws(RuntimeMetadataError) -> MetadataReference {
        let tree: TypeName
        do {
            tree = try TypeName.parse(name)
        } catch {
            if let (limit, value) = error.limit {
                throw .limitExceeded(limit, value: value, context: Self.shortened(name))
            }
            throw .unresolvableName(name: name, part: error.part, reason: error.reason)
        }
        return try checkedLayout(Self.resolve(tree, in: name, index: TypeNameIndex.shared), of: tree, in: name)
    }

    /// Returns `metadata` when its layout is sound; integer generic arguments may size
    /// fixed-size arrays past what memory holds (TypeMetadata+LayoutCheck.swift).
    private static func checkedLayout(_ metadata: MetadataReference, of tree: TypeName, in name: String)
        throws(RuntimeMetadataError) -> MetadataReference
    {
        guard tree.containsValue, let overflow = TypeMetadata(metadata).layoutOverflow() else { return metadata }
        throw .unresolvableName(name: name, part: shortened(name), reason: "the layout overflows: " + overflow)
    }

    private static func resolve(_ tree: TypeName, in name: String, index: TypeNameIndex) throws(RuntimeMetadataError)
        -> MetadataReference
    {
        func fail(_ part: String, _ reason: String) -> RuntimeMetadataError {
            .unresolvableName(name: name, part: part, reason: reason)
        }
        switch tree {
        case .value(let value):
            throw fail(String(value), "an integer is only valid as a generic argument")
        case .pack:
            throw fail("Pack{…}", "a pack is only valid as a generic argument")
        case .function(let text, _, _):
            throw fail(text, "function types cannot be resolved by name; use the mangled name")
        case .tuple(let elements):
            if let raw = elements.first(where: { $0.label.hasPrefix("`") }) {
                // The runtime builds another tuple from the same label string than the compiler's.
                throw fail(
                    raw.label,
                    "tuples with raw-identifier labels resolve only by their mangled name (_mangledTypeName)"
                )
            }
            guard elements.count <= RuntimeMetadataLimits.maximumTupleArity else {
                throw .limitExceeded(.tupleArity, value: elements.count, context: shortened(name))
            }
            var types: [MetadataReference] = []
            for element in elements { types.append(try resolve(element.type, in: name, index: index)) }
            if types.isEmpty { return MetadataReference(Void.self) }
            if let noncopyable = types.first(where: { !TypeMetadata($0).isCopyable }) {
                throw fail(TypeMetadata(noncopyable).name, "a tuple's elements must be Copyable")
            }
            guard let tuple = MetadataReference.tuple(types, labels: elements.map(\.label)) else {
                throw fail("(…)", "the runtime could not build this tuple")
            }
            return tuple
        case .metatype(let inner):
            let instance = try resolve(inner, in: name, index: index)
            if TypeMetadata(instance).kind == .existential {
                return MetadataReference.existentialMetatype(of: instance)
            }
            return MetadataReference.metatype(of: instance)
        case .protocolMetatype(let inner):
            let instance = try resolve(inner, in: name, index: index)
            guard TypeMetadata(instance).kind == .existential else {
                throw fail(TypeMetadata(instance).name + ".Protocol", "'.Protocol' applies to protocols only")
            }
            return MetadataReference.metatype(of: instance)
        case .composition(var parts):
            // The runtime prints the existential metatype of a composition without parentheses:
            // `Swift.Decodable & Swift.Encodable.Type` is `any (Decodable & Encodable).Type`,
            // since a metatype cannot be part of a composition.
            if case .metatype(let last)? = parts.last, parts.count > 1 {
                parts[parts.count - 1] = last
                let composition = try resolve(.composition(parts), in: name, index: index)
                return MetadataReference.existentialMetatype(of: composition)
            }
            guard parts.count <= RuntimeMetadataLimits.maximumCompositionSize else {
                throw .limitExceeded(.compositionSize, value: parts.count, context: shortened(name))
            }
            var protocols: [ProtocolReference] = []
            var superclass: MetadataReference?
            var classBound = false
            for part in parts {
                let resolved = try resolve(part, in: name, index: index)
                let metadata = TypeMetadata(resolved)
                if metadata.kind == .class {
                    superclass = resolved
                    classBound = true
                } else if let existential = resolved.existential, existential.superclass == nil {
                    protocols += existential.protocols
                    classBound = classBound || metadata.existential?.isClassBound == true
                } else {
                    throw fail(metadata.name, "only protocols, AnyObject and one class can form a composition")
                }
            }
            guard
                let existential = MetadataReference.existential(
                    protocols: ProtocolDescriptor.minimalComposition(protocols),
                    classBound: classBound,
                    superclass: superclass
                )
            else { throw fail(shortened(name), "the runtime could not build this composition") }
            return existential
        case .nominal(let components):
            let key = TypeNameIndex.key(components.map(\.name))
            let arguments = components.flatMap(\.arguments)
            if key.hasPrefix("Builtin.") {
                return try resolveBuiltin(key, arguments: arguments, in: name, index: index)
            }
            if arguments.isEmpty {
                if key == "Any" { return MetadataReference(Any.self) }
                if key == "AnyObject" || key == "Swift.AnyObject" { return MetadataReference(AnyObject.self) }
                if let protocolReference = index.protocolReference(named: key) {
                    guard
                        let existential = MetadataReference.existential(
                            protocols: [protocolReference],
                            classBound: protocolReference.isClassBound,
                            superclass: nil
                        )
                    else { throw fail(key, "the runtime could not build this protocol's existential") }
                    return existential
                }
            }
            guard let descriptor = index.types(named: key).first else {
                throw fail(key, "no loaded image declares a type with this name")
            }
            var values: [MetadataReference.GenericArgumentValue] = []
            for argument in arguments {
                if case .value(let value) = argument {
                    values.append(.value(value))
                } else if case .pack(let elements) = argument {
                    var types: [MetadataReference] = []
                    for element in elements { types.append(try resolve(element, in: name, index: index)) }
                    values.append(.pack(types))
                } else {
                    values.append(.type(try resolve(argument, in: name, index: index)))
                }
            }
            // A type parameter requires Copyable unless its declaration suppresses it.
            let admitting = descriptor.parametersAdmittingNoncopyable
            for (index, value) in values.enumerated() where !admitting.contains(index) {
                let types: [MetadataReference]
                switch value {
                case .type(let type): types = [type]
                case .pack(let elements): types = elements
                case .value: types = []
                }
                if let noncopyable = types.first(where: { !TypeMetadata($0).isCopyable }) {
                    throw fail(
                        key,
                        "generic argument \(index + 1), '\(TypeMetadata(noncopyable).name)', is not Copyable"
                    )
                }
            }
            switch descriptor.instantiate(values) {
            case .success(let metadata):
                return metadata
            case .failure(let failure):
                throw fail(key, Self.reason(failure))
            }
        }
    }

    /// Resolves a builtin type: one the runtime exports metadata for, by its mangling, or a
    /// fixed-size array (``BuiltinTypeNames``).
    private static func resolveBuiltin(
        _ key: String,
        arguments: [TypeName],
        in name: String,
        index: TypeNameIndex
    ) throws(RuntimeMetadataError) -> MetadataReference {
        if key == BuiltinTypeNames.fixedArray {
            guard arguments.count == 2, case .value(let count) = arguments[0] else {
                throw .unresolvableName(
                    name: name,
                    part: key,
                    reason: "expected a count and an element type: Builtin.FixedArray<N, T>"
                )
            }
            // Any element, noncopyable ones included (`InlineArray<N, Element: ~Copyable>`).
            let element = try resolve(arguments[1], in: name, index: index)
            guard let metadata = MetadataReference.fixedArray(count: count, element: element) else {
                throw .unresolvableName(name: name, part: key, reason: "the count must not be negative")
            }
            return metadata
        }
        guard arguments.isEmpty, let mangling = BuiltinTypeNames.manglings[key] else {
            throw .unresolvableName(name: name, part: key, reason: "not a builtin type the runtime has metadata for")
        }
        // A mangling from the table: the runtime's lookup finds the metadata it exports.
        guard let metadata = MetadataReference(mangledName: mangling) else {
            throw .unresolvableName(name: name, part: key, reason: "the runtime has no metadata for this builtin type")
        }
        return metadata
    }

    /// A name cut to a length an error message can carry.
    static func shortened(_ name: String) -> String {
        name.utf8.count <= 200 ? name : String(name.prefix(100)) + "…" + String(name.suffix(60))
    }

    static func reason(_ failure: DescriptorReference.InstantiationFailure) -> String {
        switch failure {
        case .argumentCount(let expected, let actual):
            "expected \(expected) generic arguments, got \(actual)"
        case .argumentKind(let index):
            "generic argument \(index + 1) is of the wrong sort (type, value or pack)"
        case .unresolvableRequirement(let requirement):
            "a generic requirement does not resolve (\(requirement))"
        case .missingConformance(let subject, let protocolName):
            "'\(TypeMetadata(subject).name)' does not conform to '\(protocolName)'"
        case .violatedRequirement(let requirement):
            "the requirement '\(requirement)' is not met"
        case .accessFailed:
            "the runtime could not instantiate the type"
        }
    }
}
