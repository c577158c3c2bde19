// SymbolicReference.swift
//
// Mirrors the symbolic-reference encoding of mangled names from swiftlang/swift
// include/swift/Demangling/ManglingMacros.h and lib/Demangling/Demangler.cpp
// (`Demangler::demangleSymbolicReference`), checked against Swift 6.3.1 on Linux x86_64.
// A byte in 0x01...0x17 is followed by a 4-byte relative offset, a byte in 0x18...0x1F by
// a pointer-sized absolute address. The offset bytes may be zero, so a name's length must
// be computed by scanning, never with strlen.

/// A mangled name in loaded memory, measured by scanning its symbolic references.
@unsafe
struct MangledNameLayout: Sendable {
    /// The first byte.
    nonisolated(unsafe) let address: UnsafeRawPointer
    /// The exact length in bytes.
    let length: Int
    /// The offset just past the last symbolic reference's payload (0 without any).
    let endOfLastSymbolicReference: Int
    /// The kind byte of the first symbolic reference, when the name starts with one.
    let leadingReferenceKind: UInt8?

    /// Measures the mangled name at an address.
    /// - Parameter address: The first byte.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
        var offset = 0
        var endOfReference = 0
        let first: UInt8 = unsafe address.read()
        while true {
            let byte: UInt8 = unsafe address.read(at: offset)
            if byte == 0 { break }
            if byte >= 0x01 && byte <= 0x17 {
                offset += 1 + 4
                endOfReference = offset
            } else if byte >= 0x18 && byte <= 0x1F {
                offset += 1 + MemoryLayout<UInt>.size
                endOfReference = offset
            } else {
                offset += 1
            }
        }
        unsafe self.length = offset
        unsafe self.endOfLastSymbolicReference = endOfReference
        unsafe self.leadingReferenceKind = first >= 0x01 && first <= 0x1F ? first : nil
    }

    /// The context descriptor a name starting with a direct (0x01) or indirect (0x02) symbolic
    /// reference to a context names.
    var leadingContextDescriptor: UnsafeRawPointer? {
        guard let kind = unsafe leadingReferenceKind, kind == 0x01 || kind == 0x02 else { return nil }
        let target = unsafe address.relativeDirectPointer(at: 1)
        return kind == 0x01 ? unsafe target : unsafe target?.slotTarget
    }

    /// Whether the whole name is `x`, the first generic parameter of the outermost generic
    /// context (τ_0_0; the `generic-param-index` productions of swiftlang/swift
    /// docs/ABI/Mangling.rst), which comes first among every level's parameters.
    var isFirstGenericParameter: Bool {
        unsafe length == 1 && address.read(as: UInt8.self) == UInt8(ascii: "x")
    }

    /// The plain characters after the last symbolic reference.
    var trailingText: String {
        let start = unsafe endOfLastSymbolicReference
        let bytes = unsafe (start..<length).map { unsafe address.read(at: $0, as: UInt8.self) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The name as a printable string: symbolic references shown as `<ref>`.
    var printable: String {
        var result = ""
        var offset = 0
        while unsafe offset < length {
            let byte: UInt8 = unsafe address.read(at: offset)
            if byte >= 0x01 && byte <= 0x17 {
                result += "<ref>"
                offset += 5
            } else if byte >= 0x18 && byte <= 0x1F {
                result += "<ref>"
                offset += 1 + MemoryLayout<UInt>.size
            } else {
                result.unicodeScalars.append(Unicode.Scalar(byte))
                offset += 1
            }
        }
        return result
    }
}

/// One piece of a mangled name, for the safe layers: plain mangling text, or a symbolic
/// reference resolved to the context descriptor it names.
enum MangledNamePart: Hashable, Sendable {
    /// Characters of the mangling.
    case text(String)
    /// A direct (0x01) or indirect (0x02) reference to a context descriptor.
    case context(DescriptorReference)
    /// Another kind of symbolic reference (an accessor function, a unique shape), or a
    /// reference whose target could not be read.
    case unresolved(kind: UInt8)
}

extension MangledNameLayout {
    /// The name's pieces in order, each symbolic reference resolved to its context descriptor.
    var parts: [MangledNamePart] {
        var parts: [MangledNamePart] = []
        var text: [UInt8] = []
        func flush() {
            if !text.isEmpty { parts.append(.text(String(decoding: text, as: UTF8.self))) }
            text.removeAll()
        }
        var offset = 0
        while unsafe offset < length {
            let byte: UInt8 = unsafe address.read(at: offset)
            if byte >= 0x01 && byte <= 0x17 {
                flush()
                let target = unsafe (address + offset).relativeDirectPointer(at: 1)
                let context = byte == 0x01 ? unsafe target : byte == 0x02 ? unsafe target?.slotTarget : nil
                if let context = unsafe context {
                    parts.append(.context(unsafe DescriptorReference(context)))
                } else {
                    parts.append(.unresolved(kind: byte))
                }
                offset += 5
            } else if byte >= 0x18 && byte <= 0x1F {
                flush()
                parts.append(.unresolved(kind: byte))
                offset += 1 + MemoryLayout<UInt>.size
            } else {
                text.append(byte)
                offset += 1
            }
        }
        flush()
        return parts
    }
}
