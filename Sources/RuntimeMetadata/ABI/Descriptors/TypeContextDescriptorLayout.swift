// TypeContextDescriptorLayout.swift
//
// Mirrors swift::TargetTypeContextDescriptor from swiftlang/swift
// include/swift/ABI/Metadata.h, checked against Swift 6.3.1 on Linux x86_64: the 20-byte
// part that struct, enum and class descriptors share. `Fields` is 0 when the module was
// built without reflection metadata.

/// A view of a nominal type descriptor's common part.
@unsafe
struct TypeContextDescriptorLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var flags: UInt32
        var parent: Int32
        var name: Int32  // relative direct pointer to a C string
        var accessFunctionPtr: Int32  // relative direct pointer to the metadata accessor
        var fields: Int32  // relative direct pointer to a FieldDescriptor
    }

    /// The descriptor's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The descriptor's address.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// The common context header.
    var context: ContextDescriptorLayout { unsafe ContextDescriptorLayout(address) }

    /// `Name`.
    var name: String {
        unsafe address.relativeDirectPointer(at: MemoryLayout<Fields>.offset(of: \.name)!)?.cString ?? ""
    }

    /// The `TypeImportInfo` entries after the name of an imported C type (`HasImportInfo`):
    /// NUL-terminated strings, each a kind character and a value (`N` the ABI name, `S` the
    /// symbol namespace, `R` a related entity), ended by an empty string
    /// (swiftlang/swift include/swift/ABI/TypeIdentity.h).
    var importInfo: [(kind: Character, value: String)] {
        guard unsafe typeFlags.hasImportInfo,
            var cursor = unsafe address.relativeDirectPointer(at: MemoryLayout<Fields>.offset(of: \.name)!)
        else { return [] }
        var entries: [(kind: Character, value: String)] = []
        unsafe cursor += unsafe cursor.cString.utf8.count + 1
        while entries.count < 8 {
            let entry = unsafe cursor.cString
            guard let kind = entry.first else { break }
            entries.append((kind, String(entry.dropFirst())))
            unsafe cursor += entry.utf8.count + 1
        }
        return entries
    }

    /// `AccessFunctionPtr`.
    var accessFunction: UnsafeRawPointer? {
        unsafe address.relativeDirectPointer(at: MemoryLayout<Fields>.offset(of: \.accessFunctionPtr)!)
    }

    /// `Fields`.
    var fieldDescriptor: FieldDescriptorLayout? {
        unsafe address.relativeDirectPointer(at: MemoryLayout<Fields>.offset(of: \.fields)!).map {
            unsafe FieldDescriptorLayout($0)
        }
    }

    /// The kind-specific flags.
    var typeFlags: TypeContextDescriptorFlags {
        unsafe TypeContextDescriptorFlags(rawValue: context.flags.kindSpecificFlags)
    }
}
