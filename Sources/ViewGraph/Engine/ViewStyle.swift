// ViewStyle.swift
//
// Styles in the manner of Engine's ViewStyle: a styled view describes what it shows in a
// configuration; a style turns the configuration into views; the nearest `.style(_:)` above
// the view chooses the style. The style travels down the environment keyed by its
// configuration's type, as `Any`, and is opened to its concrete type through RuntimeMetadata's
// conformance cache: the styled view's node holds the style's typed body, never an `AnyView`.

import RuntimeMetadata

/// A way to show the configuration of a ``ViewStyledView``.
///
/// ```swift
/// struct BadgeConfiguration { var count: Int }
///
/// struct PlainBadgeStyle: ViewStyle {
///     func makeBody(configuration: BadgeConfiguration) -> some View {
///         Text("\(configuration.count)")
///     }
/// }
/// ```
@MainActor @preconcurrency
public protocol ViewStyle {
    /// What the styled view describes.
    associatedtype Configuration
    /// The views the style makes.
    associatedtype Body: View

    /// Makes the views for a configuration.
    /// - Parameter configuration: What the styled view describes.
    /// - Returns: The views.
    @ViewBuilder func makeBody(configuration: Configuration) -> Body
}

/// A view whose appearance a ``ViewStyle`` decides.
///
/// Conforming types give a configuration and a default style; their body is provided: the
/// style set with ``View/style(_:)`` above the view for this configuration type, or the
/// default style.
///
/// ```swift
/// struct BadgeView: ViewStyledView {
///     var configuration: BadgeConfiguration
///     static var defaultStyle: PlainBadgeStyle { PlainBadgeStyle() }
/// }
///
/// BadgeView(configuration: .init(count: 3)).style(RoundBadgeStyle())
/// ```
public protocol ViewStyledView: View {
    /// What the view describes.
    associatedtype Configuration
    /// The style used when no ancestor sets one.
    associatedtype DefaultStyle: ViewStyle where DefaultStyle.Configuration == Configuration

    /// What the view describes.
    var configuration: Configuration { get }
    /// The style used when no ancestor sets one.
    static var defaultStyle: DefaultStyle { get }
}

extension ViewStyledView {
    /// The body of a styled view: the chosen style's body for the configuration.
    public var body: ViewStyledBody<Self> { ViewStyledBody(view: self) }
}

/// The body of a ``ViewStyledView``: the style found in the environment, applied.
public struct ViewStyledBody<StyledView: ViewStyledView>: View, PrimitiveView {
    /// The styled view.
    public var view: StyledView

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) {
        let key = ObjectIdentifier(StyledView.Configuration.self)
        if let entry = children.read(\.styles[key]),
            StyleResolution.viewStyle?.withOpened(
                entry.style,
                as: (any ViewStyle).self,
                { style in
                    StyleResolution.append(style, configuration: view.configuration, to: &children)
                }
            ) == true
        {
            return
        }
        children.append(StyledView.defaultStyle.makeBody(configuration: view.configuration))
    }
}

/// Opening styles carried as `Any`.
enum StyleResolution {
    static let viewStyle = try? ProtocolDescriptor((any ViewStyle).self)

    /// Appends a style's body for a configuration, when the style takes that configuration.
    /// - Returns: Whether the style took the configuration.
    @MainActor
    static func append<Style: ViewStyle, Configuration>(
        _ style: Style,
        configuration: Configuration,
        to children: inout Children
    ) -> Bool {
        guard let configuration = configuration as? Style.Configuration else { return false }
        children.append(style.makeBody(configuration: configuration))
        return true
    }
}

extension EnvironmentValues {
    /// The styles set with ``View/style(_:)``, by configuration type.
    var styles: [ObjectIdentifier: StyleEntry] {
        get { self[StylesKey.self] }
        set { self[StylesKey.self] = newValue }
    }
}

/// A style in the environment. Equal when the styles are equal by layout, so that setting an
/// equal style again evaluates nothing.
struct StyleEntry {
    let style: Any
}

private struct StylesKey: EnvironmentKey {
    static var defaultValue: [ObjectIdentifier: StyleEntry] { [:] }
}

extension View {
    /// Sets the style of every ``ViewStyledView`` below this view whose configuration is the
    /// style's configuration type.
    /// - Parameter style: The style.
    /// - Returns: The view.
    public func style<Style: ViewStyle>(_ style: Style) -> ModifiedContent<Self, StyleModifier<Style>> {
        modifier(StyleModifier(style: style))
    }
}

/// Sets a style for a configuration type in the subtree.
public struct StyleModifier<Style: ViewStyle>: PrimitiveModifier {
    /// The style.
    public var style: Style

    /// Sets a style.
    /// - Parameter style: The style.
    public init(style: Style) {
        self.style = style
    }

    func transformEnvironment(_ environment: inout EnvironmentValues) {
        environment.styles[ObjectIdentifier(Style.Configuration.self)] = StyleEntry(style: style)
    }
}
