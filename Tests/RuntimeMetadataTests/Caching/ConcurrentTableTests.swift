import Foundation
import TestSupport
import Testing

@testable import RuntimeMetadata

/// An entry of the test tables: a key and a payload derived from it.
private final class NumberEntry: CacheEntry {
    let tableKey: UInt
    let payload: UInt

    init(_ key: UInt) {
        tableKey = key
        payload = key &* 31 &+ 7
    }
}

@Suite("The one concurrent table")
struct ConcurrentTableTests {
    @Test("Grows from empty to 1,000,000 entries and finds every one, and no others")
    func growsAndFinds() {
        let table = ConcurrentTable<NumberEntry>()
        #expect(table.entry(for: 1) == nil)
        let count: UInt = TestScale.scaled(1_000_000)
        // Keys shaped like addresses (16-byte aligned, clustered), the common case.
        let base: UInt = 0x7F00_0000_0000
        for index in 0..<count {
            let key = base + index * 16
            let stored = table.insert(NumberEntry(key))
            #expect(stored.withObject { $0.tableKey } == key)
        }
        var missing = 0
        var wrong = 0
        for index in 0..<count {
            let key = base + index * 16
            guard let found = table.entry(for: key) else {
                missing += 1
                continue
            }
            if found.withObject({ $0.payload }) != key &* 31 &+ 7 { wrong += 1 }
        }
        #expect(missing == 0)
        #expect(wrong == 0)
        for index in 0..<1000 as Range<UInt> {
            #expect(table.entry(for: base + index * 16 + 8) == nil)
        }
        let footprint = table.footprint
        #expect(footprint.entries == Int(count))
        // Load factor at most 3/4; the generations sum to less than twice the current one.
        #expect(footprint.slotBytes >= Int(count) * 8 * 4 / 3)
        #expect(footprint.slotBytes <= Int(count) * 8 * 2 * 8 / 3 + 1024)
    }

    @Test("A table that lost the race to publish frees its generations and releases its entries")
    func discardUnpublished() {
        weak var filled: NumberEntry?
        weak var inserted: NumberEntry?
        do {
            let entries = (1...40).map { NumberEntry(UInt($0) * 16) }
            filled = entries[0]
            let table = ConcurrentTable(filledWith: entries)
            let extra = NumberEntry(0x10_0000)
            inserted = extra
            _ = table.insert(extra)
            // Grown past its first generations, which the current one links.
            for key in 41...500 as ClosedRange<UInt> { _ = table.insert(NumberEntry(key * 16)) }
            #expect(table.entry(for: 16)?.withObject { $0.payload } == 16 &* 31 &+ 7)
            #expect(table.footprint.entries == 501)
            table.discardUnpublished()
        }
        // The table held the only references; under AddressSanitizer, its storage is freed too.
        #expect(filled == nil)
        #expect(inserted == nil)
    }

    @Test("A second insert of a key returns the first entry")
    func firstInsertWins() {
        let table = ConcurrentTable<NumberEntry>()
        let first = table.insert(NumberEntry(42))
        let second = table.insert(NumberEntry(42))
        #expect(first.identity == second.identity)
        #expect(table.footprint.entries == 1)
        var built = 0
        let third = table.entry(for: 42) {
            built += 1
            return NumberEntry(42)
        }
        #expect(built == 0)
        #expect(third.identity == first.identity)
    }

    @Test("Racing writers and readers agree: every key has one entry, readers never see a torn table")
    func racingWritersAndReaders() async {
        let table = ConcurrentTable<NumberEntry>()
        let keys: [UInt] = (0..<20_000).map { 0x5000_0000 + UInt($0) * 48 }
        let identities = await withTaskGroup(of: [UInt].self) { group in
            for worker in 0..<6 {
                group.addTask {
                    var seen: [UInt] = []
                    // Each worker inserts every key, in its own order, and reads as it goes.
                    let order = worker.isMultiple(of: 2) ? keys : keys.reversed()
                    for (position, key) in order.enumerated() {
                        let entry = table.entry(for: key) { NumberEntry(key) }
                        seen.append(entry.identity)
                        let earlier = order[position / 2]
                        if table.entry(for: earlier)?.withObject({ $0.tableKey }) != earlier { seen.append(0) }
                    }
                    return seen
                }
            }
            var all: [[UInt]] = []
            for await identities in group { all.append(identities) }
            return all
        }
        #expect(identities.allSatisfy { !$0.contains(0) }, "a reader missed an entry inserted before it")
        #expect(table.footprint.entries == keys.count)
        // The entry each worker got for a key is the one the table holds.
        let held = Set(keys.compactMap { table.entry(for: $0)?.identity })
        #expect(held.count == keys.count)
        for list in identities { #expect(Set(list).isSubset(of: held)) }
    }

    @Test("A word table keeps its keys and values in the slots, grows to 1,000,000 and updates in place")
    func wordTableGrowsAndUpdates() {
        let table = ConcurrentWordTable()
        #expect(table.value(for: 1) == nil)
        let count: UInt = TestScale.scaled(1_000_000)
        let base: UInt = 0x7F00_0000_0000
        for index in 0..<count {
            let key = base + index * 16
            let stored = table.update(key) { current in
                #expect(current == nil)
                return key &* 3
            }
            #expect(stored == key &* 3)
        }
        var wrong = 0
        for index in 0..<count where table.value(for: base + index * 16) != (base + index * 16) &* 3 { wrong += 1 }
        #expect(wrong == 0)
        for index in 0..<1000 as Range<UInt> { #expect(table.value(for: base + index * 16 + 8) == nil) }
        // An update sees the current value, and replaces it without adding an entry.
        let key = base + 16 * 500
        #expect(table.update(key) { ($0 ?? 0) + 1 } == key &* 3 + 1)
        #expect(table.value(for: key) == key &* 3 + 1)
        let footprint = table.footprint
        #expect(footprint.entries == Int(count))
        // Two words a slot, load factor at most 3/4, generations summing to less than twice the
        // current one.
        #expect(footprint.slotBytes >= Int(count) * 16 * 4 / 3)
        #expect(footprint.slotBytes <= Int(count) * 16 * 2 * 8 / 3 + 1024)
    }

    @Test("A word table filled at once merges a repeated key's values in order, counts each key once, and grows")
    func wordTableFilledWithRepeats() {
        // 3,000 keys, every third given three times: its values are merged in the order given.
        let base: UInt = 0x7F00_0000_0000
        var pairs: [(key: UInt, value: UInt)] = []
        for index in 0..<3000 as Range<UInt> {
            let key = base + index * 16
            pairs.append((key, index &* 4))
            if index.isMultiple(of: 3) {
                pairs.append((key, 1))
                pairs.append((key, 2))
            }
        }
        var merges: [UInt: [UInt]] = [:]
        let table = ConcurrentWordTable(filledWith: pairs, count: pairs.count) { stored, next in
            // The key is not passed: the stored value names it (index * 4, then marked).
            merges[stored >> 2, default: []].append(next)
            return stored | next
        }
        #expect(merges.count == 1000)
        #expect(merges.values.allSatisfy { $0 == [1, 2] })
        var wrong = 0
        for index in 0..<3000 as Range<UInt> {
            let expected = index &* 4 | (index.isMultiple(of: 3) ? 3 : 0)
            if table.value(for: base + index * 16) != expected { wrong += 1 }
        }
        #expect(wrong == 0)
        #expect(table.value(for: base + 8) == nil)
        #expect(table.footprint.entries == 3000)
        // Filled, it grows like any other table.
        for index in 3000..<10_000 as Range<UInt> { table.update(base + index * 16) { _ in index } }
        #expect(table.footprint.entries == 10_000)
        #expect(table.value(for: base + 16 * 2999) == 2999 &* 4)
        #expect(table.value(for: base + 16 * 9999) == 9999)
        #expect(ConcurrentWordTable(filledWith: [], count: 0) { _, _ in 0 }.footprint.entries == 0)
        // A lazy sequence, read once, and a count above the pairs it yields.
        var read = 0
        let lazily = ConcurrentWordTable(
            filledWith: pairs.lazy.filter { pair in
                read += 1
                return pair.value > 2
            },
            count: pairs.count
        ) { stored, _ in stored }
        #expect(read == pairs.count)
        #expect(lazily.footprint.entries == 2999)
        #expect(lazily.value(for: base + 16 * 2999) == 2999 &* 4)
        #expect(lazily.value(for: base) == nil)
    }

    @Test("Racing updates and reads of a word table: one value per key, never a torn slot")
    func racingWordTable() async {
        let table = ConcurrentWordTable()
        let keys: [UInt] = (0..<20_000).map { 0x5000_0000 + UInt($0) * 48 }
        let failures = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<6 {
                group.addTask {
                    var failures = 0
                    let order = worker.isMultiple(of: 2) ? keys : keys.reversed()
                    for (position, key) in order.enumerated() {
                        // The first writer's value wins; later ones keep it.
                        let stored = table.update(key) { $0 ?? key &* 3 &+ UInt(worker & 1) }
                        if table.value(for: key) != stored { failures += 1 }
                        let earlier = order[position / 2]
                        guard let value = table.value(for: earlier) else {
                            failures += 1
                            continue
                        }
                        if value != earlier &* 3 && value != earlier &* 3 &+ 1 { failures += 1 }
                    }
                    return failures
                }
            }
            var total = 0
            for await failures in group { total += failures }
            return total
        }
        #expect(failures == 0, "a reader missed an entry, or saw a key with another key's value")
        #expect(table.footprint.entries == keys.count)
    }
}
