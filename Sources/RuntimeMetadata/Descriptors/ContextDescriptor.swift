// ContextDescriptor.swift

/// A context that encloses a type: a module, an extension, an anonymous (private) context,
/// another type or a protocol.
public struct ContextDescriptor: Hashable, Sendable, CustomStringConvertible {
    let reference: DescriptorReference

    init(_ reference: DescriptorReference) {
        self.reference = reference
    }

    /// The kind of context.
    public enum Kind: Hashable, Sendable {
        /// A module.
        case module
        /// An extension; ``ContextDescriptor/extendedTypeMangledName`` names the extended type.
        case `extension`
        /// An anonymous context, such as the scope of a `private` declaration.
        case anonymous
        /// A protocol.
        case `protocol`
        /// An opaque result type.
        case opaqueType
        /// A class.
        case `class`
        /// A struct.
        case `struct`
        /// An enum.
        case `enum`
        /// A kind this library does not know, with its raw value.
        case other(UInt8)
    }

    /// The kind of context.
    public var kind: Kind {
        switch reference.rawKind {
        case 0: .module
        case 1: .extension
        case 2: .anonymous
        case 3: .protocol
        case 4: .opaqueType
        case 16: .class
        case 17: .struct
        case 18: .enum
        default: .other(reference.rawKind)
        }
    }

    /// The context's name: a module's or type's name, or a placeholder for extensions and anonymous contexts.
    public var name: String { reference.name }

    /// The mangled name of the type an extension extends, printable; `nil` for other kinds.
    public var extendedTypeMangledName: String? { reference.extendedContextMangledName }

    /// An anonymous context's mangled name: its stable identity, the same in every process that
    /// loads the same build, where the runtime names it by its address. It carries the
    /// declaring file's private discriminator (`33_…LL`) that a private type's own mangled name
    /// holds. `nil` for other kinds, and for anonymous contexts compiled without
    /// `-enable-anonymous-context-mangled-names`, which SwiftPM passes to debug builds only.
    public var mangledName: String? { reference.anonymousMangledName }

    /// The name.
    public var description: String { reference.name }
}
