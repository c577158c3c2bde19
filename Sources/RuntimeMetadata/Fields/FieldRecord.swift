// FieldRecord.swift

/// A stored property or an enum case as the type's field descriptor records it, read without
/// metadata: from a loaded image or from one read from its file with ``Image/read(_:)``.
///
/// The type is given twice: as a mangling, with each symbolic reference replaced by the
/// mangling of the context it names, and as the runtime's demangler prints it, with each such
/// context spelled by its portable qualified name (an anonymous context as
/// `(unknown context at libFoo.so+0x1a2b)`), so that both read the same in every process.
public struct FieldRecord: Hashable, Sendable {
    /// The property's or case's name.
    public let name: String
    /// Whether the record has a type: every property, and an enum case with a payload.
    public let hasType: Bool
    /// The mangled type, such as `Say4main3FooVG`; `nil` without a type, when a symbolic
    /// reference names a context with no mangling of its own (an anonymous context), or when a
    /// substitution follows a symbolic reference (the replacement would shift it).
    public let mangledTypeName: String?
    /// The type as the runtime's demangler prints it, such as `Swift.Array<main.Foo>`; `nil`
    /// without a type, or when the name cannot be demangled: a symbolic reference of another
    /// kind than a context's, or a substitution after a reference to a generic type or a
    /// protocol.
    public let typeName: String?
    /// Whether the property is a `var` (`FieldRecordFlags::IsVar`).
    public let isVar: Bool
    /// Whether the case is `indirect` (`FieldRecordFlags::IsIndirectCase`).
    public let isIndirectCase: Bool
    /// Whether the compiler made the field up (`FieldRecordFlags::IsArtificial`).
    public let isArtificial: Bool
}

extension TypeDescriptor {
    /// The records of the type's field descriptor: a struct's or class's own stored
    /// properties in declaration order, an enum's cases in tag order (payload cases first);
    /// `nil` when the module kept no reflection metadata for the type.
    public var fieldRecords: [FieldRecord]? {
        reference.fieldRecordFacts?.map { facts in
            FieldRecord(
                name: facts.name,
                hasType: facts.mangledType != nil,
                mangledTypeName: facts.mangledType.flatMap(MangledTypeNameText.mangling),
                typeName: facts.mangledType.flatMap(MangledTypeNameText.demangled),
                isVar: facts.flags & 0x2 != 0,
                isIndirectCase: facts.flags & 0x1 != 0,
                isArtificial: facts.flags & 0x4 != 0
            )
        }
    }
}
