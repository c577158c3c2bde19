// ContextDescriptorFlags.swift
//
// Mirrors swift::ContextDescriptorFlags, ContextDescriptorKind and TypeContextDescriptorFlags
// from swiftlang/swift include/swift/ABI/MetadataValues.h, checked against Swift 6.3.1 on
// Linux x86_64 (non-generic struct 0x51, generic struct 0xD1, enum 0x52, class 0x80000050,
// protocol 0x10043).

/// The flag word at the start of every context descriptor.
struct ContextDescriptorFlags: RawRepresentable, Hashable, Sendable {
    /// The raw word.
    var rawValue: UInt32

    /// `ContextDescriptorKind`.
    enum Kind: UInt8 {
        case module = 0
        case `extension` = 1
        case anonymous = 2
        case `protocol` = 3
        case opaqueType = 4
        case `class` = 16
        case `struct` = 17
        case `enum` = 18
    }

    /// The kind, or `nil` for a kind this package does not know.
    var kind: Kind? { Kind(rawValue: UInt8(rawValue & 0x1F)) }
    /// The raw kind value.
    var rawKind: UInt8 { UInt8(rawValue & 0x1F) }
    /// `hasInvertibleProtocols`: a trailing `InvertibleProtocolSet` follows.
    var hasInvertibleProtocols: Bool { rawValue & 0x20 != 0 }
    /// `isUnique`.
    var isUnique: Bool { rawValue & 0x40 != 0 }
    /// `isGeneric`: a generic context follows the fixed fields.
    var isGeneric: Bool { rawValue & 0x80 != 0 }
    /// `getVersion`.
    var version: UInt8 { UInt8((rawValue >> 8) & 0xFF) }
    /// `getKindSpecificFlags`.
    var kindSpecificFlags: UInt16 { UInt16(rawValue >> 16) }
}

/// `TypeContextDescriptorFlags`: the kind-specific flags of struct, enum and class descriptors.
struct TypeContextDescriptorFlags: RawRepresentable, Hashable, Sendable {
    /// The raw 16 bits.
    var rawValue: UInt16

    /// `MetadataInitialization`: 0 none, 1 singleton, 2 foreign.
    var metadataInitialization: UInt16 { rawValue & 0x3 }
    /// `HasImportInfo`.
    var hasImportInfo: Bool { rawValue & (1 << 2) != 0 }
    /// `HasCanonicalMetadataPrespecializationsOrSingletonMetadataPointer`.
    var hasCanonicalMetadataPrespecializationsOrSingletonMetadataPointer: Bool { rawValue & (1 << 3) != 0 }
    /// `HasLayoutString`.
    var hasLayoutString: Bool { rawValue & (1 << 4) != 0 }
    /// Class: `IsActor`.
    var classIsActor: Bool { rawValue & (1 << 7) != 0 }
    /// Class: `IsDefaultActor`.
    var classIsDefaultActor: Bool { rawValue & (1 << 8) != 0 }
    /// Class: `ResilientSuperclassReferenceKind` (a `TypeReferenceKind`).
    var classResilientSuperclassReferenceKind: UInt16 { (rawValue >> 9) & 0x7 }
    /// Class: `AreImmediateMembersNegative`.
    var classAreImmediateMembersNegative: Bool { rawValue & (1 << 12) != 0 }
    /// Class: `HasResilientSuperclass`.
    var classHasResilientSuperclass: Bool { rawValue & (1 << 13) != 0 }
    /// Class: `HasOverrideTable`.
    var classHasOverrideTable: Bool { rawValue & (1 << 14) != 0 }
    /// Class: `HasVTable`.
    var classHasVTable: Bool { rawValue & (1 << 15) != 0 }
}
