// ExtendedExistentialTypeMetadataLayout.swift
//
// Mirrors swift::TargetExtendedExistentialTypeMetadata (the kind word, then the shape) and the
// leading flags word of TargetExtendedExistentialTypeShape from swiftlang/swift
// include/swift/ABI/Metadata.h, with ExtendedExistentialTypeShapeFlags from
// include/swift/ABI/MetadataValues.h. These are the constrained existentials, such as
// `any Sequence<Int>`. The shape's special kind says how a value is stored: none, in an opaque
// container laid out as TargetOpaqueExistentialContainer (a three-word buffer, then the
// dynamic type's metadata); `Class`, as a class reference in the first word; `Metatype`, as a
// metadata pointer; `ExplicitLayout`, as the shape's own value witnesses describe.

/// A view of extended existential type metadata.
@unsafe
struct ExtendedExistentialTypeMetadataLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var kind: UInt
        var shape: UInt  // const TargetExtendedExistentialTypeShape *
    }

    /// `ExtendedExistentialTypeShapeFlags::SpecialKind`.
    enum SpecialKind: UInt32 {
        case none = 0
        case `class` = 1
        case metatype = 2
        case explicitLayout = 3
    }

    /// `SpecialKindMask`, the low byte of the shape's flags.
    static var specialKindMask: UInt32 { 0xFF }

    /// The address point of the metadata.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The address point.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// How the existential stores its value, from its shape's flags; `nil` for a kind this
    /// runtime does not define.
    var specialKind: SpecialKind? {
        guard let shape = unsafe address.pointer(at: MemoryLayout<Fields>.offset(of: \.shape)!) else { return nil }
        let flags = unsafe shape.read(at: 0, as: UInt32.self)
        return unsafe SpecialKind(rawValue: flags & Self.specialKindMask)
    }
}
