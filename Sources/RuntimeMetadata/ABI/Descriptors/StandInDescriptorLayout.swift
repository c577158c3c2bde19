// StandInDescriptorLayout.swift
//
// Writes the leading fields of swift::TargetModuleContextDescriptor,
// TargetTypeContextDescriptor and TargetProtocolDescriptor (swiftlang/swift
// include/swift/ABI/Metadata.h: `Flags`, `Parent`, `Name`, every later field 0) for the
// symbols an image read from a file names but does not define, such as
// `$sSQMp` (protocol descriptor for Swift.Equatable). In a loaded image the dynamic loader
// points such a slot at the other image's descriptor; in a read image it points at this
// stand-in, whose kind, name and parents are those of the symbol, so that the same walkers
// name it. A stand-in has no generic context, requirements or fields of its own.

internal import CMetadata

/// Writes stand-in context descriptors into a read image's zero-filled stand-in area.
@unsafe
struct StandInDescriptorWriter {
    /// The area's first byte.
    private nonisolated(unsafe) let area: UnsafeMutableRawPointer
    private let capacity: Int
    /// The next free byte's offset.
    private var used = 0
    /// The stand-ins written, by symbol and by qualified path: a parent shared by several
    /// symbols is written once.
    private var byPath: [String: UnsafeRawPointer] = unsafe [:]
    private var bySymbol: [String: UnsafeRawPointer?] = unsafe [:]

    /// The bytes a stand-in takes before its name: `Flags`, `Parent`, `Name`, and the zeros
    /// of a struct descriptor's or a protocol's remaining fields, which are the longest read.
    private static let descriptorSize = 48

    /// A writer over an area.
    /// - Parameters:
    ///   - area: The area's first byte, 16-byte aligned and zero-filled.
    ///   - capacity: The area's size in bytes.
    init(area: UnsafeMutableRawPointer, capacity: Int) {
        unsafe self.area = area
        unsafe self.capacity = capacity
    }

    /// The stand-in for a symbol: a nominal type descriptor (`…Mn`), a protocol descriptor
    /// (`…Mp`) or a module descriptor (`…MXM`), or `nil` for any other symbol.
    /// - Parameter symbol: The symbol's name.
    /// - Returns: The stand-in's address.
    mutating func descriptor(forSymbol symbol: String) -> UnsafeRawPointer? {
        if let known = unsafe bySymbol[symbol] { return unsafe known }
        let made = unsafe make(symbol)
        unsafe bySymbol[symbol] = unsafe made
        return unsafe made
    }

    private mutating func make(_ symbol: String) -> UnsafeRawPointer? {
        let kind: ContextDescriptorFlags.Kind
        let prefix: String
        if symbol.hasSuffix("Mn") {
            prefix = "nominal type descriptor for "
            kind = unsafe Self.nominalKind(ofSymbol: symbol)
        } else if symbol.hasSuffix("Mp") {
            prefix = "protocol descriptor for "
            kind = .protocol
        } else if symbol.hasSuffix("MXM") {
            prefix = "module descriptor "
            kind = .module
        } else {
            return nil
        }
        guard symbol.hasPrefix("$s"), let text = RuntimeEntryPoints.demangle(symbol), text.hasPrefix(prefix) else {
            return nil
        }
        let components = unsafe Self.components(of: String(text.dropFirst(prefix.count)))
        guard !components.isEmpty, kind != .module || components.count == 1 else { return nil }
        var parent: UnsafeRawPointer?
        for (index, name) in components.enumerated() {
            let path = components[...index].joined(separator: ".")
            let isLast = index == components.count - 1
            let componentKind: ContextDescriptorFlags.Kind = index == 0 ? .module : isLast ? kind : .struct
            let key = "\(componentKind.rawValue):\(path)"
            if let existing = unsafe byPath[key] {
                unsafe parent = existing
                continue
            }
            guard let written = unsafe write(kind: componentKind, name: name, parent: parent) else { return nil }
            unsafe byPath[key] = written
            unsafe parent = written
        }
        return unsafe parent
    }

    /// Writes one stand-in and its name.
    private mutating func write(kind: ContextDescriptorFlags.Kind, name: String, parent: UnsafeRawPointer?)
        -> UnsafeRawPointer?
    {
        let bytes = Array(name.utf8)
        let size = unsafe (Self.descriptorSize + bytes.count + 1 + 15) & ~15
        guard unsafe used + size <= capacity else { return nil }
        let descriptor = unsafe area + used
        unsafe used += size
        // ContextDescriptorFlags: the kind, and IsUnique (bit 6) as the compiler sets it for
        // every descriptor but synthesized imported ones; a protocol's kind-specific bit 0 set
        // is `ProtocolClassConstraint::Any` (MetadataValues.h), not class-bound.
        let kindSpecific: UInt32 = kind == .protocol ? 1 << 16 : 0
        unsafe descriptor.storeBytes(of: UInt32(kind.rawValue) | 0x40 | kindSpecific, toByteOffset: 0, as: UInt32.self)
        if let parent = unsafe parent {
            let relative = unsafe Int32(
                truncatingIfNeeded: UInt(bitPattern: parent) &- UInt(bitPattern: descriptor + 4)
            )
            unsafe descriptor.storeBytes(of: relative, toByteOffset: 4, as: Int32.self)
        }
        let nameAddress = unsafe descriptor + Self.descriptorSize
        for (offset, byte) in bytes.enumerated() {
            unsafe nameAddress.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
        }
        let relative = unsafe Int32(Self.descriptorSize - 8)
        unsafe descriptor.storeBytes(of: relative, toByteOffset: 8, as: Int32.self)
        return UnsafeRawPointer(descriptor)
    }

    /// The kind of a nominal type descriptor symbol, from the mangling's last type marker:
    /// `V` struct, `O` enum, `C` class; a standard substitution (`Si`, `Sq`) is a struct but
    /// for `Sq` (Optional), an enum.
    private static func nominalKind(ofSymbol symbol: String) -> ContextDescriptorFlags.Kind {
        let body = symbol.utf8.dropLast(2)
        switch body.last {
        case UInt8(ascii: "V"): return .struct
        case UInt8(ascii: "O"): return .enum
        case UInt8(ascii: "C"): return .class
        case UInt8(ascii: "q") where body.dropLast().last == UInt8(ascii: "S"): return .enum
        default: return .struct
        }
    }

    /// A demangled qualified name split at the dots outside brackets:
    /// `(extension in M):Swift.Int.Nested` is `["(extension in M):Swift", "Int", "Nested"]`.
    private static func components(of name: String) -> [String] {
        var result: [String] = []
        var current = ""
        var depth = 0
        for character in name {
            switch character {
            case "(", "<", "[": depth += 1
            case ")", ">", "]": depth -= 1
            default: break
            }
            if character == "." && depth == 0 {
                result.append(current)
                current = ""
            } else {
                current.append(character)
            }
        }
        result.append(current)
        return result.contains(where: \.isEmpty) ? [] : result
    }
}
