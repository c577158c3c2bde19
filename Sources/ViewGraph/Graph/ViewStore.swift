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

    /// Whether the view type declares a body of its own (not `Never`): a view a user wrote,
    /// rather than a primitive the graph evaluates.
    var declaresBody: Bool { false }
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
    /// - Returns: The node whose view moved into the freed slot to keep the buffer dense, if any.
    func free(_ slot: Int32) -> Int32? { nil }
    /// The number of views the store holds.
    var count: Int { 0 }
    /// Makes room for a number of views.
    func reserve(_ capacity: Int) {}
}

/// The views of one type whose body the graph evaluates.
///
/// A primitive view type has a ``PrimitiveStore``, a subclass that calls the primitive's
/// requirements on its views typed, without a cast.
@MainActor
class ViewStore<V: View>: AnyViewStore {
    /// The views, by slot, dense: a freed slot takes the last view.
    final var views: ContiguousArray<V> = []
    /// The node of each slot's view.
    private var owners = SlotOwners()
    /// The view's ``State``, ``Environment`` and ``Binding`` properties, found once from the
    /// cached field model, each with its type opened as a ``GraphProperty``.
    private let properties: [PropertyField]
    /// Whether the view type has no ``State``, ``Environment`` or ``Binding`` to install.
    final var hasNoProperties: Bool { properties.isEmpty }
    override var propertyPositions: [Int] { positions }
    /// The properties' positions, kept so that removing a node allocates nothing for them.
    private let positions: [Int]
    /// The view type opened as a ``ViewStyledView`` with a body of its own, its final styling.
    private let finalStyling: (any ViewStyledView.Type)?
    /// Whether an installed view stays valid until its parent gives a new value: its
    /// properties are ``State`` and ``Binding`` only, whose installation is the same at every
    /// evaluation. An ``Environment`` property is installed anew by each evaluation, which
    /// records the read.
    private let keepsInstalledViews: Bool
    /// Each slot's view with its properties installed, kept when ``keepsInstalledViews``, and
    /// whether it is the installation of the slot's current view.
    private var installedViews: ContiguousArray<V> = []
    private var installedIsCurrent: ContiguousArray<Bool> = []

    init(id: Int32, recipe: StoreRecipe) {
        properties = recipe.properties
        positions = recipe.positions
        keepsInstalledViews = recipe.keepsInstalledViews
        finalStyling = recipe.finalStyling
        super.init(id: id, viewType: TypeMetadata(V.self))
    }

    /// Makes the store of a view type: a ``PrimitiveStore`` for a primitive, a
    /// ``ModifierBodyStore`` for a modifier's body, from the type's recipe.
    static func make(id: Int32) -> ViewStore<V> {
        let recipe = StoreRecipe.of(V.self)
        switch recipe.kind {
        case .view:
            break
        case .primitive(let primitive):
            if let store = primitive.makeStore(id: id, recipe: recipe) as? ViewStore<V> { return store }
        case .modifierBody(let modifierBody):
            if let store = modifierBody.makeStore(id: id, recipe: recipe) as? ViewStore<V> { return store }
        }
        return ViewStore<V>(id: id, recipe: recipe)
    }

    final override var declaresBody: Bool { V.Body.self != Never.self }
    final override var count: Int { views.count }

    final override func reserve(_ capacity: Int) {
        views.reserveCapacity(capacity)
        owners.reserve(capacity)
        if keepsInstalledViews {
            installedViews.reserveCapacity(capacity)
            installedIsCurrent.reserveCapacity(capacity)
        }
    }

    /// Stores a new view.
    /// - Parameters:
    ///   - view: The view.
    ///   - owner: The position of its node.
    /// - Returns: The view's slot.
    final func insert(_ view: consuming V, owner: Int32) -> Int32 {
        if keepsInstalledViews { return insertKeepingInstallation(view, owner: owner) }
        owners.append(owner, at: views.count)
        views.append(consume view)
        return Int32(views.count - 1)
    }

    /// Stores a new view, with a place for its installation, made at its first evaluation.
    private func insertKeepingInstallation(_ view: consuming V, owner: Int32) -> Int32 {
        installedViews.append(copy view)
        installedIsCurrent.append(false)
        owners.append(owner, at: views.count)
        views.append(consume view)
        return Int32(views.count - 1)
    }

    /// Takes a parent's new value for the view in a slot.
    /// - Returns: Whether the value differs by layout equality, so that the view must be
    ///   evaluated again.
    final func receive(_ view: consuming V, at slot: Int32) -> Bool {
        let index = Int(slot)
        // Compared where the buffer holds the view: the array's subscript would copy it.
        if TypeMetadata.layoutEquals(views.span[index], view) { return false }
        views[index] = consume view
        if keepsInstalledViews { installedIsCurrent[index] = false }
        return true
    }

    final override func free(_ slot: Int32) -> Int32? {
        let index = Int(slot)
        let last = views.count - 1
        defer {
            views.removeLast()
            owners.removeLast(at: last)
            if keepsInstalledViews {
                installedViews.removeLast()
                installedIsCurrent.removeLast()
            }
        }
        guard index != last else { return nil }
        views.swapAt(index, last)
        owners[index] = owners[last]
        if keepsInstalledViews {
            installedViews.swapAt(index, last)
            installedIsCurrent[index] = installedIsCurrent[last]
        }
        return owners[index]
    }

    /// The view in a slot with its properties installed: the kept installation when it is
    /// current; otherwise installed now, and kept when an evaluation installed it (the
    /// evaluation records the bindings' dependencies, a read of the value does not).
    final func installed(_ slot: Int32, node: NodeIndex, graph: ViewGraph, recordsDependencies: Bool) -> V {
        let index = Int(slot)
        if keepsInstalledViews, installedIsCurrent[index] { return installedViews[index] }
        var view = views[index]
        guard !properties.isEmpty else { return view }
        let environment = graph.environment(of: node)
        for property in properties {
            property.type.install(
                field: property.field,
                in: &view,
                context: PropertyContext(
                    graph: graph,
                    node: node,
                    slot: property.position,
                    environment: environment,
                    recordsDependencies: recordsDependencies
                )
            )
        }
        if keepsInstalledViews, recordsDependencies {
            installedViews[index] = view
            installedIsCurrent[index] = true
        }
        return view
    }

    override func evaluate(_ slot: Int32, children: inout Children) {
        guard let graph = children.graph else { return }
        if properties.isEmpty, finalStyling == nil, V.Body.self != Never.self {
            // Nothing to install: the body of the stored view, lent in place. Read through the
            // subscript or a span, the view would be copied for the call (this code is not
            // specialized, so the optimizer keeps the copy), which for a generic view nested n
            // levels deep is n value-witness calls to copy and n to destroy; the body's own
            // copy of its content is the one copy left, and it is moved into the child's store.
            children.append(body(ofViewAt: Int(slot)))
            return
        }
        if keepsInstalledViews, finalStyling == nil, V.Body.self != Never.self {
            // State and bindings only: the kept installation's body, read in place, once the
            // view is installed (after a change of the parent's value, or the first time).
            if !installedIsCurrent[Int(slot)] {
                _ = installed(slot, node: children.nodeIndex, graph: graph, recordsDependencies: true)
            }
            let installedViews = self.installedViews
            children.append(InPlace.withElement(at: Int(slot), of: installedViews) { $0.body })
            return
        }
        let view = installed(slot, node: children.nodeIndex, graph: graph, recordsDependencies: true)
        if let finalStyling, finalStyling.isInsideFinalStyling(children.readOwn(\.styles)) {
            // A styled view built again inside its own final styling: the style's output.
            finalStyling.appendStyledBody(of: view, into: &children)
        } else if V.Body.self == Never.self {
            children.append(InvalidView(reason: "\(viewType.name) has no body and is not a view the graph knows"))
        } else {
            children.append(view.body)
        }
    }

    /// The body of the view in a slot, read where the buffer holds the view. The buffer is
    /// held by a local reference (the class's property is not accessed during the call) that
    /// ends before the body is appended, so that appending to the buffer does not copy it.
    private func body(ofViewAt index: Int) -> V.Body {
        let views = self.views
        return InPlace.withElement(at: index, of: views) { $0.body }
    }

    override func viewValue(_ slot: Int32, node: NodeIndex, graph: ViewGraph) -> Any {
        installed(slot, node: node, graph: graph, recordsDependencies: false)
    }

    override func childEnvironment(_ slot: Int32, _ environment: EnvironmentValues) -> EnvironmentValues {
        guard let finalStyling, !finalStyling.isInsideFinalStyling(environment.styles) else { return environment }
        var environment = environment
        finalStyling.enterFinalStyling(&environment)
        return environment
    }
}

/// The views of one primitive type: their children, attributes and environment come from the
/// primitive's requirements, called on the stored views typed.
@MainActor
final class PrimitiveStore<P: PrimitiveView>: ViewStore<P> {
    override func evaluate(_ slot: Int32, children: inout Children) {
        guard let graph = children.graph else { return }
        if hasNoProperties {
            // Nothing to install: the children of the stored view, lent in place (a tuple
            // view's copy costs its elements' value witnesses and its tuple's metadata). The
            // buffer is held by a local reference, so that a child stored in this same store
            // while the children are listed copies the buffer rather than moving the view.
            let views = self.views
            InPlace.withElement(at: Int(slot), of: views) { $0.makeChildren(&children) }
            return
        }
        let view = installed(slot, node: children.nodeIndex, graph: graph, recordsDependencies: true)
        view.makeChildren(&children)
    }

    override func renderAttributes(_ slot: Int32) -> RenderAttributes {
        let views = self.views
        return InPlace.withElement(at: Int(slot), of: views) { $0.renderAttributes }
    }

    override func childEnvironment(_ slot: Int32, _ environment: EnvironmentValues) -> EnvironmentValues {
        guard P.transformsEnvironment else { return environment }
        var environment = environment
        // Lent where the buffer holds the view: the array's subscript would copy it.
        let views = self.views
        InPlace.withElement(at: Int(slot), of: views) { $0.transformEnvironment(&environment) }
        return environment
    }
}

extension PrimitiveView {
    /// The store of this primitive type.
    static func makeStore(id: Int32, recipe: StoreRecipe) -> AnyViewStore {
        PrimitiveStore<Self>(id: id, recipe: recipe)
    }
}

/// The body of a non-primitive modifier, whose node has the modifier's properties.
protocol ModifierBodyView {
    /// The store of this modifier body type.
    @MainActor static func makeStore(id: Int32, recipe: StoreRecipe) -> AnyViewStore
    /// The modifier's ``State``, ``Environment`` and ``Binding`` properties.
    @MainActor static var modifierProperties: [PropertyField] { get }
}

extension ModifierBody: ModifierBodyView {
    static func makeStore(id: Int32, recipe: StoreRecipe) -> AnyViewStore {
        ModifierBodyStore<Modifier>(id: id, recipe: recipe)
    }

    static var modifierProperties: [PropertyField] { PropertyFields.of(TypeMetadata(Modifier.self)) }
}

/// The bodies of one modifier type: the modifier's ``State``, ``Environment`` and ``Binding``
/// properties are found in the modifier's own fields and installed in the stored modifier,
/// as a view's are in the view.
@MainActor
final class ModifierBodyStore<Modifier: ViewModifier>: ViewStore<ModifierBody<Modifier>> {
    private let modifierProperties: [PropertyField]
    private let modifierPositions: [Int]
    override var propertyPositions: [Int] { modifierPositions }

    override init(id: Int32, recipe: StoreRecipe) {
        modifierProperties = recipe.modifierProperties
        modifierPositions = recipe.modifierPositions
        super.init(id: id, recipe: recipe)
    }

    /// The body in a slot, its modifier's properties installed.
    private func installedBody(
        _ slot: Int32,
        node: NodeIndex,
        graph: ViewGraph,
        recordsDependencies: Bool
    ) -> ModifierBody<Modifier> {
        var view = views[Int(slot)]
        guard !modifierProperties.isEmpty else { return view }
        let environment = graph.environment(of: node)
        for property in modifierProperties {
            property.type.install(
                field: property.field,
                in: &view.modifier,
                context: PropertyContext(
                    graph: graph,
                    node: node,
                    slot: property.position,
                    environment: environment,
                    recordsDependencies: recordsDependencies
                )
            )
        }
        return view
    }

    override func evaluate(_ slot: Int32, children: inout Children) {
        guard let graph = children.graph else { return }
        children.append(installedBody(slot, node: children.nodeIndex, graph: graph, recordsDependencies: true).body)
    }

    override func viewValue(_ slot: Int32, node: NodeIndex, graph: ViewGraph) -> Any {
        installedBody(slot, node: node, graph: graph, recordsDependencies: false).modifier
    }
}

/// The node of each slot of a store. The first is held inline: a view type used once in a
/// tree, the most common store, allocates no list for it (and looks up no array metadata, which
/// the runtime finds by hashing on each allocation).
struct SlotOwners {
    private var first: Int32 = -1
    private var rest: ContiguousArray<Int32> = []

    /// The node of the view in a slot.
    subscript(slot: Int) -> Int32 {
        get { slot == 0 ? first : rest[slot - 1] }
        set {
            if slot == 0 { first = newValue } else { rest[slot - 1] = newValue }
        }
    }

    /// Records the node of a new last slot.
    mutating func append(_ owner: Int32, at slot: Int) {
        if slot == 0 { first = owner } else { rest.append(owner) }
    }

    /// Forgets the last slot.
    mutating func removeLast(at slot: Int) {
        if slot > 0 { rest.removeLast() }
    }

    /// Makes room for a number of slots.
    mutating func reserve(_ capacity: Int) {
        if capacity > 1 { rest.reserveCapacity(capacity - 1) }
    }
}

/// A ``GraphProperty`` stored property of a view type.
struct PropertyField {
    /// The property's position among the view's stored properties.
    let position: Int
    /// The property.
    let field: Field
    /// Its type, opened as a ``GraphProperty``.
    let type: any GraphProperty.Type
}

extension GraphProperty {
    /// Installs the property stored in a field of a view: read typed, installed, written back.
    static func install<Root>(field: Field, in root: inout Root, context: PropertyContext) {
        guard var property = try? field.value(in: root, as: Self.self) else { return }
        property.install(in: context)
        try? field.setValue(property, in: &root)
    }
}

/// The protocols the graph opens values as.
enum PrimitiveResolution {
    static let primitiveProtocol = try? ProtocolDescriptor((any PrimitiveView).self)
    static let propertyProtocol = try? ProtocolDescriptor((any GraphProperty).self)
    static let primitiveModifierProtocol = try? ProtocolDescriptor((any PrimitiveModifier).self)
    static let modifierBodyProtocol = try? ProtocolDescriptor((any ModifierBodyView).self)
}

/// The stored properties of view types that are ``State``, ``Environment`` or ``Binding``.
enum PropertyFields {
    /// The properties of a view type, from the cached field model and conformance cache.
    static func of(_ type: TypeMetadata) -> [PropertyField] {
        guard let fields = try? type.fields, let property = PrimitiveResolution.propertyProtocol else { return [] }
        var properties: [PropertyField] = []
        for (position, field) in fields.enumerated() {
            guard let fieldType = field.type?.type,
                let opened = property.open(fieldType, as: (any GraphProperty.Type).self)
            else { continue }
            properties.append(PropertyField(position: position, field: field, type: opened))
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

    /// Lends a modifier to `body` as a primitive: the modifier is boxed in an `Any` for the
    /// opening, which lends the box's value.
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
