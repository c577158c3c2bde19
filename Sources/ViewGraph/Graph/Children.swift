// Children.swift

import RuntimeMetadata

/// The children a primitive view lists, each with its static type kept.
@MainActor
struct Children {
    /// One child, typed inside its existential: the graph opens it to make or update the
    /// child's node, so that an entry holds no closures.
    struct Entry {
        /// The child's type.
        let type: TypeMetadata
        /// The child.
        let view: any View
        /// The identity the data gave the child (``ForEach``), if any.
        let identity: AnyHashable?

        /// Makes a node for the child.
        @MainActor func makeNode(
            _ graph: ViewGraph,
            _ parent: ViewNode?,
            _ environment: EnvironmentValues
        ) -> ViewNode {
            func make<V: View>(_ view: V) -> ViewNode {
                Node(view, graph: graph, parent: parent, environment: environment)
            }
            let node = make(view)
            node.identity = identity
            return node
        }
    }

    /// The children listed, when there is no node to reconcile them into (the root, and a
    /// ``VariadicViewAdapter``'s source).
    private(set) var entries: [Entry] = []

    /// The node whose children these are; `nil` when the children are only listed.
    let node: ViewNode?

    /// The environment the children see, computed once.
    let environment: EnvironmentValues

    /// The node's children before this evaluation.
    private let previous: [ViewNode]
    /// The node's children after it, built as children are appended.
    private(set) var reconciled: [ViewNode] = []

    /// A list for the children of a node: each child appended is reconciled at once with the
    /// node's previous child at its position, without an intermediate list.
    /// - Parameter node: The node, or `nil` to only list the children in ``entries``.
    init(node: ViewNode?) {
        self.node = node
        self.environment = node?.childEnvironment ?? EnvironmentValues()
        self.previous = node?.children ?? []
        if node != nil { reconciled.reserveCapacity(previous.count) }
    }

    /// Reads a value of the children's environment, and records the read, so that a change
    /// of the value evaluates the node again.
    /// - Parameter keyPath: The value's key path.
    /// - Returns: The value.
    func read<Value>(_ keyPath: KeyPath<EnvironmentValues, Value>) -> Value {
        let value = environment[keyPath: keyPath]
        node?.recordEnvironmentRead(keyPath, value: value)
        return value
    }

    /// Adds a statically typed child.
    /// - Parameters:
    ///   - view: The child.
    ///   - identity: Its identity in its data, if any.
    mutating func append<V: View>(_ view: V, identity: AnyHashable? = nil) {
        // A metatype comparison first: a dynamic cast per child would cost more than the rest.
        if V.self == DynamicView.self, let dynamic = view as? DynamicView {
            // A view known only at run time makes no node of its own.
            append(any: dynamic.value, identity: identity)
            return
        }
        guard let node else {
            entries.append(Entry(type: TypeMetadata(V.self), view: view, identity: identity))
            return
        }
        let index = reconciled.count
        if index < previous.count, let child = previous[index] as? Node<V>, child.identity == identity {
            // The same type at the same position: the node stays, and is evaluated only if
            // its value changed by layout equality, its state changed, or an environment
            // value it read changed.
            child.receive(view)
            child.refresh(in: environment)
            reconciled.append(child)
        } else {
            let child = Node(view, graph: node.graph, parent: node, environment: environment)
            child.identity = identity
            child.evaluateAndClear()
            reconciled.append(child)
        }
    }

    /// Adds a child known only as `Any`: resolved to its dynamic type's typed child through
    /// RuntimeMetadata, or to an ``InvalidView`` naming the type when it is not a view.
    /// - Parameters:
    ///   - value: The value.
    ///   - identity: Its identity in its data, if any.
    mutating func append(any value: Any, identity: AnyHashable? = nil) {
        // The value is lent where the `Any` holds it, and Swift opens it into `append<V>`.
        let appended: Void? = ViewResolution.viewProtocol?.withOpened(value, as: (any View).self) { view in
            append(view, identity: identity)
        }
        if appended == nil { append(ViewResolution.invalid(value), identity: identity) }
    }
}

/// Opens values known only as `Any` as typed views.
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
