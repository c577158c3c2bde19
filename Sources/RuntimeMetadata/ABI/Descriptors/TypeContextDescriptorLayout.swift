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
