// MetadataKind.swift
//
// Mirrors swift::MetadataKind from swiftlang/swift include/swift/ABI/MetadataKind.def and
// the flag constants in include/swift/ABI/MetadataValues.h, checked against Swift 6.3.1 on
// Linux x86_64. The kind is the first word of every metadata record. A value above
// LastEnumerated (0x7FF) is an Objective-C isa pointer, so the record is a class; on Linux,
// Swift class metadata stores 0 there.

/// A metadata kind as the runtime stores it, including values this package does not know.
struct MetadataKind: RawRepresentable, Hashable, Sendable {
    /// The raw kind word.
    var rawValue: UInt

    /// `MetadataKindIsNonType`: the record describes a heap object, not a type.
    static let isNonType: UInt = 0x400
    /// `MetadataKindIsNonHeap`: the type is not a heap object.
    static let isNonHeap: UInt = 0x200
    /// `MetadataKindIsRuntimePrivate`: the layout is private to the runtime.
    static let isRuntimePrivate: UInt = 0x100
    /// `LastEnumeratedMetadataKind`: larger values are isa pointers.
    static let lastEnumerated: UInt = 0x7FF

    static let `class` = MetadataKind(rawValue: 0)
    static let `struct` = MetadataKind(rawValue: 0 | isNonHeap)
    static let `enum` = MetadataKind(rawValue: 1 | isNonHeap)
    static let optional = MetadataKind(rawValue: 2 | isNonHeap)
    static let foreignClass = MetadataKind(rawValue: 3 | isNonHeap)
    static let foreignReferenceType = MetadataKind(rawValue: 4 | isNonHeap)
    static let opaque = MetadataKind(rawValue: 0 | isRuntimePrivate | isNonHeap)
    static let tuple = MetadataKind(rawValue: 1 | isRuntimePrivate | isNonHeap)
    static let function = MetadataKind(rawValue: 2 | isRuntimePrivate | isNonHeap)
    static let existential = MetadataKind(rawValue: 3 | isRuntimePrivate | isNonHeap)
    static let metatype = MetadataKind(rawValue: 4 | isRuntimePrivate | isNonHeap)
    static let objCClassWrapper = MetadataKind(rawValue: 5 | isRuntimePrivate | isNonHeap)
    static let existentialMetatype = MetadataKind(rawValue: 6 | isRuntimePrivate | isNonHeap)
    static let extendedExistential = MetadataKind(rawValue: 7 | isRuntimePrivate | isNonHeap)
    static let fixedArray = MetadataKind(rawValue: 8 | isRuntimePrivate | isNonHeap)
    static let heapLocalVariable = MetadataKind(rawValue: 0 | isNonType)
    static let heapGenericLocalVariable = MetadataKind(rawValue: 0 | isNonType | isRuntimePrivate)
    static let errorObject = MetadataKind(rawValue: 1 | isNonType | isRuntimePrivate)
    static let task = MetadataKind(rawValue: 2 | isNonType | isRuntimePrivate)
    static let job = MetadataKind(rawValue: 3 | isNonType | isRuntimePrivate)

    /// Whether the kind word denotes class metadata: 0, or an isa pointer above the enumerated range.
    var isClass: Bool { rawValue == 0 || rawValue > Self.lastEnumerated }

    /// Whether the kind is one of the nominal value kinds that carry a type descriptor.
    var isValueNominal: Bool { self == .struct || self == .enum || self == .optional }
}
