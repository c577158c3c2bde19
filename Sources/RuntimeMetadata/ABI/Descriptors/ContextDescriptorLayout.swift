// ContextDescriptorLayout.swift
//
// Mirrors swift::TargetContextDescriptor and the small descriptors that share its header:
// TargetModuleContextDescriptor, TargetExtensionContextDescriptor and
// TargetAnonymousContextDescriptor, from swiftlang/swift include/swift/ABI/Metadata.h. An
// anonymous context's trailing objects are its generic context, when `isGeneric`, then a
// TargetMangledContextName (one relative direct pointer to a mangled name), when
// AnonymousContextDescriptorFlags::HasMangledName (kind-specific bit 0,
// include/swift/ABI/MetadataValues.h) is set: the compiler emits it under
// `-enable-anonymous-context-mangled-names`, which SwiftPM passes to debug builds.
// Checked against Swift 6.3.1 on Linux x86_64. `Parent` is a relative indirectable pointer;
// a module's is 0.

/// A view of any context descriptor.
@unsafe
struct ContextDescriptorLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var flags: UInt32  // ContextDescriptorFlags
        var parent: Int32  // RelativeContextPointer
    }

    /// TargetModuleContextDescriptor and TargetExtensionContextDescriptor: one more field.
    struct ModuleFields {
        var flags: UInt32
        var parent: Int32
        var name: Int32  // Name (module) or ExtendedContext (extension): relative direct pointer
    }

    /// The descriptor's address.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The descriptor's address.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// `Flags`.
    var flags: ContextDescriptorFlags {
        unsafe ContextDescriptorFlags(rawValue: address.read(at: MemoryLayout<Fields>.offset(of: \.flags)!))
    }

    /// `Parent`.
    var parent: UnsafeRawPointer? {
        unsafe address.relativeIndirectablePointer(at: MemoryLayout<Fields>.offset(of: \.parent)!)
    }

    /// A module's `Name`.
    var moduleName: String? {
        guard unsafe flags.kind == .module,
            let name = unsafe address.relativeDirectPointer(at: MemoryLayout<ModuleFields>.offset(of: \.name)!)
        else { return nil }
        return unsafe name.cString
    }

    /// An extension's `ExtendedContext`: the mangled name of the extended type.
    var extendedContext: UnsafeRawPointer? {
        guard unsafe flags.kind == .extension else { return nil }
        return unsafe address.relativeDirectPointer(at: MemoryLayout<ModuleFields>.offset(of: \.name)!)
    }

    /// An anonymous context's mangled name (`TargetMangledContextName`), or `nil` when the
    /// context is not anonymous or was compiled without one.
    var anonymousMangledName: MangledNameLayout? {
        let flags = unsafe flags
        guard flags.kind == .anonymous, flags.kindSpecificFlags & 0x1 != 0 else { return nil }
        var trailing = unsafe address + MemoryLayout<Fields>.size
        if flags.isGeneric { unsafe trailing = unsafe GenericContextDescriptorHeaderLayout(header: trailing).end }
        guard let name = unsafe trailing.relativeDirectPointer(at: 0) else { return nil }
        return unsafe MangledNameLayout(name)
    }

    /// The module that contains this context.
    var module: ContextDescriptorLayout? {
        var current: ContextDescriptorLayout? = unsafe self
        var depth = 0
        while let context = unsafe current, depth < 64 {
            if unsafe context.flags.kind == .module { return unsafe context }
            unsafe current = unsafe context.parent.map { unsafe ContextDescriptorLayout($0) }
            depth += 1
        }
        return nil
    }
}
