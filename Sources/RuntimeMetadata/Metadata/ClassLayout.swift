// ClassLayout.swift
//
// The facts of Swift class metadata (swift::TargetClassMetadata in include/swift/ABI/Metadata.h,
// ClassFlags in include/swift/ABI/MetadataValues.h), as typed values.

/// How a Swift class's metadata and instances are laid out.
///
/// ```swift
/// let layout = try #require(TypeMetadata(MyClass.self).classLayout)
/// print(layout.instanceSize, layout.flags.contains(.usesSwiftRefcounting))
/// ```
public struct ClassLayout: Hashable, Sendable {
    private let facts: ClassMetadataFacts

    init(_ facts: ClassMetadataFacts) { self.facts = facts }

    /// The class flags.
    public var flags: ClassFlags { ClassFlags(rawValue: facts.flags) }

    /// Whether the metadata is a Swift class's (always, for a layout that exists: the runtime's
    /// `isTypeMetadata` test on the flags).
    public var isSwiftClass: Bool { flags.contains(.usesSwiftRefcounting) || flags.contains(.isSwiftPreStableABI) }

    /// The metadata's first word: on Linux the metadata kind (0 for a class), on Apple platforms
    /// the isa, the Objective-C metaclass.
    public var isa: UInt { facts.kindWord }

    /// The bytes of the whole metadata object, its prefix (layout string, destroy function,
    /// value witnesses) and its members (generic arguments, vtable, field offsets) included.
    public var size: Int { facts.classSize }

    /// The offset in bytes of the metadata's address point (where a metatype points) from the
    /// start of the metadata object.
    public var addressPoint: Int { facts.classAddressPoint }

    /// The size in bytes of an instance, heap header included.
    public var instanceSize: Int { facts.instanceSize }

    /// The alignment of an instance.
    public var instanceAlignment: Int { facts.instanceAlignment }

    /// The offset in bytes of an instance's address point from the start of its allocation.
    public var instanceAddressPoint: Int { facts.instanceAddressPoint }

    /// Where the class's generic arguments start, in words from the metadata's address point;
    /// `nil` when the class is not generic. Superclasses' members come first, so the offset of
    /// a subclass's arguments follows them.
    public var genericArgumentOffset: Int? { facts.genericArgumentOffset }
}

extension TypeMetadata {
    /// The metadata and instance layout of a Swift class; `nil` for other kinds, and for classes
    /// whose metadata is not a Swift class's.
    public var classLayout: ClassLayout? { record.reference.classMetadataFacts.map(ClassLayout.init) }
}
