// ScreenRouting.swift
//
// ScreenUI's scenario: screens store their transitions as fields, the route tree is derived
// from the root screen's type by walking field types with RuntimeMetadata, with no
// registration, and a router navigates by a path of route names and renders the screen it
// reaches with ViewGraph.

public import RuntimeMetadata
public import ViewGraph

/// A screen: a view that may store transitions to other screens as its fields.
///
/// ```swift
/// struct Feed: Screen {
///     var match = Push(Match())
///     var settings = Present(Settings())
///     var body: some View { Text("Feed") }
/// }
/// ```
public protocol Screen: View {}

/// How a transition shows its destination.
public enum TransitionStyle: String, Sendable {
    /// Pushed onto the current navigation stack.
    case push
    /// Presented over the current screen.
    case present
}

/// A transition to a destination screen, stored as a field of the screen it starts from.
public protocol Transition {
    /// The screen the transition shows.
    associatedtype Destination: Screen
    /// The destination, with its own transitions.
    var destination: Destination { get }
    /// How the destination is shown.
    static var style: TransitionStyle { get }
}

/// A transition that pushes its destination.
public struct Push<Destination: Screen>: Transition {
    /// The destination.
    public var destination: Destination
    /// Pushes a screen.
    /// - Parameter destination: The screen.
    public init(_ destination: Destination) { self.destination = destination }
    /// Pushed.
    public static var style: TransitionStyle { .push }
}

/// A transition that presents its destination.
public struct Present<Destination: Screen>: Transition {
    /// The destination.
    public var destination: Destination
    /// Presents a screen.
    /// - Parameter destination: The screen.
    public init(_ destination: Destination) { self.destination = destination }
    /// Presented.
    public static var style: TransitionStyle { .present }
}

/// A route of the tree: a screen type, reached from its parent by the field named ``name``.
public struct Route: Sendable, Equatable {
    /// The name of the field that holds the transition; `""` for the root.
    public var name: String
    /// The screen's type.
    public var screenType: TypeMetadata
    /// How the screen is shown; `nil` for the root.
    public var style: TransitionStyle?
    /// The routes from this screen, in the order its fields are declared.
    public var children: [Route]
    /// Whether the screen type already appears above this route, so that its routes are not
    /// listed again (a screen that can reach itself).
    public var isRecursive: Bool

    /// The routes as indented lines: `name (push) -> Type`.
    public var outline: String {
        var lines: [String] = []
        var stack: [(route: Route, depth: Int)] = [(self, 0)]
        while let (route, depth) = stack.popLast() {
            lines.append(String(repeating: "  ", count: depth) + route.line)
            for child in route.children.reversed() { stack.append((child, depth + 1)) }
        }
        return lines.joined(separator: "\n")
    }

    /// This route's own line of the outline: `match (push) -> Match`, the root's screen alone.
    public var line: String {
        let head = name.isEmpty ? "" : "\(name) (\(style?.rawValue ?? "")) -> "
        return head + TextRenderer.unqualifiedName(screenType.name) + (isRecursive ? " …" : "")
    }
}

/// Why a router could not navigate.
public enum RoutingError: Error, Equatable, CustomStringConvertible {
    /// A path component names no transition of the screen reached so far.
    case unknownRoute(String, screen: String, available: [String])
    /// The screen's type is not a screen, or its fields could not be read.
    case unreadable(String)

    /// A sentence naming the route and what is available.
    public var description: String {
        switch self {
        case .unknownRoute(let name, let screen, let available):
            "\(screen) has no route \"\(name)\"; its routes are \(available.isEmpty ? "none" : available.joined(separator: ", "))"
        case .unreadable(let reason): reason
        }
    }
}

/// Transitions opened through RuntimeMetadata.
enum TransitionResolution {
    static let transition = try? ProtocolDescriptor((any Transition).self)

    /// The fields of a screen type that hold transitions, with their transition types opened.
    static func transitionFields(of type: TypeMetadata) -> [(field: Field, transition: any Transition.Type)] {
        guard let protocolDescriptor = transition, let fields = try? type.fields else { return [] }
        var result: [(field: Field, transition: any Transition.Type)] = []
        for field in fields {
            guard let fieldType = field.type?.type,
                let opened = protocolDescriptor.open(fieldType, as: (any Transition.Type).self)
            else { continue }
            result.append((field, opened))
        }
        return result
    }
}

extension Transition {
    /// The destination's type.
    static var destinationType: TypeMetadata { TypeMetadata(Destination.self) }
    /// The destination of a transition value of this type.
    static func destination(of value: Any) -> (any Screen)? { (value as? Self)?.destination }
}

extension Route {
    /// Derives the route tree of a root screen type from its fields' types: every field whose
    /// type is a ``Transition`` is a route to the transition's destination type, whose own
    /// fields are walked in turn. Nothing is registered; a screen type met again on the same
    /// path is marked ``isRecursive`` and not walked again.
    /// - Parameter root: The root screen's type.
    /// - Returns: The tree.
    public static func tree<Root: Screen>(of root: Root.Type) -> Route {
        tree(of: TypeMetadata(root))
    }

    /// The route tree of a screen type given as metadata.
    /// - Parameter root: The root screen's type.
    /// - Returns: The tree.
    public static func tree(of root: TypeMetadata) -> Route {
        // Built with its own stack: a wide or deep screen graph does not recurse.
        struct Pending {
            var route: Route
            var path: [TypeMetadata]
            var parent: Int?
        }
        var nodes: [Pending] = [
            Pending(
                route: Route(name: "", screenType: root, style: nil, children: [], isRecursive: false),
                path: [root],
                parent: nil
            )
        ]
        var index = 0
        while index < nodes.count {
            let current = nodes[index]
            if !current.route.isRecursive {
                for (field, transition) in TransitionResolution.transitionFields(of: current.route.screenType) {
                    let destination = transition.destinationType
                    let recursive = current.path.contains(destination)
                    nodes.append(
                        Pending(
                            route: Route(
                                name: field.name,
                                screenType: destination,
                                style: transition.style,
                                children: [],
                                isRecursive: recursive
                            ),
                            path: current.path + [destination],
                            parent: index
                        )
                    )
                }
            }
            index += 1
        }
        // Children are attached from the last node back, so each is complete when attached.
        for position in nodes.indices.reversed() {
            guard let parent = nodes[position].parent else { continue }
            nodes[parent].route.children.insert(nodes[position].route, at: 0)
        }
        return nodes[0].route
    }
}

/// Navigates a screen graph by route names and shows the current screen.
///
/// ```swift
/// var router = Router(root: AppRoot())
/// try router.navigate(to: "feed/match")
/// print(router.render())
/// ```
@MainActor
public struct Router {
    /// The root screen.
    public let root: any Screen
    /// The route names from the root to the current screen.
    public private(set) var path: [String] = []
    /// The screens from the root to the current one.
    public private(set) var stack: [any Screen]

    /// A router at a root screen.
    /// - Parameter root: The root screen, whose transitions' destinations are the screens
    ///   the router reaches.
    public init(root: any Screen) {
        self.root = root
        stack = [root]
    }

    /// The current screen.
    public var current: any Screen { stack[stack.count - 1] }

    /// The names of the routes from the current screen, in field order.
    public var availableRoutes: [String] {
        TransitionResolution.transitionFields(of: TypeMetadata(type(of: current))).map(\.field.name)
    }

    /// Follows one route from the current screen.
    /// - Parameter name: The name of the field that holds the transition.
    /// - Throws: ``RoutingError/unknownRoute(_:screen:available:)`` when the screen has no such route.
    public mutating func follow(_ name: String) throws(RoutingError) {
        let screen = current
        let type = TypeMetadata(Swift.type(of: screen))
        let fields = TransitionResolution.transitionFields(of: type)
        guard let (field, transition) = fields.first(where: { $0.field.name == name }) else {
            throw .unknownRoute(
                name,
                screen: TextRenderer.unqualifiedName(type.name),
                available: fields.map(\.field.name)
            )
        }
        guard let value = try? field.value(in: screen), let destination = transition.destination(of: value) else {
            throw .unreadable("the route \"\(name)\" of \(type.name) could not be read")
        }
        stack.append(destination)
        path.append(name)
    }

    /// Navigates from the root along a path of route names, such as `"feed/match"`.
    /// - Parameter path: Route names separated by `/`; `""` is the root.
    /// - Throws: As ``follow(_:)``; the router stays where it was.
    public mutating func navigate(to path: String) throws(RoutingError) {
        var router = Router(root: root)
        for name in path.split(separator: "/") where !name.isEmpty { try router.follow(String(name)) }
        self = router
    }

    /// Goes back one screen; at the root, stays.
    public mutating func back() {
        guard stack.count > 1 else { return }
        stack.removeLast()
        path.removeLast()
    }

    /// The graph of the current screen.
    public func graph() -> ViewGraph { ViewGraph(any: current) }

    /// The current screen as text, one node per line.
    public func render() -> String { TextRenderer().render(graph()) }
}

/// A route tree as nested views: each route's line, then its routes in a group of their own,
/// which a page indents, so that the nesting shows as the tree's (an outline's leading spaces
/// collapse in HTML).
public struct RouteTreeView: View {
    /// The route shown, with its routes below it.
    public var route: Route

    /// Shows a route tree.
    /// - Parameter route: The tree's root.
    public init(route: Route) {
        self.route = route
    }

    /// The route's line, then its routes nested.
    public var body: some View {
        Stack(.vertical, spacing: 2) {
            Text(route.line).className("route")
            if !route.children.isEmpty {
                Stack(.vertical, spacing: 2) {
                    ForEach(route.children.indices, id: \.self) { RouteTreeView(route: route.children[$0]) }
                }
                .className("route-children")
            }
        }
    }
}
