// Demo.swift
//
// The example app's three seed scenarios, with the values its page renders.

public import ViewGraph

// MARK: - ScreenUI: a route tree in the screens' fields

/// The app's root: a tab of screens, each storing its transitions.
public struct AppRoot: Screen {
    /// The feed.
    public var feed = Push(Feed())
    /// The search.
    public var search = Push(Search())
    /// The settings, presented.
    public var settings = Present(Settings())
    /// The root screen.
    public init() {}
    /// The root's title.
    public var body: some View { Text("Home") }
}

/// The feed, which opens matches and tournaments.
public struct Feed: Screen {
    /// A match.
    public var match = Push(Match(title: "Final"))
    /// A tournament, which lists matches.
    public var tournament = Push(Tournament())
    /// The feed.
    public init() {}
    /// The feed's content.
    public var body: some View {
        Stack(.vertical) {
            Text("Feed"); Text("3 new posts")
        }
    }
}

/// The search, which presents a player.
public struct Search: Screen {
    /// A player.
    public var player = Present(Player(name: "Ada"))
    /// The search.
    public init() {}
    /// The search's content.
    public var body: some View { Text("Search") }
}

/// A tournament.
public struct Tournament: Screen {
    /// One of its matches.
    public var match = Push(Match(title: "Semifinal"))
    /// The tournament.
    public init() {}
    /// The tournament's content.
    public var body: some View { Text("Tournament") }
}

/// A match, which opens a player.
public struct Match: Screen {
    /// The match's title.
    public var title: String
    /// The match's best player.
    public var player = Push(Player(name: "Grace"))
    /// A match.
    /// - Parameter title: Its title.
    public init(title: String) { self.title = title }
    /// The match's content.
    public var body: some View { Text("Match: \(title)") }
}

/// A player.
public struct Player: Screen {
    /// The player's name.
    public var name: String
    /// A player.
    /// - Parameter name: The name.
    public init(name: String) { self.name = name }
    /// The player's content.
    public var body: some View { Text("Player: \(name)") }
}

/// The settings.
public struct Settings: Screen {
    /// The account screen.
    public var account = Push(Account())
    /// The settings.
    public init() {}
    /// The settings' content.
    public var body: some View { Text("Settings") }
}

/// The account.
public struct Account: Screen {
    /// The account.
    public init() {}
    /// The account's content.
    public var body: some View { Text("Account") }
}

// MARK: - Fiori: components as compositions of protocols

/// A person's detail row: a title, a subtitle and an image.
public protocol PersonDetailItemModel: TitleComponent, SubtitleComponent, DetailImageComponent {}

/// An object row: a title, a footnote and a status.
public protocol ObjectItemModel: TitleComponent, FootnoteComponent, StatusComponent {}

/// A person, declaring its image first.
public struct Person: PersonDetailItemModel {
    /// The image.
    public var detailImage: String
    /// The name.
    public var title: String
    /// The role.
    public var subtitle: String
    /// A person.
    public init(detailImage: String, title: String, subtitle: String) {
        self.detailImage = detailImage
        self.title = title
        self.subtitle = subtitle
    }
}

/// An order, which is an object row.
public struct Order: ObjectItemModel {
    /// The status.
    public var status: String
    /// The title.
    public var title: String
    /// The footnote.
    public var footnote: String
    /// An order.
    public init(status: String, title: String, footnote: String) {
        self.status = status
        self.title = title
        self.footnote = footnote
    }
}

// MARK: - Subviews

/// A profile card whose subviews are marked with `@Subview`.
public struct ProfileCard: Superview {
    /// The name, at the top.
    @Subview(.top) public var name = Text("Ada Lovelace")
    /// A badge, shown when set.
    @Subview public var badge: Text? = Text("new")
    /// A hint, not set.
    @Subview public var hint: Text? = nil
    /// The facts, each a subview.
    @Subview(.bottom) public var facts = [Text("Analyst"), Text("London")]
    /// A plain property, not a subview.
    public var note = "not shown"
    /// A card.
    public init() {}
}

/// The three scenarios, as one page.
public struct ScenariosPage: View {
    /// The router's current screen, shown under its path.
    public var routed: any Screen
    /// The route tree.
    public var routes: Route
    /// The scenarios page.
    /// - Parameters:
    ///   - routed: The router's current screen.
    ///   - routes: The route tree, shown nested.
    public init(routed: any Screen, routes: Route) {
        self.routed = routed
        self.routes = routes
    }

    /// The route tree and current screen, the components, and the card.
    public var body: some View {
        Stack(.vertical, spacing: 12) {
            Text("Routes").className("heading")
            RouteTreeView(route: routes).className("routes")
            DynamicView(routed)
            Text("Components").className("heading")
            ComponentView(
                model: Person(detailImage: "ada.png", title: "Ada Lovelace", subtitle: "Analyst"),
                composition: (any PersonDetailItemModel).self
            )
            ComponentView(
                model: Order(status: "Shipped", title: "Order 42", footnote: "2 items"),
                composition: (any ObjectItemModel).self
            )
            // On purpose: an order asked to show as a person detail, which it does not conform to.
            Text("An order shown as a person detail, which it is not, shows the component's error:")
                .className("caption")
            ComponentView(
                model: Order(status: "Open", title: "Order 43", footnote: "1 item"),
                composition: (any PersonDetailItemModel).self
            )
            Text("Subviews").className("heading")
            ProfileCard()
        }
    }
}
