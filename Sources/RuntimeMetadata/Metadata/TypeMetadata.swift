// TypeMetadata.swift

/// The runtime's description of a Swift type: its kind, name, layout, fields, cases and
/// generic arguments.
///
/// Create one from any metatype, then ask it questions. Each answer is computed once per
/// type and cached; asking again about a type already seen takes no lock and allocates
/// nothing.
///
/// ```swift
/// let metadata = TypeMetadata(Point.self)
/// metadata.kind        // .struct
/// metadata.size        // MemoryLayout<Point>.size
/// try metadata.fields.map(\.name)  // ["x", "y"]
/// ```
///
/// Two values are equal when they describe the same type.
public struct TypeMetadata: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The shared, cached record, which lives as long as the process.
    @usableFromInline
    let immortalRecord: ImmortalReference<TypeRecord>

    /// The shared, cached record.
    var record: TypeRecord {
        @inline(__always) get { immortalRecord.object }
    }

    /// Creates the metadata of a type.
    /// - Parameter type: The type, such as `Int.self` or `type(of: value)`.
    @inlinable
    public init(_ type: Any.Type) {
        self.immortalRecord = TypeRecord.immortalRecord(for: MetadataReference(type))
    }

    /// Creates the metadata of a type that may be noncopyable.
    ///
    /// `Any.Type` cannot hold the metatype of a `~Copyable` type, so this generic form takes one.
    /// - Parameter type: The type.
    public init<T: ~Copyable>(of type: T.Type) {
        self.immortalRecord = TypeRecord.immortalRecord(for: MetadataReference(noncopyable: type))
    }

    /// Wraps a record already looked up.
    init(immortalRecord: ImmortalReference<TypeRecord>) {
        self.immortalRecord = immortalRecord
    }

    /// Wraps a metadata handle from the ABI layer.
    init(_ reference: MetadataReference) {
        self.immortalRecord = TypeRecord.immortalRecord(for: reference)
    }

    /// The metadata handle.
    var reference: MetadataReference { immortalRecord.withObject { $0.reference } }

    /// The type as a metatype value, or `nil` for a noncopyable type, which `Any.Type` cannot hold.
    public var type: Any.Type? { record.isCopyable ? record.reference.metatype : nil }

    /// The kind of metadata.
    public var kind: Kind { immortalRecord.withObject { $0.kind } }

    /// The type's fully qualified name, as `String(reflecting:)` prints it.
    ///
    /// A type that nests deeper than ``RuntimeMetadataLimits/maximumNamedNesting`` levels (a
    /// generic type the program builds by recursion, `W<W<…<Int>…>>`) is spelled to that depth,
    /// what lies deeper written `…`: the runtime's own namer runs out of stack on such types.
    public var name: String { record.name }

    /// The type's name spelled to `maximumNesting` levels of nesting (the name itself is one
    /// level), as ``name`` is spelled to ``RuntimeMetadataLimits/maximumNamedNesting``: a type
    /// that nests no deeper has its full name, and a deeper one its outer levels, each part
    /// that fits the levels left named whole and what lies deeper written `…`.
    ///
    /// ```swift
    /// TypeMetadata([[Int]].self).name(maximumNesting: 2)   // "Swift.Array<Swift.Array<…>>"
    /// ```
    ///
    /// Callers that print a name per value of a deep structure use it to keep their output
    /// linear in the structure's size.
    /// - Parameter maximumNesting: The levels to spell, at least 1.
    /// - Returns: The name.
    public func name(maximumNesting: Int) -> String {
        guard record.kind.isKnown, maximumNesting < RuntimeMetadataLimits.maximumNamedNesting,
            reference.nestsDeeper(than: max(maximumNesting, 1))
        else { return name }
        return reference.name(maximumNesting: maximumNesting)
    }

    /// The type's mangled name without the `$s` prefix, as `_mangledTypeName` returns it; for a
    /// fixed-size array (`Builtin.FixedArray<4, Swift.Int>`, which the runtime does not
    /// mangle), the compiler's mangling (`$3_SiBV`). ``init(mangledName:)`` resolves either.
    ///
    /// A type that holds a fixed-size array in its generic arguments, tuple elements or
    /// metatype (`Swift.Array<Builtin.FixedArray<2, Swift.Int>>`) is mangled from its structure,
    /// each part spelled out (`Say$1_SiBVG`): the runtime's lookup reads it, though a type that
    /// repeats a part is spelled longer than the compiler would, which abbreviates repeats. Such a type that
    /// also holds a private or local type, a type nested in a generic type, a function or an
    /// existential has no mangled name.
    ///
    /// A `Builtin.FixedArray` of no elements is the runtime's own `()`, and one of one element is
    /// its element type (`Builtin.FixedArray<1, Swift.Int>` is `Swift.Int`): the runtime makes
    /// those canonical, so they are named and mangled as those types.
    ///
    /// `nil` when the runtime cannot mangle the type, for example for an unknown kind or a
    /// constrained existential metatype.
    public var mangledName: String? {
        record.mangledName.value { record.kind.isKnown ? record.reference.safeMangledName : nil }
    }

    /// The name of the module that declares a nominal type, or `nil` for structural types.
    public var moduleName: String? { record.descriptor?.moduleName }

    /// The nominal type descriptor of a struct, enum, optional or class.
    public var descriptor: TypeDescriptor? { record.descriptor.map(TypeDescriptor.init) }

    /// The name, as `String(reflecting:)` prints it.
    public var description: String { record.name }

    /// The name and kind, for debugging.
    public var debugDescription: String { "TypeMetadata(\(record.name), \(record.kind))" }

    /// Whether two values describe the same type.
    public static func == (lhs: TypeMetadata, rhs: TypeMetadata) -> Bool { lhs.immortalRecord === rhs.immortalRecord }

    /// Hashes the type's identity.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(immortalRecord.identity) }

    /// Throws when the metadata's kind is unknown to this version of the library.
    ///
    /// - Throws: ``RuntimeMetadataError/unknownKind(rawValue:typeName:)``.
    public func validateKind() throws(RuntimeMetadataError) {
        if case .unknown(let raw) = record.kind {
            throw .unknownKind(rawValue: raw, typeName: record.name)
        }
    }
}
