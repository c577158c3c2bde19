// MetadataPattern.swift

/// The flags of a generic type's default metadata instantiation pattern
/// (`GenericMetadataPatternFlags`, include/swift/ABI/MetadataValues.h).
public struct MetadataPattern: Hashable, Sendable {
    /// The raw `PatternFlags` word.
    public let rawFlags: UInt32

    /// Whether instantiation runs a completion function, as it does for a type whose layout
    /// depends on its generic arguments.
    public let hasCompletionFunction: Bool

    /// Whether the pattern is a class's.
    let isClass: Bool

    /// `HasExtraDataPattern`: whether the pattern carries data to copy past the metadata's
    /// fixed part (a value type's field offset vector, a class's extra members).
    public var hasExtraDataPattern: Bool { rawFlags & (1 << 0) != 0 }

    /// `HasTrailingFlags`: whether instantiated metadata ends with a word of trailing flags.
    public var hasTrailingFlags: Bool { rawFlags & (1 << 1) != 0 }

    /// `Class_HasImmediateMembersPattern`: whether a class's pattern carries its immediate
    /// members; `false` for value types.
    public var hasImmediateMembersPattern: Bool { isClass && rawFlags & (1 << 31) != 0 }

    /// `Value_MetadataKind`: the kind a struct or enum pattern's metadata takes (``TypeMetadata/Kind/struct``,
    /// ``TypeMetadata/Kind/enum`` or ``TypeMetadata/Kind/optional``); `nil` for a class.
    public var valueMetadataKind: TypeMetadata.Kind? {
        isClass ? nil : TypeMetadata.Kind(rawValue: UInt((rawFlags >> 21) & 0x7FF))
    }
}
