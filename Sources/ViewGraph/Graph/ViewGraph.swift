// ViewGraph.swift

public import RuntimeMetadata

/// The resolved tree of a root view, kept up to date as state and environment change.
///
/// ```swift
/// let graph = ViewGraph(root: Greeting(name: "Ada"))
/// print(TextRenderer().render(graph))
/// ```
///
/// A root (or any child) given as `Any` resolves to the same typed nodes a statically typed
/// view makes: the value's type is opened through RuntimeMetadata's conformance cache, never
/// through `AnyView` or `as? any View`. A value that is not a view becomes an ``InvalidView``
/// node naming its type.
///
/// The graph evaluates a body only when it has to: when a view's value changed by
/// RuntimeMetadata's layout equality, when its ``State`` changed, or when an ``Environment``
/// value it read changed. ``lastEvaluated`` and each node's ``ViewNode/evaluationCount`` say
/// exactly what ran.
@MainActor
public final class ViewGraph {
    /// The deepest a tree may nest; a node at this depth shows an ``InvalidView`` instead of
    /// its body, so that a view that contains itself without end does not exhaust the stack.
    public static let maximumDepth = 256

    /// The root node.
    public private(set) var root: ViewNode!
    /// The environment the root sees.
    let rootEnvironment: EnvironmentValues
    /// The nodes whose state changed, marked from any thread.
    let invalidation = Invalidation()
    /// The nodes an invalidation can name (those with state, and output readers), by
    /// identity, held weakly: a replaced subtree goes away.
    private var nodes: [Int: WeakNode] = [:]
    private var lastNodeID = 0
    /// The types of the nodes evaluated by the last build or update, in order.
    public private(set) var lastEvaluatedTypes: [TypeMetadata] = []

    /// The type names of the nodes evaluated by the last build or update, in order.
    public var lastEvaluated: [String] { lastEvaluatedTypes.map(\.name) }

    /// What a graph is built with.
    public struct Configuration {
        /// The version ``VersionedView``s show.
        public var version: Int
        /// The environment the root sees.
        public var environment: EnvironmentValues

        /// Creates a configuration.
        /// - Parameters:
        ///   - version: The version ``VersionedView``s show.
        ///   - environment: The environment the root sees.
        public init(version: Int = 1, environment: EnvironmentValues = EnvironmentValues()) {
            self.version = version
            self.environment = environment
        }

        var rootEnvironment: EnvironmentValues {
            var environment = self.environment
            environment.graphVersion = version
            return environment
        }
    }

    /// Builds the graph of a statically typed root view.
    /// - Parameters:
    ///   - root: The root view.
    ///   - configuration: The version and environment.
    public init<Root: View>(root: Root, configuration: Configuration = Configuration()) {
        rootEnvironment = configuration.rootEnvironment
        var children = Children(node: nil)
        children.append(root)
        build(children.entries[0])
    }

    /// Builds the graph of a root known only as `Any`.
    /// - Parameters:
    ///   - value: The root; a value that is not a view makes an ``InvalidView`` root.
    ///   - configuration: The version and environment.
    public init(any value: Any, configuration: Configuration = Configuration()) {
        rootEnvironment = configuration.rootEnvironment
        var children = Children(node: nil)
        children.append(any: value)
        build(children.entries[0])
    }

    private func build(_ entry: Children.Entry) {
        lastEvaluatedTypes = []
        root = entry.makeNode(self, nil, rootEnvironment)
        root.evaluateAndClear()
        // Outputs registered after their reader was built mark it; show them now.
        evaluateInvalidated()
    }

    /// Evaluates the views whose state changed since the last update, and below them only what
    /// changed.
    /// - Returns: The type names of the nodes evaluated, as ``lastEvaluated``.
    @discardableResult
    public func update() -> [String] {
        lastEvaluatedTypes = []
        evaluateInvalidated()
        return lastEvaluated
    }

    /// Evaluates the marked nodes, ancestors first, until no evaluation marks more: a view
    /// output registered during a pass marks its reader, which the next round evaluates.
    private func evaluateInvalidated() {
        for _ in 0..<64 {
            let changed = invalidation.take().compactMap { nodes[$0]?.node }
            if changed.isEmpty { return }
            for node in changed { node.needsEvaluation = true }
            // Ancestors first: evaluating one reaches its marked descendants.
            for node in changed.sorted(by: { $0.depth < $1.depth }) where node.needsEvaluation {
                node.evaluateAndClear()
            }
        }
    }

    /// Output collectors: per reader (keyed by its reference) and per key for aliases.
    private var collectors: [ObjectIdentifier: OutputCollector] = [:]

    /// The collector with an identity, made on first use.
    func collector(for identity: ObjectIdentifier) -> OutputCollector {
        if let existing = collectors[identity] { return existing }
        let collector = OutputCollector()
        collectors[identity] = collector
        return collector
    }

    func nextNodeID() -> Int {
        lastNodeID += 1
        return lastNodeID
    }

    /// Lets invalidations name a node.
    func register(_ node: ViewNode) {
        if nodes[node.id]?.node == nil { nodes[node.id] = WeakNode(node: node) }
    }

    func recordEvaluation(of node: ViewNode) {
        lastEvaluatedTypes.append(node.viewType)
    }

    /// Every node, depth first.
    public var allNodes: [ViewNode] { root.subtree }

    private struct WeakNode {
        weak var node: ViewNode?
    }
}
