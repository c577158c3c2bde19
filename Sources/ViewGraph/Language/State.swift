// State.swift
//
// State lives in the graph's arena: one typed store per value type (StateStore<Value>), a
// slot per `@State` property of a living node. A `State` or `Binding` holds a location in the
// store (the store, the slot, the slot's generation), so that two bindings to the same state
// are equal by layout, and a location whose node went away reads its initial value and
// ignores writes instead of touching the slot's next owner.

/// A property the graph fills in before it evaluates a view's body: ``State``,
/// ``Environment`` and ``Binding``. The graph finds them by walking the view's stored
/// properties through RuntimeMetadata's cached field model, and each one's conformance through
/// its conformance cache, without `Mirror`.
@MainActor
protocol GraphProperty {
    /// Connects the property to the node that holds the view.
    /// - Parameter context: The node, its graph and environment, and the property's position.
    @MainActor mutating func install(in context: PropertyContext)

    /// Whether an installation stays valid for as long as the view's value does: true of state
    /// and bindings, whose installation is the same at every evaluation; false of the
    /// environment, whose reads each evaluation records anew.
    static var installationLasts: Bool { get }
}

/// Where a ``GraphProperty`` is installed.
@MainActor
struct PropertyContext {
    /// The graph.
    let graph: ViewGraph
    /// The node that holds the view.
    let node: NodeIndex
    /// The property's position among the view's stored properties.
    let slot: Int
    /// The environment the view sees.
    let environment: EnvironmentValues
    /// Whether reads of the environment and of bindings are dependencies of this evaluation
    /// (they are not when a view is only handed out, as ``ViewNode/viewValue``).
    let recordsDependencies: Bool
}

/// Storage a view owns through the graph: it lives as long as the view's node, across
/// evaluations of its parent, and changing it evaluates the view's body again.
///
/// ```swift
/// struct Counter: View {
///     @State var count = 0
///     var body: some View {
///         Button("\(count)") { count += 1 }
///     }
/// }
/// ```
///
/// The value may be of any type: state is read and written on the main actor, where the
/// graph lives, so it needs no `Sendable` conformance. Before the graph installs it (a view
/// value made but not yet placed in a graph), the property reads its initial value and ignores
/// writes.
@propertyWrapper
public struct State<Value>: GraphProperty {
    let initialValue: Value
    var location: StateLocation<Value>?

    /// Creates state with its initial value.
    /// - Parameter wrappedValue: The value before any change.
    public init(wrappedValue: Value) {
        initialValue = wrappedValue
    }

    /// Creates state with its initial value.
    /// - Parameter initialValue: The value before any change.
    public init(initialValue: Value) {
        self.initialValue = initialValue
    }

    /// The current value. Setting it evaluates the view's body at the graph's next update.
    @MainActor public var wrappedValue: Value {
        get {
            guard let location else { return initialValue }
            return location.read(or: initialValue)
        }
        nonmutating set { location?.write(newValue) }
    }

    /// A binding to the value, to hand to a descendant: `$count`.
    @MainActor public var projectedValue: Binding<Value> {
        if let location { return Binding(location: location, initialValue: initialValue) }
        return .constant(initialValue)
    }

    static var installationLasts: Bool { true }

    mutating func install(in context: PropertyContext) {
        location = context.graph.stateLocation(node: context.node, slot: context.slot, initial: initialValue)
    }
}

/// A reference to a value owned elsewhere: a ``State`` of an ancestor (`$count`), a constant,
/// or a pair of accessors.
///
/// ```swift
/// struct Stepper: View {
///     @Binding var value: Int
///     var body: some View { Button("+") { value += 1 } }
/// }
///
/// struct Screen: View {
///     @State var count = 0
///     var body: some View { Stepper(value: $count) }
/// }
/// ```
///
/// A view that holds a binding to state is evaluated again when the state changes, even when
/// its parent's body is not. Two bindings to the same state are equal, so a parent evaluated
/// again does not evaluate a child only because it made a new binding.
@propertyWrapper
public struct Binding<Value>: GraphProperty {
    enum Storage {
        /// A state slot, with the value to read once its node went away.
        case location(StateLocation<Value>, initialValue: Value)
        case constant(Value)
        case accessors(get: () -> Value, set: (Value) -> Void)
    }

    let storage: Storage

    init(location: StateLocation<Value>, initialValue: Value) {
        storage = .location(location, initialValue: initialValue)
    }

    /// Creates a binding from its accessors.
    /// - Parameters:
    ///   - get: Reads the value.
    ///   - set: Writes the value.
    public init(get: @escaping () -> Value, set: @escaping (Value) -> Void) {
        storage = .accessors(get: get, set: set)
    }

    /// A binding to a value that never changes; writes are ignored.
    /// - Parameter value: The value.
    /// - Returns: The binding.
    public static func constant(_ value: Value) -> Binding<Value> {
        Binding(storage: .constant(value))
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    /// Creates the property from a binding, as `@Binding var value: Int` is initialized with
    /// `$count`.
    /// - Parameter projectedValue: The binding.
    public init(projectedValue: Binding<Value>) {
        self = projectedValue
    }

    /// The value.
    @MainActor public var wrappedValue: Value {
        get {
            switch storage {
            case .location(let location, let initialValue): location.read(or: initialValue)
            case .constant(let value): value
            case .accessors(let get, _): get()
            }
        }
        nonmutating set {
            switch storage {
            case .location(let location, _): location.write(newValue)
            case .constant: break
            case .accessors(_, let set): set(newValue)
            }
        }
    }

    /// The binding itself: `$value` hands it on.
    public var projectedValue: Binding<Value> { self }

    static var installationLasts: Bool { true }

    mutating func install(in context: PropertyContext) {
        // The node depends on the state it reads through the binding.
        guard context.recordsDependencies, case .location(let location, _) = storage else { return }
        location.store.addDependent(context.node, slot: location.slot, generation: location.generation)
    }
}

/// A slot of a ``StateStore``, as a ``State`` or ``Binding`` holds it: two words, so that a
/// view with one `@State Int` fits an existential's inline buffer.
@MainActor
struct StateLocation<Value> {
    let store: StateStore<Value>
    let slot: Int32
    let generation: UInt32

    /// The value, or `fallback` when the slot's node went away. No `Optional<Value>` is made:
    /// in the graph's unspecialized code, each would be a lookup of its generic metadata.
    /// - Parameter fallback: The value to read once the node went away.
    /// - Returns: The value.
    func read(or fallback: Value) -> Value {
        store.read(slot, generation: generation, or: fallback)
    }

    /// Writes the value, unless the slot's node went away.
    /// - Parameter value: The value.
    func write(_ value: Value) {
        store.write(value, slot: slot, generation: generation)
    }
}

/// The graph's storage for the state values of one type.
@MainActor
class AnyStateStore {
    /// Frees a slot, when its node goes away.
    func free(_ slot: Int32) {}
    /// The number of slots the store has, in use or free.
    var count: Int { 0 }
    /// Makes room for a number of values.
    func reserve(_ capacity: Int) {}
}

/// The state values of one type, in slots.
///
/// A slot is what a ``StateLocation`` names, with the generation that tells a freed slot from
/// its next use. The values are dense, in slots' order of allocation, with a freed value's
/// place taken by the last one: they are `Value`s, not `Value?`s, since each `Optional<Value>`
/// the graph's unspecialized code touches is a lookup of its generic metadata. The slots are
/// one value (``Slots``) whose mutating methods change them, so that the compiler checks their
/// exclusive access rather than the run time on each stored property.
@MainActor
final class StateStore<Value>: AnyStateStore {
    private var slots = Slots()
    /// Where writes are recorded for the graph's next update. A view value kept after its
    /// graph went away records into a list nobody reads.
    let writes: StateWrites

    /// The values and, by slot, their generations, owners and places.
    @MainActor
    private struct Slots {
        /// The values in use, dense.
        var values: ContiguousArray<Value> = []
        /// The slot of each value.
        var slotOfValue: ContiguousArray<Int32> = []
        /// The place of each slot's value, `-1` for a free slot.
        var valueOfSlot: ContiguousArray<Int32> = []
        var generations: ContiguousArray<UInt32> = []
        var owners: ContiguousArray<NodeIndex> = []
        /// Nodes that read a slot through a binding, for slots that have any.
        var dependents: [Int32: [NodeIndex]] = [:]
        var freeSlots: [Int32] = []

        mutating func allocate(_ value: Value, owner: NodeIndex) -> (slot: Int32, generation: UInt32) {
            let slot: Int32
            if let free = freeSlots.popLast() {
                slot = free
                owners[Int(slot)] = owner
            } else {
                slot = Int32(valueOfSlot.count)
                valueOfSlot.append(-1)
                generations.append(0)
                owners.append(owner)
            }
            valueOfSlot[Int(slot)] = Int32(values.count)
            values.append(value)
            slotOfValue.append(slot)
            return (slot, generations[Int(slot)])
        }

        /// Writes a slot in use, and lists the nodes to evaluate again: its owner and the
        /// nodes that read it through a binding.
        mutating func write(_ value: Value, slot: Int32, generation: UInt32, into writes: StateWrites) {
            let place = Int(valueOfSlot[Int(slot)])
            guard generations[Int(slot)] == generation, place >= 0 else { return }
            values[place] = value
            writes.record(owners[Int(slot)])
            if let readers = dependents[slot] {
                for reader in readers { writes.record(reader) }
            }
        }

        mutating func addDependent(_ node: NodeIndex, slot: Int32, generation: UInt32) {
            guard generations[Int(slot)] == generation, owners[Int(slot)] != node else { return }
            if dependents[slot]?.contains(node) == true { return }
            dependents[slot, default: []].append(node)
        }

        /// Frees a slot: its value is destroyed now, the last value takes its place.
        mutating func free(_ slot: Int32) {
            let place = Int(valueOfSlot[Int(slot)])
            guard place >= 0 else { return }
            let last = values.count - 1
            if place != last {
                values.swapAt(place, last)
                let moved = slotOfValue[last]
                slotOfValue[place] = moved
                valueOfSlot[Int(moved)] = Int32(place)
            }
            values.removeLast()
            slotOfValue.removeLast()
            valueOfSlot[Int(slot)] = -1
            generations[Int(slot)] &+= 1
            dependents[slot] = nil
            freeSlots.append(slot)
        }
    }

    init(writes: StateWrites) {
        self.writes = writes
    }

    override var count: Int { slots.values.count }

    override func reserve(_ capacity: Int) {
        slots.values.reserveCapacity(capacity)
        slots.slotOfValue.reserveCapacity(capacity)
        slots.valueOfSlot.reserveCapacity(capacity)
        slots.generations.reserveCapacity(capacity)
        slots.owners.reserveCapacity(capacity)
    }

    /// Makes a slot for a node's state.
    func allocate(_ value: Value, owner: NodeIndex) -> StateLocation<Value> {
        let (slot, generation) = slots.allocate(value, owner: owner)
        return StateLocation(store: self, slot: slot, generation: generation)
    }

    /// The location of a slot in use.
    func location(_ slot: Int32) -> StateLocation<Value>? {
        guard slots.valueOfSlot[Int(slot)] >= 0 else { return nil }
        return StateLocation(store: self, slot: slot, generation: slots.generations[Int(slot)])
    }

    /// The value of a slot in use, or `fallback` when the slot was freed since the location
    /// was made.
    func read(_ slot: Int32, generation: UInt32, or fallback: Value) -> Value {
        let place = Int(slots.valueOfSlot[Int(slot)])
        guard place >= 0, slots.generations[Int(slot)] == generation else { return fallback }
        return slots.values[place]
    }

    func write(_ value: Value, slot: Int32, generation: UInt32) {
        slots.write(value, slot: slot, generation: generation, into: writes)
    }

    func addDependent(_ node: NodeIndex, slot: Int32, generation: UInt32) {
        slots.addDependent(node, slot: slot, generation: generation)
    }

    override func free(_ slot: Int32) {
        slots.free(slot)
    }
}

/// The nodes whose state changed since the graph's last update.
@MainActor
final class StateWrites {
    private var nodes: [NodeIndex] = []

    /// Records a node whose state changed.
    func record(_ node: NodeIndex) {
        nodes.append(node)
    }

    /// Takes the recorded nodes.
    func take() -> [NodeIndex] {
        defer { nodes.removeAll(keepingCapacity: true) }
        return nodes
    }
}
