// Actions.swift
//
// Interaction: a view that handles actions (a ``Button``, a view with ``View/onTapGesture(perform:)``
// or ``View/onAction(_:perform:)``), and ``ViewGraph/send(_:to:)``, which delivers an action to a
// node by its identity. The handler runs on the main actor with the view's state connected,
// so that a state change flows from the event to the next update without searching the graph.

/// Something that happens to a view: a tap, or an action a renderer names.
public struct ViewAction: Hashable, Sendable, CustomStringConvertible {
    /// The action's name.
    public let name: String

    /// An action with a name.
    /// - Parameter name: The name, such as `"submit"`.
    public init(_ name: String) {
        self.name = name
    }

    /// A tap or click.
    public static let tap = ViewAction("tap")

    /// The action's name.
    public var description: String { name }
}

/// A view or modifier that handles actions sent to its node.
@MainActor
protocol ActionHandling {
    /// Handles an action.
    /// - Returns: Whether the action was handled.
    func perform(_ action: ViewAction) -> Bool
}

/// A control that performs an action when tapped.
///
/// ```swift
/// struct Counter: View {
///     @State var count = 0
///     var body: some View {
///         Button("Count \(count)") { count += 1 }
///     }
/// }
///
/// let graph = ViewGraph(root: Counter())
/// let button = graph.allNodes.first { $0.handlesActions }!
/// try graph.send(.tap, to: button.id)  // "Count 1"
/// ```
public struct Button<Label: View>: View, PrimitiveView, ActionHandling {
    /// What the button does when tapped.
    public var action: @MainActor () -> Void
    /// What the button shows.
    public var label: Label

    /// A button with a label.
    /// - Parameters:
    ///   - action: What the button does when tapped.
    ///   - label: What the button shows.
    public init(action: @escaping @MainActor () -> Void, @ViewBuilder label: () -> Label) {
        self.action = action
        self.label = label()
    }

    /// Primitive views have no body.
    public typealias Body = Never

    func makeChildren(_ children: inout Children) { children.append(label) }
    var renderAttributes: RenderAttributes { RenderAttributes(role: .button) }

    func perform(_ action: ViewAction) -> Bool {
        guard action == .tap else { return false }
        self.action()
        return true
    }
}

extension Button where Label == Text {
    /// A button with a text label.
    /// - Parameters:
    ///   - title: The label's text.
    ///   - action: What the button does when tapped.
    public init(_ title: String, action: @escaping @MainActor () -> Void) {
        self.init(action: action) { Text(title) }
    }
}

/// Performs an action when the modified view's node receives it.
public struct ActionModifier: PrimitiveModifier, ActionHandling {
    /// The action handled.
    public var action: ViewAction
    /// What to do.
    public var perform: @MainActor () -> Void

    /// Handles an action.
    /// - Parameters:
    ///   - action: The action.
    ///   - perform: What to do.
    public init(action: ViewAction, perform: @escaping @MainActor () -> Void) {
        self.action = action
        self.perform = perform
    }

    func perform(_ action: ViewAction) -> Bool {
        guard action == self.action else { return false }
        perform()
        return true
    }
}

extension ModifiedContent: ActionHandling where Modifier == ActionModifier {
    func perform(_ action: ViewAction) -> Bool {
        modifier.perform(action)
    }
}

extension View {
    /// Performs an action when the view's node is tapped.
    /// - Parameter perform: What to do.
    /// - Returns: The view.
    public func onTapGesture(perform: @escaping @MainActor () -> Void) -> ModifiedContent<Self, ActionModifier> {
        modifier(ActionModifier(action: .tap, perform: perform))
    }

    /// Performs an action when the view's node receives it.
    /// - Parameters:
    ///   - action: The action.
    ///   - perform: What to do.
    /// - Returns: The view.
    public func onAction(
        _ action: ViewAction,
        perform: @escaping @MainActor () -> Void
    ) -> ModifiedContent<Self, ActionModifier> {
        modifier(ActionModifier(action: action, perform: perform))
    }
}

/// Why the graph could not do what it was asked.
public enum ViewGraphError: Error, Equatable, CustomStringConvertible {
    /// No living node has the identity: it was never made, or it was removed.
    case nodeNotFound(NodeID)
    /// The node's view does not handle the action.
    case actionNotHandled(ViewAction, typeName: String)

    /// A sentence naming the node or view.
    public var description: String {
        switch self {
        case .nodeNotFound(let id): "no node \(id) is in the graph; it was removed or never made"
        case .actionNotHandled(let action, let typeName): "\(typeName) does not handle the action \"\(action)\""
        }
    }
}
