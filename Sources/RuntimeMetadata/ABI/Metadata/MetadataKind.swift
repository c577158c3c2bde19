// MetadataKind.swift
//
// Mirrors swift::MetadataKind from swiftlang/swift include/swift/ABI/MetadataKind.def and
// the flag constants in include/swift/ABI/MetadataValues.h, checked against Swift 6.3.1 on
// Linux x86_64. The kind is the first word of every metadata record. A value above
// LastEnumerated (0x7FF) is an Objective-C isa pointer, so the record is a class; on Linux,
// Swift class metadata stores 0 there.

/// A metadata kind as the runtime stores it, including values this package does not know.
///
/// Usable from inlinable code, with its constants computed, so that the opening of an
/// existential, inlined into its caller, checks a kind against a literal.
@usableFromInline
struct MetadataKind: RawRepresentable, Hashable, Sendable {
    /// The raw kind word.
    @usableFromInline
    var rawValue: UInt

    /// Wraps a raw kind word.
    /// - Parameter rawValue: The word.
    @inlinable
    init(rawValue: UInt) {
        self.rawValue = rawValue
    }

    /// `MetadataKindIsNonType`: the record describes a heap object, not a type.
    @inlinable static var isNonType: UInt { 0x400 }
    /// `MetadataKindIsNonHeap`: the type is not a heap object.
    @inlinable static var isNonHeap: UInt { 0x200 }
    /// `MetadataKindIsRuntimePrivate`: the layout is private to the runtime.
    @inlinable static var isRuntimePrivate: UInt { 0x100 }
    /// `LastEnumeratedMetadataKind`: larger values are isa pointers.
    @inlinable static var lastEnumerated: UInt { 0x7FF }

    @inlinable static var `class`: MetadataKind { MetadataKind(rawValue: 0) }
    @inlinable static var `struct`: MetadataKind { MetadataKind(rawValue: 0 | isNonHeap) }
    @inlinable static var `enum`: MetadataKind { MetadataKind(rawValue: 1 | isNonHeap) }
    @inlinable static var optional: MetadataKind { MetadataKind(rawValue: 2 | isNonHeap) }
    @inlinable static var foreignClass: MetadataKind { MetadataKind(rawValue: 3 | isNonHeap) }
    @inlinable static var foreignReferenceType: MetadataKind { MetadataKind(rawValue: 4 | isNonHeap) }
    @inlinable static var opaque: MetadataKind { MetadataKind(rawValue: 0 | isRuntimePrivate | isNonHeap) }
    @inlinable static var tuple: MetadataKind { MetadataKind(rawValue: 1 | isRuntimePrivate | isNonHeap) }
    @inlinable static var function: MetadataKind { MetadataKind(rawValue: 2 | isRuntimePrivate | isNonHeap) }
    @inlinable static var existential: MetadataKind { MetadataKind(rawValue: 3 | isRuntimePrivate | isNonHeap) }
    @inlinable static var metatype: MetadataKind { MetadataKind(rawValue: 4 | isRuntimePrivate | isNonHeap) }
    @inlinable static var objCClassWrapper: MetadataKind { MetadataKind(rawValue: 5 | isRuntimePrivate | isNonHeap) }
    @inlinable static var existentialMetatype: MetadataKind { MetadataKind(rawValue: 6 | isRuntimePrivate | isNonHeap) }
    @inlinable static var extendedExistential: MetadataKind { MetadataKind(rawValue: 7 | isRuntimePrivate | isNonHeap) }
    @inlinable static var fixedArray: MetadataKind { MetadataKind(rawValue: 8 | isRuntimePrivate | isNonHeap) }
    @inlinable static var heapLocalVariable: MetadataKind { MetadataKind(rawValue: 0 | isNonType) }
    @inlinable static var heapGenericLocalVariable: MetadataKind {
        MetadataKind(rawValue: 0 | isNonType | isRuntimePrivate)
    }
    @inlinable static var errorObject: MetadataKind { MetadataKind(rawValue: 1 | isNonType | isRuntimePrivate) }
    @inlinable static var task: MetadataKind { MetadataKind(rawValue: 2 | isNonType | isRuntimePrivate) }
    @inlinable static var job: MetadataKind { MetadataKind(rawValue: 3 | isNonType | isRuntimePrivate) }

    /// Whether the kind word denotes class metadata: 0, or an isa pointer above the enumerated range.
    @inlinable
    var isClass: Bool { rawValue == 0 || rawValue > Self.lastEnumerated }

    /// Whether the kind is one of the nominal value kinds that carry a type descriptor.
    var isValueNominal: Bool { self == .struct || self == .enum || self == .optional }
}
