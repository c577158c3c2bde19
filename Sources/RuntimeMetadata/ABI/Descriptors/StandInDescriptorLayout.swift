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
        let path = unsafe Self.contextPath(ofSymbol: symbol)
        // An extension's nested type: the extension's module, the extension (whose extended
        // context is the symbol's own mangling of the extended type), then the nested levels.
        let extensionPrefix = "(extension in "
        if components[0].hasPrefix(extensionPrefix) {
            guard let path, let extended = path.extendedMangling, path.levelKinds.count < components.count,
                let close = components[0].firstIndex(of: ")")
            else { return nil }
            let module = String(
                components[0][components[0].index(components[0].startIndex, offsetBy: extensionPrefix.count)..<close]
            )
            guard var parent = unsafe chainElement(kind: .module, name: module, key: "0:\(module)", parent: nil),
                let extensionContext = unsafe chainElement(
                    kind: .extension,
                    name: extended,
                    key: "1:\(module):\(extended)",
                    parent: parent
                )
            else { return nil }
            unsafe parent = extensionContext
            let nested = components.suffix(path.levelKinds.count)
            var key = "1:\(module):\(extended)"
            for (offset, name) in nested.enumerated() {
                let isLast = offset == nested.count - 1
                let levelKind = isLast ? kind : path.levelKinds[offset]
                key += ".\(levelKind.rawValue):\(name)"
                guard let written = unsafe chainElement(kind: levelKind, name: name, key: key, parent: parent) else {
                    return nil
                }
                unsafe parent = written
            }
            return unsafe parent
        }
        // The enclosing types' kinds, from the symbol when it spells them plainly.
        let levelKinds = path.flatMap {
            $0.extendedMangling == nil && $0.levelKinds.count == components.count - 1 ? $0.levelKinds : nil
        }
        var parent: UnsafeRawPointer?
        for (index, name) in components.enumerated() {
            let isLast = index == components.count - 1
            let componentKind: ContextDescriptorFlags.Kind =
                index == 0 ? .module : isLast ? kind : levelKinds?[index - 1] ?? .struct
            let key = components[...index].joined(separator: ".") + ":\(componentKind.rawValue)"
            guard let written = unsafe chainElement(kind: componentKind, name: name, key: key, parent: parent) else {
                return nil
            }
            unsafe parent = written
        }
        return unsafe parent
    }

    /// The stand-in for one context of a chain, written once per key.
    private mutating func chainElement(
        kind: ContextDescriptorFlags.Kind,
        name: String,
        key: String,
        parent: UnsafeRawPointer?
    ) -> UnsafeRawPointer? {
        if let existing = unsafe byPath[key] { return unsafe existing }
        guard let written = unsafe write(kind: kind, name: name, parent: parent) else { return nil }
        unsafe byPath[key] = written
        return unsafe written
    }

    /// Writes one stand-in and its name: for an extension, the name is its extended context's
    /// mangling, which the same field (`ExtendedContext`) points to.
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

    /// What a descriptor symbol's context mangling spells, read without the demangler's word
    /// list: the kinds of its nested types, outermost first, and for a type nested in an
    /// extension the extended type's mangling. `$ss7UnicodeO20_CharacterRecognizerVMn` has
    /// kinds `[.enum, .struct]`; `$sSS20FoundationEssentialsE14CompareOptionsVMn` has the
    /// extended mangling `SS` and kinds `[.struct]`. `nil` for a form not followed here
    /// (private discriminators, generic signatures), whose enclosing types default to structs.
    private static func contextPath(ofSymbol symbol: String) -> (
        extendedMangling: String?, levelKinds: [ContextDescriptorFlags.Kind]
    )? {
        var bytes = Array(symbol.utf8)
        guard bytes.count > 4, bytes[0] == UInt8(ascii: "$"), bytes[1] == UInt8(ascii: "s") else { return nil }
        bytes.removeFirst(2)
        if symbol.hasSuffix("MXM") { return (nil, []) }
        bytes.removeLast(2)
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }
        var index = 0
        // Skips an identifier (swiftlang/swift lib/Demangling/Demangler.cpp,
        // `demangleIdentifier`): `<length><characters>`, or after `0` word substitutions
        // (lowercase letters, an uppercase one last) mixed with such runs, or after `00`
        // Punycode.
        func skipIdentifier() -> Bool {
            guard index < bytes.count, isDigit(bytes[index]) else { return false }
            var hasWordSubstitutions = false
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
                guard index < bytes.count else { return false }
                if bytes[index] == UInt8(ascii: "0") { index += 1 } else { hasWordSubstitutions = true }
            }
            repeat {
                while hasWordSubstitutions, index < bytes.count, isLetter(bytes[index]) {
                    if (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(bytes[index]) { hasWordSubstitutions = false }
                    index += 1
                }
                if index < bytes.count, bytes[index] == UInt8(ascii: "0") {
                    index += 1
                    break
                }
                var length = 0
                while index < bytes.count, isDigit(bytes[index]) {
                    length = length * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                    index += 1
                    guard length < 4096 else { return false }
                }
                guard length > 0 else { return !hasWordSubstitutions && index <= bytes.count }
                index += length
                guard index <= bytes.count else { return false }
            } while hasWordSubstitutions
            return true
        }
        func kind(_ byte: UInt8) -> ContextDescriptorFlags.Kind? {
            switch byte {
            case UInt8(ascii: "V"): .struct
            case UInt8(ascii: "O"): .enum
            case UInt8(ascii: "C"): .class
            case UInt8(ascii: "P"): .protocol
            default: nil
            }
        }
        var kinds: [ContextDescriptorFlags.Kind] = []
        var extended: String?
        // The module, or a standard type (`Si`, `Sq`) as the first level.
        if bytes.count >= 2, bytes[0] == UInt8(ascii: "S"), isLetter(bytes[1]) {
            if bytes[1] != UInt8(ascii: "o") && bytes[1] != UInt8(ascii: "C") {
                kinds.append(bytes[1] == UInt8(ascii: "q") ? .enum : .struct)
            }
            index = 2
        } else if bytes.first == UInt8(ascii: "s") {
            index = 1
        } else {
            guard skipIdentifier() else { return nil }
        }
        // Then `<identifier><kind>` per level, or `<module identifier>E` after an extended type.
        while index < bytes.count {
            let start = index
            guard skipIdentifier(), index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "E"), extended == nil {
                extended = String(decoding: bytes[0..<start], as: UTF8.self)
                kinds.removeAll()
            } else {
                guard let levelKind = kind(bytes[index]) else { return nil }
                kinds.append(levelKind)
            }
            index += 1
        }
        return (extended, kinds)
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
