// ConcurrentTable.swift
//
// The one table design every cache and index of RuntimeMetadata uses (the DocC article
// "Caching"): an insert-only, open-addressed hash table of immortal entries that grows.
//
// - Readers take no lock and allocate nothing: one acquiring load of the table's root, then
//   acquiring loads of slots along a linear probe, each slot 0 or the address of an entry.
// - Writers build their entry first, outside any lock (building may consult this or other
//   tables), then take the table's write lock, probe again, and store the entry; when the load
//   factor would pass 3/4 they fill a generation of twice the slots and publish it with one
//   release store, so a reader sees either the old generation or the complete new one, never
//   a torn state. Old generations are kept, since a reader may still be probing one: their
//   sizes sum to less than the current one's.
// - Entries are never removed: metadata lives for the life of the process, and so do the
//   answers about it. A miss in an old generation is not an answer; callers fall back to the
//   locked path, which looks again in the current one.
//
// The entries are concrete, non-generic classes (TypeRecord, ConformanceAnswer, …), and the
// table is a generic struct specialized for them: reading a field of a generic class would need
// its metadata, which the runtime instantiates through a cache lookup on every access.
//
// The roots of the process-wide tables are static C storage (CMetadata/include/CMDCacheStorage.h),
// so that reading one needs no `swift_once`; tables that belong to an object (one protocol's
// records by type) allocate theirs.

public import CMetadata
import Synchronization

/// A key of a ``ConcurrentTable``: equatable, with a cheap well-mixed hash.
@usableFromInline
protocol CacheKey: Equatable, Sendable {
    /// A hash whose low bits are well distributed; no Hasher, so lookups stay cheap.
    var cacheHash: UInt { get }
}

extension UInt: CacheKey {
    /// An identity (an address) mixed so that its low bits vary: multiplied by the 64-bit golden
    /// ratio, high half folded into the low.
    @inlinable
    @inline(__always)
    var cacheHash: UInt {
        let mixed = self &* 0x9E37_79B9_7F4A_7C15
        return mixed ^ (mixed >> 29)
    }
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
        return mixed ^ (mixed >> 31)
    }
}

/// A string in a namespace, with its hash computed once, for tables keyed by names.
struct StringKey: CacheKey {
    let string: String
    let namespace: UInt8
    let cacheHash: UInt

    /// The key of a string.
    /// - Parameters:
    ///   - string: The string.
    ///   - namespace: Tells apart the kinds of names one table holds.
    init(_ string: String, namespace: UInt8) {
        self.string = string
        self.namespace = namespace
        var hasher = Hasher()
        hasher.combine(namespace)
        hasher.combine(string)
        cacheHash = UInt(bitPattern: hasher.finalize())
    }

    static func == (lhs: StringKey, rhs: StringKey) -> Bool {
        lhs.cacheHash == rhs.cacheHash && lhs.namespace == rhs.namespace && lhs.string == rhs.string
    }
}

/// An entry of a ``ConcurrentTable``: an immutable key, and whatever the cache keeps for it.
@usableFromInline
protocol CacheEntry: AnyObject, Sendable {
    /// The key type.
    associatedtype Key: CacheKey
    /// The entry's key.
    var tableKey: Key { get }
}

/// The process-wide tables, each with its root in CMetadata's static storage.
@usableFromInline
enum CacheTable: Int, CaseIterable {
    case typeRecords
    case conformanceAnswers
    case namedTypes
    case typeNameIndexes
    case conformanceIndexes
    case images
    case protocolIndexes
    case typeConformances
}

/// A lock-free, insert-only, growable hash table of immortal entries.
@usableFromInline
@safe
struct ConcurrentTable<Entry: CacheEntry>: Sendable {
    /// The root: the current generation of slots.
    @usableFromInline
    nonisolated(unsafe) let root: UnsafeMutableRawPointer

    /// The process-wide table of a kind; each entry type has its own.
    /// - Parameter table: The table.
    @inlinable
    @inline(__always)
    init(_ table: CacheTable) {
        unsafe root = cmd_cacheRoot(table.rawValue)
    }

    /// A new, empty table with a root of its own, which lives as long as the process.
    init() {
        unsafe root = cmd_tableRootAllocate()
    }

    /// A new table with a root of its own, filled with entries before any reader sees it: one
    /// generation sized for them, no lock taken. Later inserts grow it as usual.
    /// - Parameter entries: The entries, each with a different key.
    init(filledWith entries: [Entry]) {
        unsafe root = cmd_tableRootAllocate()
        guard !entries.isEmpty else { return }
        var capacity = 16
        while capacity * 3 < entries.count * 4 { capacity *= 2 }
        let slots = unsafe Self.generation(capacity: capacity, copying: nil)
        for entry in entries {
            let retained = unsafe Unmanaged.passRetained(entry)
            unsafe Self.store(UInt(bitPattern: retained.toOpaque()), hash: entry.tableKey.cacheHash, in: slots)
        }
        unsafe cmd_tableSetCount(slots, UInt(entries.count))
        unsafe cmd_tablePublish(root, slots)
    }

    /// Looks up a key without locking, allocating or reference counting.
    /// - Parameter key: The key.
    /// - Returns: The entry, or `nil`.
    @inlinable
    @inline(__always)
    func entry(for key: Entry.Key) -> ImmortalReference<Entry>? {
        guard let slots = unsafe cmd_tableLoad(root) else { return nil }
        return unsafe Self.probe(slots, for: key)
    }

    /// Probes one generation for a key: from the key's slot to the first empty one.
    /// - Parameters:
    ///   - slots: A generation.
    ///   - key: The key.
    /// - Returns: The entry, or `nil`.
    @inlinable
    @inline(__always)
    static func probe(_ slots: UnsafeMutableRawPointer, for key: Entry.Key) -> ImmortalReference<Entry>? {
        var index = key.cacheHash
        while true {
            let word = unsafe cmd_slotLoad(slots, index)
            guard let address = unsafe UnsafeRawPointer(bitPattern: word) else { return nil }
            let entry = unsafe ImmortalReference(unmanaged: Unmanaged<Entry>.fromOpaque(address))
            if entry.withObject({ $0.tableKey == key }) { return entry }
            index &+= 1
        }
    }

    /// Returns the entry for a key, building and publishing one on the first request.
    ///
    /// When two threads race on the same key, both may build an entry; the first one stored wins
    /// and the other is discarded. Building must therefore have no side effects beyond the
    /// tables, and may itself consult them.
    /// - Parameters:
    ///   - key: The key.
    ///   - make: Builds the entry; its `tableKey` must be `key`.
    /// - Returns: The published entry.
    @inline(__always)
    func entry(for key: Entry.Key, orInsert make: () throws -> Entry) rethrows -> ImmortalReference<Entry> {
        if let existing = entry(for: key) { return existing }
        return insert(try make())
    }

    /// Stores an entry unless one with its key is there, under the table's write lock.
    /// - Parameter fresh: The entry.
    /// - Returns: The entry stored for its key: `fresh`, or the one stored first.
    @inline(never)
    func insert(_ fresh: Entry) -> ImmortalReference<Entry> {
        let key = fresh.tableKey
        return TableWriteLocks.withLock(for: UInt(bitPattern: unsafe root)) {
            var slots = unsafe cmd_tableLoad(root)
            if let current = unsafe slots, let existing = unsafe Self.probe(current, for: key) { return existing }
            let count = unsafe slots.map { unsafe Int(cmd_tableCount($0)) } ?? 0
            let capacity = unsafe slots.map { unsafe Int(cmd_tableMask($0)) + 1 } ?? 0
            if (count + 1) * 4 > capacity * 3 {
                let grown = unsafe Self.generation(capacity: max(capacity * 2, 16), copying: slots)
                unsafe cmd_tablePublish(root, grown)
                unsafe slots = grown
            }
            guard let target = unsafe slots else { fatalError("unreachable: a table generation was just published") }
            let entry = unsafe Unmanaged.passRetained(fresh)
            unsafe Self.store(UInt(bitPattern: entry.toOpaque()), hash: key.cacheHash, in: target)
            unsafe cmd_tableSetCount(target, UInt(count + 1))
            return unsafe ImmortalReference(unmanaged: entry)
        }
    }

    /// Fills a new generation with the entries of the current one.
    private static func generation(
        capacity: Int,
        copying old: UnsafeMutableRawPointer?
    ) -> UnsafeMutableRawPointer {
        guard let grown = unsafe cmd_tableAllocate(UInt(capacity)) else {
            fatalError("RuntimeMetadata: out of memory growing a cache table to \(capacity) slots")
        }
        guard let old = unsafe old else { return unsafe grown }
        let mask = unsafe cmd_tableMask(old)
        for index in 0...mask {
            let word = unsafe cmd_slotLoad(old, index)
            guard let address = unsafe UnsafeRawPointer(bitPattern: word) else { continue }
            let hash = unsafe Unmanaged<Entry>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.tableKey.cacheHash }
            unsafe store(word, hash: hash, in: grown)
        }
        unsafe cmd_tableSetCount(grown, cmd_tableCount(old))
        return unsafe grown
    }

    /// Stores a word in the first empty slot of its probe sequence.
    private static func store(_ word: UInt, hash: UInt, in slots: UnsafeMutableRawPointer) {
        var index = hash
        while unsafe cmd_slotLoad(slots, index) != 0 { index &+= 1 }
        unsafe cmd_slotStore(slots, index, word)
    }

    /// What the table holds now: its entries, and the bytes of its slot generations (the
    /// current one and those it grew from).
    var footprint: (entries: Int, slotBytes: Int) {
        TableWriteLocks.withLock(for: UInt(bitPattern: unsafe root)) {
            guard let slots = unsafe cmd_tableLoad(root) else { return (0, 0) }
            let capacity = unsafe Int(cmd_tableMask(slots)) + 1
            var bytes = 0
            var generation = capacity
            while generation >= 16 {
                bytes += 2 * MemoryLayout<UInt>.size + generation * MemoryLayout<UInt>.size
                generation /= 2
            }
            return (unsafe Int(cmd_tableCount(slots)), bytes)
        }
    }

    /// Every entry, in slot order (under the write lock: for reports, not for lookups).
    var entries: [ImmortalReference<Entry>] {
        TableWriteLocks.withLock(for: UInt(bitPattern: unsafe root)) {
            guard let slots = unsafe cmd_tableLoad(root) else { return [] }
            let mask = unsafe cmd_tableMask(slots)
            return (0...mask).compactMap { index in
                let word = unsafe cmd_slotLoad(slots, index)
                return unsafe UnsafeRawPointer(bitPattern: word).map {
                    unsafe ImmortalReference(unmanaged: Unmanaged<Entry>.fromOpaque($0))
                }
            }
        }
    }
}

/// The write locks of the tables, striped by root: writers are first questions, rare and short
/// (a probe and a store, or a copy when the table grows), so a few locks serve every table.
enum TableWriteLocks {
    private final class Stripe: Sendable {
        let mutex = Mutex(())
    }

    private static let stripes: [Stripe] = (0..<16).map { _ in Stripe() }

    /// Runs `body` holding the lock of a root.
    /// - Parameters:
    ///   - root: The root's address.
    ///   - body: The locked work.
    /// - Returns: What `body` returns.
    static func withLock<R>(for root: UInt, _ body: () -> R) -> R {
        stripes[Int(truncatingIfNeeded: root.cacheHash >> 40) & 15].mutex.withLock { _ in body() }
    }
}

/// Groups values by an integer key, in first-seen order of the keys.
///
/// The indexes group descriptors and records this way rather than with a `Dictionary` or a
/// sort: instantiating a dictionary type, or the ranges a stable sort keeps, makes the runtime
/// check a `Hashable` or `Comparable` conformance, with a scan of every conformance record the
/// first time in a process, which is the very scan an index saves.
/// - Parameter items: The keys and values.
/// - Returns: Each key once, with its values in order.
func groupedByKey<Value>(_ items: [(key: UInt, value: Value)]) -> [(key: UInt, values: [Value])] {
    var capacity = 16
    while capacity < items.count * 2 { capacity *= 2 }
    // Open addressing over group positions: `slots[i]` is 0 or a group's position plus one.
    var slots = [Int](repeating: 0, count: capacity)
    var groups: [(key: UInt, values: [Value])] = []
    for item in items {
        var index = Int(truncatingIfNeeded: item.key.cacheHash) & (capacity - 1)
        while true {
            let slot = slots[index]
            if slot == 0 {
                slots[index] = groups.count + 1
                groups.append((item.key, [item.value]))
                break
            }
            if groups[slot - 1].key == item.key {
                groups[slot - 1].values.append(item.value)
                break
            }
            index = (index + 1) & (capacity - 1)
        }
    }
    return groups
}
