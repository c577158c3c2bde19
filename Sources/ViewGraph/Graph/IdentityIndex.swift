// IdentityIndex.swift
//
// The previous children of a node being reconciled, by the hashes of their data identities:
// an open-addressing table of positions, so that matching 1,000 reordered rows hashes each
// new identity once and compares two identities once per match, where a dictionary keyed by
// `AnyHashable` would hash its keys again and compare them along each probe.

/// Positions of a node's previous children, by their identities' hashes, with linear probing.
///
/// The table holds positions only; the caller compares the records at a position. Positions
/// are inserted in increasing order, so the first of several children with the same identity
/// is found first. The table's storage is kept from one reconciliation to the next.
struct IdentityIndex {
    /// The positions, `-1` for an empty slot; the first `mask + 1` are in use.
    private var slots: ContiguousArray<Int32> = []
    /// The number of slots in use, less one: a power of two less one.
    private var mask = 0

    /// Empties the table, with room for `count` positions at half load or less.
    /// - Parameter count: The number of positions that will be inserted.
    mutating func reset(for count: Int) {
        var size = 16
        while size < count * 2 { size <<= 1 }
        if slots.count < size {
            slots = ContiguousArray(repeating: -1, count: size)
        } else {
            for slot in 0..<size { slots[slot] = -1 }
        }
        mask = size - 1
    }

    /// Inserts a position.
    /// - Parameters:
    ///   - position: The position.
    ///   - hash: Its identity's hash.
    mutating func insert(_ position: Int, hash: Int) {
        var slot = hash & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(position)
    }

    /// The positions inserted with a hash, in the order they were inserted, and others that
    /// share their probe sequence: the caller compares each until one matches.
    /// - Parameter hash: The hash.
    /// - Returns: The candidate positions.
    func candidates(hash: Int) -> Candidates { Candidates(slots: slots, slot: hash & mask, mask: mask) }

    /// The candidate positions of one hash, found along its probe sequence.
    struct Candidates: IteratorProtocol, Sequence {
        fileprivate let slots: ContiguousArray<Int32>
        fileprivate var slot: Int
        fileprivate let mask: Int

        mutating func next() -> Int? {
            let position = slots[slot]
            guard position >= 0 else { return nil }
            slot = (slot + 1) & mask
            return Int(position)
        }
    }
}
