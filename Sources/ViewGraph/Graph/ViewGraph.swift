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

    /// The nodes, by position.
    private var records: ContiguousArray<NodeRecord> = []
    /// Positions of removed nodes, for reuse.
    private var freeRecords: [Int32] = []
    /// The children of every node, as ranges of positions.
    private var childBuffer: ContiguousArray<Int32> = []
    /// The positions of the child buffer no range uses any more.
    private var childGarbage = 0
    /// The typed view stores, by position, and by view type.
    private var stores: [AnyViewStore] = []
    private var storeIndex: [ObjectIdentifier: Int32] = [:]
    /// The capacity of each store of the last graph of the same root type, reserved as each
    /// store is made.
    private var storeCapacities: [TypeMetadata: Int] = [:]
    /// The capacity of each state store of the last graph of the same root type, by value type.
    private var stateStoreCapacities: [ObjectIdentifier: Int] = [:]
    /// The typed state stores, by value type, and the state slot of each node's property.
    private var stateStores: [ObjectIdentifier: AnyStateStore] = [:]
    private var stateSlots: [StateKey: (store: AnyStateStore, slot: Int32)] = [:]
    /// The environment values each node read in its last evaluation.
    private var environmentReads: [Int32: [any EnvironmentRead]] = [:]

    private struct StateKey: Hashable {
        var node: Int32
        var property: Int
    }

    // MARK: Evaluation state

    /// Nodes to evaluate or hand the environment down to, last first.
    private var work: [Int32] = []
    /// Nodes marked by state changes since the last update.
    private var invalidated: [NodeIndex] = []
    /// The nodes whose state a state store changed, shared with the stores: a store holds
    /// this list, not the graph, so that nothing keeps the graph alive and the graph needs no
    /// weak reference (which would make every retain of it take the runtime's slow path).
    let stateWrites = StateWrites()
    /// Whether an evaluation is running: an update asked for from a body is ignored.
    private var isEvaluating = false
    /// The reconciliation of the node being evaluated.
    private var reconciliation = Reconciliation()

    private struct Reconciliation {
        var parent: Int32 = -1
        var depth: Int32 = 0
        var environment = EnvironmentValues()
        var previous: [Int32] = []
        var claimed: [Bool] = []
        /// The previous children with an identity, by its hash; built on the first identified
        /// child that is not where the last one suggests.
        var keyed = IdentityIndex()
        var isKeyed = false
        var next: [Int32] = []
        /// The previous position of the last child reused, to notice a move.
        var lastReused = -1
        /// Whether a reused child came before one that preceded it: the children moved.
        var moved = false
    }

    /// Whether some node's children moved since the output orders were last checked.
    private var childrenMoved = false

    /// The graph's number, from ``lastSerial``: what a ``NodeID`` names its graph by.
    nonisolated let serial: UInt64
    /// The number of the graph made last in the process. Graphs are made on the main actor,
    /// so the count needs no lock; a number is never given twice.
    private static var lastSerial: UInt64 = 0

    /// The deepest a tree may nest.
    let maximumDepthAllowed: Int
    /// The environment the root sees.
    let rootEnvironment: EnvironmentValues
    /// The root's position.
    private var rootIndex = NodeIndex.none

    /// The types of the nodes evaluated by the last build or update, in order.
    public private(set) var lastEvaluatedTypes: [TypeMetadata] = []

    /// The type names of the nodes evaluated by the last build or update, in order.
    public var lastEvaluated: [String] { lastEvaluatedTypes.map(\.name) }

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
        maximumDepthAllowed = max(0, configuration.maximumDepth)
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
        maximumDepthAllowed = max(0, configuration.maximumDepth)
        var children = Children()
        children.append(any: value)
        build(children.entries[0])
    }

    private func build(_ entry: Children.Entry) {
        func make<V: View>(_ view: V) -> NodeIndex {
            makeNode(view, identity: entry.identity, parent: -1, depth: 0, environment: rootEnvironment)
        }
        let rootType = entry.type
        if let sizes = GraphSizes.lastBuilt[rootType] { reserve(sizes) }
        rootIndex = make(entry.view)
        work.append(rootIndex.index)
        run()
        // Outputs registered after their reader was built mark it; show them now.
        evaluateInvalidated()
        // What the build used, not the capacities reserved: a tree that shrank reserves less
        // the next time. The work list's and widest child list's capacities are their highs.
        GraphSizes.lastBuilt[rootType] = GraphSizes(
            records: records.count,
            childBuffer: childBuffer.count,
            work: work.capacity,
            siblings: reconciliation.next.capacity,
            stores: Dictionary(stores.map { ($0.viewType, $0.count) }, uniquingKeysWith: max),
            stateSlots: stateSlots.count,
            stateStores: stateStores.mapValues(\.count)
        )
    }

    /// Reserves the sizes the last graph of the same root type reached.
    private func reserve(_ sizes: GraphSizes) {
        records.reserveCapacity(sizes.records)
        childBuffer.reserveCapacity(sizes.childBuffer)
        work.reserveCapacity(sizes.work)
        lastEvaluatedTypes.reserveCapacity(sizes.records)
        reconciliation.previous.reserveCapacity(sizes.siblings)
        reconciliation.claimed.reserveCapacity(sizes.siblings)
        reconciliation.next.reserveCapacity(sizes.siblings)
        storeCapacities = sizes.stores
        stateSlots.reserveCapacity(sizes.stateSlots)
        stateStoreCapacities = sizes.stateStores
    }

    /// Evaluates the views whose state changed since the last update, and below them only what
    /// changed.
    /// - Returns: The type names of the nodes evaluated, as ``lastEvaluated``.
    @discardableResult
    public func update() -> [String] {
        guard !isEvaluating else { return [] }
        lastEvaluatedTypes = []
        evaluateInvalidated()
        return lastEvaluated
    }

    /// Evaluates the marked nodes, ancestors first, until no evaluation marks more: a view
    /// output registered during a pass marks its reader, which the next round evaluates.
    private func evaluateInvalidated() {
        for _ in 0..<64 {
            for node in stateWrites.take() { invalidate(node) }
            if childrenMoved {
                // Writers whose views moved without their outputs changing: their readers show
                // the outputs in the old tree order until told.
                childrenMoved = false
                checkOutputOrders()
            }
            let marked = invalidated.filter(isLive)
            invalidated = []
            if marked.isEmpty { return }
            // Ancestors first: evaluating one reaches its marked descendants.
            for node in marked.sorted(by: { records[Int($0.index)].depth < records[Int($1.index)].depth })
            where isLive(node) && records[Int(node.index)].needsEvaluation {
                work.append(node.index)
                run()
            }
        }
    }

    /// Marks a node for evaluation at the next update.
    func invalidate(_ node: NodeIndex) {
        guard isLive(node) else { return }
        records[Int(node.index)].needsEvaluation = true
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
        node.index >= 0 && Int(node.index) < records.count && records[Int(node.index)].isLive
            && records[Int(node.index)].generation == node.generation
    }

    /// The record of a living node.
    func record(_ node: NodeIndex) -> NodeRecord { records[Int(node.index)] }

    /// The handle of the node at a position.
    private func handle(_ index: Int32) -> NodeIndex {
        NodeIndex(index: index, generation: records[Int(index)].generation)
    }

    /// The children of a node, as handles.
    func children(of node: NodeIndex) -> [NodeIndex] {
        guard isLive(node) else { return [] }
        let record = records[Int(node.index)]
        let start = Int(record.childStart)
        return (start..<start + Int(record.childCount)).map { handle(childBuffer[$0]) }
    }

    /// The parent of a node.
    func parent(of node: NodeIndex) -> NodeIndex? {
        guard isLive(node) else { return nil }
        let parent = records[Int(node.index)].parent
        return parent < 0 ? nil : handle(parent)
    }

    /// The type of a node's view.
    func viewType(of node: NodeIndex) -> TypeMetadata {
        guard isLive(node) else { return TypeMetadata(Void.self) }
        return stores[Int(records[Int(node.index)].store)].viewType
    }

    /// A node's view with its properties installed.
    func viewValue(of node: NodeIndex) -> Any {
        guard isLive(node) else { return () }
        let record = records[Int(node.index)]
        return stores[Int(record.store)].viewValue(record.slot, node: node, graph: self)
    }

    /// What renderers show for a node.
    func renderAttributes(of node: NodeIndex) -> RenderAttributes {
        guard isLive(node) else { return RenderAttributes() }
        let record = records[Int(node.index)]
        return stores[Int(record.store)].renderAttributes(record.slot)
    }

    /// The nodes of a subtree, depth first, parents before children.
    func subtree(of node: NodeIndex) -> [NodeIndex] {
        guard isLive(node) else { return [] }
        var result: [NodeIndex] = []
        var stack = [node.index]
        while let index = stack.popLast() {
            result.append(handle(index))
            let record = records[Int(index)]
            let start = Int(record.childStart)
            for position in (start..<start + Int(record.childCount)).reversed() {
                stack.append(childBuffer[position])
            }
        }
        return result
    }

    /// Every node, depth first.
    public var allNodes: [ViewNode] { subtree(of: rootIndex).map { ViewNode(graph: self, index: $0) } }

    /// The number of living nodes.
    public var nodeCount: Int { records.count - freeRecords.count }

    /// The store of a view type, made on first use.
    private func store<V: View>(for type: V.Type) -> ViewStore<V> {
        if let index = storeIndex[ObjectIdentifier(V.self)], let store = stores[Int(index)] as? ViewStore<V> {
            return store
        }
        let store = ViewStore<V>.make(id: Int32(stores.count))
        if !storeCapacities.isEmpty, let capacity = storeCapacities[store.viewType] { store.reserve(capacity) }
        storeIndex[ObjectIdentifier(V.self)] = store.id
        stores.append(store)
        return store
    }

    private func makeNode<V: View>(
        _ view: consuming V,
        identity: AnyHashable?,
        parent: Int32,
        depth: Int32,
        environment: EnvironmentValues
    ) -> NodeIndex {
        let store = store(for: V.self)
        let index = freeRecords.popLast() ?? Int32(records.count)
        let slot = store.insert(consume view, owner: index)
        var record = NodeRecord(store: store.id, slot: slot, parent: parent, depth: depth, environment: environment)
        record.identity = identity
        record.hasIdentity = identity != nil
        if Int(index) < records.count {
            record.generation = records[Int(index)].generation
            records[Int(index)] = record
        } else {
            records.append(record)
        }
        return NodeIndex(index: index, generation: record.generation)
    }

    // MARK: Evaluation

    /// Runs the work list: evaluates marked nodes, and hands changed environments down to the
    /// children of unmarked ones.
    private func run() {
        isEvaluating = true
        defer { isEvaluating = false }
        while let index = work.popLast() {
            guard records[Int(index)].isLive else { continue }
            if records[Int(index)].needsEvaluation {
                evaluate(index)
            } else if records[Int(index)].environmentChanged {
                propagateEnvironment(index)
            }
        }
    }

    private func evaluate(_ index: Int32) {
        records[Int(index)].needsEvaluation = false
        records[Int(index)].environmentChanged = false
        records[Int(index)].evaluationCount += 1
        if records[Int(index)].hasEnvironmentReads {
            environmentReads[index] = nil
            records[Int(index)].hasEnvironmentReads = false
        }
        let store = stores[Int(records[Int(index)].store)]
        let slot = records[Int(index)].slot
        lastEvaluatedTypes.append(store.viewType)
        let environment = store.childEnvironment(slot, records[Int(index)].environment)
        beginReconciliation(of: index, environment: environment)
        var children = Children(graph: self, node: handle(index), environment: environment)
        store.evaluate(slot, children: &children)
        finishReconciliation()
    }

    /// Hands an unmarked node's new environment down to its children.
    private func propagateEnvironment(_ index: Int32) {
        records[Int(index)].environmentChanged = false
        let record = records[Int(index)]
        let environment = stores[Int(record.store)].childEnvironment(record.slot, record.environment)
        let start = Int(record.childStart)
        for position in (start..<start + Int(record.childCount)).reversed() {
            let child = childBuffer[position]
            give(environment, to: child)
            if records[Int(child)].needsEvaluation || records[Int(child)].environmentChanged {
                work.append(child)
            }
        }
    }

    /// Gives a reused child its parent's environment, and marks it when a value it read changed.
    private func give(_ environment: EnvironmentValues, to child: Int32) {
        if TypeMetadata.layoutEquals(records[Int(child)].environment, environment) { return }
        records[Int(child)].environment = environment
        records[Int(child)].environmentChanged = true
        guard records[Int(child)].hasEnvironmentReads, let reads = environmentReads[child] else { return }
        let record = records[Int(child)]
        let childEnvironment = stores[Int(record.store)].childEnvironment(record.slot, environment)
        if reads.contains(where: { !$0.isUnchanged(in: $0.inChildEnvironment ? childEnvironment : environment) }) {
            records[Int(child)].needsEvaluation = true
        }
    }

    private func beginReconciliation(of index: Int32, environment: EnvironmentValues) {
        reconciliation.parent = index
        reconciliation.depth = records[Int(index)].depth + 1
        reconciliation.environment = environment
        reconciliation.previous.removeAll(keepingCapacity: true)
        let start = Int(records[Int(index)].childStart)
        reconciliation.previous.append(contentsOf: childBuffer[start..<start + Int(records[Int(index)].childCount)])
        reconciliation.claimed.removeAll(keepingCapacity: true)
        reconciliation.claimed.append(contentsOf: repeatElement(false, count: reconciliation.previous.count))
        reconciliation.next.removeAll(keepingCapacity: true)
        reconciliation.lastReused = -1
        reconciliation.moved = false
    }

    /// Reconciles one child of the node being evaluated with its previous children.
    func reconcileChild<V: View>(_ view: consuming V, identity: AnyHashable?, branch: UInt8) {
        if Int(reconciliation.depth) > maximumDepthAllowed, V.self != InvalidView.self {
            // A child deeper than the limit (a view whose body contains itself without end):
            // the first is shown as an error node, which has no children, the rest dropped.
            guard reconciliation.next.isEmpty else { return }
            let reason = "\(TypeMetadata(V.self).name) nests deeper than \(maximumDepthAllowed) levels"
            reconcileChild(InvalidView(reason: reason), identity: nil, branch: 0)
            return
        }
        let store = store(for: V.self)
        var match: Int? = nil
        var identityHash = 0
        if let identity {
            identityHash = identity.hashValue
            match = previousChild(identity: identity, hash: identityHash, store: store.id)
        } else {
            let position = reconciliation.next.count
            if position < reconciliation.previous.count, !reconciliation.claimed[position] {
                let previous = Int(reconciliation.previous[position])
                if records[previous].store == store.id, !records[previous].hasIdentity,
                    records[previous].branch == branch
                {
                    match = position
                }
            }
        }
        if let match {
            if match < reconciliation.lastReused { reconciliation.moved = true }
            reconciliation.lastReused = match
            reconciliation.claimed[match] = true
            let child = reconciliation.previous[match]
            if store.receive(consume view, at: records[Int(child)].slot) { records[Int(child)].needsEvaluation = true }
            give(reconciliation.environment, to: child)
            reconciliation.next.append(child)
        } else {
            let child = makeNode(
                consume view,
                identity: identity,
                parent: reconciliation.parent,
                depth: reconciliation.depth,
                environment: reconciliation.environment
            )
            records[Int(child.index)].branch = branch
            records[Int(child.index)].identityHash = identityHash
            reconciliation.next.append(child.index)
        }
    }

    /// The unclaimed previous child with an identity and store, if any.
    ///
    /// The child after the last one reused is tried first: where the data kept its order, or
    /// gained or lost elements, every child is found there, and no index is built. Otherwise
    /// the previous children are indexed once, by their identities' hashes, computed when
    /// their nodes were made. Each previous child is reused once at most: children with the
    /// same identity are matched in order, and one more than before makes a node anew.
    private func previousChild(identity: AnyHashable, hash: Int, store: Int32) -> Int? {
        let guess = reconciliation.lastReused + 1
        if guess < reconciliation.previous.count,
            !reconciliation.claimed[guess],
            isChild(reconciliation.previous[guess], identifiedBy: identity, hash: hash, store: store)
        {
            return guess
        }
        if !reconciliation.isKeyed { indexKeyedChildren() }
        for position in reconciliation.keyed.candidates(hash: hash)
        where !reconciliation.claimed[position]
            && isChild(reconciliation.previous[position], identifiedBy: identity, hash: hash, store: store)
        {
            return position
        }
        return nil
    }

    /// Whether a node has an identity and store; the hashes are compared first, since
    /// comparing two `AnyHashable`s costs as much as hashing one.
    private func isChild(_ node: Int32, identifiedBy identity: AnyHashable, hash: Int, store: Int32) -> Bool {
        records[Int(node)].identityHash == hash && records[Int(node)].store == store
            && records[Int(node)].identity == identity
    }

    private func indexKeyedChildren() {
        reconciliation.isKeyed = true
        reconciliation.keyed.reset(for: reconciliation.previous.count)
        for (position, child) in reconciliation.previous.enumerated() where records[Int(child)].hasIdentity {
            reconciliation.keyed.insert(position, hash: records[Int(child)].identityHash)
        }
    }

    /// Removes the previous children nothing claimed, stores the new child list, and
    /// schedules the children that must be evaluated or receive a new environment.
    private func finishReconciliation() {
        reconciliation.isKeyed = false
        for (position, child) in reconciliation.previous.enumerated() where !reconciliation.claimed[position] {
            remove(child)
        }
        if reconciliation.moved { childrenMoved = true }
        let parent = Int(reconciliation.parent)
        let count = reconciliation.next.count
        if count > Int(records[parent].childCapacity) {
            childGarbage += Int(records[parent].childCapacity)
            records[parent].childStart = Int32(childBuffer.count)
            records[parent].childCapacity = Int32(count)
            childBuffer.append(contentsOf: reconciliation.next)
        } else {
            let start = Int(records[parent].childStart)
            for (offset, child) in reconciliation.next.enumerated() { childBuffer[start + offset] = child }
        }
        records[parent].childCount = Int32(count)
        for child in reconciliation.next.reversed()
        where records[Int(child)].needsEvaluation || records[Int(child)].environmentChanged {
            work.append(child)
        }
        if childGarbage > 4096, childGarbage > childBuffer.count / 2 { compactChildBuffer() }
    }

    /// Removes a node and its descendants, freeing their views, state and positions.
    private func remove(_ index: Int32) {
        var stack = [index]
        while let current = stack.popLast() {
            let record = records[Int(current)]
            let store = stores[Int(record.store)]
            let start = Int(record.childStart)
            stack.append(contentsOf: childBuffer[start..<start + Int(record.childCount)])
            childGarbage += Int(record.childCapacity)
            for property in store.propertyPositions {
                if let state = stateSlots.removeValue(forKey: StateKey(node: current, property: property)) {
                    state.store.free(state.slot)
                }
            }
            if record.hasEnvironmentReads { environmentReads[current] = nil }
            if let collectors = writerCollectors.removeValue(forKey: current) {
                let writer = NodeIndex(index: current, generation: record.generation)
                for collector in collectors { collector.writerRemoved(writer) }
            }
            if let moved = store.free(record.slot) { records[Int(moved)].slot = record.slot }
            records[Int(current)].isLive = false
            records[Int(current)].generation &+= 1
            records[Int(current)].identity = nil
            records[Int(current)].hasIdentity = false
            records[Int(current)].environment = EnvironmentValues()
            records[Int(current)].childCount = 0
            records[Int(current)].childCapacity = 0
            freeRecords.append(current)
        }
    }

    /// Rewrites the child buffer with only the ranges in use.
    private func compactChildBuffer() {
        var compacted = ContiguousArray<Int32>()
        compacted.reserveCapacity(childBuffer.count - childGarbage)
        for index in records.indices where records[index].isLive {
            let start = Int(records[index].childStart)
            let count = Int(records[index].childCount)
            records[index].childStart = Int32(compacted.count)
            records[index].childCapacity = Int32(count)
            compacted.append(contentsOf: childBuffer[start..<start + count])
        }
        childBuffer = compacted
        childGarbage = 0
    }

    // MARK: State and environment

    /// The state slot of a node's property, made with its initial value on first use.
    func stateLocation<Value>(node: NodeIndex, slot: Int, initial: Value) -> StateLocation<Value>? {
        guard isLive(node) else { return nil }
        let store: StateStore<Value>
        if let existing = stateStores[ObjectIdentifier(Value.self)] as? StateStore<Value> {
            store = existing
        } else {
            store = StateStore<Value>(writes: stateWrites)
            if let capacity = stateStoreCapacities[ObjectIdentifier(Value.self)] { store.reserve(capacity) }
            stateStores[ObjectIdentifier(Value.self)] = store
        }
        let key = StateKey(node: node.index, property: slot)
        if let existing = stateSlots[key], existing.store === store {
            return store.location(existing.slot)
        }
        let location = store.allocate(initial, owner: node)
        stateSlots[key] = (store, location.slot)
        return location
    }

    /// Records an environment value a node read, so that a change of it evaluates the node.
    func recordEnvironmentRead<Value>(
        _ keyPath: KeyPath<EnvironmentValues, Value>,
        value: Value,
        node: NodeIndex,
        inChildEnvironment: Bool = false
    ) {
        guard isLive(node) else { return }
        records[Int(node.index)].hasEnvironmentReads = true
        environmentReads[node.index, default: []].append(
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
        while current >= 0, records[Int(current)].isLive {
            let parent = records[Int(current)].parent
            guard parent >= 0 else { break }
            let record = records[Int(parent)]
            let start = Int(record.childStart)
            let position = (start..<start + Int(record.childCount)).first { childBuffer[$0] == current }
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
    /// The number of views of each view type.
    var stores: [TypeMetadata: Int]
    /// The number of state slots, and of values in each state store, by value type.
    var stateSlots: Int
    var stateStores: [ObjectIdentifier: Int]

    /// The sizes of the last graph built from each root type: one entry per root type the
    /// process builds graphs of.
    @MainActor static var lastBuilt: [TypeMetadata: GraphSizes] = [:]
}
