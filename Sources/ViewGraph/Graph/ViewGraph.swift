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
/// **Identity.** A child of a ``ForEach`` is the same node, with the same state, for as long
/// as its data identity is in the data, wherever the element moves. Any other child is the
/// same node for as long as a view of the same type is at the same position of its parent's
/// children, as SwiftUI's structural identity is: the two branches of an `if` are different
/// nodes.
///
/// **Evaluation.** The graph evaluates a body only when it has to: when a view is new, when
/// its inputs (its stored properties, compared by RuntimeMetadata's layout equality, without
/// its installed ``State`` and ``Environment`` values) changed, when its ``State`` or a state
/// it reads through a ``Binding`` changed, or when an ``Environment`` value it read changed.
/// ``lastEvaluated`` and each node's ``ViewNode/evaluationCount`` say exactly what ran.
///
/// **Storage.** Nodes are records in contiguous buffers, each view a value in the buffer of
/// its view type, children index ranges, state values in typed slots: a node costs no
/// allocation of its own. Evaluation, removal and rendering keep their own work lists, so a
/// tree nested a hundred thousand levels deep is built and rendered without exhausting the
/// stack; a view nested deeper than ``Configuration/maximumDepth`` (the root is at depth 0) is
/// shown as an ``InvalidView``.
@MainActor
public final class ViewGraph {
    /// The default of ``Configuration/maximumDepth``.
    nonisolated public static let maximumDepth = 250_000

    // MARK: Arena

    /// The nodes, their stores and the reconciliation under way, in one value whose mutating
    /// methods run the hot paths with the compiler's exclusivity checks instead of the
    /// run time's (Arena.swift).
    private var arena: Arena

    // MARK: Evaluation state

    /// Nodes marked by state changes since the last update.
    private var invalidated: [NodeIndex] = []
    /// The nodes whose state a state store changed, shared with the stores: a store holds
    /// this list, not the graph, so that nothing keeps the graph alive and the graph needs no
    /// weak reference (which would make every retain of it take the runtime's slow path).
    let stateWrites = StateWrites()
    /// Whether an evaluation is running: an update asked for from a body is ignored.
    private var isEvaluating = false
    /// The graph's number, from ``lastSerial``: what a ``NodeID`` names its graph by.
    nonisolated let serial: UInt64
    /// The number of the graph made last in the process. Graphs are made on the main actor,
    /// so the count needs no lock; a number is never given twice.
    private static var lastSerial: UInt64 = 0

    /// The environment the root sees.
    let rootEnvironment: EnvironmentValues
    /// The root's position.
    private var rootIndex = NodeIndex.none

    /// The types of the nodes evaluated by the last build or update, in order.
    public var lastEvaluatedTypes: [TypeMetadata] { arena.lastEvaluatedTypes }

    /// The type names of the nodes evaluated by the last build or update, in order.
    public var lastEvaluated: [String] { arena.lastEvaluatedTypes.map(\.name) }

    /// The root node.
    public var root: ViewNode { ViewNode(graph: self, index: rootIndex) }

    /// What a graph is built with.
    public struct Configuration {
        /// The version ``VersionedView``s show.
        public var version: Int
        /// The environment the root sees.
        public var environment: EnvironmentValues
        /// The deepest a tree may nest, the root being at depth 0: a tree exactly this deep is
        /// shown whole, and the first view deeper than this is shown as an ``InvalidView``
        /// (its siblings dropped), so that a view that contains itself without end stops.
        public var maximumDepth: Int

        /// Creates a configuration.
        /// - Parameters:
        ///   - version: The version ``VersionedView``s show.
        ///   - environment: The environment the root sees.
        ///   - maximumDepth: The deepest a tree may nest.
        public init(
            version: Int = 1,
            environment: EnvironmentValues = EnvironmentValues(),
            maximumDepth: Int = ViewGraph.maximumDepth
        ) {
            self.version = version
            self.environment = environment
            self.maximumDepth = maximumDepth
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
    ///   - configuration: The version, environment and depth limit.
    public init<Root: View>(root: Root, configuration: Configuration = Configuration()) {
        Self.lastSerial += 1
        serial = Self.lastSerial
        rootEnvironment = configuration.rootEnvironment
        arena = Arena(maximumDepth: max(0, configuration.maximumDepth))
        var children = Children()
        children.append(root)
        build(children.entries[0])
    }

    /// Builds the graph of a root known only as `Any`.
    /// - Parameters:
    ///   - value: The root; a value that is not a view makes an ``InvalidView`` root.
    ///   - configuration: The version, environment and depth limit.
    public init(any value: Any, configuration: Configuration = Configuration()) {
        Self.lastSerial += 1
        serial = Self.lastSerial
        rootEnvironment = configuration.rootEnvironment
        arena = Arena(maximumDepth: max(0, configuration.maximumDepth))
        var children = Children()
        children.append(any: value)
        build(children.entries[0])
    }

    private func build(_ entry: Children.Entry) {
        func make<V: View>(_ view: V) -> NodeIndex {
            arena.makeNode(
                view,
                identity: entry.identity,
                identityHash: entry.identity?.hashValue ?? 0,
                parent: -1,
                depth: 0,
                environment: rootEnvironment
            )
        }
        let rootType = entry.type
        if let sizes = GraphSizes.lastBuilt[rootType] { reserve(sizes) }
        rootIndex = make(entry.view)
        arena.work.append(rootIndex.index)
        run()
        // Outputs registered after their reader was built mark it; show them now.
        evaluateInvalidated()
        // What the build used, not the capacities reserved: a tree that shrank reserves less
        // the next time. The work list's and widest child list's capacities are their highs.
        GraphSizes.lastBuilt[rootType] = GraphSizes(
            records: arena.records.count,
            childBuffer: arena.childBuffer.count,
            work: arena.work.capacity,
            siblings: arena.reconciliation.next.capacity,
            storeCount: arena.stores.count,
            stores: Dictionary(
                arena.stores.lazy.filter { $0.count > 1 }.map { ($0.viewType, $0.count) },
                uniquingKeysWith: max
            ),
            stateSlots: arena.stateSlots.count,
            stateStores: arena.stateStores.mapValues(\.count)
        )
    }

    /// Reserves the sizes the last graph of the same root type reached.
    private func reserve(_ sizes: GraphSizes) {
        arena.records.reserveCapacity(sizes.records)
        arena.childBuffer.reserveCapacity(sizes.childBuffer)
        arena.work.reserveCapacity(sizes.work)
        arena.lastEvaluatedTypes.reserveCapacity(sizes.records)
        arena.reconciliation.previous.reserveCapacity(sizes.siblings)
        arena.reconciliation.claimed.reserveCapacity(sizes.siblings)
        arena.reconciliation.next.reserveCapacity(sizes.siblings)
        arena.stores.reserveCapacity(sizes.storeCount)
        arena.storeIndex.reserveCapacity(sizes.storeCount)
        arena.storeCapacities = sizes.stores
        arena.stateSlots.reserveCapacity(sizes.stateSlots)
        arena.stateStoreCapacities = sizes.stateStores
    }

    /// Evaluates the views whose state changed since the last update, and below them only what
    /// changed.
    /// - Returns: The type names of the nodes evaluated, as ``lastEvaluated``.
    @discardableResult
    public func update() -> [String] {
        guard !isEvaluating else { return [] }
        arena.lastEvaluatedTypes.removeAll(keepingCapacity: true)
        evaluateInvalidated()
        return lastEvaluated
    }

    /// Evaluates the marked nodes, ancestors first, until no evaluation marks more: a view
    /// output registered during a pass marks its reader, which the next round evaluates.
    private func evaluateInvalidated() {
        for _ in 0..<64 {
            let writes = stateWrites.take()
            if !writes.isEmpty { arena.mark(writes, into: &invalidated) }
            if arena.childrenMoved {
                // Writers whose views moved without their outputs changing: their readers show
                // the outputs in the old tree order until told.
                arena.childrenMoved = false
                checkOutputOrders()
            }
            if invalidated.isEmpty { return }
            // Ancestors first: evaluating one reaches its marked descendants.
            let marked = arena.livingByDepth(invalidated)
            invalidated.removeAll(keepingCapacity: true)
            if marked.isEmpty { return }
            for node in marked where isLive(node) && arena.records[Int(node.index)].needsEvaluation {
                arena.work.append(node.index)
                run()
            }
        }
    }

    /// Marks a node for evaluation at the next update.
    func invalidate(_ node: NodeIndex) {
        guard isLive(node) else { return }
        arena.records[Int(node.index)].needsEvaluation = true
        invalidated.append(node)
    }

    // MARK: Actions

    /// The living node with an identity.
    /// - Parameter id: The node's identity.
    /// - Returns: The node, or `nil` when it was removed or never made.
    public func node(id: NodeID) -> ViewNode? {
        id.graph == serial && isLive(id.index) ? ViewNode(graph: self, index: id.index) : nil
    }

    /// Sends an action to a node, such as a tap from a renderer, and updates the graph.
    ///
    /// The node's view handles it with its state connected: a ``Button``'s action, or a view
    /// modified with ``View/onTapGesture(perform:)`` or ``View/onAction(_:perform:)``. The
    /// state it changes is evaluated by the update that follows, before this returns.
    /// - Parameters:
    ///   - action: The action.
    ///   - id: The node's identity, as ``ViewNode/id`` gives it.
    /// - Returns: The type names of the nodes the update evaluated.
    /// - Throws: ``ViewGraphError/nodeNotFound(_:)`` when no living node has the identity,
    ///   ``ViewGraphError/actionNotHandled(_:typeName:)`` when its view does not handle the action.
    @discardableResult
    public func send(_ action: ViewAction, to id: NodeID) throws(ViewGraphError) -> [String] {
        guard id.graph == serial, isLive(id.index) else { throw .nodeNotFound(id) }
        let view = viewValue(of: id.index)
        let handled = ActionResolution.handler?.withOpened(view, as: (any ActionHandling).self) {
            $0.perform(action)
        }
        guard handled == true else { throw .actionNotHandled(action, typeName: viewType(of: id.index).name) }
        return update()
    }

    /// Whether a node's view handles actions.
    func handlesActions(_ node: NodeIndex) -> Bool {
        guard isLive(node) else { return false }
        return ActionResolution.handler?.conformance(of: viewType(of: node)) != nil
    }

    // MARK: Nodes

    /// Whether a handle names a living node.
    func isLive(_ node: NodeIndex) -> Bool {
        node.index >= 0 && Int(node.index) < arena.records.count && arena.records[Int(node.index)].isLive
            && arena.records[Int(node.index)].generation == node.generation
    }

    /// The record of a living node.
    func record(_ node: NodeIndex) -> NodeRecord { arena.records[Int(node.index)] }

    /// The handle of the node at a position, its generation read where the record is: the
    /// arena's own `handle(_:)`, called through this class, could copy the whole arena.
    private func handle(_ index: Int32) -> NodeIndex {
        NodeIndex(index: index, generation: arena.records[Int(index)].generation)
    }

    /// The environment a living node sees, read without copying its record.
    func environment(of node: NodeIndex) -> EnvironmentValues { arena.records[Int(node.index)].environment }

    /// The children of a node, as handles.
    func children(of node: NodeIndex) -> [NodeIndex] {
        guard isLive(node) else { return [] }
        let record = arena.records[Int(node.index)]
        let start = Int(record.childStart)
        return (start..<start + Int(record.childCount)).map { handle(arena.childBuffer[$0]) }
    }

    /// The parent of a node.
    func parent(of node: NodeIndex) -> NodeIndex? {
        guard isLive(node) else { return nil }
        let parent = arena.records[Int(node.index)].parent
        return parent < 0 ? nil : handle(parent)
    }

    /// The type of a node's view.
    func viewType(of node: NodeIndex) -> TypeMetadata {
        guard isLive(node) else { return TypeMetadata(Void.self) }
        return arena.stores[Int(arena.records[Int(node.index)].store)].viewType
    }

    /// A node's view with its properties installed.
    func viewValue(of node: NodeIndex) -> Any {
        guard isLive(node) else { return () }
        let record = arena.records[Int(node.index)]
        return arena.stores[Int(record.store)].viewValue(record.slot, node: node, graph: self)
    }

    /// What renderers show for a node.
    func renderAttributes(of node: NodeIndex) -> RenderAttributes {
        guard isLive(node) else { return RenderAttributes() }
        let record = arena.records[Int(node.index)]
        return arena.stores[Int(record.store)].renderAttributes(record.slot)
    }

    /// The nodes of a subtree, depth first, parents before children.
    func subtree(of node: NodeIndex) -> [NodeIndex] {
        guard isLive(node) else { return [] }
        var result: [NodeIndex] = []
        var stack = [node.index]
        while let index = stack.popLast() {
            result.append(handle(index))
            let record = arena.records[Int(index)]
            let start = Int(record.childStart)
            for position in (start..<start + Int(record.childCount)).reversed() {
                stack.append(arena.childBuffer[position])
            }
        }
        return result
    }

    /// Every node, depth first.
    public var allNodes: [ViewNode] { subtree(of: rootIndex).map { ViewNode(graph: self, index: $0) } }

    /// The number of living nodes.
    public var nodeCount: Int { arena.records.count - arena.freeRecords.count }

    // MARK: Evaluation

    /// Runs the work list: evaluates marked nodes, and hands changed environments down to the
    /// children of unmarked ones.
    private func run() {
        isEvaluating = true
        defer { isEvaluating = false }
        // Each node evaluated: its body or children, each reconciled with the previous ones as
        // it is listed. The arena hands environments down to unmarked nodes on the way.
        while let (store, slot, node, environment) = arena.beginNextEvaluation() {
            var children = Children(graph: self, node: node, environment: environment)
            store.evaluate(slot, children: &children)
            if arena.finishReconciliation() {
                for child in arena.unclaimed { remove(child) }
                arena.compactChildBufferIfSparse()
            }
        }
    }

    /// Reconciles one child of the node being evaluated with its previous children.
    func reconcileChild<V: View>(_ view: consuming V, identity: AnyHashable?, branch: UInt8) {
        arena.reconcileChild(view, identity: identity, branch: branch)
    }

    /// Reconciles a run of children of one type, each with its identity, finding their store
    /// once. The children are made one at a time, outside the arena: making one runs the
    /// caller's code, which may read the environment through the graph.
    /// - Parameters:
    ///   - count: The number of children.
    ///   - child: Makes the child at an offset, with its identity.
    func reconcileChildren<V: View, ID: Hashable>(count: Int, _ child: (Int) -> (view: V, identity: ID)) {
        let store = arena.store(for: V.self)
        var run = arena.beginIdentifiedRun(of: ID.self)
        for offset in 0..<count {
            let (view, identity) = child(offset)
            arena.reconcileChild(view, identity: identity, in: store, run: &run)
        }
        arena.finishIdentifiedRun(run)
    }

    /// Removes a node and its descendants, freeing their views, state and positions.
    private func remove(_ index: Int32) {
        var stack = [index]
        while let current = stack.popLast() {
            let record = arena.records[Int(current)]
            let store = arena.stores[Int(record.store)]
            let start = Int(record.childStart)
            stack.append(contentsOf: arena.childBuffer[start..<start + Int(record.childCount)])
            arena.childGarbage += Int(record.childCapacity)
            for property in store.propertyPositions {
                if let state = arena.stateSlots.removeValue(forKey: Arena.StateKey(node: current, property: property)) {
                    state.store.free(state.slot)
                }
            }
            if record.hasEnvironmentReads { arena.environmentReads[current] = nil }
            if record.hasIdentityColumn { arena.identityColumns[current] = nil }
            if let collectors = writerCollectors.removeValue(forKey: current) {
                let writer = NodeIndex(index: current, generation: record.generation)
                for collector in collectors { collector.writerRemoved(writer) }
            }
            if let moved = store.free(record.slot) { arena.records[Int(moved)].slot = record.slot }
            arena.records[Int(current)].isLive = false
            arena.records[Int(current)].generation &+= 1
            arena.records[Int(current)].identity = nil
            arena.records[Int(current)].hasIdentity = false
            arena.records[Int(current)].environment = EnvironmentValues()
            arena.records[Int(current)].childCount = 0
            arena.records[Int(current)].childCapacity = 0
            arena.freeRecords.append(current)
        }
    }

    // MARK: State and environment

    /// The state slot of a node's property, made with its initial value on first use.
    func stateLocation<Value>(node: NodeIndex, slot: Int, initial: Value) -> StateLocation<Value>? {
        arena.stateLocation(node: node, slot: slot, initial: initial, writes: stateWrites)
    }

    /// Records an environment value a node read, so that a change of it evaluates the node.
    func recordEnvironmentRead<Value>(
        _ keyPath: KeyPath<EnvironmentValues, Value>,
        value: Value,
        node: NodeIndex,
        inChildEnvironment: Bool = false
    ) {
        guard isLive(node) else { return }
        arena.records[Int(node.index)].hasEnvironmentReads = true
        arena.environmentReads[node.index, default: []].append(
            TypedEnvironmentRead(keyPath: keyPath, value: value, inChildEnvironment: inChildEnvironment)
        )
    }

    // MARK: Outputs

    /// The collectors of output keys that have no reader above their writer, by the key's type
    /// (a type's identity lives as long as the process). A reader's collector is its own.
    private var keyCollectors: [ObjectIdentifier: OutputCollector] = [:]

    /// The collector of a key without a reader, made on first use.
    /// - Parameter key: The key type's identity.
    /// - Returns: The collector.
    func collector(forKey key: ObjectIdentifier) -> OutputCollector {
        if let existing = keyCollectors[key] { return existing }
        let collector = OutputCollector(graph: self)
        keyCollectors[key] = collector
        return collector
    }

    /// The collectors each output writer registered with, to tell them when it goes away.
    private var writerCollectors: [Int32: [OutputCollector]] = [:]

    /// Remembers that a writer registered with a collector.
    func watchWriter(_ writer: NodeIndex, collector: OutputCollector) {
        guard isLive(writer) else { return }
        if writerCollectors[writer.index]?.contains(where: { $0 === collector }) == true { return }
        writerCollectors[writer.index, default: []].append(collector)
    }

    /// Tells every collector with writers to check the tree order of its writers, after
    /// children moved: a collector whose order changed marks its readers.
    private func checkOutputOrders() {
        var seen = Set<ObjectIdentifier>()
        for collectors in writerCollectors.values {
            for collector in collectors where seen.insert(ObjectIdentifier(collector)).inserted {
                collector.checkOrder()
            }
        }
    }

    /// The position of a node in a depth-first walk, as the path of child positions from the
    /// root: outputs are reduced in this order.
    func treeOrder(of node: NodeIndex) -> [Int32] {
        var path: [Int32] = []
        var current = node.index
        while current >= 0, arena.records[Int(current)].isLive {
            let parent = arena.records[Int(current)].parent
            guard parent >= 0 else { break }
            let record = arena.records[Int(parent)]
            let start = Int(record.childStart)
            let position = (start..<start + Int(record.childCount)).first { arena.childBuffer[$0] == current }
            path.append(Int32((position ?? start) - start))
            current = parent
        }
        return path.reversed()
    }
}

/// An environment value a node read.
protocol EnvironmentRead {
    /// Whether the value is read from the environment the node's children see.
    var inChildEnvironment: Bool { get }
    /// Whether the value is the same in an environment.
    @MainActor func isUnchanged(in environment: EnvironmentValues) -> Bool
}

private struct TypedEnvironmentRead<Value>: EnvironmentRead {
    let keyPath: KeyPath<EnvironmentValues, Value>
    let value: Value
    let inChildEnvironment: Bool

    func isUnchanged(in environment: EnvironmentValues) -> Bool {
        // Compared typed, by RuntimeMetadata's layout equality.
        TypeMetadata.layoutEquals(environment[keyPath: keyPath], value)
    }
}

/// Opening views as action handlers.
@MainActor
enum ActionResolution {
    static let handler = try? ProtocolDescriptor((any ActionHandling).self)
}

/// The sizes a graph reached when it was built, kept per root view type: a graph built again
/// from a root of the same type (a screen shown again) reserves them at once, so that its
/// build allocates the same few buffers whatever its node count, and moves none of them.
struct GraphSizes {
    /// The number of node records and child positions; the most nodes the work list held,
    /// and the most children a node listed.
    var records: Int
    var childBuffer: Int
    var work: Int
    var siblings: Int
    /// The number of stores, one per view type.
    var storeCount: Int
    /// The number of views of each view type that had more than one: a store of one view
    /// reserves nothing that its first view's insertion would not allocate.
    var stores: [TypeMetadata: Int]
    /// The number of state slots, and of values in each state store, by value type.
    var stateSlots: Int
    var stateStores: [ObjectIdentifier: Int]

    /// The sizes of the last graph built from each root type: one entry per root type the
    /// process builds graphs of.
    @MainActor static var lastBuilt: [TypeMetadata: GraphSizes] = [:]
}
