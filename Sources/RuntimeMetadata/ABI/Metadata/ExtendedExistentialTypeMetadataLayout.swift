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
//
// After its flags and mangled name, a shape holds the header of its requirement signature
// (TargetGenericContextDescriptorHeader), then trailing objects in this order, each present as
// the flags say: the generalization signature's header, the type expression, the suggested
// value witnesses, the generic parameter descriptors (one byte each), and, aligned to four
// bytes, the requirement descriptors of the requirement signature then of the generalization
// signature (TargetExtendedExistentialTypeShape's TrailingObjects in Metadata.h; the order is
// also what IRGen's GenMeta.cpp emits). The requirement signature's parameters are the
// generalization signature's (which the metadata stores as its arguments), then `Self`.

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
        guard let shape = unsafe shape else { return nil }
        return unsafe SpecialKind(rawValue: shape.flags & Self.specialKindMask)
    }

    /// The generalization arguments after the shape: the metadata of each parameter of the
    /// shape's generalization signature (`getGeneralizationArguments`).
    var generalizationArguments: [UnsafeRawPointer] {
        guard let shape = unsafe shape, let header = unsafe shape.generalizationSignature else { return unsafe [] }
        return unsafe (0..<Int(header.numParams)).compactMap {
            unsafe address.pointer(at: MemoryLayout<Fields>.size + $0 * MemoryLayout<UInt>.size)
        }
    }

    /// The shape.
    var shape: Shape? {
        unsafe address.pointer(at: MemoryLayout<Fields>.offset(of: \.shape)!).map { unsafe Shape($0) }
    }

    /// A view of `TargetExtendedExistentialTypeShape`.
    @unsafe
    struct Shape {
        /// The leading fields, in declaration order.
        struct Fields {
            var flags: UInt32  // ExtendedExistentialTypeShapeFlags
            var existentialType: Int32  // relative direct pointer to the mangled name
            var requirementSignature: GenericContextDescriptorHeaderLayout.Fields
        }

        /// `ExtendedExistentialTypeShapeFlags` (include/swift/ABI/MetadataValues.h).
        enum Flag {
            static let hasGeneralizationSignature: UInt32 = 0x100
            static let hasTypeExpression: UInt32 = 0x200
            static let hasSuggestedValueWitnesses: UInt32 = 0x400
            static let hasImplicitRequirementSignatureParams: UInt32 = 0x800
            static let hasImplicitGeneralizationSignatureParams: UInt32 = 0x1000
        }

        /// The shape's address.
        nonisolated(unsafe) let address: UnsafeRawPointer

        /// Creates a view.
        /// - Parameter address: The shape.
        init(_ address: UnsafeRawPointer) {
            unsafe self.address = address
        }

        /// The flags.
        var flags: UInt32 { unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.flags)!) }

        /// The requirement signature's header.
        var requirementSignature: GenericContextDescriptorHeaderLayout.Fields {
            unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.requirementSignature)!)
        }

        /// The generalization signature's header, the first trailing object when present.
        var generalizationSignature: GenericContextDescriptorHeaderLayout.Fields? {
            guard unsafe flags & Flag.hasGeneralizationSignature != 0 else { return nil }
            return unsafe address.read(
                at: MemoryLayout<Fields>.size,
                as: GenericContextDescriptorHeaderLayout.Fields.self
            )
        }

        /// The existential type's mangled name (`ExistentialType`), in which the
        /// generalization signature's parameters stand for the metadata's arguments.
        var existentialType: UnsafeRawPointer? {
            unsafe address.relativeDirectPointer(at: MemoryLayout<Fields>.offset(of: \.existentialType)!)
        }

        /// The offset of the requirement signature's requirements, after the optional trailing
        /// objects and the parameter descriptors.
        private var requirementsOffset: Int {
            let flags = unsafe flags
            var offset = MemoryLayout<Fields>.size
            var generalizationParams = 0
            if let generalization = unsafe generalizationSignature {
                if flags & Flag.hasImplicitGeneralizationSignatureParams == 0 {
                    generalizationParams = Int(generalization.numParams)
                }
                offset += MemoryLayout<GenericContextDescriptorHeaderLayout.Fields>.size
            }
            // The relative pointers are four-byte aligned.
            if flags & (Flag.hasTypeExpression | Flag.hasSuggestedValueWitnesses) != 0 { offset = (offset + 3) & ~3 }
            if flags & Flag.hasTypeExpression != 0 { offset += MemoryLayout<Int32>.size }
            if flags & Flag.hasSuggestedValueWitnesses != 0 { offset += MemoryLayout<Int32>.size }
            if flags & Flag.hasImplicitRequirementSignatureParams == 0 {
                offset += unsafe Int(requirementSignature.numParams)
            }
            offset += generalizationParams
            return (offset + 3) & ~3
        }

        /// The bytes from the shape's start to the end of its last requirement descriptor, the
        /// generalization signature's included: what a reader of the shape may touch.
        var size: Int {
            let requirements =
                unsafe Int(requirementSignature.numRequirements)
                + Int(generalizationSignature?.numRequirements ?? 0)
            return unsafe requirementsOffset + requirements * GenericRequirementDescriptorLayout.size
        }

        /// The requirement signature's requirements.
        var requirementSignatureRequirements: [GenericRequirementDescriptorLayout] {
            let offset = unsafe requirementsOffset
            return unsafe (0..<Int(requirementSignature.numRequirements)).map {
                unsafe GenericRequirementDescriptorLayout(
                    address + offset + $0 * GenericRequirementDescriptorLayout.size
                )
            }
        }

        /// What the requirement signature requires of `Self`: the descriptor of each protocol
        /// requirement (`GenericRequirementKind::Protocol`), in order, `nil` where one cannot be
        /// read; and whether a layout requirement asks for a class
        /// (`GenericRequirementLayoutKind::Class`).
        var requiredProtocols: (protocols: [UnsafeRawPointer?], requiresClass: Bool) {
            var protocols: [UnsafeRawPointer?] = unsafe []
            var requiresClass = false
            // Indexed: swift-format 6.3 joins the words of `for unsafe requirement in`.
            let requirements = unsafe requirementSignatureRequirements
            for index in unsafe requirements.indices {
                let requirement = unsafe requirements[index]
                switch unsafe requirement.kind {
                case 0: unsafe protocols.append(requirement.protocolDescriptor)
                case 0x1F where unsafe requirement.layout == 0: requiresClass = true
                default: break
                }
            }
            return unsafe (protocols, requiresClass)
        }
    }
}
