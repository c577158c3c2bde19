// ViewBuilder.swift

/// Builds views from the statements of a closure or a `body`.
///
/// Any number of children (through parameter packs), `if`/`else`, `if let`, `switch` and
/// optional content are supported:
///
/// ```swift
/// Group {
///     Text("Title")
///     if let subtitle { Text(subtitle) }
///     switch style {
///     case .compact: EmptyView()
///     case .regular: Text("Details")
///     }
/// }
/// ```
@MainActor @preconcurrency @resultBuilder
public enum ViewBuilder {
    /// An empty closure builds an ``EmptyView``.
    public static func buildBlock() -> EmptyView { EmptyView() }

    /// One statement builds that view.
    public static func buildBlock<Content: View>(_ content: Content) -> Content { content }

    /// Several statements build a ``TupleView`` of all of them, in order.
    public static func buildBlock<each Content: View>(_ content: repeat each Content) -> TupleView<repeat each Content>
    {
        TupleView(repeat each content)
    }

    /// `if` without `else` builds optional content.
    public static func buildIf<Content: View>(_ content: Content?) -> Content? { content }

    /// The `if` branch of an `if`/`else` or the first cases of a `switch`.
    public static func buildEither<First: View, Second: View>(first: First) -> ConditionalContent<First, Second> {
        ConditionalContent(.first(first))
    }

    /// The `else` branch of an `if`/`else` or the later cases of a `switch`.
    public static func buildEither<First: View, Second: View>(second: Second) -> ConditionalContent<First, Second> {
        ConditionalContent(.second(second))
    }

    /// `if #available` content is used as it is.
    public static func buildLimitedAvailability<Content: View>(_ content: Content) -> Content { content }
}
