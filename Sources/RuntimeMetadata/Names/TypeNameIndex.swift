// TypeNameIndex.swift
//
// An index of the loaded images' type and protocol descriptors by the qualified name the
// runtime prints for them, built on first use and rebuilt when an image is loaded.

import Synchronization

/// The descriptors of the loaded images, by runtime-style qualified name.
final class TypeNameIndex: CacheEntry {
    /// Type descriptors by name (generic arguments stripped).
    let types: [String: [DescriptorReference]]
    /// Protocol descriptors by name.
    let protocols: [String: ProtocolReference]
    /// The number of images indexed.
    let imageCount: Int
    /// The table key: the image count.
    var tableKey: UInt { UInt(imageCount) }

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
        let prefix = "(unknown context at "
        guard name.contains(prefix) else { return name }
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
        let images = LoadedImages.count
        return indexes.entry(for: UInt(images)) { TypeNameIndex(imageCount: images) }.object
    }

    private init(imageCount: Int) {
        self.imageCount = imageCount
        var types: [String: [DescriptorReference]] = [:]
        for descriptor in LoadedImages.typeDescriptors {
            types[descriptor.qualifiedName, default: []].append(descriptor)
        }
        var protocols: [String: ProtocolReference] = [:]
        for protocolReference in LoadedImages.protocolDescriptors {
            let key = protocolReference.qualifiedName
            if protocols[key] == nil { protocols[key] = protocolReference }
        }
        self.types = types
        self.protocols = protocols
    }

}
