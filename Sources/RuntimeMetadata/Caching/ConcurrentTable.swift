// ConcurrentTable.swift
//
// The one table design every cache and index of RuntimeMetadata uses (the DocC article
// "Caching"): an insert-only, open-addressed hash table that grows, in one mechanism
// (TableGenerations) with two views of what a slot holds.
//
// - ConcurrentTable<Entry>: a slot is one word, the address of an immortal entry (a final class)
//   that holds its key; for entries that carry more than a word.
// - ConcurrentWordTable: a slot is two words, a nonzero key and a value, stored in the slot
//   itself; for answers of one word, where an object per entry would double the memory and add
//   a cache miss to every lookup. A value may be the root of another word table: conformance
//   answers are a table of protocols whose values are tables of types.
//
// The mechanism:
// - Readers take no lock and allocate nothing: one acquiring load of the table's root, then
//   acquiring loads of slots along a linear probe; a slot whose first word is 0 is empty and
//   ends the probe.
// - Writers build what they store first, outside any lock (building may consult this or other
//   tables), then take the table's write lock, probe again, and fill the slot, its first word
//   last with release ordering, so that a reader who sees the first word sees the others. When
//   the load factor would pass 3/4 they fill a generation of twice the slots and publish it
//   with one release store, so a reader sees either the old generation or the complete new
//   one, never a torn state. Old generations are kept, since a reader may still be probing
//   one: their sizes sum to less than the current one's.
// - Entries are never removed: metadata lives for the life of the process, and so do the
//   answers about it. A word table's value may be replaced, under the write lock. A miss, or an
//   outdated value, in an old generation is not an answer; callers fall back to the locked
//   path, which looks again in the current one.
//
// Object entries are concrete, non-generic classes (TypeRecord, ProtocolIndex, …), and the
// table is a generic struct specialized for them: reading a field of a generic class would need
// its metadata, which the runtime instantiates through a cache lookup on every access.
//
// The roots of the process-wide tables are globals whose initial value is static data
// (CacheTable.swift), so that reading one needs no `swift_once`; nested tables and tables that
// belong to an object (one protocol's records by type) allocate theirs. What a warm lookup reads,
// inlined into clients, is read here with the `Synchronization` module's atomics: a root, and
// the words of a generation, whose layout (a header, then the slots' words) is CMetadata's
// `CMDTableSlots` (CMetadata/include/CMDCacheStorage.h), which allocates and frees generations.

internal import CMetadata
public import Synchronization

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

/// One slot of a table generation: `stride` consecutive words, the first 0 while the slot is
/// empty.
@usableFromInline
@safe
struct TableSlot {
    /// The generation.
    @usableFromInline
    nonisolated(unsafe) let slots: UnsafeMutableRawPointer
    /// The index of the slot's first word.
    @usableFromInline
    let base: UInt

    @inlinable
    @inline(__always)
    init(slots: UnsafeMutableRawPointer, base: UInt) {
        unsafe self.slots = slots
        self.base = base
    }

    /// Reads one of the slot's words, with acquire ordering.
    /// - Parameter word: The word, below the table's stride.
    /// - Returns: Its value.
    @inlinable
    @inline(__always)
    func load(_ word: UInt) -> UInt {
        unsafe TableGenerations.words(of: slots)[Int(bitPattern: base &+ word)].load(ordering: .acquiring)
    }

    /// Writes one of the slot's words, with release ordering (under the write lock only).
    /// - Parameters:
    ///   - word: The word, below the table's stride.
    ///   - value: Its value.
    func store(_ word: UInt, _ value: UInt) {
        unsafe TableGenerations.words(of: slots)[Int(bitPattern: base &+ word)].store(value, ordering: .releasing)
    }
}

/// The generations of one table, and the mechanism every table shares: lock-free probing,
/// locked inserts, growth by publishing a larger generation. The views ``ConcurrentTable`` (one
/// word per slot: an entry's address) and ``ConcurrentWordTable`` (two: a key and a value)
/// decide only what a slot's words hold, and pass their stride to every call, so that the probe
/// is compiled for it.
@usableFromInline
@safe
struct TableGenerations: Sendable {
    /// The root: the current generation of slots.
    @usableFromInline
    nonisolated(unsafe) let root: UnsafeMutableRawPointer

    @inlinable
    @inline(__always)
    init(root: UnsafeMutableRawPointer) {
        unsafe self.root = root
    }

    /// Probes the current generation without locking: from the hash's slot to the first empty
    /// one, for the first slot `matches` accepts.
    /// - Parameters:
    ///   - hash: The key's hash.
    ///   - stride: The words per slot.
    ///   - matches: Whether an occupied slot holds the key.
    /// - Returns: The slot, or `nil`.
    @inlinable
    @inline(__always)
    func find(hash: UInt, stride: UInt, where matches: (TableSlot) -> Bool) -> TableSlot? {
        // One load gives the generation and its size.
        guard let (slots, mask) = unsafe current else { return nil }
        return unsafe Self.find(in: slots, mask: mask, hash: hash, stride: stride, where: matches)
    }

    /// The bytes of a generation's header (`CMDTableSlots`), before its slots' words;
    /// `generation(capacity:stride:)` checks it against CMetadata's.
    @inlinable
    static var headerBytes: Int { 32 }

    /// The bits of a root that hold the base-2 logarithm of its generation's slot count
    /// (`CMD_TABLE_ROOT_SIZE_BITS`): a generation is aligned to 64 bytes.
    @inlinable
    static var sizeBits: UInt { 63 }

    /// The words of a generation, as atomics.
    @inlinable
    @inline(__always)
    static func words(of slots: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Atomic<UInt>> {
        unsafe (slots + headerBytes).assumingMemoryBound(to: Atomic<UInt>.self)
    }

    /// The root's word.
    @inlinable
    @inline(__always)
    var rootWord: UnsafeMutablePointer<Atomic<UInt>> { unsafe root.assumingMemoryBound(to: Atomic<UInt>.self) }

    /// The current generation and its mask (its number of slots minus one), from one acquiring
    /// load of the root, or `nil` while the table is empty.
    @inlinable
    @inline(__always)
    var current: (slots: UnsafeMutableRawPointer, mask: UInt)? {
        let word = unsafe rootWord.pointee.load(ordering: .acquiring)
        guard let slots = unsafe UnsafeMutableRawPointer(bitPattern: word & ~Self.sizeBits) else { return nil }
        return unsafe (slots, (1 &<< (word & Self.sizeBits)) &- 1)
    }

    /// Publishes a generation with release ordering, so that its filled slots are visible first.
    /// - Parameter slots: The new generation.
    private func publish(_ slots: UnsafeMutableRawPointer) {
        let word = UInt(bitPattern: slots) | UInt(unsafe cmd_tableMask(slots).nonzeroBitCount)
        unsafe rootWord.pointee.store(word, ordering: .releasing)
    }

    /// Probes one generation.
    @inlinable
    @inline(__always)
    static func find(
        in slots: UnsafeMutableRawPointer,
        mask: UInt,
        hash: UInt,
        stride: UInt,
        where matches: (TableSlot) -> Bool
    ) -> TableSlot? {
        var index = hash
        while true {
            let slot = unsafe TableSlot(slots: slots, base: (index & mask) &* stride)
            if slot.load(0) == 0 { return nil }
            if matches(slot) { return slot }
            index &+= 1
        }
    }

    /// Walks a key's probe sequence once: the key's slot, or else the empty slot that ends the
    /// sequence, where the key goes.
    /// - Parameters:
    ///   - slots: A generation.
    ///   - mask: Its capacity less one.
    ///   - hash: The key's hash.
    ///   - stride: The words per slot.
    ///   - matches: Whether an occupied slot holds the key.
    /// - Returns: The slot, and whether it holds the key.
    @inline(__always)
    private static func probe(
        _ slots: UnsafeMutableRawPointer,
        mask: UInt,
        hash: UInt,
        stride: UInt,
        where matches: (TableSlot) -> Bool
    ) -> (slot: TableSlot, occupied: Bool) {
        var index = hash
        while true {
            let slot = unsafe TableSlot(slots: slots, base: (index & mask) &* stride)
            if slot.load(0) == 0 { return (slot, false) }
            if matches(slot) { return (slot, true) }
            index &+= 1
        }
    }

    /// Finds a key's slot in the current generation under the table's write lock, or, when the
    /// key is absent, the empty slot where it goes, growing the table first when one more entry
    /// would pass a load factor of 3/4. An empty slot is counted as occupied: `body` must fill
    /// it, its first word last.
    /// - Parameters:
    ///   - hash: The key's hash.
    ///   - stride: The words per slot.
    ///   - matches: Whether an occupied slot holds the key.
    ///   - rehash: The hash of an occupied slot's key, for growing.
    ///   - body: Given the slot and whether it is occupied.
    /// - Returns: What `body` returns.
    func withLockedSlot<R>(
        hash: UInt,
        stride: UInt,
        where matches: (TableSlot) -> Bool,
        rehash: (TableSlot) -> UInt,
        _ body: (TableSlot, _ occupied: Bool) -> R
    ) -> R {
        TableWriteLocks.withLock(for: UInt(bitPattern: unsafe root)) {
            var slots = unsafe current?.slots
            // One walk of the probe sequence finds the key or the empty slot where it goes.
            var empty: TableSlot?
            if let current = unsafe slots {
                let (slot, occupied) = unsafe Self.probe(
                    current,
                    mask: cmd_tableMask(current),
                    hash: hash,
                    stride: stride,
                    where: matches
                )
                if occupied { return body(slot, true) }
                empty = slot
            }
            let count = unsafe slots.map { unsafe Int(cmd_tableCount($0)) } ?? 0
            let capacity = unsafe slots.map { unsafe Int(cmd_tableMask($0)) + 1 } ?? 0
            if (count + 1) * 4 > capacity * 3 {
                let grown = unsafe Self.generation(capacity: max(capacity * 2, 16), stride: stride)
                if let old = unsafe slots {
                    unsafe Self.copy(old, into: grown, stride: stride, rehash: rehash)
                    // Kept for readers still probing it, and reachable from the new one.
                    unsafe cmd_tableSetReplaced(grown, old)
                }
                unsafe publish(grown)
                unsafe slots = grown
                empty = nil
            }
            guard let target = unsafe slots else { fatalError("unreachable: a table generation was just published") }
            unsafe cmd_tableSetCount(target, UInt(count + 1))
            return body(unsafe empty ?? Self.emptySlot(in: target, hash: hash, stride: stride), false)
        }
    }

    /// Publishes a first generation filled before any reader sees the table, no lock taken.
    /// - Parameters:
    ///   - count: The most entries `fill` stores.
    ///   - stride: The words per slot.
    ///   - fill: Stores the entries, each in the slot that `slot(hash, matches)` returns for its
    ///     key's hash: the occupied one `matches` accepts, or else the empty one where the key
    ///     goes (`occupied` false). Returns the number of slots it filled.
    func publishFilled(
        count: Int,
        stride: UInt,
        _ fill: (_ slot: (UInt, (TableSlot) -> Bool) -> (slot: TableSlot, occupied: Bool)) -> Int
    ) {
        var capacity = 16
        while capacity * 3 < count * 4 { capacity *= 2 }
        let slots = unsafe Self.generation(capacity: capacity, stride: stride)
        let mask = unsafe cmd_tableMask(slots)
        let filled = fill { hash, matches in
            // One walk of the probe sequence: the key, if stored, comes before the first empty slot.
            unsafe Self.probe(slots, mask: mask, hash: hash, stride: stride, where: matches)
        }
        unsafe cmd_tableSetCount(slots, UInt(filled))
        unsafe publish(slots)
    }

    /// A new, empty generation.
    private static func generation(capacity: Int, stride: UInt) -> UnsafeMutableRawPointer {
        precondition(Int(cmd_tableHeaderBytes()) == headerBytes, "CMDTableSlots's header changed size")
        guard let slots = unsafe cmd_tableAllocate(UInt(capacity), stride) else {
            fatalError("RuntimeMetadata: out of memory growing a cache table to \(capacity) slots")
        }
        return unsafe slots
    }

    /// Copies every occupied slot of a generation into a larger one, each slot's first word last.
    private static func copy(
        _ old: UnsafeMutableRawPointer,
        into grown: UnsafeMutableRawPointer,
        stride: UInt,
        rehash: (TableSlot) -> UInt
    ) {
        for index in unsafe 0...cmd_tableMask(old) {
            let slot = unsafe TableSlot(slots: old, base: index &* stride)
            guard slot.load(0) != 0 else { continue }
            let target = unsafe emptySlot(in: grown, hash: rehash(slot), stride: stride)
            for word in (0..<stride).reversed() { target.store(word, slot.load(word)) }
        }
        unsafe cmd_tableSetCount(grown, cmd_tableCount(old))
    }

    /// The first empty slot of a hash's probe sequence.
    private static func emptySlot(in slots: UnsafeMutableRawPointer, hash: UInt, stride: UInt) -> TableSlot {
        let mask = unsafe cmd_tableMask(slots)
        var index = hash
        while true {
            let slot = unsafe TableSlot(slots: slots, base: (index & mask) &* stride)
            if slot.load(0) == 0 { return slot }
            index &+= 1
        }
    }

    /// The occupied slots and the bytes of every generation (the current one and those it grew
    /// from).
    /// - Parameter stride: The words per slot.
    /// - Returns: The entries, and the bytes of the generations.
    func footprint(stride: UInt) -> (entries: Int, slotBytes: Int) {
        TableWriteLocks.withLock(for: UInt(bitPattern: unsafe root)) {
            guard let slots = unsafe current?.slots else { return (0, 0) }
            var bytes = 0
            var generation = unsafe Int(cmd_tableMask(slots)) + 1
            while generation >= 16 {
                bytes += Int(cmd_tableHeaderBytes()) + generation * Int(stride) * MemoryLayout<UInt>.size
                generation /= 2
            }
            return (unsafe Int(cmd_tableCount(slots)), bytes)
        }
    }

    /// Frees a table with a root of its own that no reader has seen, after `release` is given
    /// each occupied slot of its current generation (which holds every entry).
    /// - Parameters:
    ///   - stride: The words per slot.
    ///   - release: Releases what a slot refers to.
    func discardUnpublished(stride: UInt, releasing release: (TableSlot) -> Void) {
        forEachOccupied(stride: stride, release)
        unsafe cmd_tableFree(root)
    }

    /// Every occupied slot of the current generation, in slot order, under the write lock.
    /// - Parameters:
    ///   - stride: The words per slot.
    ///   - body: Called with each slot.
    func forEachOccupied(stride: UInt, _ body: (TableSlot) -> Void) {
        TableWriteLocks.withLock(for: UInt(bitPattern: unsafe root)) {
            guard let slots = unsafe current?.slots else { return }
            for index in unsafe 0...cmd_tableMask(slots) {
                let slot = unsafe TableSlot(slots: slots, base: index &* stride)
                if slot.load(0) != 0 { body(slot) }
            }
        }
    }
}

/// A lock-free, insert-only, growable hash table of immortal entries: each slot holds an
/// entry's address, and the entry holds its key.
@usableFromInline
@safe
struct ConcurrentTable<Entry: CacheEntry>: Sendable {
    /// The generations.
    @usableFromInline
    let generations: TableGenerations

    /// One word per slot: the entry's address.
    @usableFromInline
    static var stride: UInt { 1 }

    /// The process-wide table of a kind; each entry type has its own.
    /// - Parameter table: The table.
    @inlinable
    @inline(__always)
    init(_ table: CacheTable) {
        generations = unsafe TableGenerations(root: table.root)
    }

    /// A new, empty table with a root of its own, which lives as long as the process.
    init() {
        generations = unsafe TableGenerations(root: cmd_tableRootAllocate())
    }

    /// A new table with a root of its own, filled with entries before any reader sees it: one
    /// generation sized for them, no lock taken. Later inserts grow it as usual.
    /// - Parameter entries: The entries, each with a different key.
    init(filledWith entries: [Entry]) {
        self.init()
        guard !entries.isEmpty else { return }
        generations.publishFilled(count: entries.count, stride: Self.stride) { slot in
            for entry in entries {
                let retained = unsafe Unmanaged.passRetained(entry)
                let target = slot(entry.tableKey.cacheHash) { _ in false }.slot
                target.store(0, UInt(bitPattern: unsafe retained.toOpaque()))
            }
            return entries.count
        }
    }

    /// The entry a slot holds.
    @inlinable
    @inline(__always)
    static func entry(in slot: TableSlot) -> ImmortalReference<Entry> {
        guard let address = unsafe UnsafeRawPointer(bitPattern: slot.load(0)) else {
            fatalError("unreachable: an empty slot was read as an entry")
        }
        return unsafe ImmortalReference(unmanaged: Unmanaged<Entry>.fromOpaque(address))
    }

    /// Looks up a key without locking, allocating or reference counting.
    /// - Parameter key: The key.
    /// - Returns: The entry, or `nil`.
    @inlinable
    @inline(__always)
    func entry(for key: Entry.Key) -> ImmortalReference<Entry>? {
        generations.find(hash: key.cacheHash, stride: Self.stride) { slot in
            Self.entry(in: slot).withObject { $0.tableKey == key }
        }.map(Self.entry(in:))
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
        return generations.withLockedSlot(
            hash: key.cacheHash,
            stride: Self.stride,
            where: { slot in Self.entry(in: slot).withObject { $0.tableKey == key } },
            rehash: { slot in Self.entry(in: slot).withObject { $0.tableKey.cacheHash } }
        ) { slot, occupied in
            if occupied { return Self.entry(in: slot) }
            let entry = unsafe Unmanaged.passRetained(fresh)
            slot.store(0, UInt(bitPattern: unsafe entry.toOpaque()))
            return unsafe ImmortalReference(unmanaged: entry)
        }
    }

    /// What the table holds now: its entries, and the bytes of its slot generations.
    var footprint: (entries: Int, slotBytes: Int) { generations.footprint(stride: Self.stride) }

    /// Releases the entries and frees the storage of a table made with ``init()`` or
    /// ``init(filledWith:)`` that was never shared: the table a thread built for a ``LazyValue``
    /// whose value another thread published first. Its box's `deinit` calls this, and a box is
    /// released only then (a published box lives as long as the process).
    func discardUnpublished() {
        generations.discardUnpublished(stride: Self.stride) { slot in
            // The reference `insert` and `init(filledWith:)` retained for the slot.
            guard let address = unsafe UnsafeRawPointer(bitPattern: slot.load(0)) else { return }
            unsafe Unmanaged<Entry>.fromOpaque(address).release()
        }
    }

    /// Every entry, in slot order (under the write lock: for reports, not for lookups).
    var entries: [ImmortalReference<Entry>] {
        var entries: [ImmortalReference<Entry>] = []
        generations.forEachOccupied(stride: Self.stride) { entries.append(Self.entry(in: $0)) }
        return entries
    }
}

/// A lock-free, insert-only, growable table of one-word values by one-word keys, both stored in
/// the slot: a lookup reads one slot and no entry, and an entry costs two words, not an object.
/// Keys are nonzero (addresses); a value may be updated in place, under the write lock.
@usableFromInline
@safe
struct ConcurrentWordTable: Sendable {
    /// The generations.
    @usableFromInline
    let generations: TableGenerations

    /// Two words per slot: the key, then the value.
    @usableFromInline
    static var stride: UInt { 2 }

    /// A new, empty table with a root of its own, which lives as long as the process.
    init() {
        generations = unsafe TableGenerations(root: cmd_tableRootAllocate())
    }

    /// The process-wide table of a kind.
    /// - Parameter table: The table.
    @inlinable
    @inline(__always)
    init(_ table: CacheTable) {
        generations = unsafe TableGenerations(root: table.root)
    }

    /// A new table with a root of its own, filled before any reader sees it: one generation
    /// sized for the pairs, no lock taken. A key given more than once keeps the value `merge`
    /// makes of its stored value and the next one.
    /// - Parameters:
    ///   - pairs: The keys, not 0, and their values, read once, in order; a lazy sequence makes
    ///     no array of them.
    ///   - count: At least the number of pairs, for the table's size.
    ///   - merge: The value of a key given again, from the stored value and the new one.
    init<Pairs: Sequence<(key: UInt, value: UInt)>>(
        filledWith pairs: Pairs,
        count: Int,
        merging merge: (_ stored: UInt, _ next: UInt) -> UInt
    ) {
        self.init()
        guard count > 0 else {
            var rest = pairs.makeIterator()
            precondition(rest.next() == nil, "a filled word table was given pairs and a count of 0")
            return
        }
        generations.publishFilled(count: count, stride: Self.stride) { slot in
            var filled = 0
            for pair in pairs {
                precondition(pair.key != 0, "a word table's key is never 0")
                let (target, occupied) = slot(pair.key.cacheHash) { $0.load(0) == pair.key }
                if occupied {
                    target.store(1, merge(target.load(1), pair.value))
                } else {
                    // Sized for `count` keys: one more could fill the generation, and a probe of
                    // a full table would not end.
                    precondition(filled < count, "a filled word table was given more keys than its count")
                    target.store(1, pair.value)
                    target.store(0, pair.key)
                    filled += 1
                }
            }
            return filled
        }
    }

    /// The table whose root is at an address that ``nestedTable(orInsert:)`` stored.
    @inlinable
    @inline(__always)
    init(rootAddress: UInt) {
        guard let root = unsafe UnsafeMutableRawPointer(bitPattern: rootAddress) else {
            fatalError("unreachable: a nested table's root is never null")
        }
        generations = unsafe TableGenerations(root: root)
    }

    /// The table nested under a key: a table of tables holds, as each key's value, the address
    /// of another table's root, so that finding the inner table costs one slot and no object.
    /// - Parameter key: The key, not 0.
    /// - Returns: The nested table, or `nil` before ``nestedTable(orInsert:)`` made it.
    @inlinable
    @inline(__always)
    func nestedTable(for key: UInt) -> ConcurrentWordTable? {
        value(for: key).map(ConcurrentWordTable.init(rootAddress:))
    }

    /// The table nested under a key, made empty on the first request.
    /// - Parameter key: The key, not 0.
    /// - Returns: The nested table.
    func nestedTable(orInsert key: UInt) -> ConcurrentWordTable {
        if let existing = nestedTable(for: key) { return existing }
        return ConcurrentWordTable(
            rootAddress: update(key) { $0 ?? UInt(bitPattern: unsafe cmd_tableRootAllocate()) }
        )
    }

    /// Looks up a key without locking or allocating.
    /// - Parameter key: The key, not 0.
    /// - Returns: The value, or `nil` when the key has none.
    @inlinable
    @inline(__always)
    func value(for key: UInt) -> UInt? {
        generations.find(hash: key.cacheHash, stride: Self.stride) { $0.load(0) == key }?.load(1)
    }

    /// Sets a key's value from its current one, under the table's write lock.
    /// - Parameters:
    ///   - key: The key, not 0.
    ///   - transform: The new value, given the current one or `nil`.
    /// - Returns: The value stored.
    @discardableResult
    func update(_ key: UInt, _ transform: (UInt?) -> UInt) -> UInt {
        precondition(key != 0, "a word table's key is never 0")
        return generations.withLockedSlot(
            hash: key.cacheHash,
            stride: Self.stride,
            where: { $0.load(0) == key },
            rehash: { $0.load(0).cacheHash }
        ) { slot, occupied in
            let value = transform(occupied ? slot.load(1) : nil)
            slot.store(1, value)
            if !occupied { slot.store(0, key) }
            return value
        }
    }

    /// What the table holds now: its entries, and the bytes of its slot generations.
    var footprint: (entries: Int, slotBytes: Int) { generations.footprint(stride: Self.stride) }

    /// Frees the storage of a table made with ``init()`` or ``init(filledWith:merging:)`` that
    /// was never shared (see ``ConcurrentTable/discardUnpublished()``). Its values are words:
    /// nothing is released.
    func discardUnpublished() {
        generations.discardUnpublished(stride: Self.stride) { _ in }
    }
}

/// The write locks of the tables, striped by root: writers are first questions, rare and short
/// (a probe and a store, or a copy when the table grows), so a few locks serve every table.
enum TableWriteLocks {
    private final class Stripe: Sendable {
        let mutex = Mutex(())
    }

    /// The stripes, kept for the process.
    private static let owners: [Stripe] = (0..<16).map { _ in Stripe() }

    /// The stripes, unretained: a stripe read from an array of strong references is retained
    /// and released around its lock, a pair of atomic operations for every first question.
    private static let stripes: [ImmortalReference<Stripe>] = owners.map(ImmortalReference.init(immortal:))

    /// Runs `body` holding the lock of a root.
    /// - Parameters:
    ///   - root: The root's address.
    ///   - body: The locked work.
    /// - Returns: What `body` returns.
    static func withLock<R>(for root: UInt, _ body: () -> R) -> R {
        stripes[Int(truncatingIfNeeded: root.cacheHash >> 40) & 15].withObject { stripe in
            stripe.mutex.withLock { _ in body() }
        }
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
