// IdentityIndex.swift
//
// The previous children of a node being reconciled, by the hashes of their data identities:
// an open-addressing table of positions, so that matching 1,000 reordered rows hashes each
// new identity once and compares two identities once per match, where a dictionary keyed by
// `AnyHashable` would hash its keys again and compare them along each probe. A run of
// children that a view lists with typed identities (a ForEach's rows) keeps those identities
// typed from one evaluation to the next (`IdentityColumn`), so that they are compared and
// hashed as their own type, not boxed into `AnyHashable` per row.

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

    /// The first slot of a hash's probe sequence. The positions inserted with the hash are
    /// in the sequence's slots in the order they were inserted, among others that share it;
    /// the sequence ends at an empty slot.
    /// - Parameter hash: The hash.
    /// - Returns: The slot.
    func firstSlot(for hash: Int) -> Int { hash & mask }

    /// The position in a slot, or `nil` for an empty slot: the end of a probe sequence.
    /// - Parameter slot: The slot.
    /// - Returns: The position.
    func position(inSlot slot: Int) -> Int? {
        let position = slots[slot]
        return position >= 0 ? Int(position) : nil
    }

    /// The slot after a slot in a probe sequence.
    /// - Parameter slot: The slot.
    /// - Returns: The next slot.
    func slot(after slot: Int) -> Int { (slot + 1) & mask }
}

/// The typed identities of a node's children, position for position, as the node's last run
/// of identified children (``Children/appendIdentified(count:_:)``) listed them.
@MainActor
class AnyIdentityColumn {}

/// The identities of a node's children, of one type.
@MainActor
final class IdentityColumn<ID: Hashable>: AnyIdentityColumn {
    /// The identities, by child position.
    var identities: ContiguousArray<ID> = []
    /// The storage of an older list, kept for the next run to fill.
    var spare: ContiguousArray<ID> = []
}

/// A run of identified children being reconciled: the previous children's identities, when
/// the node's last reconciliation was a run with identities of this type, and the new ones'.
/// The lists are taken out of their column for the run, and put back at its end.
@MainActor
struct IdentityRun<ID: Hashable> {
    /// The column the lists came from and go back to.
    let column: IdentityColumn<ID>
    /// Whether the column is the one the node keeps.
    let isKept: Bool
    /// The previous children's identities, by position, when ``isTyped``.
    var previous: ContiguousArray<ID>
    /// The identities of the children the run listed, in order.
    var next: ContiguousArray<ID>
    /// Whether ``previous`` holds the previous children's identities, position for position;
    /// otherwise they are matched through their stored `AnyHashable`s.
    let isTyped: Bool
    /// Whether the run began the node's child list: only then can its list be the node's.
    let beganList: Bool
}
