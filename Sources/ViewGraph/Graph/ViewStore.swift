// ViewStore.swift
//
// Typed storage per view type: the views of every node of type `V` in one buffer, as values.
// A store keeps each view as its parent gave it, before the graph installs its state and
// environment, so that the parent's next value compares equal by layout when the inputs did
// not change; the installed copy exists only while the body is evaluated or the view is
// handed out.

import RuntimeMetadata

/// The operations the graph needs on a store without knowing its view type.
@MainActor
class AnyViewStore {
    /// The store's position in the graph's store list.
    let id: Int32
    /// The view type.
    let viewType: TypeMetadata

    init(id: Int32, viewType: TypeMetadata) {
        self.id = id
        self.viewType = viewType
    }

    /// Evaluates the view in a slot: installs its properties and lists its body or children.
    func evaluate(_ slot: Int32, children: inout Children) {}
    /// The view in a slot, with its properties installed, as `Any`.
    func viewValue(_ slot: Int32, node: NodeIndex, graph: ViewGraph) -> Any { () }
    /// What renderers show for the view in a slot.
    func renderAttributes(_ slot: Int32) -> RenderAttributes { RenderAttributes() }
    /// The environment the children of the view in a slot see.
    func childEnvironment(_ slot: Int32, _ environment: EnvironmentValues) -> EnvironmentValues { environment }
    /// The positions of the view's properties, to free their state with the node.
    var propertyPositions: [Int] { [] }
    /// Frees a slot, destroying its view.
    func free(_ slot: Int32) {}
}

/// The views of one type.
@MainActor
final class ViewStore<V: View>: AnyViewStore {
    private var views: ContiguousArray<V?> = []
    private var freeSlots: [Int32] = []
    /// The view's ``State``, ``Environment`` and ``Binding`` properties, found once from the
    /// cached field model.
    private let properties: [(slot: Int, field: Field)]
    override var propertyPositions: [Int] { positions }
    private let positions: [Int]
    /// Whether `V` is a primitive (its `Body` is `Never`).
    private let isPrimitive = V.Body.self == Never.self

    init(id: Int32) {
        let type = TypeMetadata(V.self)
        properties = PropertyFields.of(type)
        positions = properties.map(\.slot)
        super.init(id: id, viewType: type)
    }

    /// Stores a new view.
    func insert(_ view: V) -> Int32 {
        if let slot = freeSlots.popLast() {
            views[Int(slot)] = view
            return slot
        }
        views.append(view)
        return Int32(views.count - 1)
    }

    /// Takes a parent's new value for the view in a slot.
    /// - Returns: Whether the value differs by layout equality, so that the view must be
    ///   evaluated again.
    func receive(_ view: V, at slot: Int32) -> Bool {
        let index = Int(slot)
        if let stored = views[index], TypeMetadata.layoutEquals(stored, view) { return false }
        views[index] = view
        return true
    }

    override func free(_ slot: Int32) {
        views[Int(slot)] = nil
        freeSlots.append(slot)
    }

    /// The view in a slot with its properties installed.
    private func installed(_ slot: Int32, node: NodeIndex, graph: ViewGraph, recordsDependencies: Bool) -> V {
        // Always set: a slot is read only while its node lives.
        var view = views[Int(slot)]!
        guard !properties.isEmpty else { return view }
        let environment = graph.record(node).environment
        for (position, field) in properties {
            guard let value = try? field.value(in: view),
                var property = PrimitiveResolution.propertyProtocol?.open(value, as: (any GraphProperty).self)
            else { continue }
            property.install(
                in: PropertyContext(
                    graph: graph,
                    node: node,
                    slot: position,
                    environment: environment,
                    recordsDependencies: recordsDependencies
                )
            )
            try? field.setValue(property, in: &view)
        }
        return view
    }

    override func evaluate(_ slot: Int32, children: inout Children) {
        let view = installed(slot, node: children.nodeIndex, graph: children.graph!, recordsDependencies: true)
        if isPrimitive {
            if PrimitiveResolution.primitiveProtocol?.withOpened(
                view,
                as: (any PrimitiveView).self,
                { $0.makeChildren(&children) }
            ) == nil {
                children.append(InvalidView(typeName: "\(viewType.name) has no body"))
            }
        } else {
            children.append(view.body)
        }
    }

    override func viewValue(_ slot: Int32, node: NodeIndex, graph: ViewGraph) -> Any {
        installed(slot, node: node, graph: graph, recordsDependencies: false)
    }

    override func renderAttributes(_ slot: Int32) -> RenderAttributes {
        guard isPrimitive, let view = views[Int(slot)] else { return RenderAttributes() }
        return PrimitiveResolution.primitiveProtocol?.withOpened(view, as: (any PrimitiveView).self) {
            $0.renderAttributes
        } ?? RenderAttributes()
    }

    override func childEnvironment(_ slot: Int32, _ environment: EnvironmentValues) -> EnvironmentValues {
        guard isPrimitive, let view = views[Int(slot)] else { return environment }
        var environment = environment
        PrimitiveResolution.primitiveProtocol?.withOpened(view, as: (any PrimitiveView).self) {
            $0.transformEnvironment(&environment)
        }
        return environment
    }
}

/// The protocols the graph opens values as.
enum PrimitiveResolution {
    static let primitiveProtocol = try? ProtocolDescriptor((any PrimitiveView).self)
    static let propertyProtocol = try? ProtocolDescriptor((any GraphProperty).self)
    static let primitiveModifierProtocol = try? ProtocolDescriptor((any PrimitiveModifier).self)
}

/// The stored properties of view types that are ``State``, ``Environment`` or ``Binding``.
enum PropertyFields {
    /// The properties of a view type, with their positions, from the cached field model and
    /// conformance cache.
    static func of(_ type: TypeMetadata) -> [(slot: Int, field: Field)] {
        guard let fields = try? type.fields, let property = PrimitiveResolution.propertyProtocol else { return [] }
        var properties: [(slot: Int, field: Field)] = []
        for (slot, field) in fields.enumerated() {
            if let fieldType = field.type, property.conformance(of: fieldType) != nil {
                properties.append((slot, field))
            }
        }
        return properties
    }
}

/// What renderers know of modifiers.
@MainActor
enum ModifierRoles {
    static func attributes<Modifier: ViewModifier>(of modifier: Modifier) -> RenderAttributes {
        withPrimitive(modifier) { $0.renderAttributes } ?? RenderAttributes()
    }

    static func transformEnvironment<Modifier: ViewModifier>(
        _ environment: inout EnvironmentValues,
        by modifier: Modifier
    ) {
        withPrimitive(modifier) { $0.transformEnvironment(&environment) }
    }

    /// Lends a modifier to `body` as a primitive, without copying it.
    @discardableResult
    private static func withPrimitive<Modifier: ViewModifier, R>(
        _ modifier: Modifier,
        _ body: (borrowing any PrimitiveModifier) -> R
    ) -> R? {
        guard Modifier.Body.self == Never.self else { return nil }
        return PrimitiveResolution.primitiveModifierProtocol?.withOpened(
            modifier,
            as: (any PrimitiveModifier).self,
            body
        )
    }
}
