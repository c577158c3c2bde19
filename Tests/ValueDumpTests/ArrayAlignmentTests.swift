// ArrayAlignmentTests.swift
//
// The diff's alignment of array elements: the edit script against the standard library's
// `difference(from:)` (its length, which both keep minimal) and against the arrays themselves
// (the elements kept are the same on both sides); then the diff's reports of an insertion, a
// removal and a change, for every kind of array, and the bound past which it compares by
// position.

import Fixtures
import Testing

@testable import ValueDump

/// A row of a list, not `Identifiable`.
private struct Line: Equatable {
    var product: String
    var quantity: Int
}

/// The elements of `array` at the indices not in `skipped`.
private func keeping(_ array: [Int], without skipped: [Int]) -> [Int] {
    let skipped = Set(skipped)
    return array.indices.filter { !skipped.contains($0) }.map { array[$0] }
}

@Suite("Array alignment")
struct ArrayAlignmentTests {
    @Test("Random arrays: a shortest script, as long as difference(from:)'s, keeping the same elements")
    func againstCollectionDifference() throws {
        var generator = SplitMix64(state: 0xA11C_0001)
        var aligned = 0
        for _ in 0..<3_000 {
            // Few distinct values, so that many elements match and many scripts are possible.
            let alphabet = Int.random(in: 1...6, using: &generator)
            let old = (0..<Int.random(in: 0...40, using: &generator)).map { _ in
                Int.random(in: 0..<alphabet, using: &generator)
            }
            var new = old
            for _ in 0..<Int.random(in: 0...12, using: &generator) {
                switch Int.random(in: 0..<3, using: &generator) {
                case 0 where !new.isEmpty: new.remove(at: Int.random(in: 0..<new.count, using: &generator))
                case 1:
                    new.insert(
                        Int.random(in: 0..<alphabet, using: &generator),
                        at: Int.random(in: 0...new.count, using: &generator)
                    )
                default:
                    if !new.isEmpty {
                        new[Int.random(in: 0..<new.count, using: &generator)] = Int.random(
                            in: 0..<alphabet,
                            using: &generator
                        )
                    }
                }
            }
            let oracle = new.difference(from: old)
            let alignment = try #require(
                ArrayAlignment.align(oldCount: old.count, newCount: new.count) { old[$0] == new[$1] },
                "\(old) → \(new)"
            )
            #expect(alignment.removed.count + alignment.inserted.count == oracle.count, "\(old) → \(new)")
            #expect(alignment.removed.count - alignment.inserted.count == old.count - new.count)
            #expect(
                alignment.removed == alignment.removed.sorted()
                    && Set(alignment.removed).count == alignment.removed.count
            )
            #expect(
                alignment.inserted == alignment.inserted.sorted()
                    && Set(alignment.inserted).count == alignment.inserted.count
            )
            #expect(
                keeping(old, without: alignment.removed) == keeping(new, without: alignment.inserted),
                "\(old) → \(new)"
            )
            aligned += 1
        }
        #expect(aligned == 3_000)
    }

    @Test("A script longer than the bound is not searched for: nil, and the diff compares by position")
    func bound() {
        // 10,000 elements that differ everywhere: a script of 20,000 edits.
        let old = Array(0..<10_000)
        let new = Array(10_000..<20_000)
        #expect(ArrayAlignment.align(oldCount: old.count, newCount: new.count) { old[$0] == new[$1] } == nil)
        // Exactly at the bound it is found; one edit more, not.
        let shorter = Array(0..<64)
        let longer = Array(64..<128)
        #expect(
            ArrayAlignment.align(oldCount: 64, newCount: 64, maximumEdits: 128) { shorter[$0] == longer[$1] } != nil
        )
        #expect(
            ArrayAlignment.align(oldCount: 64, newCount: 64, maximumEdits: 127) { shorter[$0] == longer[$1] } == nil
        )
        // Empty sides.
        #expect(
            ArrayAlignment.align(oldCount: 0, newCount: 3) { _, _ in false }
                == ArrayAlignment(removed: [], inserted: [0, 1, 2])
        )
        #expect(
            ArrayAlignment.align(oldCount: 2, newCount: 0) { _, _ in false }
                == ArrayAlignment(removed: [0, 1], inserted: [])
        )
        #expect(
            ArrayAlignment.align(oldCount: 0, newCount: 0) { _, _ in false }
                == ArrayAlignment(removed: [], inserted: [])
        )
    }

    @Test("One element inserted is one difference at its new index, with old nil")
    func insertion() {
        // Doubles, not Ints: a plugin this suite loads makes Int Identifiable, and arrays of
        // Identifiable elements are matched by id.
        let found = ValueDump.differences([1.0, 2, 3, 4], [0.5, 1, 2, 3, 4])
        #expect(found == [ValueDifference(path: "[0]", old: nil, new: "0.5")])
        let middle = ValueDump.differences([1.0, 2, 3, 4], [1.0, 2, 9, 3, 4])
        #expect(middle == [ValueDifference(path: "[2]", old: nil, new: "9.0")])
    }

    @Test("One element removed is one difference at its old index, with new nil")
    func removal() {
        let found = ValueDump.differences(["a", "b", "c", "d"], ["a", "c", "d"])
        #expect(found == [ValueDifference(path: "[1]", old: "\"b\"", new: nil)])
        let last = ValueDump.differences(["a", "b", "c"], ["a", "b"])
        #expect(last == [ValueDifference(path: "[2]", old: "\"c\"", new: nil)])
    }

    @Test("One element changed is reported below its index; with an insertion before it, at its new index")
    func change() {
        let old = [Line(product: "tea", quantity: 1), Line(product: "milk", quantity: 2)]
        var new = old
        new[1].quantity = 3
        #expect(ValueDump.differences(old, new).map(\.path) == ["[1].quantity"])
        // Inserted at the front, and the old second line changed: an insertion at [0], and the
        // changed line, now at [2], is a removal of old [1] and an insertion at new [2].
        new.insert(Line(product: "bread", quantity: 1), at: 0)
        let found = ValueDump.differences(old, new)
        #expect(found.map(\.path) == ["[0]", "[1]", "[2]"])
        #expect(found.map { $0.old == nil } == [true, false, true])
        #expect(found.map { $0.new == nil } == [false, true, false])
    }

    @Test("ContiguousArray and ArraySlice are aligned as Array is")
    func otherArrays() {
        #expect(
            ValueDump.differences(ContiguousArray([1.0, 2, 3]), ContiguousArray([0.5, 1, 2, 3]))
                == [ValueDifference(path: "[0]", old: nil, new: "0.5")]
        )
        let slices = ([9.0, 1, 2, 3, 4][1...], [9.0, 1, 3, 4][1...])
        #expect(ValueDump.differences(slices.0, slices.1) == [ValueDifference(path: "[1]", old: "2.0", new: nil)])
        let nested = ValueDump.differences(Holder([1.0, 2]), Holder([5.0, 1, 2]))
        #expect(nested == [ValueDifference(path: ".held[0]", old: nil, new: "5.0")])
    }

    @Test("A path names at most one removal and one insertion, for random edits of random arrays")
    func pathsOnce() {
        var generator = SplitMix64(state: 0xA11C_0002)
        for _ in 0..<500 {
            let old = (0..<Int.random(in: 0...30, using: &generator)).map { _ in
                Double(Int.random(in: 0..<4, using: &generator))
            }
            let new = (0..<Int.random(in: 0...30, using: &generator)).map { _ in
                Double(Int.random(in: 0..<4, using: &generator))
            }
            let found = ValueDump.differences(old, new)
            #expect(found.isEmpty == (old == new))
            let removals = found.filter { $0.new == nil }.map(\.path)
            let insertions = found.filter { $0.old == nil }.map(\.path)
            let changes = found.filter { $0.old != nil && $0.new != nil }.map(\.path)
            #expect(Set(removals).count == removals.count && Set(insertions).count == insertions.count)
            #expect(Set(changes).count == changes.count && Set(changes).isDisjoint(with: removals + insertions))
            #expect(removals.count - insertions.count == old.count - new.count)
        }
    }

    @Test("Past the bound the middle is compared by position, within it it is aligned")
    func fallbackTaken() {
        let old = (0..<200).map { Line(product: "p\($0)", quantity: $0) }
        func edited(changing count: Int) -> [Line] {
            var new = old
            for index in stride(from: 1, to: 2 * count, by: 2) { new[index].quantity = -1 }
            new.insert(Line(product: "first", quantity: 0), at: 0)
            return new
        }
        // 60 changes and one insertion: 121 edits, aligned. The insertion is [0], old nil; each
        // changed line is a removal at its old index and an insertion at its new one.
        let aligned = ValueDump.differences(old, edited(changing: 60))
        #expect(aligned.first?.path == "[0]" && aligned.first?.old == nil)
        #expect(aligned.filter { $0.new == nil }.count == 60)
        #expect(aligned.filter { $0.old == nil }.count == 61)
        // 70 changes and one insertion: 141 edits, past the bound of 128: by position between
        // the common prefix (none) and the common suffix (the 60 lines after the last change,
        // each one place later), so that every element of the middle, [0] to [139], is a
        // change, and its last, [140], an insertion.
        let positional = ValueDump.differences(old, edited(changing: 70))
        #expect(positional.first.map { $0.path.hasPrefix("[0].") && $0.old != nil && $0.new != nil } == true)
        #expect(Set(positional.map { $0.path.prefix { $0 != "]" } }).count == 141)
        #expect(positional.filter { $0.old == nil }.map(\.path) == ["[140]"])
        #expect(positional.filter { $0.new == nil }.isEmpty)
    }

    @Test("Identifiable arrays of one length: a changed element's id path is given out once")
    func identifiedPathOnce() {
        // The first changed element keeps its id, the second does not: matched by id, and the
        // first id's path was once given out twice, `[id: 3]` and `[id: 3 #2]`.
        let old = [DiffTodo(id: 3, title: "a"), DiffTodo(id: 4, title: "b")]
        let new = [DiffTodo(id: 3, title: "A"), DiffTodo(id: 5, title: "c")]
        #expect(ValueDump.differences(old, new).map(\.path) == ["[id: 3].title", "[id: 4]", "[id: 5]"])
    }
}
