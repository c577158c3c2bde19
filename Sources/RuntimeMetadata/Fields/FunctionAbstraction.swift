// FunctionAbstraction.swift
//
// Which stored values generic code cannot move. A function value is stored at the abstraction
// of the declaration that holds it: a field declared `(Int) -> Int` holds a function that takes
// and returns its `Int` directly, while generic code (and an `Any`) expects the most general
// form, which takes and returns every value indirectly. The compiler converts between the
// two with reabstraction thunks that it emits at compile time; the runtime has none to offer.
// So a function reached through the structure of a declared type (the type itself, a tuple
// element, an optional's payload) cannot be read or written by this library, whose accessors
// are generic, and is refused with an error. A function held through a generic parameter
// (`GenericBox<(Int) -> Int>.value`, declared `T`) is stored in the general form and is read
// and written like any value, and so is one held through a tuple or optional of generic
// parameters (`(T, T)`, `T?`): the declaration's own structure, with its type parameters
// substituted, decides. See the "Reading type metadata" article.

extension TypeMetadata {
    /// Whether a value of this type, stored under a declaration whose mangled type is
    /// `mangledName`, holds a function at the declaration's own abstraction.
    ///
    /// The declaration's structure decides, followed through substitution: a function that the
    /// declaration reaches through its own tuples and optionals (`(Int) -> Int`, `(T, (Int) ->
    /// Int)`, `((Int) -> Int)?`) is stored at its own abstraction, one that it reaches through a
    /// type parameter (`T`, `(T, T)`, `T?` with `T == (Int) -> Int`) in the general form. The
    /// declaration's pattern is its type resolved with the type parameters replaced by a marker
    /// (``TypeParameterMarker``); when it cannot be resolved so (an associated or opaque type
    /// in the declaration, a parameter pack), the answer is the conservative `true`.
    /// - Parameters:
    ///   - mangledName: The declaration's mangled type, as the field record stores it.
    ///   - pattern: Resolves the declaration's pattern; called only when this type holds a
    ///     function in its structure.
    /// - Returns: `true` when values cannot be moved through generic code.
    func storesSubstitutedFunction(declaredAs mangledName: String, pattern: () -> TypeMetadata?) -> Bool {
        guard !Self.isGenericParameter(mangledName), containsStructuralFunction(in: nil, depth: 0) else {
            return false
        }
        // A dependent member (`T.Element`, `Qz`) or an opaque type (`Qo`) in the declaration:
        // resolving it with a marker would call the real arguments' witness tables with the
        // marker as their conforming type. Symbolic references are shown as `<ref>`, so a `Q`
        // here is an operator or part of an identifier (conservative either way).
        guard !mangledName.contains("Q"), let pattern = pattern() else { return true }
        return containsStructuralFunction(in: pattern, depth: 0)
    }

    /// Whether a function is reachable through the type's own structure: the type itself, a
    /// tuple's elements, an optional's payload.
    var containsStructuralFunction: Bool { containsStructuralFunction(in: nil, depth: 0) }

    /// Whether a function is reachable through the type's structure (the type itself, a
    /// tuple's elements, an optional's payload) where the declaration's pattern has structure
    /// too, not a type parameter.
    /// - Parameters:
    ///   - pattern: The declaration's pattern at this position; `nil` to follow the type's own
    ///     structure alone.
    ///   - depth: The nesting so far.
    /// - Returns: Whether such a function is reachable.
    private func containsStructuralFunction(in pattern: TypeMetadata?, depth: Int) -> Bool {
        // Structure nests no deeper than the type's name, which the name limits bound; the
        // depth guard keeps a corrupted record from recursing without end.
        guard depth < RuntimeMetadataLimits.maximumNameNesting else { return true }
        if let pattern, pattern == TypeParameterMarker.metadata { return false }
        switch kind {
        case .function:
            return true
        case .tuple:
            let elements = tupleElements
            guard let pattern else {
                return elements.contains { $0.type.containsStructuralFunction(in: nil, depth: depth + 1) }
            }
            let patterns = pattern.tupleElements
            guard pattern.kind == .tuple, patterns.count == elements.count else { return true }
            return zip(elements, patterns).contains {
                $0.type.containsStructuralFunction(in: $1.type, depth: depth + 1)
            }
        case .optional:
            guard case .type(let wrapped)? = genericArguments.first else { return false }
            guard let pattern else { return wrapped.containsStructuralFunction(in: nil, depth: depth + 1) }
            guard pattern.kind == .optional, case .type(let wrappedPattern)? = pattern.genericArguments.first else {
                return true
            }
            return wrapped.containsStructuralFunction(in: wrappedPattern, depth: depth + 1)
        default:
            return false
        }
    }

    /// Whether a function of this type, stored at its declaration's abstraction, takes its
    /// arguments and returns its result as the most general form of its type does, so that
    /// code holding it in an `Any` calls it correctly: a C function or block (never
    /// reabstracted), or a function whose every parameter is `inout` or of an opaque
    /// existential type (`Any`, `any P`), and whose result is `()` or of such a type (each
    /// passed indirectly under every abstraction), without typed throws or differentiability.
    /// `() -> Void`, `@MainActor () async throws -> Void` and `(inout Any) -> Void` are; `(Int)
    /// -> Void` is not, as the general form passes its `Int` indirectly. `false` for other kinds.
    var isCalledAlikeAtEveryAbstraction: Bool {
        guard let function else { return false }
        switch function.convention {
        case .c, .block: return true
        case .swift, .thin: break
        case .other: return false
        }
        guard function.thrownError == nil, !function.isDifferentiable else { return false }
        func isIndirectEverywhere(_ type: TypeMetadata) -> Bool {
            type.reference.isOpaqueExistential
        }
        let resultIsAlike = function.result == TypeMetadata(Void.self) || isIndirectEverywhere(function.result)
        return resultIsAlike
            && function.parameters.allSatisfy {
                $0.ownership == .inout || (!$0.isVariadic && isIndirectEverywhere($0.type))
            }
    }

    /// Whether a mangled type is a bare generic parameter: `x` (depth 0, index 0), `q_`,
    /// `q<index>_`, `qd__` and `qd<depth>_<index>_` (docs/ABI/Mangling.rst, generic-param-type).
    private static func isGenericParameter(_ mangledName: String) -> Bool {
        if mangledName == "x" { return true }
        let bytes = Array(mangledName.utf8)
        guard bytes.count >= 2, bytes[0] == UInt8(ascii: "q"), bytes.last == UInt8(ascii: "_") else { return false }
        return bytes.dropFirst().allSatisfy {
            $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "d") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
        }
    }

    /// The pattern of the declaration of the stored property or case at `index` of this type's
    /// field records (``storesSubstitutedFunction(declaredAs:pattern:)``).
    /// - Parameter index: The record's position.
    /// - Returns: The pattern, or `nil` when it cannot be resolved.
    func declaredPattern(ofRecordAt index: Int) -> TypeMetadata? {
        record.reference.declaredPattern(ofRecordAt: index, marker: TypeParameterMarker.metadata.reference)
            .map(TypeMetadata.init)
    }
}

/// The type that stands for every type parameter of a declaration when its pattern is resolved:
/// no declaration names it, so where a pattern holds it, the declaration has a type parameter.
struct TypeParameterMarker {
    /// The marker's metadata.
    static let metadata = TypeMetadata(TypeParameterMarker.self)
}
