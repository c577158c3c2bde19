// Arena.swift
//
// The graph's nodes, their stores and the reconciliation of one node's children, in one
// value. The graph's hot paths (making a node, matching a child with a previous one, storing
// a child list, handing an environment down) run as this value's mutating methods: a class's
// stored properties are checked for exclusive access at run time on every access, a value's
// inside its own mutating method are checked by the compiler. A build of 10,005 nodes spent a
// fifth of its time in those run-time checks.

import RuntimeMetadata

/// The nodes of a graph, by position, with their views' stores and child lists.
///
/// Nothing here calls a view's body: the graph calls bodies between
/// ``beginEvaluation(_:)`` and ``finishReconciliation()``, outside any mutating method of the
/// arena, and each child a body lists comes back through ``reconcileChild(_:identity:branch:)``.
@MainActor
struct Arena {
    /// The nodes, by position.
    var records: ContiguousArray<NodeRecord> = []
    /// Positions of removed nodes, for reuse.
    var freeRecords: [Int32] = []
    /// The children of every node, as ranges of positions.
    var childBuffer: ContiguousArray<Int32> = []
    /// The positions of the child buffer no range uses any more.
    var childGarbage = 0
    /// The typed view stores, by position, and by view type.
    var stores: [AnyViewStore] = []
    var storeIndex: [ObjectIdentifier: Int32] = [:]
    /// The view type and store position ``store(for:)`` found last.
    var lastStoreType: ObjectIdentifier? = nil
    var lastStore: Int32 = 0
    /// The number of views of each type in the last graph of the same root type, reserved as
    /// each store is made.
    var storeCapacities: [TypeMetadata: Int] = [:]
    /// The typed identities of the children of nodes that list runs of identified children.
    var identityColumns: [Int32: AnyIdentityColumn] = [:]
    /// The environment values each node read in its last evaluation.
    var environmentReads: [Int32: [any EnvironmentRead]] = [:]
    /// Nodes to evaluate or hand the environment down to, last first.
    var work: [Int32] = []
    /// The types of the nodes evaluated by the last build or update, in order.
    var lastEvaluatedTypes: [TypeMetadata] = []
    /// Whether some node's children moved since the output orders were last checked.
    var childrenMoved = false
    /// The previous children the last reconciliation did not claim, for the graph to remove.
    var unclaimed: [Int32] = []
    /// The reconciliation of the node being evaluated.
    var reconciliation = Reconciliation()
    /// The typed state stores, by value type, and the state slot of each node's property.
    var stateStores: [ObjectIdentifier: AnyStateStore] = [:]
    var stateSlots: [StateKey: (store: AnyStateStore, slot: Int32)] = [:]
    /// The number of values of each state store of the last graph of the same root type, by
    /// value type.
    var stateStoreCapacities: [ObjectIdentifier: Int] = [:]

    /// A node's property that holds state.
    struct StateKey: Hashable {
        var node: Int32
        var property: Int
    }
    /// The deepest a tree may nest.
    let maximumDepthAllowed: Int

    init(maximumDepth: Int) {
        maximumDepthAllowed = maximumDepth
    }

    /// The matching of a node's new children with its previous ones.
    struct Reconciliation {
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
        /// Whether a run of identified children kept their identities as the node's column.
        var keptIdentityColumn = false
    }

    /// The handle of the node at a position.
    func handle(_ index: Int32) -> NodeIndex {
        NodeIndex(index: index, generation: records[Int(index)].generation)
    }

    // MARK: Nodes

    /// The store of a view type, made on first use.
    mutating func store<V: View>(for type: V.Type) -> ViewStore<V> {
        // The store found last, for children of one type in a row (a ForEach's rows), without
        // hashing the type.
        if lastStoreType == ObjectIdentifier(V.self), let store = stores[Int(lastStore)] as? ViewStore<V> {
            return store
        }
        if let index = storeIndex[ObjectIdentifier(V.self)], let store = stores[Int(index)] as? ViewStore<V> {
            lastStoreType = ObjectIdentifier(V.self)
            lastStore = index
            return store
        }
        let store = ViewStore<V>.make(id: Int32(stores.count))
        if !storeCapacities.isEmpty, let capacity = storeCapacities[store.viewType] { store.reserve(capacity) }
        storeIndex[ObjectIdentifier(V.self)] = store.id
        stores.append(store)
        return store
    }

    /// Makes a node for a view.
    mutating func makeNode<V: View>(
        _ view: consuming V,
        identity: AnyHashable?,
        identityHash: Int,
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
        record.identityHash = identityHash
        var generation: UInt32 = 0
        if Int(index) < records.count {
            generation = records[Int(index)].generation
            record.generation = generation
            records[Int(index)] = record
        } else {
            records.append(record)
        }
        return NodeIndex(index: index, generation: generation)
    }

    /// Whether a handle names a living node.
    func isLive(_ node: NodeIndex) -> Bool {
        node.index >= 0 && Int(node.index) < records.count && records[Int(node.index)].isLive
            && records[Int(node.index)].generation == node.generation
    }

    /// Marks living nodes for evaluation, and lists them.
    /// - Parameters:
    ///   - nodes: The nodes, living or not.
    ///   - marked: The list of marked nodes, appended to.
    mutating func mark(_ nodes: [NodeIndex], into marked: inout [NodeIndex]) {
        for node in nodes where isLive(node) {
            records[Int(node.index)].needsEvaluation = true
            marked.append(node)
        }
    }

    /// The living nodes of a list, ancestors first: by depth, each depth read once.
    func livingByDepth(_ nodes: [NodeIndex]) -> [NodeIndex] {
        var living: [(depth: Int32, node: NodeIndex)] = []
        living.reserveCapacity(nodes.count)
        for node in nodes where isLive(node) { living.append((records[Int(node.index)].depth, node)) }
        living.sort { $0.depth < $1.depth }
        return living.map(\.node)
    }

    // MARK: State

    /// The state slot of a node's property, made with its initial value on first use.
    mutating func stateLocation<Value>(
        node: NodeIndex,
        slot: Int,
        initial: Value,
        writes: StateWrites
    ) -> StateLocation<Value>? {
        guard isLive(node) else { return nil }
        let store: StateStore<Value>
        if let existing = stateStores[ObjectIdentifier(Value.self)] as? StateStore<Value> {
            store = existing
        } else {
            store = StateStore<Value>(writes: writes)
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

    // MARK: Evaluation

    /// Starts evaluating the next node of the work list that needs it, handing a new
    /// environment down from the unmarked nodes before it; removed nodes are skipped.
    /// - Returns: What ``beginEvaluation(_:)`` returns, or `nil` when the work list is done.
    mutating func beginNextEvaluation() -> (
        store: AnyViewStore, slot: Int32, node: NodeIndex, environment: EnvironmentValues
    )? {
        while let index = work.popLast() {
            guard records[Int(index)].isLive else { continue }
            if records[Int(index)].needsEvaluation { return beginEvaluation(index) }
            if records[Int(index)].environmentChanged { propagateEnvironment(index) }
        }
        return nil
    }

    /// Starts evaluating a node: clears its marks and its recorded reads, and begins the
    /// reconciliation of its children.
    /// - Returns: The node's store and slot, its handle, and the environment its children see.
    private mutating func beginEvaluation(
        _ index: Int32
    ) -> (store: AnyViewStore, slot: Int32, node: NodeIndex, environment: EnvironmentValues) {
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
        let environment = stableChildEnvironment(
            store.childEnvironment(slot, records[Int(index)].environment),
            of: index
        )
        reconciliation.parent = index
        reconciliation.depth = records[Int(index)].depth + 1
        reconciliation.environment = environment
        reconciliation.previous.removeAll(keepingCapacity: true)
        reconciliation.claimed.removeAll(keepingCapacity: true)
        let start = Int(records[Int(index)].childStart)
        let count = Int(records[Int(index)].childCount)
        if count > 0 {
            // A node evaluated again: its previous children. A new node has none.
            reconciliation.previous.append(contentsOf: childBuffer[start..<start + count])
            reconciliation.claimed.append(contentsOf: repeatElement(false, count: count))
        }
        reconciliation.next.removeAll(keepingCapacity: true)
        reconciliation.lastReused = -1
        reconciliation.moved = false
        return (store, slot, handle(index), environment)
    }

    /// The environment a node hands its children, as the storage they hold when its values
    /// did not change: a node that sets a value (`.environment(...)`) makes new storage on
    /// every evaluation, and each child would then compare it with its own value by value,
    /// a dictionary of `Any` per child; compared once here, the children see it identical.
    /// - Parameters:
    ///   - environment: The environment the node's view makes for its children.
    ///   - index: The node.
    /// - Returns: The children's current environment when it holds the same values, else
    ///   `environment`.
    /// (`mutating` although it writes nothing: called from the evaluation's mutating methods,
    /// a non-mutating method made the compiler copy the whole arena for each call.)
    private mutating func stableChildEnvironment(_ environment: EnvironmentValues, of index: Int32)
        -> EnvironmentValues
    {
        guard records[Int(index)].childCount > 0 else { return environment }
        let previous = records[Int(childBuffer[Int(records[Int(index)].childStart)])].environment
        return previous.hasEqualValues(to: environment) ? previous : environment
    }

    /// Hands an unmarked node's new environment down to its children.
    private mutating func propagateEnvironment(_ index: Int32) {
        records[Int(index)].environmentChanged = false
        let environment = stableChildEnvironment(
            stores[Int(records[Int(index)].store)].childEnvironment(
                records[Int(index)].slot,
                records[Int(index)].environment
            ),
            of: index
        )
        let start = Int(records[Int(index)].childStart)
        for position in (start..<start + Int(records[Int(index)].childCount)).reversed() {
            let child = childBuffer[position]
            give(environment, to: child)
            if records[Int(child)].needsEvaluation || records[Int(child)].environmentChanged {
                work.append(child)
            }
        }
    }

    /// Gives a reused child its parent's environment, and marks it when a value it read changed.
    private mutating func give(_ environment: EnvironmentValues, to child: Int32) {
        if records[Int(child)].environment.hasEqualValues(to: environment) { return }
        records[Int(child)].environment = environment
        records[Int(child)].environmentChanged = true
        guard records[Int(child)].hasEnvironmentReads, let reads = environmentReads[child] else { return }
        let childEnvironment = stores[Int(records[Int(child)].store)].childEnvironment(
            records[Int(child)].slot,
            environment
        )
        if reads.contains(where: { !$0.isUnchanged(in: $0.inChildEnvironment ? childEnvironment : environment) }) {
            records[Int(child)].needsEvaluation = true
        }
    }

    // MARK: Reconciliation

    /// Reconciles one child of the node being evaluated with its previous children.
    mutating func reconcileChild<V: View>(_ view: consuming V, identity: AnyHashable?, branch: UInt8) {
        reconcileChild(view, identity: identity, branch: branch, in: store(for: V.self))
    }

    /// Reconciles one child whose store the caller found, for a run of children of one type.
    mutating func reconcileChild<V: View>(
        _ view: consuming V,
        identity: AnyHashable?,
        branch: UInt8,
        in store: ViewStore<V>
    ) {
        if Int(reconciliation.depth) > maximumDepthAllowed, V.self != InvalidView.self {
            // A child deeper than the limit (a view whose body contains itself without end):
            // the first is shown as an error node, which has no children, the rest dropped.
            guard reconciliation.next.isEmpty else { return }
            let recursing = recursingViewType() ?? TypeMetadata(V.self)
            let reason = "\(recursing.name) nests deeper than \(maximumDepthAllowed) levels"
            reconcileChild(InvalidView(reason: reason), identity: nil, branch: 0)
            return
        }
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
            reuse(match, for: view, in: store)
        } else {
            makeChild(view, identity: identity, identityHash: identityHash, branch: branch)
        }
    }

    /// The view that recurses, for the error node at the depth limit, rather than the child
    /// that happened to cross it. The path from the root to the node being evaluated ends in a
    /// cycle of view types repeated without end (A → B → A → B …): the cycle is taken from where
    /// the path enters it, and the first of its views with a body of its own is named (A; a
    /// container or primitive view the graph provides only when the cycle has no other).
    /// `nil` when the path does not repeat.
    private func recursingViewType() -> TypeMetadata? {
        var path: [Int32] = []
        var node = reconciliation.parent
        while node >= 0, path.count <= maximumDepthAllowed + 1 {
            path.append(records[Int(node)].store)
            node = records[Int(node)].parent
        }
        path.reverse()
        let count = path.count
        // The shortest period with which the path's last entries repeat.
        guard
            let period = (1...max(count / 2, 1)).first(where: { period in
                count >= 2 * period && (0..<period).allSatisfy { path[count - 1 - $0] == path[count - 1 - $0 - period] }
            })
        else { return nil }
        // Back to where the repetition begins.
        var start = count - period
        while start > 0, path[start - 1] == path[start - 1 + period] { start -= 1 }
        let cycle = path[start..<(start + period)]
        guard let chosen = cycle.first(where: { stores[Int($0)].declaresBody }) ?? cycle.first else { return nil }
        return stores[Int(chosen)].viewType
    }

    /// Reconciles one child of a run of identified children (``reconcileChildren``): matched
    /// by its typed identity when the previous children's are known typed, through
    /// `AnyHashable` otherwise. The identity is boxed only when the child makes a new node.
    mutating func reconcileChild<V: View, ID: Hashable>(
        _ view: consuming V,
        identity: ID,
        in store: ViewStore<V>,
        run: inout IdentityRun<ID>
    ) {
        guard Int(reconciliation.depth) <= maximumDepthAllowed else {
            // The error node, or nothing: the run's list is then not the node's, and its
            // identities are not kept.
            reconcileChild(view, identity: AnyHashable(identity), branch: 0, in: store)
            return
        }
        let match: Int?
        if run.isTyped {
            match = previousChild(identifiedBy: identity, store: store.id, among: run.previous)
        } else {
            let boxed = AnyHashable(identity)
            match = previousChild(identity: boxed, hash: boxed.hashValue, store: store.id)
        }
        run.next.append(identity)
        if let match {
            reuse(match, for: view, in: store)
        } else {
            let boxed = AnyHashable(identity)
            makeChild(view, identity: boxed, identityHash: boxed.hashValue, branch: 0)
        }
    }

    /// Gives a previous child the new view of its position, marks it when the view changed by
    /// layout, and lists it as the next child.
    private mutating func reuse<V: View>(_ match: Int, for view: consuming V, in store: ViewStore<V>) {
        if match < reconciliation.lastReused { reconciliation.moved = true }
        reconciliation.lastReused = match
        reconciliation.claimed[match] = true
        let child = reconciliation.previous[match]
        if store.receive(consume view, at: records[Int(child)].slot) { records[Int(child)].needsEvaluation = true }
        give(reconciliation.environment, to: child)
        reconciliation.next.append(child)
    }

    /// Makes a node for a new child, and lists it as the next child.
    private mutating func makeChild<V: View>(
        _ view: consuming V,
        identity: AnyHashable?,
        identityHash: Int,
        branch: UInt8
    ) {
        let child = makeNode(
            consume view,
            identity: identity,
            identityHash: identityHash,
            parent: reconciliation.parent,
            depth: reconciliation.depth,
            environment: reconciliation.environment
        )
        records[Int(child.index)].branch = branch
        reconciliation.next.append(child.index)
    }

    /// Begins a run of identified children with identities of one type: the node's previous
    /// children's identities are taken from its column, when its last reconciliation was such
    /// a run from its first child to its last.
    mutating func beginIdentifiedRun<ID: Hashable>(of type: ID.Type) -> IdentityRun<ID> {
        let parent = reconciliation.parent
        var column: IdentityColumn<ID>? = nil
        if records[Int(parent)].hasIdentityColumn { column = identityColumns[parent] as? IdentityColumn<ID> }
        let kept = column ?? IdentityColumn<ID>()
        var previous: ContiguousArray<ID> = []
        var next: ContiguousArray<ID> = []
        swap(&previous, &kept.identities)
        swap(&next, &kept.spare)
        next.removeAll(keepingCapacity: true)
        let beganList = reconciliation.next.isEmpty
        let isTyped = column != nil && beganList && previous.count == reconciliation.previous.count
        if !isTyped { previous.removeAll(keepingCapacity: true) }
        return IdentityRun(
            column: kept,
            isKept: column != nil,
            previous: previous,
            next: next,
            isTyped: isTyped,
            beganList: beganList
        )
    }

    /// Ends a run of identified children: their identities are kept as the node's column when
    /// the run listed every child of the node.
    mutating func finishIdentifiedRun<ID: Hashable>(_ run: consuming IdentityRun<ID>) {
        let parent = reconciliation.parent
        guard run.beganList, run.next.count == reconciliation.next.count else { return }
        run.previous.removeAll(keepingCapacity: true)
        swap(&run.column.identities, &run.next)
        swap(&run.column.spare, &run.previous)
        if !run.isKept {
            identityColumns[parent] = run.column
            records[Int(parent)].hasIdentityColumn = true
        }
        reconciliation.keptIdentityColumn = true
    }

    /// The unclaimed previous child with an identity and store, if any.
    ///
    /// The child after the last one reused is tried first: where the data kept its order, or
    /// gained or lost elements, every child is found there, and no index is built. Otherwise
    /// the previous children are indexed once, by their identities' hashes, computed when
    /// their nodes were made. Each previous child is reused once at most: children with the
    /// same identity are matched in order, and one more than before makes a node anew.
    private mutating func previousChild(identity: AnyHashable, hash: Int, store: Int32) -> Int? {
        let guess = reconciliation.lastReused + 1
        if guess < reconciliation.previous.count,
            !reconciliation.claimed[guess],
            isChild(reconciliation.previous[guess], identifiedBy: identity, hash: hash, store: store)
        {
            return guess
        }
        if !reconciliation.isKeyed { indexKeyedChildren() }
        var slot = reconciliation.keyed.firstSlot(for: hash)
        while let position = reconciliation.keyed.position(inSlot: slot) {
            if !reconciliation.claimed[position],
                isChild(reconciliation.previous[position], identifiedBy: identity, hash: hash, store: store)
            {
                return position
            }
            slot = reconciliation.keyed.slot(after: slot)
        }
        return nil
    }

    /// Whether a node has an identity and store; the hashes are compared first, since
    /// comparing two `AnyHashable`s costs as much as hashing one.
    private func isChild(_ node: Int32, identifiedBy identity: AnyHashable, hash: Int, store: Int32) -> Bool {
        guard records[Int(node)].identityHash == hash, records[Int(node)].store == store else { return false }
        // Compared where the record holds it: the array's subscript would copy the identity,
        // and comparing as optionals would copy the other.
        return Self.identity(records.span[Int(node)].identity, equals: identity)
    }

    /// Whether a stored identity is an identity.
    private static func identity(_ stored: AnyHashable?, equals identity: AnyHashable) -> Bool {
        switch stored {
        case .some(let stored): stored == identity
        case .none: false
        }
    }

    /// The unclaimed previous child with a typed identity and store, if any: as
    /// ``previousChild(identity:hash:store:)``, with the identities compared and hashed as
    /// their own type. A hash is computed only where the child after the last one reused is
    /// not the match.
    private mutating func previousChild<ID: Hashable>(
        identifiedBy identity: ID,
        store: Int32,
        among identities: borrowing ContiguousArray<ID>
    ) -> Int? {
        let guess = reconciliation.lastReused + 1
        if guess < identities.count, !reconciliation.claimed[guess], identities.span[guess] == identity,
            records[Int(reconciliation.previous[guess])].store == store
        {
            return guess
        }
        if !reconciliation.isKeyed {
            reconciliation.isKeyed = true
            reconciliation.keyed.reset(for: identities.count)
            for position in identities.indices {
                reconciliation.keyed.insert(position, hash: identities.span[position].hashValue)
            }
        }
        var slot = reconciliation.keyed.firstSlot(for: identity.hashValue)
        while let position = reconciliation.keyed.position(inSlot: slot) {
            if !reconciliation.claimed[position], identities.span[position] == identity,
                records[Int(reconciliation.previous[position])].store == store
            {
                return position
            }
            slot = reconciliation.keyed.slot(after: slot)
        }
        return nil
    }

    private mutating func indexKeyedChildren() {
        reconciliation.isKeyed = true
        reconciliation.keyed.reset(for: reconciliation.previous.count)
        for (position, child) in reconciliation.previous.enumerated() where records[Int(child)].hasIdentity {
            reconciliation.keyed.insert(position, hash: records[Int(child)].identityHash)
        }
    }

    /// Stores the new child list, schedules the children that must be evaluated or receive a
    /// new environment, and lists the previous children nothing claimed in ``unclaimed``, for
    /// the graph to remove.
    /// - Returns: Whether some previous children were not claimed.
    mutating func finishReconciliation() -> Bool {
        reconciliation.isKeyed = false
        unclaimed.removeAll(keepingCapacity: true)
        for (position, child) in reconciliation.previous.enumerated() where !reconciliation.claimed[position] {
            unclaimed.append(child)
        }
        if reconciliation.moved { childrenMoved = true }
        let parent = Int(reconciliation.parent)
        if records[parent].hasIdentityColumn, !reconciliation.keptIdentityColumn {
            // The children were listed otherwise this time: their kept identities are stale.
            identityColumns[Int32(parent)] = nil
            records[parent].hasIdentityColumn = false
        }
        reconciliation.keptIdentityColumn = false
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
        compactChildBufferIfSparse()
        return !unclaimed.isEmpty
    }

    /// Rewrites the child buffer with only the ranges in use, once most of it is unused: the
    /// ranges of removed nodes, and those a child list outgrew.
    mutating func compactChildBufferIfSparse() {
        guard childGarbage > 4096, childGarbage > childBuffer.count / 2 else { return }
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
}
