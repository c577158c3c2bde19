// Modifiers.swift

/// A change applied to a view, producing a new view.
///
/// A modifier's ``body(content:)`` receives the modified view as ``ModifierContent`` and
/// returns what replaces it:
///
/// ```swift
/// struct Card: ViewModifier {
///     func body(content: Content) -> some View {
///         Stack(.vertical) {
///             content
///         }
///         .padding(8)
///     }
/// }
/// Text("Hi").modifier(Card())
/// ```
@MainActor @preconcurrency
public protocol ViewModifier {
    /// The type of view the modifier produces.
    associatedtype Body: View
    /// The modified view, as the modifier sees it.
    typealias Content = ModifierContent

    /// Builds the modified view.
    /// - Parameter content: The view being modified.
    /// - Returns: What replaces it.
    @ViewBuilder func body(content: Content) -> Body
}

/// The view a ``ViewModifier`` modifies: in the graph, the node of the modified view itself.
public struct ModifierContent: View, PrimitiveView {
    /// Adds the modified view to a child list.
    let content: @MainActor (inout Children) -> Void

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) { content(&children) }
}

/// A modifier the graph applies itself: it has no body, and changes the node's attributes or
/// its children's environment.
protocol PrimitiveModifier: ViewModifier where Body == Never {
    /// What a renderer shows for the modified node.
    var renderAttributes: RenderAttributes { get }
    /// Changes the environment of the modified view.
    func transformEnvironment(_ environment: inout EnvironmentValues)
}

extension PrimitiveModifier {
    var renderAttributes: RenderAttributes { RenderAttributes() }
    func transformEnvironment(_ environment: inout EnvironmentValues) {}
}

extension ViewModifier where Body == Never {
    /// Primitive modifiers have no body; the graph never asks for it.
    /// - Parameter content: The modified view.
    /// - Returns: Never returns.
    public func body(content: Content) -> Never { fatalError("\(Self.self) is a primitive modifier") }
}

/// A view with a modifier applied.
public struct ModifiedContent<Content: View, Modifier: ViewModifier>: View, PrimitiveView {
    /// The modified view.
    public var content: Content
    /// The modifier.
    public var modifier: Modifier

    /// Applies a modifier.
    /// - Parameters:
    ///   - content: The view.
    ///   - modifier: The modifier.
    public init(content: Content, modifier: Modifier) {
        self.content = content
        self.modifier = modifier
    }

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) {
        if Modifier.Body.self == Never.self {
            children.append(content)
        } else {
            let content = self.content
            children.append(ModifierBody(modifier: modifier, content: ModifierContent { $0.append(content) }))
        }
    }

    var renderAttributes: RenderAttributes {
        ModifierRoles.attributes(of: modifier)
    }

    func transformEnvironment(_ environment: inout EnvironmentValues) {
        ModifierRoles.transformEnvironment(&environment, by: modifier)
    }
}

/// A modifier's body as a node of its own, as SwiftUI makes a modifier a view of its own: the
/// modifier's ``State``, ``Binding`` and ``Environment`` properties are installed on this node as
/// a view's own are (``ModifierBodyStore``), so its state lives with the node, is kept across
/// updates, and is released when the node goes.
struct ModifierBody<Modifier: ViewModifier>: View {
    /// The modifier, as the modified view gave it.
    var modifier: Modifier
    /// The modified view.
    let content: ModifierContent

    var body: Modifier.Body { modifier.body(content: content) }
}

/// Padding around a view.
public struct PaddingModifier: PrimitiveModifier, Equatable {
    /// The padding, in points, on every edge.
    public var amount: Int

    /// Pads every edge.
    /// - Parameter amount: The padding, in points.
    public init(amount: Int) {
        self.amount = amount
    }

    var renderAttributes: RenderAttributes { RenderAttributes(padding: amount) }
}

/// A tag that identifies a view, for selection or lookup.
public struct TagModifier<Tag: Hashable>: PrimitiveModifier {
    /// The tag.
    public var tag: Tag

    /// Tags a view.
    /// - Parameter tag: The tag.
    public init(tag: Tag) {
        self.tag = tag
    }

    var renderAttributes: RenderAttributes { RenderAttributes(tag: String(describing: tag)) }
}

/// A CSS-like class name that renderers attach to the view.
public struct ClassModifier: PrimitiveModifier, Equatable {
    /// The class name.
    public var name: String

    /// Adds a class name.
    /// - Parameter name: The class name.
    public init(name: String) {
        self.name = name
    }

    var renderAttributes: RenderAttributes { RenderAttributes(classNames: [name]) }
}

extension View {
    /// Applies a modifier.
    /// - Parameter modifier: The modifier.
    /// - Returns: The modified view.
    public func modifier<Modifier: ViewModifier>(_ modifier: Modifier) -> ModifiedContent<Self, Modifier> {
        ModifiedContent(content: self, modifier: modifier)
    }

    /// Adds padding on every edge.
    /// - Parameter amount: The padding, in points.
    /// - Returns: The padded view.
    public func padding(_ amount: Int = 8) -> ModifiedContent<Self, PaddingModifier> {
        modifier(PaddingModifier(amount: amount))
    }

    /// Tags the view.
    /// - Parameter tag: The tag.
    /// - Returns: The tagged view.
    public func tag<Tag: Hashable>(_ tag: Tag) -> ModifiedContent<Self, TagModifier<Tag>> {
        modifier(TagModifier(tag: tag))
    }

    /// Adds a class name that renderers attach to the view, such as a CSS class.
    /// - Parameter name: The class name.
    /// - Returns: The view.
    public func className(_ name: String) -> ModifiedContent<Self, ClassModifier> {
        modifier(ClassModifier(name: name))
    }
}
