// Node.swift

import RuntimeMetadata

/// The node of a view of type `V`, which holds the view in typed storage.
@MainActor
final class Node<V: View>: ViewNode {
    /// The view.
    private(set) var view: V

    init(_ view: V, graph: ViewGraph, parent: ViewNode?, environment: EnvironmentValues) {
        self.view = view
        super.init(graph: graph, parent: parent, environment: environment)
    }

    override var viewType: TypeMetadata { TypeMetadata(V.self) }

    override var viewValue: Any { view }

    override var renderAttributes: RenderAttributes {
        withPrimitive { $0.renderAttributes } ?? RenderAttributes()
    }

    override var childEnvironment: EnvironmentValues {
        var environment = self.environment
        withPrimitive { $0.transformEnvironment(&environment) }
        return environment
    }

    /// Lends the view to `body` as a primitive, opened through RuntimeMetadata's conformance
    /// cache without copying it.
    /// - Returns: What `body` returns, or `nil` when the view is not a primitive.
    @discardableResult
    private func withPrimitive<R>(_ body: (borrowing any PrimitiveView) -> R) -> R? {
        guard V.Body.self == Never.self else { return nil }
        return PrimitiveResolution.primitiveProtocol?.withOpened(view, as: (any PrimitiveView).self, body)
    }

    /// Takes the parent's new value for this view; it is evaluated again only when the value
    /// differs by RuntimeMetadata's layout equality.
    func receive(_ newView: V) {
        if !TypeMetadata.layoutEquals(view, newView) {
            view = newView
            needsEvaluation = true
        }
    }

    override func evaluate() {
        evaluationCount += 1
        graph.recordEvaluation(of: self)
        installProperties()
        var children = Children(node: self)
        if depth >= ViewGraph.maximumDepth, V.self != InvalidView.self {
            // A view whose body contains itself without end: stop with an error node, which
            // has no children of its own.
            children.append(
                InvalidView(typeName: "\(TypeMetadata(V.self).name) nests deeper than \(ViewGraph.maximumDepth) levels")
            )
        } else if V.Body.self == Never.self {
            if withPrimitive({ $0.makeChildren(&children) }) == nil {
                children.append(InvalidView(typeName: "\(TypeMetadata(V.self).name) has no body"))
            }
        } else {
            children.append(view.body)
        }
        self.children = children.reconciled
    }

    /// Fills in the view's ``State`` and ``Environment`` properties, found by walking its
    /// stored properties with RuntimeMetadata's cached field model.
    private func installProperties() {
        clearEnvironmentReads()
        let properties = PropertyFields.of(V.self)
        guard !properties.isEmpty else { return }
        for (slot, field) in properties {
            guard let value = try? field.value(in: view),
                var property = PrimitiveResolution.propertyProtocol?.open(value, as: (any GraphProperty).self)
            else { continue }
            property.install(in: self, slot: slot)
            try? field.setValue(property, in: &view)
        }
    }
}

/// The protocols the graph opens values as.
enum PrimitiveResolution {
    static let primitiveProtocol = try? ProtocolDescriptor((any PrimitiveView).self)
    static let propertyProtocol = try? ProtocolDescriptor((any GraphProperty).self)
    static let primitiveModifierProtocol = try? ProtocolDescriptor((any PrimitiveModifier).self)
}

/// The stored properties of view types that are ``State`` or ``Environment``.
enum PropertyFields {
    /// The properties of a view type, with their positions; computed from the cached field
    /// model and conformance cache on each call, which allocates only when there are some.
    static func of<V>(_ type: V.Type) -> [(slot: Int, field: Field)] {
        guard let fields = try? TypeMetadata(V.self).fields, let property = PrimitiveResolution.propertyProtocol else {
            return []
        }
        var result: [(slot: Int, field: Field)] = []
        for (slot, field) in fields.enumerated() {
            if let fieldType = field.type, property.conformance(of: fieldType) != nil {
                result.append((slot, field))
            }
        }
        return result
    }
}

/// What renderers know of modifiers.
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
