// ConcurrentCache.swift
//
// An insert-only hash table from an integer identity (a metadata or descriptor address, or a
// name's hash) to an immutable object, safe from any thread without a lock. Each bucket is a
// linked list of immutable nodes whose links are `AtomicLazyReference`s: a link is set once,
// by compare-and-exchange, and read with acquire ordering. Readers therefore never lock and
// never allocate; writers build their value first, then race to append it, and the loser
// adopts the winner's value. Entries are never removed: metadata lives for the life of the
// process, and so do the answers about it.

import Synchronization

/// A key of a ``ConcurrentCache``: equatable, with a cheap well-mixed hash.
protocol CacheKey: Equatable, Sendable {
    /// A hash whose low bits are well distributed; no Hasher, so lookups stay cheap.
    var cacheHash: UInt { get }
}

extension UInt: CacheKey {
    /// Addresses are at least 4-byte aligned: fold the high bits into the low ones.
    var cacheHash: UInt { (self >> 4) ^ (self >> 16) ^ (self >> 28) }
}

/// Two identities, such as a type and a protocol.
struct IdentityPair: CacheKey {
    var first: UInt
    var second: UInt

    var cacheHash: UInt {
        // A multiplicative mix of both words (the 64-bit golden ratio constant).
        let mixed = (first ^ (second &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return mixed >> 20
    }
}

/// A lock-free, insert-only cache from keys to immutable objects.
final class ConcurrentCache<Key: CacheKey, Value: AnyObject & Sendable>: Sendable {
    /// One immutable entry; only its link to the next entry is written, once.
    private final class Node: Sendable {
        let key: Key
        let value: Value
        let next = AtomicLazyReference<Node>()

        init(key: Key, value: Value) {
            self.key = key
            self.value = value
        }
    }

    private let buckets: InlineArray<4096, AtomicLazyReference<Node>>
    private let entries = Atomic<Int>(0)

    /// Creates an empty cache.
    init() {
        buckets = InlineArray { _ in AtomicLazyReference() }
    }

    private static func bucket(for key: Key) -> Int {
        Int(key.cacheHash & 4095)
    }

    /// Looks up a key without locking or allocating.
    /// - Parameter key: The key.
    /// - Returns: The cached value, or `nil`.
    func value(for key: Key) -> Value? {
        var node = buckets[Self.bucket(for: key)].load()
        while let current = node {
            if current.key == key { return current.value }
            node = current.next.load()
        }
        return nil
    }

    /// Returns the cached value for a key, building and publishing it on the first request.
    ///
    /// When two threads race on the same key, both may build a value; the first one
    /// published wins and the other is discarded. Building must therefore have no side
    /// effects beyond the cache, and may itself consult the cache.
    /// - Parameters:
    ///   - key: The key.
    ///   - make: Builds the value.
    /// - Returns: The published value.
    func value(for key: Key, orInsert make: () throws -> Value) rethrows -> Value {
        if let existing = value(for: key) { return existing }
        let fresh = Node(key: key, value: try make())
        let index = Self.bucket(for: key)
        var node = buckets[index].storeIfNil(fresh)
        while true {
            if node === fresh {
                entries.add(1, ordering: .relaxed)
                return fresh.value
            }
            if node.key == key { return node.value }
            node = node.next.storeIfNil(fresh)
        }
    }

    /// The number of entries published.
    var count: Int { entries.load(ordering: .relaxed) }
}
