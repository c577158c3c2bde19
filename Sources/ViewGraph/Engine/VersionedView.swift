// VersionedView.swift
//
// Bodies by version, in the manner of Engine's VersionedView. There are no OS releases here:
// the version comes from the graph's configuration (``ViewGraph/Configuration/version``), and
// the view's node holds the body of the newest version not above it.

/// A view with a different body for each version of the graph's configuration.
///
/// Implement the bodies you need; each one not implemented falls back to the one below it,
/// and `v1Body` to `EmptyView`.
///
/// ```swift
/// struct Gallery: VersionedView {
///     var v3Body: some View { Text("grid") }
///     var v1Body: some View { Text("list") }
/// }
/// // version 1 or 2: "list"; version 3 and later: "grid"
/// ```
public protocol VersionedView: View {
    /// The body from version 5 on.
    associatedtype V5Body: View = V4Body
    /// The body of version 4.
    associatedtype V4Body: View = V3Body
    /// The body of version 3.
    associatedtype V3Body: View = V2Body
    /// The body of version 2.
    associatedtype V2Body: View = V1Body
    /// The body of version 1 and below.
    associatedtype V1Body: View = EmptyView

    /// The body from version 5 on.
    @ViewBuilder var v5Body: V5Body { get }
    /// The body of version 4.
    @ViewBuilder var v4Body: V4Body { get }
    /// The body of version 3.
    @ViewBuilder var v3Body: V3Body { get }
    /// The body of version 2.
    @ViewBuilder var v2Body: V2Body { get }
    /// The body of version 1 and below.
    @ViewBuilder var v1Body: V1Body { get }
}

extension VersionedView where V5Body == V4Body {
    /// Version 5 shows version 4's body.
    public var v5Body: V5Body { v4Body }
}

extension VersionedView where V4Body == V3Body {
    /// Version 4 shows version 3's body.
    public var v4Body: V4Body { v3Body }
}

extension VersionedView where V3Body == V2Body {
    /// Version 3 shows version 2's body.
    public var v3Body: V3Body { v2Body }
}

extension VersionedView where V2Body == V1Body {
    /// Version 2 shows version 1's body.
    public var v2Body: V2Body { v1Body }
}

extension VersionedView where V1Body == EmptyView {
    /// Version 1 shows nothing.
    public var v1Body: V1Body { EmptyView() }
}

extension VersionedView {
    /// The body of the graph's version.
    public var body: VersionedBody<Self> { VersionedBody(view: self) }
}

/// The body of a ``VersionedView``: the body of the graph's configured version.
public struct VersionedBody<Versioned: VersionedView>: View, PrimitiveView {
    /// The view.
    public var view: Versioned

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) {
        switch children.read(\.graphVersion) {
        case ...1: children.append(view.v1Body)
        case 2: children.append(view.v2Body)
        case 3: children.append(view.v3Body)
        case 4: children.append(view.v4Body)
        default: children.append(view.v5Body)
        }
    }
}

extension EnvironmentValues {
    /// The version ``VersionedView``s show, from the graph's configuration.
    public var graphVersion: Int {
        get { self[GraphVersionKey.self] }
        set { self[GraphVersionKey.self] = newValue }
    }
}

private struct GraphVersionKey: EnvironmentKey {
    static var defaultValue: Int { 1 }
}

/// A modifier with a different body for each version of the graph's configuration, in the
/// manner of Engine's `VersionedViewModifier`.
///
/// Implement the bodies you need; each one not implemented falls back to the one below it,
/// and `v1Body` to the content unchanged.
///
/// ```swift
/// struct Underline: VersionedViewModifier {
///     func v4Body(content: Content) -> some View { content.className("underline") }
///     func v1Body(content: Content) -> some View { content.padding(1) }
/// }
/// Text("Hi").modifier(Underline())
/// ```
public protocol VersionedViewModifier: ViewModifier {
    /// The body from version 5 on.
    associatedtype V5Body: View = V4Body
    /// The body of version 4.
    associatedtype V4Body: View = V3Body
    /// The body of version 3.
    associatedtype V3Body: View = V2Body
    /// The body of version 2.
    associatedtype V2Body: View = V1Body
    /// The body of version 1 and below.
    associatedtype V1Body: View = ModifierContent

    /// The body from version 5 on.
    /// - Parameter content: The modified view.
    /// - Returns: The body.
    @ViewBuilder func v5Body(content: Content) -> V5Body
    /// The body of version 4.
    /// - Parameter content: The modified view.
    /// - Returns: The body.
    @ViewBuilder func v4Body(content: Content) -> V4Body
    /// The body of version 3.
    /// - Parameter content: The modified view.
    /// - Returns: The body.
    @ViewBuilder func v3Body(content: Content) -> V3Body
    /// The body of version 2.
    /// - Parameter content: The modified view.
    /// - Returns: The body.
    @ViewBuilder func v2Body(content: Content) -> V2Body
    /// The body of version 1 and below.
    /// - Parameter content: The modified view.
    /// - Returns: The body.
    @ViewBuilder func v1Body(content: Content) -> V1Body
}

extension VersionedViewModifier where V5Body == V4Body {
    /// Version 5 shows version 4's body.
    /// - Parameter content: The modified view.
    /// - Returns: Version 4's body.
    public func v5Body(content: Content) -> V5Body { v4Body(content: content) }
}

extension VersionedViewModifier where V4Body == V3Body {
    /// Version 4 shows version 3's body.
    /// - Parameter content: The modified view.
    /// - Returns: Version 3's body.
    public func v4Body(content: Content) -> V4Body { v3Body(content: content) }
}

extension VersionedViewModifier where V3Body == V2Body {
    /// Version 3 shows version 2's body.
    /// - Parameter content: The modified view.
    /// - Returns: Version 2's body.
    public func v3Body(content: Content) -> V3Body { v2Body(content: content) }
}

extension VersionedViewModifier where V2Body == V1Body {
    /// Version 2 shows version 1's body.
    /// - Parameter content: The modified view.
    /// - Returns: Version 1's body.
    public func v2Body(content: Content) -> V2Body { v1Body(content: content) }
}

extension VersionedViewModifier where V1Body == ModifierContent {
    /// Version 1 shows the content unchanged.
    /// - Parameter content: The modified view.
    /// - Returns: The content.
    public func v1Body(content: Content) -> V1Body { content }
}

extension VersionedViewModifier {
    /// The body of the graph's version.
    /// - Parameter content: The modified view.
    /// - Returns: The versioned body.
    public func body(content: Content) -> VersionedModifierBody<Self> {
        VersionedModifierBody(modifier: self, content: content)
    }
}

/// The body of a ``VersionedViewModifier``: the body of the graph's configured version.
public struct VersionedModifierBody<Modifier: VersionedViewModifier>: View, PrimitiveView {
    /// The modifier.
    public var modifier: Modifier
    let content: ModifierContent

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) {
        switch children.read(\.graphVersion) {
        case ...1: children.append(modifier.v1Body(content: content))
        case 2: children.append(modifier.v2Body(content: content))
        case 3: children.append(modifier.v3Body(content: content))
        case 4: children.append(modifier.v4Body(content: content))
        default: children.append(modifier.v5Body(content: content))
        }
    }
}
