// FieldDescriptorLayout.swift
//
// Mirrors swift::reflection::FieldDescriptor and FieldRecord from swiftlang/swift
// include/swift/RemoteInspection/Records.h, checked against Swift 6.3.1 on Linux x86_64.
// Field descriptors live in `swift5_fieldmd`: a 16-byte header, then `NumFields` records of
// `FieldRecordSize` bytes. Enum records list payload cases first, then empty cases, which is
// the runtime's tag order. Ownership is not a flag: it is the mangled type's suffix
// (`Xw` weak, `Xo` unowned, `Xu` unowned(unsafe)).

internal import CMetadata

/// A view of a field descriptor.
@unsafe
struct FieldDescriptorLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var mangledTypeName: Int32
        var superclass: Int32
        var kind: UInt16  // FieldDescriptorKind
        var fieldRecordSize: UInt16
        var numFields: UInt32
    }

    /// `FieldDescriptorKind`.
    enum Kind: UInt16 {
        case `struct` = 0
        case `class` = 1
        case `enum` = 2
        case multiPayloadEnum = 3
        case `protocol` = 4
        case classProtocol = 5
        case objCProtocol = 6
        case objCClass = 7
    }

    /// The descriptor's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The descriptor's address.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// `MangledTypeName`: usually a symbolic reference to the type's context descriptor.
    var mangledTypeName: UnsafeRawPointer? {
        unsafe address.relativeDirectPointer(at: MemoryLayout<Fields>.offset(of: \.mangledTypeName)!)
    }

    /// `Kind`, or `nil` when unknown.
    var kind: Kind? { unsafe Kind(rawValue: rawKind) }

    /// `Kind` as stored.
    var rawKind: UInt16 { unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.kind)!) }

    /// `Superclass`: the mangled name of a class's superclass, `nil` for other kinds and root
    /// classes.
    var superclass: UnsafeRawPointer? {
        unsafe address.relativeDirectPointer(at: MemoryLayout<Fields>.offset(of: \.superclass)!)
    }

    /// `FieldRecordSize`.
    var recordSize: Int {
        unsafe Int(address.read(at: MemoryLayout<Fields>.offset(of: \.fieldRecordSize)!, as: UInt16.self))
    }

    /// `NumFields`.
    var count: Int {
        // In an image read from a file, only a descriptor its section's walk finds is read.
        guard unsafe ImageSections.readImageRange(containing: address) == nil || cmd_isReadableFieldDescriptor(address)
        else { return 0 }
        return unsafe address.boundedCount(
            Int(address.read(at: MemoryLayout<Fields>.offset(of: \.numFields)!, as: UInt32.self)),
            stride: max(recordSize, MemoryLayout<FieldRecordLayout.Fields>.size)
        )
    }

    /// The size of the whole descriptor, header and records.
    var totalSize: Int { unsafe MemoryLayout<Fields>.size + recordSize * count }

    /// The records, or an empty array when the record size is smaller than a `FieldRecord`.
    var records: [FieldRecordLayout] {
        let size = unsafe recordSize
        guard size >= MemoryLayout<FieldRecordLayout.Fields>.size else { return unsafe [] }
        return unsafe (0..<count).map { unsafe FieldRecordLayout(address + MemoryLayout<Fields>.size + $0 * size) }
    }
}

/// A view of one `FieldRecord`.
@unsafe
struct FieldRecordLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var flags: UInt32  // FieldRecordFlags
        var mangledTypeName: Int32
        var fieldName: Int32
    }

    /// The record's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The record's address.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// `Flags`: `IsIndirectCase` 0x1, `IsVar` 0x2, `IsArtificial` 0x4.
    var flags: UInt32 { unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.flags)!) }

    /// `MangledTypeName`, `nil` for an enum case without payload.
    var mangledTypeName: UnsafeRawPointer? {
        unsafe address.relativeDirectPointer(at: MemoryLayout<Fields>.offset(of: \.mangledTypeName)!)
    }

    /// `FieldName`.
    var name: String {
        unsafe address.relativeDirectPointer(at: MemoryLayout<Fields>.offset(of: \.fieldName)!)?.cString ?? ""
    }
}
