// ScenarioTests.swift
//
// The seeds' scenarios as the example app builds them: ScreenUI's routes derived from the
// screens' field types, Fiori's components rendered from protocol compositions, and
// Subviews' property wrapper found through the field model. Oracles: the declarations
// themselves, `Mirror`, and `as?`.

import RuntimeMetadata
import Testing
import ViewGraph
import ViewGraphExamples

/// A transition that makes its destination on demand, so that a screen can reach itself.
struct Later<Destination: Screen>: Transition {
    var make: () -> Destination
    var destination: Destination { make() }
    static var style: TransitionStyle { .push }
}

struct Loop: Screen {
    var again = Later<Loop> { Loop(again: nil) }
    init(again: Later<Loop>? = nil) { if let again { self.again = again } }
    var body: some View { Text("loop") }
}

@Suite("Seed scenarios")
@MainActor
struct ScenarioTests {
    @Test("ScreenUI: the route tree is derived from the root screen's field types, with no registration")
    func routeTree() {
        let tree = Route.tree(of: AppRoot.self)
        #expect(
            tree.outline == """
                AppRoot
                  feed (push) -> Feed
                    match (push) -> Match
                      player (push) -> Player
                    tournament (push) -> Tournament
                      match (push) -> Match
                        player (push) -> Player
                  search (push) -> Search
                    player (present) -> Player
                  settings (present) -> Settings
                    account (push) -> Account
                """
        )
        // Mirror agrees on each screen's transition fields, in order.
        let mirrored = Mirror(reflecting: AppRoot()).children.compactMap { child -> String? in
            guard let label = child.label, String(describing: type(of: child.value)).hasPrefix("P") else { return nil }
            return label
        }
        #expect(tree.children.map(\.name) == mirrored)
        // A screen that can reach itself is listed once, marked.
        let loop = Route.tree(of: Loop.self)
        #expect(loop.children.map(\.name) == ["again"])
        #expect(loop.children.first?.isRecursive == true)
        #expect(loop.children.first?.children.isEmpty == true)
    }

    @Test("ScreenUI: the router navigates by route names and renders the current screen")
    func router() throws {
        var router = Router(root: AppRoot())
        #expect(router.availableRoutes == ["feed", "search", "settings"])
        try router.navigate(to: "feed/tournament/match/player")
        #expect(router.path == ["feed", "tournament", "match", "player"])
        #expect(texts(router.graph()) == ["Player: Grace"])
        router.back()
        #expect(texts(router.graph()) == ["Match: Semifinal"])
        try router.follow("player")
        #expect(texts(router.graph()) == ["Player: Grace"])
        #expect(router.render().hasPrefix("Player\n"))
        try router.navigate(to: "search/player")
        #expect(texts(router.graph()) == ["Player: Ada"])
        // An unknown route is an error naming what exists; the router stays.
        let error = #expect(throws: RoutingError.self) { try router.navigate(to: "feed/nowhere") }
        #expect(error?.description == "Feed has no route \"nowhere\"; its routes are match, tournament")
        #expect(router.path == ["search", "player"])
        try router.navigate(to: "")
        #expect(texts(router.graph()) == ["Home"])
    }

    @Test("Fiori: one generic component renders any model conforming to a composition, slots in declaration order")
    func components() {
        let person = Person(detailImage: "ada.png", title: "Ada Lovelace", subtitle: "Analyst")
        let personView = ComponentView(model: person, composition: (any PersonDetailItemModel).self)
        #expect(texts(ViewGraph(root: personView)) == ["[image ada.png]", "Ada Lovelace", "Analyst"])
        // The order is the model's declaration order, as Mirror lists its properties.
        #expect(Mirror(reflecting: person).children.map(\.label) == ["detailImage", "title", "subtitle"])
        let order = Order(status: "Shipped", title: "Order 42", footnote: "2 items")
        #expect(
            texts(ViewGraph(root: ComponentView(model: order, composition: (any ObjectItemModel).self)))
                == ["Shipped", "Order 42", "2 items"]
        )
        // A model that does not conform to the composition, as `as?` says, shows an error.
        #expect((order as Any) as? any PersonDetailItemModel == nil)
        let mismatch = ViewGraph(root: ComponentView(model: order, composition: (any PersonDetailItemModel).self))
        #expect(TextRenderer().render(mismatch).contains("does not conform to PersonDetailItemModel"))
        // A model given as Any inside a list resolves the same way.
        let list = ViewGraph(
            root: Group {
                ForEach(0..<2) { index in
                    ComponentView(
                        model: index == 0 ? person as Any : order as Any,
                        composition: (any TitleComponent).self
                    )
                }
            }
        )
        #expect(texts(list) == ["Ada Lovelace", "Order 42"])
    }

    @Test("Subviews: @Subview properties found through the field model; non-nil optionals and array elements count")
    func subviews() {
        var card = ProfileCard()
        #expect(card.subviews.map(\.label) == ["name", "badge", "facts", "facts"])
        #expect(card.subviews.map(\.placement) == [.top, .pin, .bottom, .bottom])
        // Mirror's oracle: the stored properties that are Subview wrappers, in order.
        let wrappers = Mirror(reflecting: card).children.compactMap { child -> String? in
            String(describing: type(of: child.value)).hasPrefix("Subview<") ? child.label : nil
        }
        #expect(wrappers == ["_name", "_badge", "_hint", "_facts"])
        card.hint = Text("hint")
        card.badge = nil
        #expect(card.subviews.map(\.label) == ["name", "hint", "facts", "facts"])
        #expect(texts(ViewGraph(root: card)) == ["Ada Lovelace", "hint", "Analyst", "London"])
        card.facts = []
        #expect(texts(ViewGraph(root: card)) == ["Ada Lovelace", "hint"])
    }
}
