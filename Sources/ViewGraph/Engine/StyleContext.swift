// StyleContext.swift
//
// Style contexts in the manner of Engine's StyleContext: a container marks its subtree with a
// context, and a conditional modifier applies only where its context matches. The contexts
// travel down the environment as types; the choice is typed both ways, without `AnyView`.

/// A kind of place in the view tree, such as "inside a list", that modifiers can test.
///
/// ```swift
/// struct SidebarContext: StyleContext {}
///
/// Text("Item")
///     .modifier(StyleContextConditionalModifier(predicate: SidebarContext.self) { PaddingModifier(amount: 2) })
/// ```
public protocol StyleContext {
    /// Other contexts that also count as this one.
    static var aliases: [any StyleContext.Type] { get }

    /// Whether this context matches where the view is.
    /// - Parameter input: The contexts of the view's ancestors, innermost last.
    /// - Returns: Whether the context matches.
    static func evaluate(_ input: StyleContextInputs) -> Bool
}

extension StyleContext {
    /// No aliases.
    public static var aliases: [any StyleContext.Type] { [] }

    /// Matches when the innermost context set above the view is this one or one of its aliases.
    /// - Parameter input: The contexts of the view's ancestors.
    /// - Returns: Whether the context matches.
    public static func evaluate(_ input: StyleContextInputs) -> Bool {
        guard let innermost = input.contexts.last else { return false }
        return innermost == ObjectIdentifier(Self.self)
            || aliases.contains { ObjectIdentifier($0) == innermost }
    }
}

/// The context of no container: matches a view with no context set above it.
public struct NoStyleContext: StyleContext {
    /// Matches when no context is set.
    /// - Parameter input: The contexts of the view's ancestors.
    /// - Returns: Whether none is set.
    public static func evaluate(_ input: StyleContextInputs) -> Bool { input.contexts.isEmpty }
}

/// The context a ``ScrollView`` sets for its content. Stacks and groups set none.
public struct ScrollViewStyleContext: StyleContext {}

/// The context a ``List`` sets for its rows.
public struct ListStyleContext: StyleContext {}

/// The style contexts above a view.
public struct StyleContextInputs: Equatable, Sendable {
    /// The contexts, outermost first.
    public var contexts: [ObjectIdentifier]

    /// Contexts, outermost first.
    /// - Parameter contexts: The contexts' type identities.
    public init(contexts: [ObjectIdentifier] = []) {
        self.contexts = contexts
    }
}

extension EnvironmentValues {
    /// The style contexts set above the view.
    public var styleContext: StyleContextInputs {
        get { self[StyleContextKey.self] }
        set { self[StyleContextKey.self] = newValue }
    }
}

private struct StyleContextKey: EnvironmentKey {
    static var defaultValue: StyleContextInputs { StyleContextInputs() }
}

/// Sets a style context for the modified view's subtree.
public struct StyleContextModifier<Context: StyleContext>: PrimitiveModifier {
    /// Sets the context.
    public init() {}

    func transformEnvironment(_ environment: inout EnvironmentValues) {
        environment.styleContext.contexts.append(ObjectIdentifier(Context.self))
    }
}

/// Applies a modifier only where a style context matches.
public struct StyleContextConditionalModifier<Context: StyleContext, Modifier: ViewModifier>: ViewModifier {
    /// The modifier to apply.
    public var modifier: Modifier

    /// Applies `modifier` where `Context` matches.
    /// - Parameters:
    ///   - predicate: The context.
    ///   - modifier: The modifier.
    public init(predicate: Context.Type, modifier: () -> Modifier) {
        self.modifier = modifier()
    }

    /// The content, modified or not depending on the context.
    /// - Parameter content: The modified view.
    /// - Returns: The content, modified where the context matches.
    public func body(content: Content) -> StyleContextConditionalContent<Context, Modifier> {
        StyleContextConditionalContent<Context, Modifier>(content: content, modifier: modifier)
    }
}

/// The content of a ``StyleContextConditionalModifier``: decided where the graph knows the
/// environment.
public struct StyleContextConditionalContent<Context: StyleContext, Modifier: ViewModifier>: View, PrimitiveView {
    let content: ModifierContent
    let modifier: Modifier

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) {
        if Context.evaluate(children.read(\.styleContext)) {
            children.append(content.modifier(modifier))
        } else {
            children.append(content)
        }
    }
}

extension View {
    /// Sets a style context for this view's subtree.
    /// - Parameter context: The context.
    /// - Returns: The view.
    public func styleContext<Context: StyleContext>(
        _ context: Context.Type
    ) -> ModifiedContent<Self, StyleContextModifier<Context>> {
        modifier(StyleContextModifier<Context>())
    }
}
