// ImageRecordCheck.swift
//
// The checks of an image read from a file (ImageFileMapping.swift), record by record, before
// anything reads its records, and of the sections the runtime would register for it when it is
// loaded (ImageProbe). Once a library is loaded the runtime trusts its records: a cast that
// misses scans every conformance record of every image, and a record that points outside its
// image crashes the process. So every relative pointer of the records (swiftlang/swift
// include/swift/ABI/Metadata.h: TargetProtocolConformanceDescriptor, TargetTypeMetadataRecord,
// TargetProtocolRecord; include/swift/RemoteInspection/Records.h: FieldDescriptor, FieldRecord)
// must land in one of the file's loadable segments, in bytes the file holds, and a context
// descriptor it names must have the kind its field expects. An indirect pointer must land on an
// aligned word of a writable segment, where the loader's relocations put the address (a GOT
// slot); what the slot holds is written at load time. Objective-C references have no place in
// an ELF image. Offsets come from the layouts of this folder; where a read image's segments
// lie comes from its reader (`cmd_readImageSegment`, CMetadata/include/CMDImageFile.h).

internal import CMetadata

/// A record of a read image's Swift metadata that is not safe to read.
struct ImageRecordDefect: Sendable, Equatable {
    /// The section, such as `swift5_protocol_conformances`.
    let section: String
    /// The record's index in its section (for `swift5_fieldmd`, the field descriptor's).
    let record: Int
    /// What is wrong, as a predicate: `points outside the image`.
    let reason: String
}

/// The checks of each Swift metadata section of a read image.
@unsafe
enum ImageRecordCheck {
    /// Checks every record of a section of a read image; returns the first bad record.
    /// - Parameters:
    ///   - name: The section's name.
    ///   - start: The section's mapped address.
    ///   - size: Its size.
    /// - Returns: The first bad record and why, or `nil`.
    static func firstDefect(section name: String, start: UnsafeRawPointer, size: Int) -> ImageRecordDefect? {
        guard size > 0 else { return nil }
        guard unsafe holds(start, size) else {
            return ImageRecordDefect(section: name, record: 0, reason: "lies outside the image")
        }
        let found: (Int, String)?
        switch name {
        case "swift5_protocol_conformances":
            found = unsafe eachRelative(start, size) { unsafe conformanceProblem(at: $0) }
        case "swift5_type_metadata", "swift5_type_metadata_2":
            found = unsafe eachRelative(start, size) { field in
                // TargetTypeMetadataRecord: a relative pointer whose low two bits are a TypeReferenceKind.
                guard let offset = unsafe relative(at: field) else { return "cannot be read" }
                let target = unsafe field + (offset & ~3)
                switch offset & 3 {
                case 0: return unsafe contextKind(at: target).map(typeKinds.contains) == true ? nil : "names no type"
                case 1: return unsafe isSlot(target) ? nil : "points outside the image"
                default: return "names an Objective-C class"
                }
            }
        case "swift5_protocols":
            found = unsafe eachRelative(start, size) { field in
                // TargetProtocolRecord: a relative indirectable pointer; bit 1 is reserved.
                guard let offset = unsafe relative(at: field) else { return "cannot be read" }
                let target = unsafe field + (offset & ~3)
                if offset & 1 != 0 { return unsafe isSlot(target) ? nil : "points outside the image" }
                return unsafe contextKind(at: target) == protocolKind ? nil : "names no protocol"
            }
        case "swift5_fieldmd":
            found = unsafe fieldDescriptorProblem(start, size)
        default:
            found = nil
        }
        return found.map { ImageRecordDefect(section: name, record: $0.0, reason: $0.1) }
    }

    /// Context descriptor kinds (`ContextDescriptorKind`): protocol, and the type kinds.
    private static let protocolKind: UInt32 = 3
    private static let typeKinds: ClosedRange<UInt32> = 16...31

    // MARK: Where bytes lie

    /// Whether one loadable segment's memory of a read image holds `count` bytes at `address`.
    static func isMapped(_ address: UnsafeRawPointer, _ count: Int) -> Bool {
        var writable = false
        var fileBacked = false
        return unsafe count >= 0 && cmd_readImageSegment(address, count, &writable, &fileBacked)
    }

    /// Whether the file holds `count` bytes at `address`: in a segment, not its zero-filled tail.
    private static func holds(_ address: UnsafeRawPointer, _ count: Int) -> Bool {
        var writable = false
        var fileBacked = false
        return unsafe count >= 0 && cmd_readImageSegment(address, count, &writable, &fileBacked) && fileBacked
    }

    /// Whether `address` is a pointer-sized slot the loader can relocate: aligned, in a writable
    /// segment.
    private static func isSlot(_ address: UnsafeRawPointer) -> Bool {
        var writable = false
        var fileBacked = false
        return unsafe UInt(bitPattern: address) % 8 == 0 && cmd_readImageSegment(address, 8, &writable, &fileBacked)
            && writable
    }

    /// The 32-bit relative offset at `address`, when the file holds it.
    private static func relative(at address: UnsafeRawPointer) -> Int? {
        guard unsafe holds(address, 4) else { return nil }
        return unsafe Int(address.read(as: Int32.self))
    }

    /// The kind of the context descriptor at `address` (`ContextDescriptorFlags`, low 5 bits).
    private static func contextKind(at address: UnsafeRawPointer) -> UInt32? {
        guard UInt(bitPattern: address) % 4 == 0, unsafe holds(address, 4) else { return nil }
        return unsafe address.read(as: UInt32.self) & 0x1F
    }

    // MARK: Records

    /// Runs `problem` on each 32-bit field of a section.
    private static func eachRelative(
        _ start: UnsafeRawPointer,
        _ size: Int,
        _ problem: (UnsafeRawPointer) -> String?
    ) -> (Int, String)? {
        guard size % 4 == 0 else { return (0, "has a size that is not a multiple of 4") }
        for index in 0..<(size / 4) {
            if let reason = unsafe problem(start + index * 4) { return (index, reason) }
        }
        return nil
    }

    /// What is wrong with the conformance record whose relative pointer is at `field`.
    private static func conformanceProblem(at field: UnsafeRawPointer) -> String? {
        typealias Layout = ProtocolConformanceDescriptorLayout
        guard let recordOffset = unsafe relative(at: field) else { return "cannot be read" }
        let descriptor = unsafe field + recordOffset
        guard UInt(bitPattern: descriptor) % 4 == 0, unsafe holds(descriptor, MemoryLayout<Layout.Fields>.size) else {
            return "points outside the image"
        }
        let flags = unsafe descriptor.read(at: Layout.flagsOffset, as: UInt32.self)
        guard let protocolRelative = unsafe relative(at: descriptor + Layout.protocolOffset) else {
            return "cannot be read"
        }
        let protocolTarget = unsafe descriptor + Layout.protocolOffset + (protocolRelative & ~1)
        if protocolRelative & 1 != 0 {
            guard unsafe isSlot(protocolTarget) else { return "names a protocol outside the image" }
        } else if unsafe contextKind(at: protocolTarget) != protocolKind {
            return "names no protocol"
        }
        let typeField = unsafe descriptor + Layout.typeReferenceOffset
        guard let typeRelative = unsafe relative(at: typeField) else { return "cannot be read" }
        let typeTarget = unsafe typeField + typeRelative
        switch (flags & Layout.Flag.typeReferenceKindMask) >> Layout.Flag.typeReferenceKindShift {
        case 0:
            // A type, or a protocol for the self-conformance of its existential (`any Error: Error`).
            guard let kind = unsafe contextKind(at: typeTarget), unsafe kind == protocolKind || typeKinds.contains(kind)
            else {
                return "names no type"
            }
        case 1:
            guard unsafe isSlot(typeTarget) else { return "names a type outside the image" }
        case 2, 3:
            return "names an Objective-C class"
        default:
            return "has an unknown type reference kind"
        }
        let patternField = unsafe descriptor + MemoryLayout<Layout.Fields>.offset(of: \.witnessTablePattern)!
        if let pattern = unsafe relative(at: patternField), pattern != 0 {
            guard unsafe isMapped(patternField + pattern, 8) else { return "has a witness table outside the image" }
        }
        // Trailing objects: the retroactive context, then the conditional requirements (12 bytes each).
        let conditional = Int(
            (flags & Layout.Flag.numConditionalRequirementsMask) >> Layout.Flag.numConditionalRequirementsShift
        )
        let extent =
            MemoryLayout<Layout.Fields>.size + (flags & Layout.Flag.isRetroactive != 0 ? 4 : 0) + conditional * 12
        guard unsafe holds(descriptor, extent) else { return "extends past the image" }
        return nil
    }

    /// Walks the field descriptors of `swift5_fieldmd` with the one walk of that section
    /// (`cmd_fieldDescriptorSize`, the runtime's `FieldDescriptorIterator` rule) and checks each.
    private static func fieldDescriptorProblem(_ start: UnsafeRawPointer, _ size: Int) -> (Int, String)? {
        typealias Layout = FieldDescriptorLayout
        let recordStride = MemoryLayout<FieldRecordLayout.Fields>.size
        var offset = 0
        var index = 0
        while offset < size {
            let extent = unsafe cmd_fieldDescriptorSize(start, size, offset)
            guard extent > 0 else { return (index, "extends past its section") }
            let descriptor = unsafe Layout(start + offset)
            // The records are read at `FieldRecord`'s own size (`FieldDescriptor::getFields`).
            guard unsafe descriptor.recordSize == recordStride || descriptor.count == 0 else {
                return unsafe (index, "has field records of \(descriptor.recordSize) bytes, not \(recordStride)")
            }
            let header = unsafe start + offset
            let namePointers = [
                MemoryLayout<Layout.Fields>.offset(of: \.mangledTypeName)!,
                MemoryLayout<Layout.Fields>.offset(of: \.superclass)!,
            ]
            for pointer in namePointers where unsafe relative(at: header + pointer) != 0 {
                if let reason = unsafe mangledNameProblem(at: header + pointer) { return (index, reason) }
            }
            let recordPointers = [
                MemoryLayout<FieldRecordLayout.Fields>.offset(of: \.mangledTypeName)!,
                MemoryLayout<FieldRecordLayout.Fields>.offset(of: \.fieldName)!,
            ]
            for field in 0..<(unsafe descriptor.count) {
                let record = unsafe header + MemoryLayout<Layout.Fields>.size + field * recordStride
                for pointer in recordPointers where unsafe relative(at: record + pointer) != 0 {
                    if let reason = unsafe mangledNameProblem(at: record + pointer) { return (index, reason) }
                }
            }
            offset += extent
            index += 1
        }
        return nil
    }

    /// What is wrong with the mangled name a relative pointer at `pointer` names: it and every
    /// symbolic reference in it must lie in the image (include/swift/Demangling/ManglingUtils.h:
    /// 0x01-0x17 are followed by a 32-bit relative reference, 0x18-0x1F by a pointer).
    private static func mangledNameProblem(at pointer: UnsafeRawPointer) -> String? {
        guard let nameOffset = unsafe relative(at: pointer) else { return "cannot be read" }
        var address = unsafe pointer + nameOffset
        for _ in 0..<4096 {
            guard unsafe holds(address, 1) else { return "names a string outside the image" }
            switch unsafe address.read(as: UInt8.self) {
            case 0:
                return nil
            case 0x01...0x17:
                guard let reference = unsafe self.relative(at: address + 1), unsafe isMapped(address + 1 + reference, 4)
                else { return "has a symbolic reference outside the image" }
                unsafe address += 5
            case 0x18...0x1F:
                unsafe address += 9
            default:
                unsafe address += 1
            }
        }
        return "has a mangled name that does not end"
    }
}
