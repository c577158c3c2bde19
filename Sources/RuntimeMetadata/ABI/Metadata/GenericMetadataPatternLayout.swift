// GenericMetadataPatternLayout.swift
//
// Mirrors swift::TargetGenericMetadataPattern from swiftlang/swift include/swift/ABI/Metadata.h
// and its flags, GenericMetadataPatternFlags, from include/swift/ABI/MetadataValues.h:
//
//     struct TargetGenericMetadataPattern {
//       TargetCompactFunctionPointer<..., MetadataInstantiator> InstantiationFunction;
//       TargetCompactFunctionPointer<..., MetadataCompleter> CompletionFunction;
//       GenericMetadataPatternFlags PatternFlags;
//     };
//
// Class patterns (TargetGenericClassMetadataPattern) and value patterns
// (TargetGenericValueMetadataPattern) continue past these three words; only the common part is
// read here. Checked against Swift 6.3.1 on Linux x86_64 for a generic struct, enum and class.

/// A view of a generic type's default instantiation pattern.
@unsafe
struct GenericMetadataPatternLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var instantiationFunction: Int32
        var completionFunction: Int32
        var patternFlags: UInt32
    }

    /// `GenericMetadataPatternFlags` bit positions.
    enum Flag {
        /// `HasExtraDataPattern`.
        static let hasExtraDataPattern: UInt32 = 1 << 0
        /// `HasTrailingFlags`.
        static let hasTrailingFlags: UInt32 = 1 << 1
        /// `Class_HasImmediateMembersPattern`.
        static let classHasImmediateMembersPattern: UInt32 = 1 << 31
        /// `Value_MetadataKind`: the first of its 11 bits.
        static let valueMetadataKindShift: UInt32 = 21
        /// `Value_MetadataKind_width`.
        static let valueMetadataKindWidth: UInt32 = 11
    }

    /// The pattern's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The pattern's address.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// `PatternFlags`.
    var flags: UInt32 { unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.patternFlags)!) }

    /// Whether the pattern has a completion function (non-zero `CompletionFunction`).
    var hasCompletionFunction: Bool {
        unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.completionFunction)!, as: Int32.self) != 0
    }
}
