// GenericContextDescriptorHeaderLayout.swift
//
// Mirrors swift::GenericContextDescriptorHeader, TargetTypeGenericContextDescriptorHeader and
// the trailing objects of swift::TargetGenericContext (GenericParamDescriptor,
// TargetGenericRequirementDescriptor, GenericPackShapeHeader, GenericPackShapeDescriptor,
// the conditional invertible-protocol requirements, GenericValueHeader and
// GenericValueDescriptor) from swiftlang/swift include/swift/ABI/GenericContext.h and
// include/swift/ABI/MetadataValues.h. Checked against Swift 6.3.1 on Linux x86_64 for
// `struct GS<T, U>`, `struct VG<let N: Int, T>`, `struct PK<each T>` and `class G<T>`.
//
// Type descriptors prefix the 8-byte header with two relative pointers (instantiation cache
// and default pattern); other contexts use the bare header. Everything after the parameter
// bytes is 4-byte aligned.

/// A view of a generic context: its header and the trailing parameters and requirements.
@unsafe
struct GenericContextDescriptorHeaderLayout: Sendable {
    /// `GenericContextDescriptorHeader` in declaration order.
    struct Fields {
        var numParams: UInt16
        var numRequirements: UInt16
        var numKeyArguments: UInt16
        var flags: UInt16  // GenericContextDescriptorFlags
    }

    /// `TargetTypeGenericContextDescriptorHeader`: the type header before the base header.
    struct TypeFields {
        var instantiationCache: Int32
        var defaultInstantiationPattern: Int32
        var base: Fields
    }

    /// `GenericContextDescriptorFlags`.
    enum Flag {
        static let hasTypePacks: UInt16 = 0x1
        static let hasConditionalInvertedProtocols: UInt16 = 0x2
        static let hasValues: UInt16 = 0x4
    }

    /// The address of the base header (`GenericContextDescriptorHeader`).
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// The address of the type header (`TargetTypeGenericContextDescriptorHeader`), for a type
    /// descriptor's generic context.
    nonisolated(unsafe) let typeHeader: UnsafeRawPointer?

    /// Creates a view of a bare header.
    /// - Parameter address: The header's address.
    init(header address: UnsafeRawPointer) {
        unsafe self.address = address
        unsafe self.typeHeader = nil
    }

    /// Creates a view of a type descriptor's generic header.
    /// - Parameter address: The address of `TargetTypeGenericContextDescriptorHeader`.
    init(typeHeader address: UnsafeRawPointer) {
        unsafe self.address = address + MemoryLayout<TypeFields>.offset(of: \.base)!
        unsafe self.typeHeader = address
    }

    /// `DefaultInstantiationPattern`: the pattern the runtime instantiates the type's metadata
    /// from; `nil` for a non-type context.
    var defaultInstantiationPattern: GenericMetadataPatternLayout? {
        guard let typeHeader = unsafe typeHeader,
            let pattern = unsafe typeHeader.relativeDirectPointer(
                at: MemoryLayout<TypeFields>.offset(of: \.defaultInstantiationPattern)!
            )
        else { return nil }
        return unsafe GenericMetadataPatternLayout(pattern)
    }

    /// `NumParams`.
    var parameterCount: Int {
        unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.numParams)!, as: UInt16.self))
    }
    /// `NumRequirements`.
    var requirementCount: Int {
        unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.numRequirements)!, as: UInt16.self))
    }
    /// `NumKeyArguments`: the words of generic arguments in metadata.
    var keyArgumentCount: Int {
        unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.numKeyArguments)!, as: UInt16.self))
    }
    /// `Flags`.
    var flags: UInt16 { unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.flags)!) }

    /// The `GenericParamDescriptor` bytes: kind in the low 6 bits (type 0, pack 1, value 2), 0x80 key argument.
    var parameters: [UInt8] {
        unsafe (0..<parameterCount).map { unsafe parameter(at: $0) }
    }

    /// One `GenericParamDescriptor` byte; the caller checks `index < parameterCount`.
    /// - Parameter index: The parameter's index, counting every level's parameters.
    /// - Returns: The byte.
    func parameter(at index: Int) -> UInt8 {
        unsafe address.read(at: MemoryLayout<Fields>.size + index)
    }

    private var requirementsStart: UnsafeRawPointer {
        unsafe address + MemoryLayout<Fields>.size + ((parameterCount + 3) & ~3)
    }

    /// The requirements of the signature.
    var requirements: [GenericRequirementDescriptorLayout] {
        unsafe (0..<requirementCount).map {
            unsafe GenericRequirementDescriptorLayout(requirementsStart + $0 * GenericRequirementDescriptorLayout.size)
        }
    }

    /// One `GenericPackShapeDescriptor`.
    struct PackShape {
        /// `Kind`: 0 metadata pack, 1 witness table pack.
        var kind: UInt16
        /// `Index`: the key-argument slot that holds the pack pointer.
        var index: UInt16
        /// `ShapeClass`: which shape-class count gives the pack's length.
        var shapeClass: UInt16
    }

    private var packHeader: UnsafeRawPointer {
        unsafe requirementsStart + requirementCount * GenericRequirementDescriptorLayout.size
    }

    /// `GenericPackShapeHeader::NumShapeClasses`, 0 without packs.
    var shapeClassCount: Int {
        guard unsafe flags & Flag.hasTypePacks != 0 else { return 0 }
        return unsafe Int(packHeader.read(at: 2, as: UInt16.self))
    }

    /// The pack shape descriptors.
    var packShapes: [PackShape] {
        guard unsafe flags & Flag.hasTypePacks != 0 else { return [] }
        let count = unsafe Int(packHeader.read(at: 0, as: UInt16.self))
        return (0..<count).map { index in
            let entry = unsafe packHeader + 4 + index * 8
            return unsafe PackShape(kind: entry.read(at: 0), index: entry.read(at: 2), shapeClass: entry.read(at: 4))
        }
    }

    private var afterPacks: UnsafeRawPointer {
        guard unsafe flags & Flag.hasTypePacks != 0 else { return unsafe packHeader }
        let count = unsafe Int(packHeader.read(at: 0, as: UInt16.self))
        return unsafe packHeader + 4 + count * 8
    }

    /// The conditional invertible-protocol set (bit 0 Copyable, bit 1 Escapable), when present.
    var conditionalInvertibleProtocols: UInt16? {
        guard unsafe flags & Flag.hasConditionalInvertedProtocols != 0 else { return nil }
        return unsafe afterPacks.read(at: 0, as: UInt16.self)
    }

    private var afterConditionalInvertible: UnsafeRawPointer {
        guard let set = unsafe conditionalInvertibleProtocols else { return unsafe afterPacks }
        // ConditionalInvertibleProtocolSet (uint16), one cumulative uint16 count per set bit,
        // then that many requirement descriptors, 4-byte aligned.
        let bits = set.nonzeroBitCount
        var cursor = unsafe afterPacks + 2
        var total = 0
        for index in 0..<bits {
            total = unsafe Int(cursor.read(at: index * 2, as: UInt16.self))
        }
        unsafe cursor = unsafe cursor + bits * 2
        let aligned = (Int(bitPattern: cursor) + 3) & ~3
        return unsafe UnsafeRawPointer(bitPattern: aligned)! + total * GenericRequirementDescriptorLayout.size
    }

    /// The `GenericValueDescriptor` types (0 is `Int`), one per value parameter.
    var valueTypes: [UInt32] {
        guard unsafe flags & Flag.hasValues != 0 else { return [] }
        let header = unsafe afterConditionalInvertible
        let count = unsafe Int(header.read(at: 0, as: UInt32.self))
        return (0..<count).map { unsafe header.read(at: 4 + $0 * 4) }
    }

    /// The generic context's size in bytes: the base header and every trailing object of
    /// `TargetGenericContext` (parameters, requirements, pack shapes, conditional inverted
    /// protocols, values).
    var byteSize: Int { unsafe end - address }

    /// The size in bytes from the type header (`TargetTypeGenericContextDescriptorHeader`) to
    /// the end of the generic context; `nil` for a context that is not a type's.
    var typeByteSize: Int? {
        guard let typeHeader = unsafe typeHeader else { return nil }
        return unsafe end - typeHeader
    }

    /// The address just past the generic context, where the descriptor's next trailing object starts.
    var end: UnsafeRawPointer {
        let header = unsafe afterConditionalInvertible
        guard unsafe flags & Flag.hasValues != 0 else { return unsafe header }
        let count = unsafe Int(header.read(at: 0, as: UInt32.self))
        return unsafe header + 4 + count * 4
    }
}

/// A view of one `TargetGenericRequirementDescriptor` (12 bytes).
@unsafe
struct GenericRequirementDescriptorLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var flags: UInt32  // GenericRequirementFlags
        var param: Int32  // relative direct pointer to the subject's mangled name
        var payload: Int32  // type name, protocol, conformance, layout or invertible set
    }

    /// The size of a requirement descriptor.
    static var size: Int { MemoryLayout<Fields>.size }

    /// The descriptor's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The descriptor's address.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// `Flags`.
    var flags: UInt32 { unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.flags)!) }

    /// `GenericRequirementKind`: Protocol 0, SameType 1, BaseClass 2, SameConformance 3,
    /// SameShape 4, InvertedProtocols 5, Layout 0x1F.
    var kind: UInt8 { unsafe UInt8(flags & 0x1F) }

    /// `Param`: the mangled name of the subject.
    var param: UnsafeRawPointer? { unsafe address.relativeDirectPointer(at: MemoryLayout<Fields>.offset(of: \.param)!) }

    /// The protocol of a protocol requirement (a `ProtocolDescriptorRef`; bit 0 marks Objective-C).
    var protocolDescriptor: UnsafeRawPointer? {
        guard unsafe kind == 0 else { return nil }
        let offset = MemoryLayout<Fields>.offset(of: \.payload)!
        let relative: Int32 = unsafe address.read(at: offset)
        guard relative != 0 else { return nil }
        // RelativeTargetProtocolDescriptorPointer: an indirectable pointer whose bit 1 is the
        // Objective-C flag; mask both low bits.
        let target = unsafe address + offset + Int(relative & ~3)
        if relative & 1 == 0 { return unsafe target }
        return unsafe target.slotTarget
    }

    /// The mangled type of a same-type or base-class requirement.
    var type: UnsafeRawPointer? {
        guard unsafe kind == 1 || kind == 2 else { return nil }
        return unsafe address.relativeDirectPointer(at: MemoryLayout<Fields>.offset(of: \.payload)!)
    }

    /// The parameter and protocol set of an inverted-protocols requirement (`T: ~Copyable`):
    /// the payload's `GenericParamIndex` (uint16, counting every level's parameters) and
    /// `InvertibleProtocolSet` (uint16: bit 0 Copyable, bit 1 Escapable).
    var invertedProtocols: (parameter: Int, protocols: UInt16)? {
        guard unsafe kind == 5 else { return nil }
        let offset = MemoryLayout<Fields>.offset(of: \.payload)!
        return unsafe (Int(address.read(at: offset, as: UInt16.self)), address.read(at: offset + 2, as: UInt16.self))
    }

    /// The layout kind of a layout requirement (`GenericRequirementLayoutKind`: 0 class).
    var layout: UInt32 { unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.payload)!) }
}
