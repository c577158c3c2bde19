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
// and written like any value. See the "Reading type metadata" article.

extension TypeMetadata {
    /// Whether a value of this type, stored under a declaration whose mangled type is
    /// `mangledName`, holds a function at the declaration's own abstraction.
    ///
    /// Conservative: a declared type that is not a bare generic parameter is taken at its
    /// structure, so `(T, Int)` holding a function is refused although the compiler stores
    /// its `T` in the general form.
    /// - Parameter mangledName: The declaration's mangled type, as the field record stores it.
    /// - Returns: `true` when values cannot be moved through generic code.
    func storesSubstitutedFunction(declaredAs mangledName: String) -> Bool {
        !Self.isGenericParameter(mangledName) && containsStructuralFunction(depth: 0)
    }

    /// Whether a function is reachable through the type's structure: the type itself, a tuple's
    /// elements, an optional's payload.
    private func containsStructuralFunction(depth: Int) -> Bool {
        // Structure nests no deeper than the type's name, which the name limits bound; the
        // depth guard keeps a corrupted record from recursing without end.
        guard depth < RuntimeMetadataLimits.maximumNameNesting else { return true }
        switch kind {
        case .function:
            return true
        case .tuple:
            return tupleElements.contains { $0.type.containsStructuralFunction(depth: depth + 1) }
        case .optional:
            guard case .type(let wrapped)? = genericArguments.first else { return false }
            return wrapped.containsStructuralFunction(depth: depth + 1)
        default:
            return false
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
}
