// State.swift

/// A property the graph fills in before it evaluates a view's body: ``State`` and
/// ``Environment``. The graph finds them by walking the view's stored properties through
/// RuntimeMetadata's cached field model, and each one's conformance through its conformance
/// cache, without `Mirror`.
protocol GraphProperty {
    /// Connects the property to the node that holds the view.
    /// - Parameters:
    ///   - node: The node.
    ///   - slot: The property's position among the view's stored properties.
    @MainActor mutating func install(in node: ViewNode, slot: Int)
}

/// Storage a view owns through the graph: it survives as long as the view's node, across
/// evaluations of its parent, and changing it evaluates the view's body again.
///
/// ```swift
/// struct Counter: View {
///     @State var count = 0
///     var body: some View { Text("\(count)") }
/// }
/// ```
@propertyWrapper
public struct State<Value: Sendable>: GraphProperty, Sendable {
    let initialValue: Value
    var location: StateLocation<Value>?

    /// Creates state with its initial value.
    /// - Parameter wrappedValue: The value before any change.
    public init(wrappedValue: Value) {
        initialValue = wrappedValue
    }

    /// The current value. Setting it marks the view's node for evaluation at the next update.
    public var wrappedValue: Value {
        get { location?.value ?? initialValue }
        nonmutating set { location?.value = newValue }
    }

    /// A binding to the value, to hand to a descendant.
    public var projectedValue: Binding<Value> {
        Binding(get: { wrappedValue }, set: { wrappedValue = $0 })
    }

    @MainActor mutating func install(in node: ViewNode, slot: Int) {
        let initial = initialValue
        location = node.stateLocation(slot: slot) { invalidation, id in
            StateLocation(initial, invalidation: invalidation, nodeID: id)
        }
    }
}

/// A reference to a value owned elsewhere.
public struct Binding<Value> {
    private let get: () -> Value
    private let set: (Value) -> Void

    /// Creates a binding from its accessors.
    /// - Parameters:
    ///   - get: Reads the value.
    ///   - set: Writes the value.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        self.get = get
        self.set = set
    }

    /// The value.
    public var wrappedValue: Value {
        get { get() }
        nonmutating set { set(newValue) }
    }
}

/// The node-owned storage of one ``State`` property.
final class StateLocation<Value: Sendable>: AnyStateLocation, Sendable {
    private let storage: Locked<Value>
    private let invalidation: Invalidation
    private let nodeID: Int

    init(_ value: Value, invalidation: Invalidation, nodeID: Int) {
        storage = Locked(value)
        self.invalidation = invalidation
        self.nodeID = nodeID
    }

    var value: Value {
        get { storage.withLock { $0 } }
        set {
            storage.withLock { $0 = newValue }
            invalidation.invalidate(nodeID)
        }
    }
}

/// Any state location, as a node keeps them.
protocol AnyStateLocation: AnyObject, Sendable {}

/// The nodes whose state changed since the last update, safe to mark from any thread.
final class Invalidation: Sendable {
    private let pending = Locked<Set<Int>>([])

    /// Marks a node for evaluation.
    /// - Parameter nodeID: The node.
    func invalidate(_ nodeID: Int) {
        _ = pending.withLock { $0.insert(nodeID) }
    }

    /// Takes the marked nodes.
    /// - Returns: The nodes marked since the last call.
    func take() -> Set<Int> {
        pending.withLock { pending in
            defer { pending = [] }
            return pending
        }
    }
}
