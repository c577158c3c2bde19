// ViewNode.swift

public import RuntimeMetadata

/// A node of the resolved view tree: one view, held in typed storage by its subclass
/// `Node<V>`, with its children, environment and state.
@MainActor
public class ViewNode {
    /// The graph that owns the node.
    unowned let graph: ViewGraph
    /// The number of ancestors: updates evaluate marked nodes ancestors first.
    let depth: Int
    /// The node's identity in its graph.
    let id: Int
    /// The children, in order.
    public internal(set) var children: [ViewNode] = []
    /// The identity the node's view got from its data (``ForEach``), if any.
    var identity: AnyHashable?
    /// The environment the node's view sees.
    public internal(set) var environment: EnvironmentValues
    /// The environment values the view read, to compare when the environment changes.
    private var environmentReads: [(EnvironmentValues) -> Bool] = []
    /// The state locations of the view's ``State`` properties, by property position.
    private var stateLocations: [Int: any AnyStateLocation] = [:]
    /// How many times the view's body (or a primitive's child list) was evaluated.
    public internal(set) var evaluationCount = 0

    init(graph: ViewGraph, parent: ViewNode?, environment: EnvironmentValues) {
        self.graph = graph
        self.depth = parent.map { $0.depth + 1 } ?? 0
        self.id = graph.nextNodeID()
        self.environment = environment
    }

    /// The type of the node's view.
    public var viewType: TypeMetadata { fatalError("overridden by Node") }

    /// The node's view, as `Any`.
    public var viewValue: Any { fatalError("overridden by Node") }

    /// What renderers show for the node itself.
    public var renderAttributes: RenderAttributes { RenderAttributes() }

    /// The environment the children see.
    var childEnvironment: EnvironmentValues { environment }

    /// Evaluates the view's body or child list and reconciles the children.
    func evaluate() {}

    /// Gives the node a new environment, and says whether the view read a value that changed.
    /// Children see the change through their own check.
    /// - Parameter newEnvironment: The parent's environment for its children.
    /// - Returns: Whether the node must be evaluated again.
    func receiveEnvironment(_ newEnvironment: EnvironmentValues) -> Bool {
        environment = newEnvironment
        return environmentReads.contains { isUnchanged in !isUnchanged(newEnvironment) }
    }

    /// Records an environment value the view read.
    func recordEnvironmentRead<Value>(_ keyPath: KeyPath<EnvironmentValues, Value>, value: Value) {
        // Compared typed, by RuntimeMetadata's layout equality, when the environment changes.
        environmentReads.append { environment in TypeMetadata.layoutEquals(environment[keyPath: keyPath], value) }
    }

    /// Forgets the reads of the last evaluation, before properties are installed again.
    func clearEnvironmentReads() {
        environmentReads.removeAll(keepingCapacity: true)
    }

    /// The state location of a property, made on first use.
    func stateLocation<Location: AnyStateLocation>(
        slot: Int,
        make: (Invalidation, Int) -> Location
    ) -> Location {
        if let existing = stateLocations[slot] as? Location { return existing }
        graph.register(self)
        let location = make(graph.invalidation, id)
        stateLocations[slot] = location
        return location
    }

    /// Whether the view changed, or its state or environment did, since its last evaluation.
    var needsEvaluation = true

    func evaluateAndClear() {
        needsEvaluation = false
        evaluate()
    }

    /// Hands an unchanged node's environment down to its children, which evaluate again only
    /// when a value they read changed.
    func propagateEnvironment() {
        let environmentForChildren = childEnvironment
        for child in children { child.refresh(in: environmentForChildren) }
    }

    /// Gives the node its parent's environment for its children, then evaluates it when it is
    /// marked or read a value that changed, or hands the environment down otherwise.
    /// - Parameter newEnvironment: The parent's environment for its children.
    func refresh(in newEnvironment: EnvironmentValues) {
        if receiveEnvironment(newEnvironment) { needsEvaluation = true }
        if needsEvaluation { evaluateAndClear() } else { propagateEnvironment() }
    }

    /// The node and its descendants, depth first.
    public var subtree: [ViewNode] {
        [self] + children.flatMap(\.subtree)
    }
}
