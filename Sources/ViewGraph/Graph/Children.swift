// Children.swift

import RuntimeMetadata

/// The children a primitive view lists, each with its static type kept.
///
/// Inside a graph, each child appended is reconciled at once with the node's previous
/// children (``ViewGraph`` keeps the reconciliation's state): a child with a data identity
/// (``ForEach``) is matched by that identity and its type, any other child by its position
/// and type, as SwiftUI's structural identity is. Outside a graph (a ``VariadicViewAdapter``'s
/// source), the children are only listed in ``entries``; in a ``BareEvaluation``, each is
/// evaluated at once and dropped.
@MainActor
struct Children {
    /// One listed child, typed inside its existential.
    struct Entry {
        /// The child's type.
        let type: TypeMetadata
        /// The child.
        let view: any View
        /// The identity the data gave the child (``ForEach``), if any.
        let identity: AnyHashable?
    }

    /// The children listed, when there is no node to reconcile them into.
    private(set) var entries: [Entry] = []

    /// The graph whose node these children are, or `nil` when they are only listed.
    let graph: ViewGraph?

    /// The node whose children these are.
    let nodeIndex: NodeIndex

    /// The bare evaluation that evaluates each child appended, when there is one.
    private let bare: BareEvaluator?

    /// The environment the children see, computed once.
    let environment: EnvironmentValues

    /// The environment of the listing view itself, before its own changes, when only listing.
    private let listingEnvironment: EnvironmentValues?

    /// A list that is only listed, not reconciled.
    /// - Parameters:
    ///   - environment: The environment the listed children would see.
    ///   - own: The environment of the listing view itself.
    init(listing environment: EnvironmentValues = EnvironmentValues(), own: EnvironmentValues? = nil) {
        graph = nil
        nodeIndex = .none
        bare = nil
        self.environment = environment
        listingEnvironment = own ?? environment
    }

    /// Children that a bare evaluation evaluates as they are appended, keeping none.
    /// - Parameters:
    ///   - evaluator: The evaluation.
    ///   - environment: The environment the children see.
    ///   - own: The environment of the listing view itself.
    init(evaluating evaluator: BareEvaluator, environment: EnvironmentValues, own: EnvironmentValues) {
        graph = nil
        nodeIndex = .none
        bare = evaluator
        self.environment = environment
        listingEnvironment = own
    }

    /// The children of a node being evaluated.
    init(graph: ViewGraph, node: NodeIndex, environment: EnvironmentValues) {
        self.graph = graph
        self.nodeIndex = node
        bare = nil
        self.environment = environment
        listingEnvironment = nil
    }

    /// The node whose children these are; `nil` when they are only listed.
    var node: ViewNode? { graph.map { ViewNode(graph: $0, index: nodeIndex) } }

    /// Reads a value of the children's environment, and records the read, so that a change
    /// of the value evaluates the node again.
    /// - Parameter keyPath: The value's key path.
    /// - Returns: The value.
    func read<Value>(_ keyPath: KeyPath<EnvironmentValues, Value>) -> Value {
        let value = environment[keyPath: keyPath]
        graph?.recordEnvironmentRead(keyPath, value: value, node: nodeIndex, inChildEnvironment: true)
        return value
    }

    /// Reads a value of the node's own environment, before the node's own changes to it, and
    /// records the read.
    /// - Parameter keyPath: The value's key path.
    /// - Returns: The value.
    func readOwn<Value>(_ keyPath: KeyPath<EnvironmentValues, Value>) -> Value {
        guard let graph, graph.isLive(nodeIndex) else { return (listingEnvironment ?? environment)[keyPath: keyPath] }
        let value = graph.environment(of: nodeIndex)[keyPath: keyPath]
        graph.recordEnvironmentRead(keyPath, value: value, node: nodeIndex)
        return value
    }

    /// Adds a statically typed child.
    /// - Parameters:
    ///   - view: The child.
    ///   - identity: Its identity in its data, if any.
    ///   - branch: The branch of a conditional the child is in, part of its structural identity.
    mutating func append<V: View>(_ view: consuming V, identity: AnyHashable? = nil, branch: UInt8 = 0) {
        // A metatype comparison first: a dynamic cast per child would cost more than the rest.
        if V.self == DynamicView.self, let dynamic = (copy view) as? DynamicView {
            // A view known only at run time makes no node of its own.
            append(any: dynamic.value, identity: identity, branch: branch)
            return
        }
        guard let graph else {
            if let bare {
                bare.evaluate(consume view, environment: environment)
                return
            }
            entries.append(Entry(type: TypeMetadata(V.self), view: view, identity: identity))
            return
        }
        graph.reconcileChild(consume view, identity: identity, branch: branch)
    }

    /// Adds a child with the identity its data gave it, typed: a bare evaluation evaluates
    /// the child and keeps no identity; otherwise the identity is boxed.
    /// - Parameters:
    ///   - view: The child.
    ///   - identity: Its identity in its data.
    mutating func append<V: View, ID: Hashable>(_ view: consuming V, identifiedBy identity: ID) {
        if graph == nil, let bare, V.self != DynamicView.self {
            bare.evaluate(consume view, environment: environment)
            return
        }
        append(view, identity: AnyHashable(identity))
    }

    /// Whether a run of children is reconciled as a run (``appendIdentified(count:_:)``): in a
    /// graph. Listed or evaluated bare, each child is appended as it comes.
    var reconcilesRuns: Bool { graph != nil }

    /// Adds a run of children of one type, each with the identity its data gave it (a
    /// ``ForEach``'s rows): in a graph, their store is found once for the run, and their
    /// identities are kept typed for the next evaluation's matching.
    /// - Parameters:
    ///   - count: The number of children.
    ///   - child: Makes the child at an offset, with its identity.
    mutating func appendIdentified<V: View, ID: Hashable>(
        count: Int,
        _ child: (Int) -> (view: V, identity: ID)
    ) {
        guard let graph, V.self != DynamicView.self else {
            for offset in 0..<count {
                let (view, identity) = child(offset)
                append(view, identifiedBy: identity)
            }
            return
        }
        graph.reconcileChildren(count: count, child)
    }

    /// Adds a child known only as `Any`: resolved to its dynamic type's typed child through
    /// RuntimeMetadata, or to an ``InvalidView`` naming the type when it is not a view.
    /// - Parameters:
    ///   - value: The value.
    ///   - identity: Its identity in its data, if any.
    ///   - branch: The branch of a conditional the child is in.
    mutating func append(any value: Any, identity: AnyHashable? = nil, branch: UInt8 = 0) {
        // Nested dynamic views are unwrapped in a loop, not by recursion: a chain of any
        // length makes one node, and never exhausts the stack.
        var value = value
        while type(of: value) == DynamicView.self, let dynamic = value as? DynamicView {
            value = dynamic.value
        }
        // The value is lent where the `Any` holds it, and Swift opens it into `append<V>`.
        let appended: Void? = ViewResolution.viewProtocol?.withOpened(value, as: (any View).self) { view in
            append(view, identity: identity, branch: branch)
        }
        if appended == nil { append(ViewResolution.invalid(value), identity: identity, branch: branch) }
    }
}

/// Opens values known only as `Any` as typed views.
@MainActor
enum ViewResolution {
    /// The `View` protocol's descriptor: lookups through it are cached per type, and values
    /// are opened through it with `withOpened(_:as:_:)`.
    static let viewProtocol = try? ProtocolDescriptor((any View).self)

    /// The error view for a value that is not a view.
    /// - Parameter value: The value.
    /// - Returns: An invalid view naming the value's type.
    static func invalid(_ value: Any) -> InvalidView {
        InvalidView(typeName: TypeMetadata(type(of: value)).name)
    }
}
