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

        /// Hands the child's value to an existing node of the same type.
        /// - Returns: `false` when the node holds another type.
        @MainActor func update(_ node: ViewNode) -> Bool {
            func update<V: View>(_ view: V) -> Bool {
                guard let typed = node as? Node<V> else { return false }
                typed.receive(view)
                return true
            }
            return update(view)
        }
    }

    private(set) var entries: [Entry] = []

    /// The node whose children these are; `nil` while the graph builds its root.
    let node: ViewNode?

    /// A list for the children of a node.
    /// - Parameter node: The node.
    init(node: ViewNode?) {
        self.node = node
    }

    /// The environment the children see.
    var environment: EnvironmentValues { node?.childEnvironment ?? EnvironmentValues() }

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
        if let dynamic = view as? DynamicView {
            // A view known only at run time makes no node of its own.
            append(any: dynamic.value, identity: identity)
            return
        }
        entries.append(Entry(type: TypeMetadata(V.self), view: view, identity: identity))
    }

    /// Adds a child known only as `Any`: resolved to its dynamic type's typed child through
    /// RuntimeMetadata, or to an ``InvalidView`` naming the type when it is not a view.
    /// - Parameters:
    ///   - value: The value.
    ///   - identity: Its identity in its data, if any.
    mutating func append(any value: Any, identity: AnyHashable? = nil) {
        switch ViewResolution.resolve(value) {
        case .view(let view):
            append(view, identity: identity)
        case .invalid(let invalid):
            append(invalid, identity: identity)
        }
    }
}

/// Opens values known only as `Any` as typed views.
enum ViewResolution {
    /// A resolved value.
    enum Resolved {
        /// A view, opened to its dynamic type by the caller.
        case view(any View)
        /// Not a view.
        case invalid(InvalidView)
    }

    /// The `View` protocol's descriptor: lookups through it are cached per type.
    static let viewProtocol = try? ProtocolDescriptor((any View).self)

    /// Resolves a value through RuntimeMetadata's conformance cache and typed opening.
    /// - Parameter value: The value.
    /// - Returns: The value as a view, or the invalid view naming its type.
    static func resolve(_ value: Any) -> Resolved {
        if let view = viewProtocol?.open(value, as: (any View).self) { return .view(view) }
        return .invalid(InvalidView(typeName: TypeMetadata(type(of: value)).name))
    }
}
