// Field.swift

/// A stored property of a struct or class, with its type and byte offset.
///
/// Fields come from ``TypeMetadata/fields`` in declaration order; for classes the
/// superclasses' fields come first, root class first.
public struct Field: Hashable, Sendable, CustomStringConvertible {
    /// How a stored property holds a class reference.
    public enum Ownership: String, Hashable, Sendable {
        /// An ordinary strong reference, or not a reference at all.
        case strong
        /// `weak`.
        case weak
        /// `unowned` (safe).
        case unowned
        /// `unowned(unsafe)`.
        case unownedUnsafe
    }

    /// The facts, in a process-lifetime object owned by the type's field list: copying a
    /// field copies one unretained reference.
    @usableFromInline
    let storage: ImmortalReference<Storage>

    /// The property's name.
    @inlinable
    public var name: String { storage.withObject { $0.name } }

    /// The property's index among the declaring type's own stored properties.
    @inlinable
    public var index: Int { storage.withObject { $0.index } }

    /// The property's type; `nil` when the runtime cannot name it.
    ///
    /// Swift 6.3 hides the type of a stored property of `~Copyable` type from reflection
    /// (``isTypeHidden`` is then `true`); a type from a module that is not loaded also
    /// leaves this `nil`. For `weak` properties this is the referent's optional type.
    @inlinable
    public var type: TypeMetadata? { storage.withObject { $0.type } }

    /// The byte offset from the start of the value (structs) or object (classes, heap header included).
    @inlinable
    public var offset: Int { storage.withObject { $0.offset } }

    /// Whether the property is declared with `var` (otherwise `let`).
    @inlinable
    public var isVar: Bool { storage.withObject { $0.isVar } }

    /// How the property holds a class reference.
    @inlinable
    public var ownership: Ownership { storage.withObject { $0.ownership } }

    /// The number of bytes the property takes in its container: its type's size, except where
    /// its declaration stores it in another form.
    ///
    /// A metatype of a struct, enum, tuple, function or existential declared as such (`var
    /// kind: Int.Type`) has one value, which the compiler stores in no bytes, although the
    /// metatype's own size, which generic code passes, is a pointer's; a tuple or optional
    /// declared with one is laid out with it empty (`(Int, Int.Type)` takes 8 bytes, `Int.Type?`
    /// one). A metatype declared through a type parameter (`T.Type`) is stored as its type
    /// says. `nil` when the type is unknown, or its stored form depends on a declaration that
    /// cannot be resolved (``RuntimeMetadataError/unknownStorage(typeName:context:)``).
    public var storedSize: Int? {
        storage.withObject { storage in
            guard let type = storage.type, let form = storage.storedForm else { return nil }
            return OpaqueValueAccess.storedSize(of: type.reference, form: form)
        }
    }

    /// The type whose layout the property's storage has: ``type``, or for a property stored in
    /// another form (``storedSize``), the form's own type (`()` for a thin metatype, `(Swift.Int,
    /// ())` for `(Int, Int.Type)`); `nil` when ``storedSize`` is.
    var storedType: TypeMetadata? {
        storage.withObject { storage in
            guard let type = storage.type, let form = storage.storedForm else { return nil }
            return TypeMetadata(form.storedType(of: type.reference))
        }
    }

    /// Whether the record is marked indirect.
    public var isIndirect: Bool { storage.withObject { $0.isIndirect } }

    /// Whether the compiler hid the property's type from reflection (noncopyable stored properties).
    public var isTypeHidden: Bool { storage.withObject { $0.isTypeHidden } }

    /// The mangled name the field record stores, symbolic references shown as `<ref>`.
    public var mangledTypeName: String { storage.withObject { $0.mangledTypeName } }

    /// The type that declares the property (a superclass for inherited class properties).
    public var declaringType: TypeMetadata { storage.withObject { $0.declaringType } }

    /// Where a read of the property's exact type from a root of exactly the declaring type
    /// loads from, decided once: the check and the load are inlined into the caller.
    @usableFromInline
    @frozen
    struct DirectRead: Sendable {
        /// The property's type.
        @usableFromInline
        let fieldType: MetadataReference
        /// The declaring type.
        @usableFromInline
        let declaringType: MetadataReference
        /// The property's offset.
        @usableFromInline
        let offset: Int
        /// Whether the declaring type is a class, whose instances hold the property.
        @usableFromInline
        let isReference: Bool
        /// The size of a property of plain data that fits an `Any`'s buffer, whose copy into an
        /// `Any` is its bytes; -1 for any other property.
        @usableFromInline
        let plainInlineSize: Int
    }

    /// The facts of one field.
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline
        let name: String
        @usableFromInline
        let index: Int
        @usableFromInline
        let type: TypeMetadata?
        @usableFromInline
        let offset: Int
        @usableFromInline
        let isVar: Bool
        @usableFromInline
        let ownership: Ownership
        let isIndirect: Bool
        let isTypeHidden: Bool
        let mangledTypeName: String
        let declaringType: TypeMetadata
        /// Whether the property holds a function at its declared abstraction, which generic
        /// code cannot move (FunctionAbstraction.swift).
        let storesSubstitutedFunction: Bool
        /// How the property is stored against its type's metadata (StoredRepresentation.swift);
        /// `nil` when that depends on a declaration that cannot be resolved.
        let storedForm: OpaqueValueAccess.StoredForm?
        /// Whether values can be read and written: the type is known, copyable and has value
        /// witnesses, is not a function at its declared abstraction, and its stored form is known.
        let isAccessible: Bool
        /// The direct read, for an accessible strong property.
        @usableFromInline
        let directRead: DirectRead?

        init(
            name: String,
            index: Int,
            type: TypeMetadata?,
            offset: Int,
            isVar: Bool,
            ownership: Ownership,
            isIndirect: Bool,
            isTypeHidden: Bool,
            mangledTypeName: String,
            declaringType: TypeMetadata
        ) {
            self.name = name
            self.index = index
            self.type = type
            self.offset = offset
            self.isVar = isVar
            self.ownership = ownership
            self.isIndirect = isIndirect
            self.isTypeHidden = isTypeHidden
            self.mangledTypeName = mangledTypeName
            self.declaringType = declaringType
            self.storesSubstitutedFunction =
                type?.storesSubstitutedFunction(declaredAs: mangledTypeName) {
                    declaringType.declaredPattern(ofRecordAt: index)
                } ?? false
            // No type: nothing is read, as its form.
            let storedForm: OpaqueValueAccess.StoredForm? =
                type.map { $0.storedForm(ofRecordAt: index, in: declaringType, mangledName: mangledTypeName) }
                ?? .asType
            self.storedForm = storedForm
            let isAccessible =
                !storesSubstitutedFunction && storedForm != nil
                && (type.map { $0.isCopyable && $0.hasValueWitnesses } ?? false)
            self.isAccessible = isAccessible
            // The direct read loads the property as its type lays it out.
            if isAccessible, ownership == .strong, storedForm == .asType, let type {
                let isPlainInline =
                    type.isPOD && type.isInlineStorage && type.kind != .existential
                    && type.kind != .extendedExistential
                self.directRead = DirectRead(
                    fieldType: type.reference,
                    declaringType: declaringType.reference,
                    offset: offset,
                    isReference: declaringType.kind == .class,
                    plainInlineSize: isPlainInline ? type.size : -1
                )
            } else {
                self.directRead = nil
            }
        }
    }

    /// The name and type.
    public var description: String { "\(name): \(type?.name ?? "<unknown>") @ \(offset)" }

    /// Two fields are equal when they are the same property of the same type.
    public static func == (lhs: Field, rhs: Field) -> Bool {
        lhs.declaringType == rhs.declaringType && lhs.index == rhs.index
    }

    /// Hashes the declaring type and index.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(declaringType)
        hasher.combine(index)
    }
}

extension Field.Ownership {
    /// Reads the ownership from a mangled name's suffix.
    init(suffix: String) {
        switch suffix {
        case "Xw": self = .weak
        case "Xo": self = .unowned
        case "Xu": self = .unownedUnsafe
        default: self = .strong
        }
    }

    /// The ABI layer's ownership.
    var storage: StorageOwnership {
        switch self {
        case .strong: .strong
        case .weak: .weak
        case .unowned: .unowned
        case .unownedUnsafe: .unownedUnsafe
        }
    }
}

extension TypeMetadata {
    /// The stored properties of a struct or class, in declaration order.
    ///
    /// For a class, the properties of its superclasses come first, root class first, each
    /// with the ``Field/declaringType`` that declares it; offsets are read from this class's
    /// metadata, so they are right even when a superclass from another module has a layout
    /// only known at run time. Tuples, enums and other kinds have no stored properties here:
    /// see ``tupleElements`` and ``cases``.
    ///
    /// - Throws: ``RuntimeMetadataError/missingReflectionMetadata(typeName:)`` when the type (or a
    ///   superclass) was built without reflection metadata; ``RuntimeMetadataError/wrongKind(typeName:expected:)``
    ///   for kinds without stored properties; ``RuntimeMetadataError/unknownKind(rawValue:typeName:)``.
    @inlinable
    public var fields: FieldList {
        get throws(RuntimeMetadataError) {
            // Warm: the published list, read in the caller. Cold, or an error: out of line.
            if let box = immortalRecord.withObject({ $0.allFields.published }), box.withObject({ !$0.failed }) {
                return FieldList(box: box)
            }
            return try computedFields()
        }
    }

    /// The list of ``fields``, computed and published on first use.
    /// - Throws: As ``fields``.
    @usableFromInline
    func computedFields() throws(RuntimeMetadataError) -> FieldList {
        let box = immortalRecord.withObject { $0.allFields.immortalBox { computeAllFields() } }
        if let error = box.withObject({ $0.error }) { throw error }
        return FieldList(box: box)
    }

    /// The stored properties this type declares itself, without inherited ones.
    ///
    /// - Throws: As ``fields``.
    public var ownFields: FieldList {
        get throws(RuntimeMetadataError) {
            let box = immortalRecord.withObject { $0.ownFields.immortalBox { computeOwnFields() } }
            if let error = box.withObject({ $0.error }) { throw error }
            return FieldList(box: box)
        }
    }

    private func computeOwnFields() -> Result<FieldsBox.Contents, RuntimeMetadataError> {
        if case .unknown(let raw) = kind { return .failure(.unknownKind(rawValue: raw, typeName: name)) }
        guard kind == .struct || kind == .class else {
            return .failure(.wrongKind(typeName: name, expected: "a struct or class"))
        }
        let reference = record.reference
        switch reference.fieldRecords {
        case .failure(.noReflectionMetadata):
            return .failure(.missingReflectionMetadata(typeName: name))
        case .failure(.notNominal):
            // Classes without a Swift descriptor (none on Linux) have no recorded fields.
            return .success(FieldsBox.Contents([]))
        case .success(let records):
            let offsets = reference.fieldOffsets
            var fields: [Field.Storage] = []
            for (index, entry) in records.enumerated() where index < offsets.count {
                fields.append(
                    Field.Storage(
                        name: entry.name,
                        index: index,
                        type: entry.type.map(TypeMetadata.init),
                        offset: offsets[index],
                        isVar: entry.flags & 0x2 != 0,
                        ownership: Field.Ownership(suffix: entry.ownershipSuffix),
                        isIndirect: entry.flags & 0x1 != 0,
                        isTypeHidden: entry.isHiddenType,
                        mangledTypeName: entry.mangledTypeName ?? "",
                        declaringType: self
                    )
                )
            }
            return .success(FieldsBox.Contents(fields))
        }
    }

    private func computeAllFields() -> Result<FieldsBox.Contents, RuntimeMetadataError> {
        guard kind == .class else { return computeOwnFields() }
        var chain: [TypeMetadata] = []
        var current: TypeMetadata? = self
        while let type = current, chain.count < 256 {
            chain.append(type)
            current = type.superclass
        }
        var fields: [Field.Storage] = []
        for type in chain.reversed() {
            // A superclass's metadata holds the same offsets for its own fields as every
            // subclass's metadata: the superclass part of an instance is laid out first.
            switch type.record.ownFields.value({ type.computeOwnFields() }) {
            case .success(let own): fields += own.storage
            case .failure(let error): return .failure(error)
            }
        }
        return .success(FieldsBox.Contents(fields))
    }

    /// Looks up a stored property by name, inherited properties included.
    /// - Parameter name: The property's name.
    /// - Returns: The field.
    /// - Throws: ``RuntimeMetadataError/noSuchField(name:typeName:)``, or what ``fields`` throws.
    public func field(named name: String) throws(RuntimeMetadataError) -> Field {
        let list = try fields
        if let field = list.box.withObject({ $0.field(named: name) }) { return field }
        throw .noSuchField(name: name, typeName: self.name)
    }

    /// Looks up a stored property by its position in ``fields``.
    /// - Parameter index: The position.
    /// - Returns: The field.
    /// - Throws: ``RuntimeMetadataError/fieldIndexOutOfRange(index:count:typeName:)``, or what ``fields`` throws.
    public func field(at index: Int) throws(RuntimeMetadataError) -> Field {
        let all = try fields
        guard all.indices.contains(index) else {
            throw .fieldIndexOutOfRange(index: index, count: all.count, typeName: name)
        }
        return all[index]
    }
}
