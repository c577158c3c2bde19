// RuntimeMetadataLimits.swift

/// The depth and size limits of RuntimeMetadata, in one place.
///
/// The library reads names, files and values that come from outside the program: a user's
/// input, a decoded document, a plugin. The runtime's own code recurses over names and builds
/// metadata from counts without bounds, and runs out of stack or silently truncates where the
/// input is deep or large enough. Every input is therefore checked against these limits before
/// the runtime sees it, and a refusal throws ``RuntimeMetadataError/limitExceeded(_:value:context:)``
/// naming the limit it hit.
///
/// Each limit is far above what the compiler produces for real programs and low enough that the
/// runtime's recursion stays within a 512 KiB thread stack.
public enum RuntimeMetadataLimits {
    /// The deepest nesting of a type name: the name itself is one level, and generic arguments,
    /// tuple elements, array and dictionary sugar and packs each add one. Applies to
    /// ``TypeMetadata/init(named:)``, ``TypeMetadata/init(mangledName:)`` and the inspector's
    /// `layout`.
    ///
    /// The runtime's own `swift_getTypeName`, which ``TypeMetadata/name`` calls, recurses once per
    /// level and overflows a 512 KiB stack between 300 and 500 levels; names at this limit print
    /// on such a stack. The library parses and resolves names deeper than a few levels on a
    /// stack of its own, so the caller's stack size does not matter to it.
    public static let maximumNameNesting = 256

    /// The deepest nesting that ``TypeMetadata/name`` spells: the name of a type that nests
    /// deeper (through generic recursion, a type the program builds at run time) is spelled to
    /// this many levels, what lies deeper written `…`, and its ``TypeMetadata/mangledName`` is
    /// `nil`.
    ///
    /// The runtime's `swift_getTypeName` recurses once per level, about 1.3 KiB of stack each,
    /// and the library's own spelling of a deeper type recurses once per level spelled; both run
    /// on a 64 MiB stack of the library's own, where this limit leaves room for either under a
    /// sanitizer's larger frames (10,000 levels overflowed it under ThreadSanitizer).
    /// ``TypeMetadata/name(maximumNesting:)`` spells fewer levels for callers that print many
    /// names, such as a renderer of deep view trees.
    public static let maximumNamedNesting = 4_000

    /// The most elements a tuple may have: the runtime's `TupleTypeFlags` keep the count in
    /// 16 bits (include/swift/ABI/MetadataValues.h).
    public static let maximumTupleArity = 0xFFFF

    /// The most protocols a composition may name, before duplicates are removed.
    public static let maximumCompositionSize = 1024

    /// The longest type name, in UTF-8 bytes, that a by-name lookup reads.
    public static let maximumNameLength = 1 << 20
}
