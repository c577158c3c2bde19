// StructDescriptorLayout.swift
//
// Mirrors swift::TargetStructDescriptor from swiftlang/swift include/swift/ABI/Metadata.h,
// checked against Swift 6.3.1 on Linux x86_64 (`struct S` with 7 fields: NumFields 7,
// FieldOffsetVectorOffset 2). Inherits the type-context fields. Trailing objects, in order:
// generic context; foreign or singleton metadata initialization; canonical
// prespecializations or a singleton metadata pointer; the InvertibleProtocolSet.

/// A view of a struct descriptor.
@unsafe
struct StructDescriptorLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var flags: UInt32
        var parent: Int32
        var name: Int32
        var accessFunctionPtr: Int32
        var fields: Int32
        var numFields: UInt32
        var fieldOffsetVectorOffset: UInt32  // in words from the metadata address point
    }

    /// The descriptor's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The descriptor's address.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// `NumFields`.
    var fieldCount: Int { unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.numFields)!, as: UInt32.self)) }

    /// `FieldOffsetVectorOffset`, in words.
    var fieldOffsetVectorOffset: Int {
        unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.fieldOffsetVectorOffset)!, as: UInt32.self))
    }

    /// The trailing objects that follow the fixed fields.
    var trailing: ValueTypeTrailingObjects {
        unsafe ValueTypeTrailingObjects(descriptor: address, fixedSize: MemoryLayout<Fields>.size)
    }
}

/// The trailing objects that struct and enum descriptors share
/// (`TrailingGenericContextObjects` plus the value-type metadata initialization records).
@unsafe
struct ValueTypeTrailingObjects: Sendable {
    /// The descriptor's address.
    nonisolated(unsafe) let descriptor: UnsafeRawPointer
    /// The size of the kind's fixed fields.
    let fixedSize: Int

    /// Creates a view.
    /// - Parameters:
    ///   - descriptor: The descriptor's address.
    ///   - fixedSize: The size of the kind's fixed fields.
    init(descriptor: UnsafeRawPointer, fixedSize: Int) {
        unsafe self.descriptor = descriptor
        unsafe self.fixedSize = fixedSize
    }

    private var flags: ContextDescriptorFlags { unsafe ContextDescriptorLayout(descriptor).flags }

    /// The generic context, when the type is generic.
    var genericContext: GenericContextDescriptorHeaderLayout? {
        guard unsafe flags.isGeneric else { return nil }
        return unsafe GenericContextDescriptorHeaderLayout(typeHeader: descriptor + fixedSize)
    }

    /// `InvertibleProtocolSet` (bit 0 Copyable, bit 1 Escapable suppressed), when the flags say one is stored.
    var invertibleProtocols: UInt16? {
        let flags = unsafe self.flags
        guard flags.hasInvertibleProtocols else { return nil }
        var cursor = unsafe genericContext?.end ?? (descriptor + fixedSize)
        let typeFlags = TypeContextDescriptorFlags(rawValue: flags.kindSpecificFlags)
        switch typeFlags.metadataInitialization {
        case 1: unsafe cursor += 12  // TargetSingletonMetadataInitialization: three relative pointers
        case 2: unsafe cursor += 4  // TargetForeignMetadataInitialization: one relative pointer
        default: break
        }
        if typeFlags.hasCanonicalMetadataPrespecializationsOrSingletonMetadataPointer && flags.isGeneric {
            // ListCount, then one metadata entry and one accessor entry per prespecialization,
            // then the caching once-token.
            let count = unsafe Int(cursor.read(at: 0, as: UInt32.self))
            unsafe cursor += 4 + count * 8 + 4
        }
        return unsafe cursor.read(at: 0, as: UInt16.self)
    }
}
