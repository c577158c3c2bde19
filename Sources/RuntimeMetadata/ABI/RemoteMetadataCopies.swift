// RemoteMetadataCopies.swift
//
// Another process's type metadata, for the census of its objects (RemoteProcess): its classes'
// metadata checked word by word against include/swift/ABI/Metadata.h (TargetClassMetadata on
// Linux: kind 0, superclass, flags, instance size and alignment mask, class size and address
// point, description), and, to name a generic class, the metadata copied into this process
// with each pointer a name needs translated: descriptors to their images' copies, generic
// arguments, tuple elements and labels, function parameters, existential protocols,
// metatypes' instance types and constrained existentials' generalization arguments to copies of
// their own, constrained existentials' shapes to their images' copies. The copies are read by the structural
// namer (MetadataReference+StructuralName.swift), never by the runtime, and are kept for the
// life of the process: metadata is never freed, and the library's caches may key on them.

internal import CMetadata
import Synchronization

/// Where one image of another process is, there and in this process.
struct RemoteImagePlace: Sendable {
    /// The image's loadable range in the process.
    let remoteLow: UInt
    let remoteHigh: UInt
    /// Its load bias there, and the address of its file address 0 in the copy here.
    let remoteBias: UInt
    let localBias: UInt
    /// Whether it is the standard library (`libswiftCore`), whose storage classes allocate
    /// their elements after their properties.
    let isStandardLibrary: Bool
}

/// What a census needs of a class of another process.
struct RemoteClassFacts: Sendable {
    /// The class's descriptor, in its image's copy.
    let descriptor: DescriptorReference
    /// `InstanceSize` and `InstanceAlignMask`.
    let instanceSize: Int
    let alignmentMask: Int
    /// Whether its instances may be larger than its instance size: a class of the standard
    /// library or one derived from one (`ManagedBuffer`'s subclasses, the collections' storage),
    /// or a class without stored properties, which `ManagedBufferPointer` allocates with a tail.
    let allowsTailAllocation: Bool
    /// Whether the class is generic, so that its name needs its arguments.
    let isGeneric: Bool
}

/// Reads and copies another process's metadata.
@safe
final class RemoteMetadataCopies: @unchecked Sendable {
    private let processID: Int32
    private let images: [RemoteImagePlace]
    /// The images' type and protocol descriptors, in their copies: the only descriptors a
    /// copied metadata may name.
    private let knownDescriptors: Set<UInt>
    /// Copies made, by remote address point.
    private var copies: [UInt: UInt] = [:]
    /// Remote addresses that are no metadata this namer copies.
    private var refused: Set<UInt> = []
    /// Remote addresses being copied: metadata that names itself (forged; the runtime makes none)
    /// is refused rather than followed round.
    private var inProgress: Set<UInt> = []

    /// - Parameters:
    ///   - processID: The process.
    ///   - images: Its images, there and here.
    ///   - knownDescriptors: The identities of the images' type and protocol descriptors.
    init(processID: Int32, images: [RemoteImagePlace], knownDescriptors: Set<UInt>) {
        self.processID = processID
        self.images = images
        self.knownDescriptors = knownDescriptors
    }

    /// Reads bytes of the process.
    private func read(_ address: UInt, count: Int) -> [UInt8]? {
        guard count > 0, count <= 1 << 20, address < 1 << 47 else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        var error: Int32 = 0
        let read = unsafe bytes.withUnsafeMutableBytes { buffer in
            unsafe cmd_readProcessMemory(processID, UInt(address), buffer.baseAddress!, count, &error)
        }
        return read == count ? bytes : nil
    }

    /// Reads a word of the process.
    private func word(_ address: UInt) -> UInt? {
        guard let bytes = read(address, count: 8) else { return nil }
        return unsafe bytes.withUnsafeBytes { unsafe $0.loadUnaligned(as: UInt.self) }
    }

    /// The image holding a remote address.
    private func image(containing address: UInt) -> RemoteImagePlace? {
        images.first { address >= $0.remoteLow && address < $0.remoteHigh }
    }

    /// A remote address inside an image, as the same place in the image's copy.
    private func local(_ address: UInt) -> UnsafeRawPointer? {
        guard let image = image(containing: address) else { return nil }
        return unsafe UnsafeRawPointer(bitPattern: address - image.remoteBias + image.localBias)
    }

    /// One of the images' descriptors, of the raw kinds given (`ContextDescriptorKind`: 3
    /// protocol, 16 class, 17 struct, 18 enum), at a remote address.
    private func descriptor(at address: UInt, kinds: Set<UInt8>) -> DescriptorReference? {
        guard let pointer = unsafe local(address), knownDescriptors.contains(UInt(bitPattern: pointer)) else {
            return nil
        }
        let descriptor = unsafe DescriptorReference(pointer)
        return kinds.contains(descriptor.rawKind) ? descriptor : nil
    }

    /// The facts of a class of the process, from its metadata's address point, or `nil` when the
    /// words there are no Swift class metadata whose descriptor is a class of one of the images.
    func classFacts(at address: UInt) -> RemoteClassFacts? {
        guard address % 8 == 0, let bytes = read(address, count: 56) else { return nil }
        func load<T: FixedWidthInteger>(_ offset: Int, _: T.Type) -> T {
            unsafe bytes.withUnsafeBytes { unsafe $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
        }
        // ClassMetadataLayout on Linux: kind 0, flags with UsesSwiftRefcounting (0x2).
        let instanceSize = Int(load(24, UInt32.self))
        let alignmentMask = Int(load(28, UInt16.self))
        let classSize = Int(load(32, UInt32.self))
        let addressPoint = Int(load(36, UInt32.self))
        guard load(0, UInt.self) == 0, load(16, UInt32.self) & 0x2 != 0, instanceSize >= 16,
            alignmentMask < 4096, (alignmentMask + 1) & alignmentMask == 0, addressPoint >= 16,
            classSize > addressPoint, classSize <= 1 << 20,
            let descriptor = descriptor(at: load(40, UInt.self), kinds: [16])
        else { return nil }
        return RemoteClassFacts(
            descriptor: descriptor,
            instanceSize: instanceSize,
            alignmentMask: alignmentMask,
            allowsTailAllocation: instanceSize == 16 || isStandardLibraryDerived(load(8, UInt.self)),
            isGeneric: descriptor.isGeneric
        )
    }

    /// The kind of the metadata of a heap object that is no class instance (MetadataKind.def):
    /// `HeapLocalVariable`, 0x400, of a closure context or a fixed-size box, whose metadata the
    /// compiler emits into an image; `HeapGenericLocalVariable`, 0x500, of a box
    /// `swift_allocBox` made, whose metadata the runtime allocates. `nil` for any other word.
    /// - Parameter address: The object's first word.
    /// - Returns: 0x400, 0x500, or `nil`.
    func heapLocalVariableKind(at address: UInt) -> UInt? {
        guard address % 8 == 0, let kind = word(address) else { return nil }
        if kind == 0x400 && image(containing: address) != nil { return kind }
        return kind == 0x500 ? kind : nil
    }

    /// Whether a class chain from `superclass` up reaches a class of the standard library.
    private func isStandardLibraryDerived(_ superclass: UInt) -> Bool {
        var current = superclass
        for _ in 0..<64 where current != 0 {
            guard let description = word(current + 40), let image = image(containing: description) else {
                return false
            }
            if image.isStandardLibrary { return true }
            guard let next = word(current + 8) else { return false }
            current = next
        }
        return false
    }

    /// A copy of the metadata at a remote address point, its pointers translated, or `nil` for a
    /// kind this copier does not cover.
    func copy(metadata address: UInt, depth: Int = 0) -> MetadataReference? {
        if let copy = copies[address], let pointer = unsafe UnsafeRawPointer(bitPattern: copy) {
            return unsafe MetadataReference(pointer)
        }
        guard depth < RuntimeMetadataLimits.maximumNameNesting, !refused.contains(address), address % 8 == 0,
            inProgress.insert(address).inserted
        else { return nil }
        defer { inProgress.remove(address) }
        guard let copy = unsafe makeCopy(of: address, depth: depth) else {
            refused.insert(address)
            return nil
        }
        copies[address] = UInt(bitPattern: copy)
        return unsafe MetadataReference(copy)
    }

    /// The addresses of `count` bytes from `memory`.
    private static func bounds(_ memory: UnsafeMutableRawPointer, _ count: Int) -> Range<UInt> {
        let start = UInt(bitPattern: memory)
        return start..<(start + UInt(count))
    }

    /// Every copy's memory, kept reachable for the life of the process: the library's caches may
    /// key on a copy's address, which must never name other metadata.
    private static let kept = Mutex<[UInt]>([])

    /// Keeps memory for the life of the process.
    private static func keepForever(_ memory: UnsafeMutableRawPointer) {
        kept.withLock { $0.append(UInt(bitPattern: memory)) }
    }

    /// Copies `count` bytes from `start` into memory kept for the life of the process.
    private func keep(_ start: UInt, count: Int) -> UnsafeMutableRawPointer? {
        guard let bytes = read(start, count: count) else { return nil }
        let memory = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
        unsafe Self.keepForever(memory)
        unsafe bytes.withUnsafeBytes { unsafe memory.copyMemory(from: $0.baseAddress!, byteCount: count) }
        return unsafe memory
    }

    /// Replaces the remote metadata address stored at `offset` in a copy with the address of
    /// that metadata's own copy.
    /// - Parameters:
    ///   - copy: The copy being made.
    ///   - offset: The byte offset of the word.
    ///   - depth: The copy's nesting.
    /// - Returns: Whether the metadata there could be copied.
    private func translateMetadata(in copy: UnsafeMutableRawPointer, at offset: Int, depth: Int) -> Bool {
        let remote = unsafe copy.load(fromByteOffset: offset, as: UInt.self)
        guard let translated = self.copy(metadata: remote, depth: depth + 1) else { return false }
        unsafe copy.storeBytes(of: UInt(bitPattern: translated.address), toByteOffset: offset, as: UInt.self)
        return true
    }

    private func makeCopy(of address: UInt, depth: Int) -> UnsafeRawPointer? {
        guard let kind = word(address) else { return nil }
        switch kind {
        case 0:
            return unsafe copyClass(address, depth: depth)
        case MetadataKind.struct.rawValue, MetadataKind.enum.rawValue, MetadataKind.optional.rawValue:
            return unsafe copyValueType(address, depth: depth)
        case MetadataKind.tuple.rawValue:
            return unsafe copyTuple(address, depth: depth)
        case MetadataKind.function.rawValue:
            return unsafe copyFunction(address, depth: depth)
        case MetadataKind.existential.rawValue:
            return unsafe copyExistential(address, depth: depth)
        case MetadataKind.extendedExistential.rawValue:
            return unsafe copyExtendedExistential(address, depth: depth)
        case MetadataKind.metatype.rawValue, MetadataKind.existentialMetatype.rawValue:
            // Kind, instance type, and an existential metatype's flags.
            guard let memory = unsafe keep(address - 8, count: 32) else { return nil }
            let copy = unsafe UnsafeRawPointer(memory + 8)
            return unsafe translateMetadata(in: UnsafeMutableRawPointer(mutating: copy), at: 8, depth: depth)
                ? copy : nil
        default:
            return nil
        }
    }

    /// Translates the generic arguments of a copied nominal type's metadata.
    /// - Parameters:
    ///   - copy: The copy's address point.
    ///   - bounds: The memory the copy occupies: the vector's place comes from the descriptor,
    ///     and a forged one may put it anywhere.
    ///   - depth: The nesting so far.
    /// - Returns: Whether every argument was copied and translated.
    private func translateArguments(of copy: UnsafeRawPointer, bounds: Range<UInt>, depth: Int) -> Bool {
        let metadata = unsafe MetadataReference(copy)
        guard let descriptor = metadata.typeDescriptor, descriptor.isGeneric else { return true }
        guard let vector = unsafe metadata.genericArgumentVector, let context = unsafe descriptor.genericContext
        else { return false }
        let mutable = unsafe UnsafeMutableRawPointer(mutating: vector)
        var slot = unsafe context.shapeClassCount
        for parameter in unsafe context.parameters where parameter & 0x80 != 0 {
            defer { slot += 1 }
            let word = UInt(bitPattern: vector) &+ UInt(slot * 8)
            guard bounds.contains(word), bounds.upperBound - word >= 8 else { return false }
            switch parameter & 0x3F {
            case 0:
                guard unsafe translateMetadata(in: mutable, at: slot * 8, depth: depth) else { return false }
            case 1:
                // A pack: a pointer to its elements' metadata (bit 0 marks one on the heap),
                // as many as its shape class's count, stored first in the vector.
                let shape = unsafe context.packShapes.first { Int($0.index) == slot }.map { Int($0.shapeClass) }
                guard let shape, shape < slot else { return false }
                let count = unsafe mutable.load(fromByteOffset: shape * 8, as: UInt.self)
                guard count <= 4096 else { return false }
                let remote = unsafe mutable.load(fromByteOffset: slot * 8, as: UInt.self) & ~1
                var elements: [UInt] = []
                for index in 0..<Int(count) {
                    guard let element = self.word(remote &+ UInt(index * 8)),
                        let copied = self.copy(metadata: element, depth: depth + 1)
                    else { return false }
                    unsafe elements.append(UInt(bitPattern: copied.address))
                }
                let pack = UnsafeMutableRawPointer.allocate(byteCount: max(elements.count, 1) * 8, alignment: 8)
                unsafe Self.keepForever(pack)
                for (index, element) in elements.enumerated() {
                    unsafe pack.storeBytes(of: element, toByteOffset: index * 8, as: UInt.self)
                }
                unsafe mutable.storeBytes(of: UInt(bitPattern: pack), toByteOffset: slot * 8, as: UInt.self)
            case 2:
                continue
            default:
                return false
            }
        }
        return true
    }

    private func copyClass(_ address: UInt, depth: Int) -> UnsafeRawPointer? {
        guard let facts = classFacts(at: address), let header = read(address + 32, count: 8) else { return nil }
        let classSize = unsafe Int(header.withUnsafeBytes { unsafe $0.loadUnaligned(as: UInt32.self) })
        let addressPoint = unsafe Int(
            header.withUnsafeBytes { unsafe $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) }
        )
        guard let memory = unsafe keep(address - UInt(addressPoint), count: classSize) else { return nil }
        let copy = unsafe memory + addressPoint
        // The superclass is not followed; the description is the image copy's.
        unsafe copy.storeBytes(of: 0, toByteOffset: 8, as: UInt.self)
        unsafe copy.storeBytes(of: UInt(bitPattern: facts.descriptor.address), toByteOffset: 40, as: UInt.self)
        return unsafe translateArguments(of: copy, bounds: Self.bounds(memory, classSize), depth: depth)
            ? UnsafeRawPointer(copy) : nil
    }

    private func copyValueType(_ address: UInt, depth: Int) -> UnsafeRawPointer? {
        guard let remoteDescriptor = word(address + 8),
            let descriptor = descriptor(at: remoteDescriptor, kinds: [17, 18])
        else { return nil }
        // Value witnesses, kind, description, then the key arguments.
        let count = 24 + 8 * max(descriptor.genericKeyArgumentCount, 0)
        guard let memory = unsafe keep(address - 8, count: count) else { return nil }
        let copy = unsafe memory + 8
        unsafe copy.storeBytes(of: UInt(bitPattern: descriptor.address), toByteOffset: 8, as: UInt.self)
        return unsafe translateArguments(of: copy, bounds: Self.bounds(memory, count), depth: depth)
            ? UnsafeRawPointer(copy) : nil
    }

    private func copyTuple(_ address: UInt, depth: Int) -> UnsafeRawPointer? {
        guard let elementCount = word(address + 8), elementCount <= 4096,
            let memory = unsafe keep(address - 8, count: 32 + 16 * Int(elementCount))
        else { return nil }
        let copy = unsafe memory + 8
        // Labels: one C string, space-separated, or null.
        let labels = unsafe copy.load(fromByteOffset: 16, as: UInt.self)
        if labels != 0 {
            // Read up to each page's end, so that a string ending before an unmapped page is read.
            var bytes: [UInt8] = []
            var at = labels
            var ended = false
            while !ended, bytes.count < 65_536 {
                let count = 4096 - Int(at % 4096)
                guard let chunk = read(at, count: count) else { return nil }
                if let end = chunk.firstIndex(of: 0) {
                    bytes += chunk[..<end]
                    ended = true
                } else {
                    bytes += chunk
                    at += UInt(count)
                }
            }
            guard ended else { return nil }
            let kept = UnsafeMutableRawPointer.allocate(byteCount: bytes.count + 1, alignment: 1)
            unsafe Self.keepForever(kept)
            unsafe kept.initializeMemory(as: UInt8.self, from: bytes + [0], count: bytes.count + 1)
            unsafe copy.storeBytes(of: UInt(bitPattern: kept), toByteOffset: 16, as: UInt.self)
        }
        for index in 0..<Int(elementCount) {
            let offset = 24 + 16 * index
            guard unsafe translateMetadata(in: copy, at: offset, depth: depth) else { return nil }
        }
        return UnsafeRawPointer(copy)
    }

    private func copyFunction(_ address: UInt, depth: Int) -> UnsafeRawPointer? {
        guard let flags = word(address + 8) else { return nil }
        let parameterCount = Int(flags & FunctionTypeMetadataLayout.Flag.numParametersMask)
        // The fields, parameters, parameter flags and the trailing words, read generously and
        // then measured by the layout.
        let generous = 24 + 12 * parameterCount + 48
        guard let memory = unsafe keep(address - 8, count: generous) else { return nil }
        let copy = unsafe memory + 8
        let layout = unsafe FunctionTypeMetadataLayout(UnsafeRawPointer(copy))
        guard unsafe layout.size <= generous - 8 else { return nil }
        var offsets = [16] + (0..<parameterCount).map { 24 + 8 * $0 }
        if let offset = unsafe layout.globalActorOffset { offsets.append(offset) }
        if let offset = unsafe layout.thrownErrorOffset { offsets.append(offset) }
        for offset in offsets {
            guard unsafe translateMetadata(in: copy, at: offset, depth: depth) else { return nil }
        }
        return UnsafeRawPointer(copy)
    }

    private func copyExistential(_ address: UInt, depth: Int) -> UnsafeRawPointer? {
        guard let header = read(address + 8, count: 8) else { return nil }
        let flags = unsafe header.withUnsafeBytes { unsafe $0.loadUnaligned(as: UInt32.self) }
        let protocolCount = unsafe Int(
            header.withUnsafeBytes { unsafe $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self) }
        )
        let hasSuperclass = flags & ExistentialTypeMetadataLayout.Flag.hasSuperclassMask != 0
        guard protocolCount <= 4096,
            let memory = unsafe keep(address - 8, count: 24 + (hasSuperclass ? 8 : 0) + 8 * protocolCount)
        else { return nil }
        let copy = unsafe memory + 8
        var offset = 16
        if hasSuperclass {
            guard unsafe translateMetadata(in: copy, at: 16, depth: depth) else { return nil }
            offset += 8
        }
        for index in 0..<protocolCount {
            let at = offset + 8 * index
            let reference = unsafe copy.load(fromByteOffset: at, as: UInt.self)
            // ProtocolDescriptorRef: the low bit marks an Objective-C protocol.
            guard reference & 1 == 0, let descriptor = descriptor(at: reference, kinds: [3]) else {
                return nil
            }
            unsafe copy.storeBytes(of: UInt(bitPattern: descriptor.address), toByteOffset: at, as: UInt.self)
        }
        return UnsafeRawPointer(copy)
    }

    /// Extended existential metadata, a constrained existential such as `any Sequence<Int>`
    /// (ExtendedExistentialTypeMetadataLayout.swift): value witnesses, kind, shape, then one
    /// generalization argument per parameter of the shape's generalization signature. The shape
    /// is the image copy's; it must lie whole inside its image, and its existential type's
    /// mangled name must end there and name only the images' descriptors or their stand-ins.
    private func copyExtendedExistential(_ address: UInt, depth: Int) -> UnsafeRawPointer? {
        typealias Shape = ExtendedExistentialTypeMetadataLayout.Shape
        let headers =
            MemoryLayout<Shape.Fields>.size + MemoryLayout<GenericContextDescriptorHeaderLayout.Fields>.size
        guard let remoteShape = word(address + 8), remoteShape % 4 == 0,
            let image = image(containing: remoteShape), image.remoteHigh - remoteShape >= UInt(headers),
            let shapeAddress = unsafe local(remoteShape)
        else { return nil }
        let shape = unsafe Shape(shapeAddress)
        guard unsafe image.remoteHigh - remoteShape >= UInt(shape.size),
            let name = unsafe shape.existentialType, unsafe isReadableName(name, in: image)
        else { return nil }
        let count = unsafe Int(shape.generalizationSignature?.numParams ?? 0)
        guard let memory = unsafe keep(address - 8, count: 24 + 8 * count) else { return nil }
        let copy = unsafe memory + 8
        unsafe copy.storeBytes(of: UInt(bitPattern: shapeAddress), toByteOffset: 8, as: UInt.self)
        for index in 0..<count {
            let offset = 16 + 8 * index
            guard unsafe translateMetadata(in: copy, at: offset, depth: depth) else { return nil }
        }
        return UnsafeRawPointer(copy)
    }

    /// Whether a mangled name in an image's copy ends inside the image, and each symbolic
    /// reference in it names one of the images' descriptors (0x01), or holds one or a stand-in
    /// descriptor in a slot inside the image (0x02). Any other reference (an accessor function,
    /// a shape) is refused: nothing read from another process is called.
    private func isReadableName(_ name: UnsafeRawPointer, in image: RemoteImagePlace) -> Bool {
        let start = image.remoteLow &- image.remoteBias &+ image.localBias
        let end = image.remoteHigh &- image.remoteBias &+ image.localBias
        var at = UInt(bitPattern: name)
        func inside(_ address: UInt, count: UInt) -> Bool {
            address >= start && address < end && end - address >= count
        }
        while inside(at, count: 1) {
            let pointer = unsafe UnsafeRawPointer(bitPattern: at)!
            let byte: UInt8 = unsafe pointer.read()
            switch byte {
            case 0:
                return true
            case 0x01, 0x02:
                guard inside(at + 1, count: 4), let target = unsafe pointer.relativeDirectPointer(at: 1) else {
                    return false
                }
                if byte == 0x01 {
                    guard knownDescriptors.contains(UInt(bitPattern: target)) else { return false }
                } else {
                    let slot = UInt(bitPattern: target)
                    guard inside(slot, count: 8), let held = unsafe target.slotTarget else { return false }
                    // An image's own descriptor, or a stand-in outside its segments.
                    let address = UInt(bitPattern: held)
                    guard knownDescriptors.contains(address) || address < start || address >= end else { return false }
                }
                at += 5
            case 0x03...0x1F:
                return false
            default:
                at += 1
            }
        }
        return false
    }
}
