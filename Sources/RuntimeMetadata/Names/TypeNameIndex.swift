// TypeNameIndex.swift
//
// An index of the loaded images' type and protocol descriptors by the qualified name the
// runtime prints for them, built on first use and rebuilt when an image is loaded.

import Synchronization

/// The descriptors of the loaded images, by runtime-style qualified name.
final class TypeNameIndex: ConcurrentTableNode {
    /// Type descriptors by name (generic arguments stripped).
    let types: [String: [DescriptorReference]]
    /// Protocol descriptors by name.
    let protocols: [String: ProtocolReference]
    /// The number of images indexed.
    let imageCount: Int
    /// The table key: the image count.
    var tableKey: UInt { UInt(imageCount) }
    private let next = PublishedReference<TypeNameIndex>()

    func nextNode() -> TypeNameIndex? { next.load() }
    func linkNext(_ node: TypeNameIndex) -> TypeNameIndex { next.storeIfNil(node) }

    /// The indexes built so far, by the number of images they cover. Images are only ever
    /// added (the runtime cannot unload Swift images), so the count identifies the set.
    private static let indexes = ConcurrentTable<TypeNameIndex>()

    /// The index of the currently loaded images, rebuilt after an image was loaded.
    static var shared: TypeNameIndex {
        let images = LoadedImages.count
        return indexes.node(for: UInt(images)) { TypeNameIndex(imageCount: images) }
    }

    private init(imageCount: Int) {
        self.imageCount = imageCount
        var types: [String: [DescriptorReference]] = [:]
        var keys: [DescriptorReference: String] = [:]
        for descriptor in LoadedImages.typeDescriptors {
            types[Self.key(of: descriptor, memo: &keys), default: []].append(descriptor)
        }
        var protocols: [String: ProtocolReference] = [:]
        for protocolReference in LoadedImages.protocolDescriptors {
            let key = Self.key(of: protocolReference.descriptor, memo: &keys)
            if protocols[key] == nil { protocols[key] = protocolReference }
        }
        self.types = types
        self.protocols = protocols
    }

    /// The name the runtime prints for a context, generic arguments left out:
    /// `Module.Outer.Inner`, `(extension in Module):Swift.Int.Nested`,
    /// `Module.(unknown context at $55d9edc65fe0).Private`.
    static func key(of descriptor: DescriptorReference, memo: inout [DescriptorReference: String]) -> String {
        if let known = memo[descriptor] { return known }
        let key: String
        if descriptor.isModule {
            key = descriptor.name
        } else if descriptor.isExtension {
            let module = descriptor.moduleName
            let extended = descriptor.extendedType.map { stripGenericArguments(TypeMetadata($0).name) } ?? "?"
            key = "(extension in \(module)):\(extended)"
        } else {
            let parent = descriptor.parent.map { Self.key(of: $0, memo: &memo) }
            // Imported C types print under their ABI name (`CFRunLoopRef` for `CFRunLoop`).
            let abiName = descriptor.importInfo.first { $0.kind == "N" }?.value
            let own =
                descriptor.isAnonymous
                ? "(unknown context at $\(String(descriptor.identity, radix: 16)))" : abiName ?? descriptor.name
            key = parent.map { "\($0).\(own)" } ?? own
        }
        memo[descriptor] = key
        return key
    }

    /// Removes every `<…>` group from a name.
    static func stripGenericArguments(_ name: String) -> String {
        var depth = 0
        var result = ""
        for character in name {
            if character == "<" {
                depth += 1
            } else if character == ">" {
                depth -= 1
            } else if depth == 0 {
                result.append(character)
            }
        }
        return result
    }
}
