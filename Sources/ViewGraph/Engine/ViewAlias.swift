// ViewAlias.swift
//
// View aliases in the manner of Engine's ViewAlias: a placeholder type that an ancestor
// defines with `.viewAlias(_:source:)`. The source travels down the environment as `Any`,
// keyed by the alias type, and the alias's node resolves it through RuntimeMetadata to the
// typed node of the source's own type: the alias erases the source's type for the code that
// uses it, not for the graph.

/// A placeholder view that an ancestor defines.
///
/// ```swift
/// struct Title: ViewAlias {}
///
/// struct Header: View {
///     var body: some View { Stack(.horizontal) { Title(); Text("…") } }
/// }
///
/// Header().viewAlias(Title.self) { Text("Inbox") }
/// ```
public protocol ViewAlias: View {
    /// What the alias shows when no ancestor defines it.
    associatedtype DefaultBody: View = EmptyView
    /// What the alias shows when no ancestor defines it.
    @ViewBuilder var defaultBody: DefaultBody { get }
}

extension ViewAlias where DefaultBody == EmptyView {
    /// Nothing.
    public var defaultBody: EmptyView { EmptyView() }
}

extension ViewAlias {
    /// The alias's body: the source an ancestor defined, or ``defaultBody``.
    public var body: ViewAliasBody<Self> { ViewAliasBody(alias: self) }
}

/// The body of a ``ViewAlias``.
///
/// The innermost definition above the alias is shown, and inside it the alias resolves to the
/// next definition up, as Engine resolves it: a definition whose source is the alias itself,
/// or contains it, defers to the one above it (or to ``ViewAlias/defaultBody``) instead of
/// showing itself without end.
public struct ViewAliasBody<Alias: ViewAlias>: View, PrimitiveView {
    /// The alias.
    public var alias: Alias

    /// Primitive views have no body.
    public typealias Body = Never

    /// An alias stands for its source in a variadic view's children.
    var isMultiView: Bool { true }

    @MainActor func makeChildren(_ children: inout Children) {
        if let source = children.readOwn(\.viewAliases[ObjectIdentifier(Alias.self)])?.sources.last {
            children.append(any: source)
        } else {
            children.append(alias.defaultBody)
        }
    }

    func transformEnvironment(_ environment: inout EnvironmentValues) {
        // The source's subtree sees the definitions above the one it came from.
        let key = ObjectIdentifier(Alias.self)
        environment.viewAliases[key]?.sources.removeLast()
        if environment.viewAliases[key]?.sources.isEmpty == true { environment.viewAliases[key] = nil }
    }
}

/// The definitions of an alias above a view, outermost first.
struct AliasSources {
    var sources: [Any]
}

extension EnvironmentValues {
    /// The sources of the aliases defined above, by alias type.
    var viewAliases: [ObjectIdentifier: AliasSources] {
        get { self[ViewAliasesKey.self] }
        set { self[ViewAliasesKey.self] = newValue }
    }
}

private struct ViewAliasesKey: EnvironmentKey {
    static var defaultValue: [ObjectIdentifier: AliasSources] { [:] }
}

/// Defines an alias for the modified view's subtree.
public struct ViewAliasModifier<Alias: ViewAlias, Source: View>: PrimitiveModifier {
    /// The source the alias shows.
    public var source: Source

    func transformEnvironment(_ environment: inout EnvironmentValues) {
        environment.viewAliases[ObjectIdentifier(Alias.self), default: AliasSources(sources: [])].sources.append(source)
    }
}

extension View {
    /// Defines what an alias shows in this view's subtree.
    /// - Parameters:
    ///   - alias: The alias type.
    ///   - source: The view the alias shows.
    /// - Returns: The view.
    public func viewAlias<Alias: ViewAlias, Source: View>(
        _ alias: Alias.Type,
        @ViewBuilder source: () -> Source
    ) -> ModifiedContent<Self, ViewAliasModifier<Alias, Source>> {
        modifier(ViewAliasModifier<Alias, Source>(source: source()))
    }
}
