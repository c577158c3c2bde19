// MetadataSectionCheck.swift
//
// Checks the Swift metadata sections of an image file before the dynamic loader sees it. Once
// a library is loaded, the Swift runtime trusts its records: a cast that misses scans every
// conformance record of every image, and a record that points outside its image crashes the
// process. So every relative pointer of the records read here (swiftlang/swift
// include/swift/ABI/Metadata.h: TargetProtocolConformanceDescriptor, TargetTypeMetadataRecord,
// TargetProtocolRecord; include/swift/RemoteInspection/Records.h: FieldDescriptor, FieldRecord)
// must land inside one of the file's loadable segments, and a context descriptor it names must
// have the kind its field expects. Indirect pointers must land on an aligned word of a
// writable segment, where the loader's relocations put the address (a GOT-like slot); the
// slot's contents are written at load time and cannot be checked in the file. Objective-C
// references have no place in an ELF image.

import Foundation

/// A file's loadable segments and bounds-checked reads at virtual addresses.
struct LoadedImageLayout {
    /// A `PT_LOAD` segment: where it is mapped and which part of the file backs it.
    struct Segment {
        var address: Int
        var memorySize: Int
        var fileOffset: Int
        var fileSize: Int
        /// Whether the segment is writable (`PF_W`), as relocated slots are.
        var isWritable: Bool
    }

    let segments: [Segment]
    /// The file's size in bytes.
    let fileSize: Int

    /// Whether `count` bytes at `address` are mapped when the image is loaded.
    func isMapped(_ address: Int, count: Int) -> Bool {
        segments.contains { segment in
            address >= segment.address && count >= 0 && address <= segment.address + segment.memorySize - count
        }
    }

    /// Whether `address` is a pointer-sized slot the loader can relocate: aligned, in a
    /// writable segment.
    func isSlot(_ address: Int) -> Bool {
        address % 8 == 0
            && segments.contains { segment in
                segment.isWritable && address >= segment.address && address <= segment.address + segment.memorySize - 8
            }
    }

    /// The file offset of `count` bytes at `address`, when the file holds them.
    func fileOffset(_ address: Int, count: Int) -> Int? {
        for segment in segments
        where address >= segment.address && count >= 0 && address <= segment.address + segment.fileSize - count {
            let offset = segment.fileOffset + (address - segment.address)
            guard offset >= 0, offset <= fileSize - count else { return nil }
            return offset
        }
        return nil
    }

    /// A little-endian integer of `size` bytes at `address`, when the file holds it.
    /// - Parameters:
    ///   - address: The virtual address.
    ///   - size: The integer's size in bytes, at most 8.
    ///   - file: The file's bytes (a span: bounds-checked reads without copying a mapped file).
    /// - Returns: The integer, or `nil` when the file does not hold all its bytes.
    func integer(at address: Int, size: Int, in file: Span<UInt8>) -> UInt64? {
        guard let offset = fileOffset(address, count: size), offset + size <= file.count else { return nil }
        var value: UInt64 = 0
        for index in 0..<size { value |= UInt64(file[offset + index]) << (8 * UInt64(index)) }
        return value
    }

    /// A 32-bit relative offset at `address`.
    func relative(at address: Int, in file: Span<UInt8>) -> Int? {
        integer(at: address, size: 4, in: file).map { Int(Int32(bitPattern: UInt32(truncatingIfNeeded: $0))) }
    }

    /// The kind of the context descriptor at `address` (`ContextDescriptorFlags`, low 5 bits).
    func contextKind(at address: Int, in file: Span<UInt8>) -> UInt64? {
        guard address % 4 == 0 else { return nil }
        return integer(at: address, size: 4, in: file).map { $0 & 0x1F }
    }
}

/// The checks of each Swift metadata section.
enum MetadataSectionCheck {
    /// Context descriptor kinds (`ContextDescriptorKind`): protocol, and the type kinds.
    private static let protocolKind: UInt64 = 3
    private static let typeKinds: ClosedRange<UInt64> = 16...31

    /// Checks every record of a section; returns the first bad record and why.
    /// - Parameters:
    ///   - name: The section's name.
    ///   - address: The section's virtual address.
    ///   - size: The section's size.
    ///   - image: The file's layout.
    ///   - file: The file's bytes.
    /// - Returns: The index of the first bad record and the reason, or `nil`.
    static func check(
        section name: String,
        address: Int,
        size: Int,
        in image: LoadedImageLayout,
        file: Span<UInt8>
    ) -> (Int, String)? {
        switch name {
        case "swift5_protocol_conformances":
            return eachRelative(address, size, image) { image.conformanceProblem(at: $0, in: file) }
        case "swift5_type_metadata":
            return eachRelative(address, size, image) { field in
                guard let relative = image.relative(at: field, in: file) else { return "cannot be read" }
                let target = field + (relative & ~3)
                switch relative & 3 {
                case 0:
                    return image.contextKind(at: target, in: file).map(typeKinds.contains) == true
                        ? nil : "names no type"
                case 1: return image.isSlot(target) ? nil : "points outside the image"
                default: return "names an Objective-C class"
                }
            }
        case "swift5_protocols":
            return eachRelative(address, size, image) { field in
                guard let relative = image.relative(at: field, in: file) else { return "cannot be read" }
                let target = field + (relative & ~3)
                if relative & 1 != 0 { return image.isSlot(target) ? nil : "points outside the image" }
                return image.contextKind(at: target, in: file) == protocolKind ? nil : "names no protocol"
            }
        case "swift5_fieldmd":
            return fieldDescriptorProblem(address, size, image, file)
        default:
            return nil
        }
    }

    /// Runs `problem` on each 32-bit field of a section.
    private static func eachRelative(
        _ address: Int,
        _ size: Int,
        _ image: LoadedImageLayout,
        _ problem: (Int) -> String?
    ) -> (Int, String)? {
        guard size % 4 == 0 else { return (0, "has a size that is not a multiple of 4") }
        for index in 0..<(size / 4) {
            if let reason = problem(address + index * 4) { return (index, reason) }
        }
        return nil
    }

    /// Walks the packed field descriptors of `swift5_fieldmd`.
    private static func fieldDescriptorProblem(
        _ address: Int,
        _ size: Int,
        _ image: LoadedImageLayout,
        _ file: Span<UInt8>
    ) -> (
        Int, String
    )? {
        var offset = 0
        var index = 0
        while offset < size {
            let header = address + offset
            guard let recordSize = image.integer(at: header + 10, size: 2, in: file),
                let count = image.integer(at: header + 12, size: 4, in: file)
            else { return (index, "cannot be read") }
            guard recordSize == 12 else { return (index, "has field records of \(recordSize) bytes, not 12") }
            let extent = 16 + Int(count) * 12
            guard count < 1 << 20, offset + extent <= size else { return (index, "extends past its section") }
            for pointer in [header, header + 4] where image.relative(at: pointer, in: file) != 0 {
                if let reason = image.mangledNameProblem(at: pointer, in: file) { return (index, reason) }
            }
            for field in 0..<Int(count) {
                let record = header + 16 + field * 12
                for pointer in [record + 4, record + 8] where image.relative(at: pointer, in: file) != 0 {
                    if let reason = image.mangledNameProblem(at: pointer, in: file) { return (index, reason) }
                }
            }
            offset += extent
            index += 1
        }
        return nil
    }
}

extension LoadedImageLayout {
    /// What is wrong with the conformance record whose relative pointer is at `field`.
    fileprivate func conformanceProblem(at field: Int, in file: Span<UInt8>) -> String? {
        guard let relative = relative(at: field, in: file) else { return "cannot be read" }
        let descriptor = field + relative
        // TargetProtocolConformanceDescriptor: Protocol, TypeRef, WitnessTablePattern, Flags.
        guard descriptor % 4 == 0, let flags = integer(at: descriptor + 12, size: 4, in: file) else {
            return "points outside the image"
        }
        guard let protocolRelative = self.relative(at: descriptor, in: file) else { return "cannot be read" }
        let protocolTarget = descriptor + (protocolRelative & ~1)
        if protocolRelative & 1 != 0 {
            guard isSlot(protocolTarget) else { return "names a protocol outside the image" }
        } else if contextKind(at: protocolTarget, in: file) != 3 {
            return "names no protocol"
        }
        guard let typeRelative = self.relative(at: descriptor + 4, in: file) else { return "cannot be read" }
        let typeTarget = descriptor + 4 + typeRelative
        switch (flags >> 3) & 7 {
        case 0:
            // A type, or a protocol for the self-conformance of its existential (`any Error: Error`).
            guard let kind = contextKind(at: typeTarget, in: file), kind == 3 || (16...31).contains(kind) else {
                return "names no type"
            }
        case 1:
            guard isSlot(typeTarget) else { return "names a type outside the image" }
        case 2, 3:
            return "names an Objective-C class"
        default:
            return "has an unknown type reference kind"
        }
        if let pattern = self.relative(at: descriptor + 8, in: file), pattern != 0 {
            guard isMapped(descriptor + 8 + pattern, count: 8) else { return "has a witness table outside the image" }
        }
        // Trailing objects: the retroactive context, then the conditional requirements.
        let conditional = Int((flags >> 8) & 0xFF)
        let extent = 16 + (flags & 0x40 != 0 ? 4 : 0) + conditional * 12
        guard fileOffset(descriptor, count: extent) != nil else { return "extends past the image" }
        return nil
    }

    /// What is wrong with the mangled name a relative pointer at `pointer` names: it and every
    /// symbolic reference in it must lie in the image.
    fileprivate func mangledNameProblem(at pointer: Int, in file: Span<UInt8>) -> String? {
        guard let relative = relative(at: pointer, in: file) else { return "cannot be read" }
        var address = pointer + relative
        for _ in 0..<4096 {
            guard let byte = integer(at: address, size: 1, in: file) else { return "names a string outside the image" }
            switch byte {
            case 0:
                return nil
            case 0x01...0x17:
                guard let reference = self.relative(at: address + 1, in: file),
                    isMapped(address + 1 + reference, count: 4)
                else {
                    return "has a symbolic reference outside the image"
                }
                address += 5
            case 0x18...0x1F:
                address += 9
            default:
                address += 1
            }
        }
        return "has a mangled name that does not end"
    }
}
