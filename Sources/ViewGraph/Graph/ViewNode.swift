// ViewNode.swift

public import RuntimeMetadata

/// A node of the resolved view tree, as a handle into its graph's arena: one view, held in
/// the typed storage of its view type, with its children, environment and state.
///
/// A handle stays valid, and names the same node, for as long as the node lives: across
/// updates, and across moves of a ``ForEach`` element. Once the node is removed, the handle
/// reports no children, an empty value and ``isAlive`` `false`; a later node at the same
/// position of the arena is a different node.
@MainActor
public struct ViewNode: Hashable, Identifiable {
    /// The graph that owns the node.
    nonisolated public let graph: ViewGraph
    nonisolated let index: NodeIndex

    init(graph: ViewGraph, index: NodeIndex) {
        self.graph = graph
        self.index = index
    }

    /// The node's identity, stable for the node's life and unique in its graph.
    nonisolated public var id: NodeID { NodeID(graph: graph.serial, index: index) }

    /// Whether the node is still in its graph.
    public var isAlive: Bool { graph.isLive(index) }

    /// The children, in order.
    public var children: [ViewNode] { graph.children(of: index).map { ViewNode(graph: graph, index: $0) } }

    /// The parent; `nil` for the root and for a removed node.
    public var parent: ViewNode? { graph.parent(of: index).map { ViewNode(graph: graph, index: $0) } }

    /// The type of the node's view.
    public var viewType: TypeMetadata { graph.viewType(of: index) }

    /// The node's view, as `Any`, with its ``State`` and ``Environment`` properties connected to
    /// the node: setting a state property of it changes the node's state.
    public var viewValue: Any { graph.viewValue(of: index) }

    /// The identity the node's data gave it (``ForEach``), if any.
    public var dataIdentity: AnyHashable? { isAlive ? graph.record(index).identity : nil }

    /// What renderers show for the node itself.
    public var renderAttributes: RenderAttributes { graph.renderAttributes(of: index) }

    /// The environment the node's view sees.
    public var environment: EnvironmentValues { isAlive ? graph.record(index).environment : EnvironmentValues() }

    /// How many times the view's body (or a primitive's child list) was evaluated.
    public var evaluationCount: Int { isAlive ? Int(graph.record(index).evaluationCount) : 0 }

    /// Whether the node's view handles actions sent with ``ViewGraph/send(_:to:)``: a
    /// ``Button``, or a view with an action modifier.
    public var handlesActions: Bool { graph.handlesActions(index) }

    /// The number of ancestors.
    public var depth: Int { isAlive ? Int(graph.record(index).depth) : 0 }

    /// The node and its descendants, depth first, parents before children.
    public var subtree: [ViewNode] { graph.subtree(of: index).map { ViewNode(graph: graph, index: $0) } }

    /// Whether two handles name the same node of the same graph.
    nonisolated public static func == (lhs: ViewNode, rhs: ViewNode) -> Bool {
        lhs.graph === rhs.graph && lhs.index == rhs.index
    }

    /// Hashes the graph and the node's position and generation.
    nonisolated public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(graph))
        hasher.combine(index)
    }
}

/// The identity of a node in its graph: stable for the node's life, never reused by a later
/// node.
public struct NodeID: Hashable, Sendable, CustomStringConvertible {
    /// The serial number of the graph the node belongs to (``ViewGraph`` numbers its graphs
    /// from a process-wide counter, never reusing one, as an object's address would be after
    /// it is freed): an identity from another graph, live or released, names no node here.
    let graph: UInt64
    let index: NodeIndex

    /// The identity as text, such as `12.0`: the node's position and generation.
    public var description: String { "\(index.index).\(index.generation)" }
}
