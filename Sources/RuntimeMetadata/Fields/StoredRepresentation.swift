// StoredRepresentation.swift
//
// Where a declaration stores a value in another form than the value's type metadata lays
// out. The compiler lays out a stored property, an enum payload, and the elements of a tuple or
// the payload of an optional written in the declaration, from the declaration's own type, with
// its type parameters left abstract. A metatype is thin there, stored in no bytes, when its
// instance type has one metatype value: a struct, enum, optional, tuple, function, existential
// or existential metatype, or a metatype of such (swiftlang/swift lib/SIL/IR/TypeLowering.cpp,
// `HasSingletonMetatype`). A class's metatype, and a metatype of a type parameter, are thick:
// the pointer the metadata describes. So `var t: Int.Type` takes no bytes and `Int.Type?` one
// (its tag), while `GenericBox<Int.Type>.value`, declared `T`, takes eight. Offsets and sizes
// are a cross-check of this, never its source: the declaration decides, as it does for
// functions stored at their declaration's abstraction (FunctionAbstraction.swift). The
// conversions between the forms are in OpaqueValueAccess+StoredForms.swift; the DocC article
// "Understanding the ABI layer" lists every way a stored form differs from its metadata.

extension TypeMetadata {
    /// The form in which a value of this type is stored under a declaration.
    ///
    /// - Parameters:
    ///   - index: The position of the declaration's field record in `declaringType`'s
    ///     descriptor (a stored property, or an enum case).
    ///   - declaringType: The type whose record it is.
    ///   - mangledName: The record's mangled type, printable.
    /// - Returns: The stored form; `nil` when it depends on a declaration that cannot be
    ///   resolved (a metatype of a non-class type reached through an associated or opaque type
    ///   of a generic declaration), where a read or write would guess.
    func storedForm(
        ofRecordAt index: Int,
        in declaringType: TypeMetadata,
        mangledName: String
    ) -> OpaqueValueAccess.StoredForm? {
        guard containsStructuralMetatype(depth: 0) else { return .asType }
        guard declaringType.descriptor?.isGeneric == true else {
            // A declaration without type parameters is its own pattern.
            return storedForm(pattern: self, depth: 0)
        }
        // A dependent member or opaque type (`Q…`) cannot be resolved with the marker
        // (FunctionAbstraction.swift); the form is then decided without the pattern where the
        // answer is the same either way.
        guard mangledName.contains("Q") else {
            return storedForm(pattern: declaringType.declaredPattern(ofRecordAt: index), depth: 0)
        }
        // A metatype of an associated or opaque type itself (`S.Element.Type`: `7ElementQzm`,
        // `Qy_`, `QZ`, `QY…`, `Qo…` then the metatype's `m`, docs/ABI/Mangling.rst) is of a
        // type parameter's abstraction: thick.
        if kind == .metatype, mangledName.firstMatch(of: /Q(?:[zZ]|[yY](?:z|\d*_|d\d*_\d*_)|o\d*_)m$/) != nil {
            return .asType
        }
        return storedForm(pattern: nil, depth: 0)
    }

    /// Whether a metatype is reachable through the type's structure: the type itself, a tuple's
    /// elements, an optional's payload.
    private func containsStructuralMetatype(depth: Int) -> Bool {
        guard depth < RuntimeMetadataLimits.maximumNameNesting else { return false }
        switch kind {
        case .metatype: return true
        case .tuple: return tupleElements.contains { $0.type.containsStructuralMetatype(depth: depth + 1) }
        case .optional:
            guard case .type(let wrapped)? = genericArguments.first else { return false }
            return wrapped.containsStructuralMetatype(depth: depth + 1)
        default: return false
        }
    }

    /// The stored form against the declaration's pattern at this position.
    /// - Parameters:
    ///   - pattern: The declaration's type at this position, its type parameters the marker;
    ///     `nil` when the declaration is unknown.
    ///   - depth: The nesting so far.
    /// - Returns: The form, or `nil` when it depends on the unknown declaration.
    private func storedForm(pattern: TypeMetadata?, depth: Int) -> OpaqueValueAccess.StoredForm? {
        // Structure nests no deeper than the name limits allow; a deeper one is refused.
        guard depth < RuntimeMetadataLimits.maximumNameNesting else { return nil }
        if pattern == TypeParameterMarker.metadata { return .asType }
        switch kind {
        case .metatype:
            guard let instance = instanceType else { return .asType }
            if pattern != nil, pattern?.kind != .metatype { return .asType }
            guard
                let thin = instance.hasSingletonMetatype(
                    pattern: pattern?.instanceType,
                    knowsPattern: pattern != nil,
                    depth: depth + 1
                )
            else { return nil }
            return thin ? .thinMetatype : .asType
        case .tuple:
            let elements = tupleElements
            var patterns: [TypeMetadata?] = Array(repeating: nil, count: elements.count)
            if let pattern {
                let patternElements = pattern.tupleElements
                guard pattern.kind == .tuple, patternElements.count == elements.count else { return .asType }
                patterns = patternElements.map(\.type)
            }
            var forms: [OpaqueValueAccess.StoredForm] = []
            for (element, elementPattern) in zip(elements, patterns) {
                guard let form = element.type.storedForm(pattern: elementPattern, depth: depth + 1) else { return nil }
                forms.append(form)
            }
            guard forms.contains(where: { $0 != .asType }) else { return .asType }
            let storedElements = zip(elements, forms).map { $1.storedType(of: $0.type.reference) }
            guard let storage = MetadataReference.tuple(storedElements, labels: []) else { return nil }
            return .tuple(storage: storage, elements: forms)
        case .optional:
            guard case .type(let wrapped)? = genericArguments.first else { return .asType }
            var wrappedPattern: TypeMetadata?
            if let pattern {
                guard pattern.kind == .optional, case .type(let patternWrapped)? = pattern.genericArguments.first else {
                    return .asType
                }
                wrappedPattern = patternWrapped
            }
            guard let payload = wrapped.storedForm(pattern: wrappedPattern, depth: depth + 1) else { return nil }
            guard payload != .asType else { return .asType }
            return .optional(
                storage: Self.optionalMetadata(of: payload.storedType(of: wrapped.reference)),
                payload: payload
            )
        default:
            return .asType
        }
    }

    /// Whether this type, the instance type of a metatype, has one metatype value, which a
    /// declaration stores in no bytes (`HasSingletonMetatype` in swiftlang/swift
    /// lib/SIL/IR/TypeLowering.cpp).
    /// - Parameters:
    ///   - pattern: The declaration's instance type; the marker for a type parameter.
    ///   - knowsPattern: Whether the declaration is known; without it, a class instance is
    ///     thick either way, and anything else undecided.
    ///   - depth: The nesting so far.
    /// - Returns: Whether the metatype is thin; `nil` when that depends on an unknown declaration.
    private func hasSingletonMetatype(pattern: TypeMetadata?, knowsPattern: Bool, depth: Int) -> Bool? {
        guard depth < RuntimeMetadataLimits.maximumNameNesting else { return nil }
        if knowsPattern, pattern == nil || pattern == TypeParameterMarker.metadata { return false }
        switch kind {
        case .class, .objCClassWrapper, .foreignClass, .foreignReferenceType:
            return false
        case .metatype:
            // `Int.Type.Type` has one value; `A.Type.Type`, for a class `A`, has one per subclass.
            guard let instance = instanceType else { return false }
            return instance.hasSingletonMetatype(
                pattern: pattern?.instanceType,
                knowsPattern: knowsPattern,
                depth: depth + 1
            )
        case .struct, .enum, .optional, .tuple, .function, .existential, .existentialMetatype, .extendedExistential,
            .fixedArray, .opaque:
            return knowsPattern ? true : nil
        default:
            return false
        }
    }

    /// The metadata of `Optional<Wrapped>` for a wrapped type given by its metadata.
    private static func optionalMetadata(of wrapped: MetadataReference) -> MetadataReference {
        func make<Wrapped>(_: Wrapped.Type) -> MetadataReference { MetadataReference(Wrapped?.self) }
        return _openExistential(wrapped.metatype, do: make)
    }
}
