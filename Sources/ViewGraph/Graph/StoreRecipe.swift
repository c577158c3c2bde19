// StoreRecipe.swift
//
// What a store of one view type is made from, found once per type for every graph: which store
// class the type takes, and its views' graph properties. Found again for each store of each
// graph, a type's conformances and field model cost more than the rest of its store: a tree of
// 2,000 distinct view types spent more in them than in its bodies' own work (issue 28).

import RuntimeMetadata

/// How a view type is stored and evaluated, and which of its properties the graph installs.
@MainActor
final class StoreRecipe {
    /// The store class a view type takes.
    enum Kind {
        /// A view with a body: ``ViewStore``.
        case view
        /// A primitive view: its ``PrimitiveStore``.
        case primitive(any PrimitiveView.Type)
        /// The body of a modifier: its ``ModifierBodyStore``.
        case modifierBody(any ModifierBodyView.Type)
    }

    /// The store class.
    let kind: Kind
    /// The view type's ``State``, ``Environment`` and ``Binding`` properties, each with its type
    /// opened as a ``GraphProperty``.
    let properties: [PropertyField]
    /// The properties' positions.
    let positions: [Int]
    /// Whether an installed view stays valid until its parent gives a new value: its properties
    /// are ``State`` and ``Binding`` only.
    let keepsInstalledViews: Bool
    /// The view type opened as a ``ViewStyledView`` with a body of its own, its final styling.
    let finalStyling: (any ViewStyledView.Type)?
    /// For the body of a modifier, the modifier's graph properties, installed in the stored
    /// modifier; empty otherwise.
    let modifierProperties: [PropertyField]
    /// Their positions among the modifier's stored properties.
    let modifierPositions: [Int]

    private init<V: View>(_: V.Type) {
        let type = TypeMetadata(V.self)
        properties = PropertyFields.of(type)
        positions = properties.map(\.position)
        keepsInstalledViews = !properties.isEmpty && properties.allSatisfy { $0.type.installationLasts }
        let styled = StyleResolution.styledView?.open(V.self, as: (any ViewStyledView.Type).self)
        finalStyling = styled?.hasFinalStyling == true ? styled : nil
        if let modifierBody = PrimitiveResolution.modifierBodyProtocol?.open(
            V.self,
            as: (any ModifierBodyView.Type).self
        ) {
            kind = .modifierBody(modifierBody)
            modifierProperties = modifierBody.modifierProperties
        } else if V.Body.self == Never.self,
            let primitive = PrimitiveResolution.primitiveProtocol?.open(V.self, as: (any PrimitiveView.Type).self)
        {
            kind = .primitive(primitive)
            modifierProperties = []
        } else {
            kind = .view
            modifierProperties = []
        }
        modifierPositions = modifierProperties.map(\.position)
    }

    /// The recipes found so far, by view type. Types are never unloaded, and each has one
    /// recipe, as the runtime keeps one metadata record per type.
    private static var recipes: [ObjectIdentifier: StoreRecipe] = [:]

    /// The recipe of a view type, found on its first store in any graph.
    static func of<V: View>(_: V.Type) -> StoreRecipe {
        if let recipe = recipes[ObjectIdentifier(V.self)] { return recipe }
        let recipe = StoreRecipe(V.self)
        recipes[ObjectIdentifier(V.self)] = recipe
        return recipe
    }
}
