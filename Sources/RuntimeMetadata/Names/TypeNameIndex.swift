// TypeNameIndex.swift
//
// The loaded images' type and protocol descriptors, indexed by what a descriptor already stores:
// the hash of its simple name's bytes (its `Name` C string). Building an index is one pass over
// the descriptors that hashes those bytes; no qualified name is printed. A query hashes the last
// component of the name it is given, and only the candidates under that hash have their
// qualified names printed and compared. The two indexes (types, protocols) are built on first
// use, each in one of the package's concurrent tables, and again after an image is loaded.

import Synchronization

/// FNV-1a over bytes: the simple-name hash the index and its queries share.
enum NameHash {
    /// The hash of a sequence of bytes.
    /// - Parameter bytes: The bytes.
    /// - Returns: The hash.
    static func of<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt {
        var hash: UInt = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The hash of the last component of a qualified name (`Module.Outer.Inner` → `Inner`).
    /// - Parameter name: The name.
    /// - Returns: The hash.
    static func ofLastComponent(_ name: String) -> UInt {
        let utf8 = name.utf8
        guard let dot = utf8.lastIndex(of: UInt8(ascii: ".")) else { return of(utf8) }
        return of(utf8[utf8.index(after: dot)...])
    }
}

/// The descriptors whose simple names share one hash.
final class NamedDescriptors: CacheEntry {
    let tableKey: UInt
    let descriptors: [DescriptorReference]

    init(hash: UInt, descriptors: [DescriptorReference]) {
        tableKey = hash
        self.descriptors = descriptors
    }
}

/// The boxed table of one index.
final class NameTableBox: LazyBox {
    let value: ConcurrentTable<NamedDescriptors>
    init(_ value: ConcurrentTable<NamedDescriptors>) { self.value = value }
    /// Runs only for the box of a thread that lost the race to publish (``LazyValue``).
    deinit { value.discardUnpublished() }
}

/// The descriptors of the loaded images, by simple name.
final class TypeNameIndex: CacheEntry {
    /// The number of images indexed.
    let imageCount: Int
    /// The table key: the image count.
    var tableKey: UInt { UInt(imageCount) }

    private let typeTable = LazyValue<NameTableBox>()
    private let protocolTable = LazyValue<NameTableBox>()

    /// The indexes built so far, by the number of images they cover. Images are only ever
    /// added (the runtime cannot unload Swift images), so the count identifies the set.
    private static var indexes: ConcurrentTable<TypeNameIndex> { ConcurrentTable(.typeNameIndexes) }

    /// The index key of a dotted path: its components joined, each anonymous context given
    /// relative to its image (`(unknown context at libFoo.so+0x1a2b)`, the portable spelling)
    /// turned into this process's spelling first.
    /// - Parameter components: The path's components.
    /// - Returns: The key.
    static func key(_ components: [String]) -> String {
        key(components.joined(separator: "."))
    }

    /// The index key of a qualified name: each anonymous context in the portable spelling turned
    /// into this process's spelling.
    /// - Parameter name: The name.
    /// - Returns: The key.
    static func key(_ name: String) -> String {
        // Most names have no parenthesis; looking for one byte is cheaper than searching for
        // the prefix, whose generic search also makes the runtime's first cast.
        guard name.utf8.contains(UInt8(ascii: "(")) else { return name }
        let prefix = "(unknown context at "
        var result = ""
        var rest = Substring(name)
        while let start = rest.firstRange(of: prefix) {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: ")") else { break }
            let component = String(rest[start.lowerBound...end])
            result += DescriptorReference.anonymousContextAddressSpelling(component) ?? component
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    /// The index of the currently loaded images, rebuilt after an image was loaded.
    static var shared: TypeNameIndex {
        let images = ImageGeneration.refreshedCount
        return indexes.entry(for: UInt(images)) { TypeNameIndex(imageCount: images) }.object
    }

    private init(imageCount: Int) {
        self.imageCount = imageCount
    }

    /// The type descriptors with a qualified name, generic arguments left out.
    /// - Parameter key: The name, as ``key(_:)-(String)`` made it.
    /// - Returns: The descriptors, in image order.
    func types(named key: String) -> [DescriptorReference] {
        let table = typeTable.value {
            Self.table(ImageGeneration.index.images.prefix(imageCount).flatMap(\.typeDescriptorReferences))
        }
        return Self.candidates(in: table, named: key)
    }

    /// The first protocol descriptor with a qualified name.
    /// - Parameter key: The name, as ``key(_:)-(String)`` made it.
    /// - Returns: The descriptor, or `nil`.
    func protocolReference(named key: String) -> ProtocolReference? {
        if protocolTable.published == nil, Self.takesScan() {
            return Self.scannedProtocol(named: key, imageCount: imageCount)
        }
        return indexedProtocol(named: key)
    }

    /// The first protocol descriptor with a qualified name, from the index, built on first use.
    /// - Parameter key: The name, as ``key(_:)-(String)`` made it.
    /// - Returns: The descriptor, or `nil`.
    func indexedProtocol(named key: String) -> ProtocolReference? {
        let table = protocolTable.value {
            Self.table(
                ImageGeneration.index.images.prefix(imageCount).flatMap { $0.protocolReferences.map(\.descriptor) }
            )
        }
        return Self.candidates(in: table, named: key).first.map(ProtocolReference.init)
    }

    /// The first protocol descriptor with a qualified name in the loaded images, without
    /// making the index of the images for a process's first questions.
    /// - Parameter key: The name, as ``key(_:)-(String)`` made it.
    /// - Returns: The descriptor, or `nil`.
    static func protocolReference(named key: String) -> ProtocolReference? {
        let images = ImageGeneration.refreshedCount
        if let index = indexes.entry(for: UInt(images)) { return index.object.protocolReference(named: key) }
        if takesScan() { return scannedProtocol(named: key, imageCount: images) }
        return shared.protocolReference(named: key)
    }

    /// The lookups of a protocol by name answered by a scan, in the whole process.
    private static let protocolScans = Atomic<Int>(0)

    /// Whether a lookup is answered by a scan: the first few of the process are, after which
    /// one builds the index, whose cost is several scans (its arrays, and the generic types
    /// they instantiate on first use).
    private static func takesScan() -> Bool {
        protocolScans.add(1, ordering: .relaxed).oldValue < 4
    }

    /// The first protocol descriptor with a qualified name, found by one pass over the first
    /// images' protocol sections: the candidates the index would file under the name's hash
    /// (their simple names are the name's last component), in the index's order (image, then
    /// section), without the index.
    /// - Parameters:
    ///   - key: The name, as ``key(_:)-(String)`` made it.
    ///   - imageCount: How many images, from the first, to scan.
    /// - Returns: The descriptor, or `nil`.
    static func scannedProtocol(named key: String, imageCount: Int) -> ProtocolReference? {
        // A protocol's simple name is its hash's input (it has no import info): compared byte
        // by byte, most names differ at their first.
        let utf8 = key.utf8
        let simpleName = Array(
            utf8[(utf8.lastIndex(of: UInt8(ascii: ".")).map(utf8.index(after:)) ?? utf8.startIndex)...]
        )
        var found: ProtocolReference?
        LoadedImages.forEachProtocol(inFirst: imageCount) { candidate in
            guard candidate.nameBytes.elementsEqual(simpleName), candidate.qualifiedName == key else { return true }
            found = candidate
            return false
        }
        return found
    }

    /// The hash a descriptor is filed under: of its simple name's bytes, or, for an imported C
    /// type, of the last component of its qualified name, which uses its ABI name.
    /// - Parameter descriptor: The descriptor.
    /// - Returns: The hash.
    private static func nameHash(of descriptor: DescriptorReference) -> UInt {
        descriptor.hasImportInfo
            ? NameHash.ofLastComponent(descriptor.qualifiedName) : NameHash.of(descriptor.nameBytes)
    }

    /// The descriptors under a name's hash whose qualified names are the name.
    private static func candidates(in table: ConcurrentTable<NamedDescriptors>, named key: String)
        -> [DescriptorReference]
    {
        guard let bucket = table.entry(for: NameHash.ofLastComponent(key)) else { return [] }
        return bucket.withObject { $0.descriptors }.filter { $0.qualifiedName == key }
    }

    /// One pass over descriptors: each filed under the hash of its simple name (an imported C
    /// type's under its ABI name, which its qualified name uses).
    ///
    private static func table(_ descriptors: [DescriptorReference]) -> ConcurrentTable<NamedDescriptors> {
        let filed: [(key: UInt, value: DescriptorReference)] = descriptors.map { (nameHash(of: $0), $0) }
        let entries = groupedByKey(filed).map { NamedDescriptors(hash: $0.key, descriptors: $0.values) }
        return ConcurrentTable(filledWith: entries)
    }
}
