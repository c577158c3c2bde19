// TypeMetadata+Instances.swift
//
// Making values from the values of their stored properties, without calling an initializer:
// structs, tuples and Swift class instances. The properties come from the type's field records
// (or a tuple's elements), every value is checked against its property's type with the runtime's
// `as?` before any memory is touched, and the memory work is OpaqueValueAccess's.

extension TypeMetadata {
    /// Makes a value of this struct, class or tuple type from the values of its stored
    /// properties, given by name, without calling an initializer.
    ///
    /// Each value is cast to its property's type with the runtime's `as?`, as
    /// ``Field/setValue(_:in:)`` casts, so an `Int` fills an `Int?` property and a subclass
    /// instance fills a superclass property; a value that does not cast throws before anything
    /// is made. A class instance is allocated through the runtime with every stored property,
    /// inherited ones included, initialized, and its `deinit` runs as usual when its last
    /// reference goes. Tuple elements are named by label, or `.0`, `.1` as `Mirror` names
    /// unlabelled ones.
    ///
    /// ```swift
    /// let point = try TypeMetadata(Point.self).makeInstance(["x": 1, "y": 2], as: Point.self)
    /// let empty = try TypeMetadata(Settings.self).makeInstance([:], fillingMissingFields: true)
    /// ```
    ///
    /// No initializer runs, so invariants an initializer would establish are the caller's to
    /// keep, as with ``Field/setValue(_:in:)`` on a `let` property.
    /// - Parameters:
    ///   - values: Values by property name.
    ///   - fillingMissingFields: Whether properties missing from `values` take their type's
    ///     ``emptyValue()``; when `false`, a missing property throws.
    /// - Returns: The new value, or the new object, as `Any`.
    /// - Throws: ``RuntimeMetadataError/noSuchField(name:typeName:)`` for a name the type does not
    ///   have; ``RuntimeMetadataError/missingValue(name:typeName:)`` for a property without a value;
    ///   ``RuntimeMetadataError/noEmptyValue(typeName:context:)`` when a missing property's type
    ///   has no empty value; ``RuntimeMetadataError/typeMismatch(expected:actual:context:)`` when a
    ///   value does not cast; ``RuntimeMetadataError/wrongKind(typeName:expected:)`` for enums,
    ///   actors, existentials and other kinds; and the errors of ``fields``.
    public func makeInstance(
        _ values: [String: Any],
        fillingMissingFields: Bool = false
    ) throws(RuntimeMetadataError) -> Any {
        try makeInstance(values, fillingMissingFields: fillingMissingFields, depth: 0)
    }

    /// Makes a value of this type from the values of its stored properties by name, typed.
    ///
    /// As ``makeInstance(_:fillingMissingFields:)``, returning the value as `T`.
    /// - Parameters:
    ///   - values: Values by property name.
    ///   - fillingMissingFields: Whether missing properties take their type's ``emptyValue()``.
    ///   - type: The type to return the value as; usually this metadata's own type.
    /// - Returns: The new value.
    /// - Throws: As ``makeInstance(_:fillingMissingFields:)``, and
    ///   ``RuntimeMetadataError/typeMismatch(expected:actual:context:)`` when the value is not a `T`.
    public func makeInstance<T>(
        _ values: [String: Any],
        fillingMissingFields: Bool = false,
        as type: T.Type
    ) throws(RuntimeMetadataError) -> T {
        try typed(makeInstance(values, fillingMissingFields: fillingMissingFields), as: T.self)
    }

    /// Makes a value of this struct, class or tuple type from the values of all its stored
    /// properties in declaration order (a class's inherited properties first, as ``fields``
    /// lists them; a tuple's elements in order).
    ///
    /// ```swift
    /// let pair = try TypeMetadata((Int, String).self).makeInstance(orderedValues: [1, "one"])
    /// ```
    /// - Parameter values: One value per stored property.
    /// - Returns: The new value, or the new object, as `Any`.
    /// - Throws: ``RuntimeMetadataError/wrongValueCount(expected:actual:typeName:)`` when the count
    ///   differs from the number of stored properties; otherwise as
    ///   ``makeInstance(_:fillingMissingFields:)``.
    public func makeInstance(orderedValues values: [Any]) throws(RuntimeMetadataError) -> Any {
        let properties = try storedProperties()
        guard values.count == properties.count else {
            throw .wrongValueCount(expected: properties.count, actual: values.count, typeName: name)
        }
        var checked: [OpaqueValueAccess.PropertyValue] = []
        checked.reserveCapacity(values.count)
        for (property, value) in zip(properties, values) {
            checked.append(try property.checked(value))
        }
        return try make(checked)
    }

    /// The obvious empty value of this type, for filling properties no value was given for.
    ///
    /// In order:
    /// - an optional: `nil`;
    /// - `Bool`: `false`; a `Dictionary`: `[:]`;
    /// - a type conforming to `AdditiveArithmetic` (every number type): `.zero`;
    /// - `RangeReplaceableCollection` (`String`, `Array`, `Data`) or `SetAlgebra` (`Set`, option
    ///   sets): `init()`;
    /// - a struct, tuple or Swift class: a value, or a new instance, made of its properties'
    ///   empty values, recursively, without calling an initializer.
    ///
    /// Enums, functions, metatypes, existentials and actors have none, nor have the standard
    /// library's structs that conform to none of these protocols (`Character`,
    /// `Unicode.Scalar`, pointers), whose storage keeps invariants. A type that contains itself
    /// through a chain of classes has none either: the chain is refused at a depth of 64.
    /// - Returns: The empty value.
    /// - Throws: ``RuntimeMetadataError/noEmptyValue(typeName:context:)`` naming the first property,
    ///   however deep, whose type has none.
    public func emptyValue() throws(RuntimeMetadataError) -> Any {
        try emptyValue(depth: 0)
    }

    // MARK: - Implementation

    /// A stored property as instance creation sees it: a field or a tuple element.
    fileprivate struct StoredProperty {
        let name: String
        let offset: Int
        let type: TypeMetadata
        let ownership: StorageOwnership
        /// How the property is stored (StoredRepresentation.swift).
        var form: OpaqueValueAccess.StoredForm = .asType
        let context: String

        /// The empty value of the property: its type's, except that a weak or unowned reference
        /// takes only `nil`, as a new object held by nothing else would be released at once and
        /// leave the reference dangling.
        func emptyValue(depth: Int) throws(RuntimeMetadataError) -> Any {
            guard ownership != .strong else { return try type.emptyValue(depth: depth) }
            guard type.kind == .optional, let optional = type.type as? any ExpressibleByNilLiteral.Type else {
                throw .noEmptyValue(
                    typeName: type.name,
                    context: "a new object would be released at once by the non-strong reference"
                )
            }
            return optional.init(nilLiteral: ())
        }

        /// The property with a value cast to its type.
        func checked(_ value: Any) throws(RuntimeMetadataError) -> OpaqueValueAccess.PropertyValue {
            // The runtime's cast does not take builtin types: their values move only as themselves.
            let valueType = TypeMetadata(Swift.type(of: value))
            let converted: Any?
            if type.isBuiltin {
                converted = valueType == type ? value : nil
            } else {
                converted = OpaqueValueAccess.cast(value, to: type.reference)
            }
            guard let converted else {
                throw .typeMismatch(expected: type.name, actual: valueType.name, context: context)
            }
            return OpaqueValueAccess.PropertyValue(
                offset: offset,
                type: type.reference,
                ownership: ownership,
                form: form,
                value: converted
            )
        }
    }

    /// The deepest nesting of structs and tuples that ``emptyValue()`` fills.
    private static let maximumEmptyValueDepth = 64

    private func makeInstance(
        _ values: [String: Any],
        fillingMissingFields: Bool,
        depth: Int
    ) throws(RuntimeMetadataError) -> Any {
        let properties = try storedProperties()
        for key in values.keys where !properties.contains(where: { $0.name == key }) {
            throw .noSuchField(name: key, typeName: name)
        }
        var checked: [OpaqueValueAccess.PropertyValue] = []
        checked.reserveCapacity(properties.count)
        for property in properties {
            if let value = values[property.name] {
                checked.append(try property.checked(value))
                continue
            }
            guard fillingMissingFields else { throw .missingValue(name: property.name, typeName: name) }
            let empty: Any
            do {
                empty = try property.emptyValue(depth: depth + 1)
            } catch .noEmptyValue(let typeName, let context) {
                throw .noEmptyValue(
                    typeName: typeName,
                    context: property.context + (context.isEmpty ? "" : ", " + context)
                )
            }
            checked.append(try property.checked(empty))
        }
        return try make(checked)
    }

    private func emptyValue(depth: Int) throws(RuntimeMetadataError) -> Any {
        guard depth <= Self.maximumEmptyValueDepth, let metatype = type else {
            throw .noEmptyValue(typeName: name, context: "")
        }
        if let provider = metatype as? any EmptyValueProviding.Type { return provider.emptyValue }
        if kind == .optional, let optional = metatype as? any ExpressibleByNilLiteral.Type {
            return optional.init(nilLiteral: ())
        }
        if let number = metatype as? any AdditiveArithmetic.Type { return number.zero }
        if let collection = metatype as? any RangeReplaceableCollection.Type { return collection.init() }
        if let set = metatype as? any SetAlgebra.Type { return set.init() }
        // The standard library's other structs keep invariants in their storage (a `Character`
        // holds exactly one grapheme): they are made only through the protocols above.
        guard kind == .struct || kind == .tuple || kind == .class, descriptor?.moduleName != "Swift" else {
            throw .noEmptyValue(typeName: name, context: "")
        }
        do {
            return try makeInstance([:], fillingMissingFields: true, depth: depth)
        } catch .noEmptyValue(let typeName, let context) {
            throw .noEmptyValue(typeName: typeName, context: context)
        } catch {
            // A struct whose properties cannot be listed or written has no empty value either.
            throw .noEmptyValue(typeName: name, context: error.description)
        }
    }

    /// Every stored property, checked to be writable, in declaration order.
    private func storedProperties() throws(RuntimeMetadataError) -> [StoredProperty] {
        guard isCopyable else { throw .noncopyableType(typeName: name) }
        switch kind {
        case .tuple:
            return try tupleElements.map { element throws(RuntimeMetadataError) in
                let context = "element '\(element.name)' of '\(name)'"
                guard element.type.isCopyable, element.type.hasValueWitnesses else {
                    throw .wrongKind(typeName: element.type.name, expected: "a copyable type, for \(context)")
                }
                return StoredProperty(
                    name: element.name,
                    offset: element.offset,
                    type: element.type,
                    ownership: .strong,
                    context: context
                )
            }
        case .struct, .class:
            if kind == .class { try checkCreatableClass() }
            let fields = try fields
            if kind == .struct, let declared = descriptor?.declaredFieldCount, declared != fields.count {
                throw .missingReflectionMetadata(typeName: name)
            }
            return try fields.map { field throws(RuntimeMetadataError) in
                StoredProperty(
                    name: field.name,
                    offset: field.offset,
                    type: try field.resolvedType(),
                    ownership: field.ownership.storage,
                    form: field.storedForm,
                    context: "field '\(field.name)' of '\(field.declaringType.name)'"
                )
            }
        default:
            throw .wrongKind(typeName: name, expected: "a struct, class or tuple, which instances can be made of")
        }
    }

    /// Refuses classes whose instances need more than their stored properties: actors (their
    /// executor state), and classes without a Swift descriptor or field records.
    private func checkCreatableClass() throws(RuntimeMetadataError) {
        guard let layout = classLayout, layout.isSwiftClass else {
            throw .wrongKind(typeName: name, expected: "a Swift class")
        }
        var current: TypeMetadata? = self
        var depth = 0
        while let type = current, depth < 4096 {
            guard let descriptor = type.descriptor else {
                throw .wrongKind(typeName: type.name, expected: "a Swift class with a type descriptor")
            }
            if descriptor.isActor {
                throw .wrongKind(
                    typeName: type.name,
                    expected: "a class other than an actor, whose state only its initializer sets up"
                )
            }
            let own = try type.ownFields
            if own.count != descriptor.declaredFieldCount {
                throw .missingReflectionMetadata(typeName: type.name)
            }
            current = type.superclass
            depth += 1
        }
    }

    private func make(_ properties: [OpaqueValueAccess.PropertyValue]) throws(RuntimeMetadataError) -> Any {
        if kind == .class, let layout = classLayout {
            return OpaqueValueAccess.makeObject(
                of: reference,
                size: layout.instanceSize,
                alignmentMask: layout.instanceAlignment - 1,
                properties: properties
            )
        }
        return OpaqueValueAccess.makeValue(of: reference, properties: properties)
    }

    private func typed<T>(_ value: Any, as _: T.Type) throws(RuntimeMetadataError) -> T {
        guard let typed = value as? T else {
            throw .typeMismatch(expected: TypeMetadata(T.self).name, actual: name, context: "a new instance")
        }
        return typed
    }
}

/// Types whose empty value no general protocol gives.
private protocol EmptyValueProviding {
    /// The empty value.
    static var emptyValue: Any { get }
}

extension Bool: EmptyValueProviding {
    static var emptyValue: Any { false }
}

extension Dictionary: EmptyValueProviding {
    static var emptyValue: Any { [Key: Value]() }
}
