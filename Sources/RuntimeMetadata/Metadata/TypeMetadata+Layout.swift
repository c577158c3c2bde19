// TypeMetadata+Layout.swift

extension TypeMetadata {
    /// The number of bytes a value occupies, without tail padding; equals `MemoryLayout<T>.size`.
    public var size: Int { record.witnesses.size }

    /// The distance between consecutive values in an array; equals `MemoryLayout<T>.stride`.
    public var stride: Int { record.witnesses.stride }

    /// The required alignment in bytes; equals `MemoryLayout<T>.alignment`.
    public var alignment: Int { ValueWitnessFlags(rawValue: record.witnesses.flags).alignment }

    /// Whether values are plain old data: copied with `memcpy`, destroyed by doing nothing.
    public var isPOD: Bool { record.witnesses.flags & ValueWitnessFlags.isNonPOD == 0 }

    /// Whether values can be moved with `memcpy` (false for types holding weak references).
    public var isBitwiseTakable: Bool { record.witnesses.flags & ValueWitnessFlags.isNonBitwiseTakable == 0 }

    /// Whether values can be copied; false for `~Copyable` types, generic ones included.
    public var isCopyable: Bool { record.isCopyable }

    /// Whether a value fits inline in an existential container's three-word buffer.
    public var isInlineStorage: Bool { record.witnesses.flags & ValueWitnessFlags.isNonInline == 0 }

    /// Whether the type has spare bits that enums can use for their tags.
    public var hasSpareBits: Bool { record.witnesses.flags & ValueWitnessFlags.hasSpareBits != 0 }

    /// The number of invalid bit patterns that `Optional` and other enums can use as tags.
    public var extraInhabitantCount: Int { record.witnesses.extraInhabitantCount }

    /// Whether the value witness table carries the enum witnesses (tag, projection, injection).
    public var hasEnumWitnesses: Bool { record.witnesses.flags & ValueWitnessFlags.hasEnumWitnesses != 0 }

    /// Whether the metadata carries a value witness table, which reading and writing values needs.
    ///
    /// False for unknown kinds and for `@convention(block)` function types on Linux, where the
    /// runtime leaves the table unset; their layout is then reported as one pointer.
    public var hasValueWitnesses: Bool { record.reference.hasValueWitnesses }

    /// The raw value witness flags, for diagnostics.
    public var valueWitnessFlags: UInt32 { record.witnesses.flags }

    /// The size in bytes of an instance of a Swift class, heap header included; `nil` for other kinds.
    public var instanceSize: Int? { classLayout?.instanceSize }

    /// The alignment of an instance of a Swift class; `nil` for other kinds.
    public var instanceAlignment: Int? { classLayout?.instanceAlignment }
}
