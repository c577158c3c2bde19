// ClassDescriptorLayout.swift
//
// Mirrors swift::TargetClassDescriptor and TargetStoredClassMetadataBounds from
// swiftlang/swift include/swift/ABI/Metadata.h, checked against Swift 6.3.1 on Linux x86_64
// (`class G<T>: Base`: negative 3, positive 18, immediate members 6, FieldOffsetVectorOffset 13).
//
// With a resilient superclass (HasResilientSuperclass) the word at +24 is a relative pointer
// to StoredClassMetadataBounds, which the runtime fills in when it instantiates the metadata,
// and both FieldOffsetVectorOffset and the generic argument offset count from the start of
// the class's immediate members instead of the address point
// (`getResilientImmediateMembersOffset`, stdlib/public/runtime/Metadata.cpp).

/// A view of a class descriptor.
@unsafe
struct ClassDescriptorLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var flags: UInt32
        var parent: Int32
        var name: Int32
        var accessFunctionPtr: Int32
        var fields: Int32
        var superclassType: Int32  // relative direct pointer to a mangled name
        var metadataNegativeSizeInWords: UInt32  // or ResilientMetadataBounds
        var metadataPositiveSizeInWords: UInt32  // or ExtraClassFlags
        var numImmediateMembers: UInt32
        var numFields: UInt32
        var fieldOffsetVectorOffset: UInt32
    }

    /// `TargetStoredClassMetadataBounds`.
    struct StoredClassMetadataBounds {
        var immediateMembersOffset: Int  // bytes from the address point
        var negativeSizeInWords: UInt32
        var positiveSizeInWords: UInt32
    }

    /// The descriptor's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The descriptor's address.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    private var typeFlags: TypeContextDescriptorFlags { unsafe TypeContextDescriptorLayout(address).typeFlags }

    /// `SuperclassType`: the mangled name of the superclass, or `nil` for a root class.
    var superclassType: UnsafeRawPointer? {
        unsafe address.relativeDirectPointer(at: MemoryLayout<Fields>.offset(of: \.superclassType)!)
    }

    /// `NumFields`: this class's stored properties only.
    var fieldCount: Int { unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.numFields)!, as: UInt32.self)) }

    /// `NumImmediateMembers`: the words this class adds to its metadata (generic arguments,
    /// field offsets, vtable entries), after its superclass's.
    var numImmediateMembers: Int {
        unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.numImmediateMembers)!, as: UInt32.self))
    }

    private var metadataPositiveSizeInWords: Int {
        unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.metadataPositiveSizeInWords)!, as: UInt32.self))
    }

    /// The start of the immediate members in words, for a class with a resilient superclass.
    private var resilientImmediateMembersOffset: Int? {
        guard unsafe typeFlags.classHasResilientSuperclass,
            let bounds = unsafe address.relativeDirectPointer(
                at: MemoryLayout<Fields>.offset(of: \.metadataNegativeSizeInWords)!
            )
        else { return nil }
        let bytes: Int = unsafe bounds.read(
            at: MemoryLayout<StoredClassMetadataBounds>.offset(of: \.immediateMembersOffset)!
        )
        return bytes / MemoryLayout<UInt>.size
    }

    /// `getGenericArgumentOffset`, in words from the metadata address point.
    var genericArgumentOffset: Int {
        if let start = unsafe resilientImmediateMembersOffset { return start }
        return unsafe metadataPositiveSizeInWords - numImmediateMembers
    }

    /// `getFieldOffsetVectorOffset`, in words from the metadata address point.
    var fieldOffsetVectorOffset: Int {
        let stored = unsafe Int(
            address.read(at: MemoryLayout<Fields>.offset(of: \.fieldOffsetVectorOffset)!, as: UInt32.self)
        )
        if let start = unsafe resilientImmediateMembersOffset { return start + stored }
        return stored
    }

    /// The generic context, when the class is generic.
    var genericContext: GenericContextDescriptorHeaderLayout? {
        guard unsafe ContextDescriptorLayout(address).flags.isGeneric else { return nil }
        return unsafe GenericContextDescriptorHeaderLayout(typeHeader: address + MemoryLayout<Fields>.size)
    }
}
