// NodeRecord.swift
//
// The graph's arena: a node is a record in one contiguous buffer, its view a value in the
// typed store of its view type (ViewStore.swift), its children a range of another buffer.
// Nothing is allocated per node; a node's index stays the same for its whole life, and its
// generation tells a handle to a removed node from one to the node that reused the index.

/// The position of a node in its graph's arena, with the generation that tells it apart from
/// later nodes at the same position.
struct NodeIndex: Hashable, Sendable {
    /// The record's position.
    var index: Int32
    /// The record's generation when the node was made.
    var generation: UInt32

    /// No node: the parent of the root.
    static let none = NodeIndex(index: -1, generation: 0)
}

/// One node of the arena.
struct NodeRecord {
    /// The store of the node's view type, by its position in the graph's store list.
    var store: Int32
    /// The view's slot in its store.
    var slot: Int32
    /// The parent's position, or -1 for the root.
    var parent: Int32
    /// The number of ancestors.
    var depth: Int32
    /// The children: `count` positions of the graph's child buffer, from `start`.
    var childStart: Int32 = 0
    var childCount: Int32 = 0
    /// The room the child range has before it must move.
    var childCapacity: Int32 = 0
    /// Bumped when the node is removed, so that old handles no longer name the position.
    var generation: UInt32 = 0
    /// Whether a node lives at this position.
    var isLive = true
    /// Whether the view must be evaluated: it is new, its value changed by layout equality,
    /// its state changed, or an environment value it read changed.
    var needsEvaluation = true
    /// Whether the environment changed since the node's children last received it.
    var environmentChanged = false
    /// Whether the node recorded environment reads in its last evaluation.
    var hasEnvironmentReads = false
    /// Whether the arena keeps the typed identities of the node's children (an
    /// ``IdentityColumn``).
    var hasIdentityColumn = false
    /// How many times the view was evaluated.
    var evaluationCount: Int32 = 0
    /// The identity the data gave the view (``ForEach``), if any.
    var identity: AnyHashable?
    /// The identity's hash, computed once when the node is made.
    var identityHash = 0
    /// Whether the node has an identity: read without copying it.
    var hasIdentity = false
    /// The branch of a conditional the view is in: part of its structural identity, so that
    /// the two branches of an `if` are different nodes even when their types are the same.
    var branch: UInt8 = 0
    /// The environment the view sees.
    var environment: EnvironmentValues
}
