// ConcurrentTable.swift
//
// An insert-only hash table whose entries are their own list nodes, safe from any thread
// without a lock. Each bucket is a linked list of immutable nodes whose links are
// `PublishedReference`s: a link is set once, by compare-and-exchange, and read with acquire
// ordering. Readers therefore never lock and never allocate; writers build their node first,
// then race to append it, and the loser adopts the winner's node. Entries are never removed:
// metadata lives for the life of the process, and so do the answers about it.
//
// The nodes are concrete, non-generic classes (TypeRecord, ConformanceAnswer, …), and the
// table is a generic struct specialized for them: reading a field of a generic class would
// need its metadata, which the runtime instantiates through a cache lookup on every access,
// and that lookup costs more than the whole warm path should.

/// A key of a ``ConcurrentTable``: equatable, with a cheap well-mixed hash.
@usableFromInline
protocol CacheKey: Equatable, Sendable {
    /// A hash whose low bits are well distributed; no Hasher, so lookups stay cheap.
    var cacheHash: UInt { get }
}

extension UInt: CacheKey {
    /// Addresses are at least 4-byte aligned: fold the high bits into the low ones.
    @inlinable
    @inline(__always)
    var cacheHash: UInt { (self >> 4) ^ (self >> 16) ^ (self >> 28) }
}

/// Two identities, such as a type and a protocol.
@usableFromInline
struct IdentityPair: CacheKey {
    @usableFromInline
    var first: UInt
    @usableFromInline
    var second: UInt

    /// The pair.
    @inlinable
    @inline(__always)
    init(first: UInt, second: UInt) {
        self.first = first
        self.second = second
    }

    @inlinable
    @inline(__always)
    var cacheHash: UInt {
        // A multiplicative mix of both words (64-bit golden ratio and splitmix constants).
        let mixed = (first ^ (second &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return mixed >> 20
    }
}

/// An entry of a ``ConcurrentTable``, which links to the next entry of its bucket.
@usableFromInline
protocol ConcurrentTableNode: AnyObject, Sendable {
    /// The key type.
    associatedtype Key: CacheKey
    /// The entry's key.
    var tableKey: Key { get }
    /// The next entry of the bucket, once linked.
    func nextNode() -> ImmortalReference<Self>?
    /// Links `node` after this entry unless another one was linked first.
    /// - Parameter node: The entry to link.
    /// - Returns: The entry that is linked now.
    func linkNext(_ node: Self) -> Self
}

/// The cache tables, one per node type: each has its own range of the static buckets, sized
/// to what it holds.
@usableFromInline
enum CacheTable: Int, CaseIterable {
    case typeRecords
    case conformanceAnswers
    case namedTypes
    case typeNameIndexes
    case conformanceIndexes
    case images
    case protocolRecords

    /// The number of buckets, a power of two.
    @inlinable
    @inline(__always)
    var bucketCount: Int {
        switch self {
        case .typeRecords, .conformanceAnswers: 4096
        case .namedTypes: 1024
        case .protocolRecords: 256
        case .images: 128
        case .typeNameIndexes, .conformanceIndexes: 64
        }
    }

    /// The first bucket: the tables follow one another, and a test checks that they fit in the
    /// storage. The four small tables a process's first conformance query writes to (images,
    /// indexes, one protocol's records) share one 4 KiB page of it, so that query faults in one
    /// fresh page of buckets rather than three.
    @inlinable
    @inline(__always)
    var base: Int {
        switch self {
        case .typeRecords: 0
        case .conformanceAnswers: 4096
        case .namedTypes: 8192
        case .images: 9216
        case .typeNameIndexes: 9344
        case .conformanceIndexes: 9408
        case .protocolRecords: 9472
        }
    }
}

/// A lock-free, insert-only hash table of nodes.
///
/// The buckets are static storage (``CacheBuckets``), so a table is a plain value naming its
/// storage: creating one costs nothing and reading it needs no `swift_once`.
@usableFromInline
struct ConcurrentTable<Node: ConcurrentTableNode>: Sendable {
    @usableFromInline
    let buckets: CacheBuckets

    /// The table stored in the given buckets; each node type must have its own.
    /// - Parameter table: The table.
    @inlinable
    @inline(__always)
    init(_ table: CacheTable) {
        buckets = CacheBuckets(base: table.base, count: table.bucketCount)
    }

    /// Looks up a key without locking, allocating or reference counting.
    /// - Parameter key: The key.
    /// - Returns: The node, or `nil`.
    @inlinable
    @inline(__always)
    func node(for key: Node.Key) -> ImmortalReference<Node>? {
        var node = buckets.load(Int(truncatingIfNeeded: key.cacheHash), as: Node.self)
        while let current = node {
            let (found, next) = current.withObject { ($0.tableKey == key, $0.nextNode()) }
            if found { return current }
            node = next
        }
        return nil
    }

    /// Returns the node for a key, building and publishing one on the first request.
    ///
    /// When two threads race on the same key, both may build a node; the first one published
    /// wins and the other is discarded. Building must therefore have no side effects beyond the
    /// table, and may itself consult the table.
    /// - Parameters:
    ///   - key: The key.
    ///   - make: Builds the node; its `tableKey` must be `key`.
    /// - Returns: The published node.
    @inline(__always)
    func node(for key: Node.Key, orInsert make: () throws -> Node) rethrows -> ImmortalReference<Node> {
        if let existing = node(for: key) { return existing }
        return ImmortalReference(immortal: insert(try make()))
    }

    private func insert(_ fresh: Node) -> Node {
        let key = fresh.tableKey
        var node = buckets.publish(fresh, in: Int(truncatingIfNeeded: key.cacheHash))
        while true {
            if node === fresh || node.tableKey == key { return node }
            node = node.linkNext(fresh)
        }
    }
}
