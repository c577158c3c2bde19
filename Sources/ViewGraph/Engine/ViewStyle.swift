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
    ///
    /// A styled view may implement its own `body` instead: it is the final styling, applied
    /// once around every style's output, as Engine applies it. Inside it, the styled view
    /// built again shows the chosen style.
    public var body: ViewStyledBody<Self> { ViewStyledBody(view: self) }

    /// The key of the view's styles in the environment.
    static var styleKey: ObjectIdentifier { ObjectIdentifier(Configuration.self) }

    /// Whether the view has a body of its own, its final styling.
    static var hasFinalStyling: Bool { Body.self != ViewStyledBody<Self>.self }

    /// Whether a view that sees these styles is inside its own final styling.
    static func isInsideFinalStyling(_ styles: [ObjectIdentifier: StyleStack]) -> Bool {
        styles[styleKey]?.finalStyling == ObjectIdentifier(Self.self)
    }

    /// Marks the subtree of the final styling.
    static func enterFinalStyling(_ environment: inout EnvironmentValues) {
        environment.styles[styleKey, default: StyleStack()].finalStyling = ObjectIdentifier(Self.self)
    }

    /// Appends the styled body of a view of this type.
    static func appendStyledBody<V>(of view: V, into children: inout Children) {
        if let view = view as? Self { children.append(ViewStyledBody(view: view)) }
    }
}

/// The body of a ``ViewStyledView``: the innermost style set above it, applied.
///
/// Styles stack, as Engine's do: the style set closest to the view is applied, and a styled
/// view of the same configuration built again inside that style's output (a bordered style
/// wrapping whatever style comes next) gets the next style out, then the view's default
/// style. A default style that builds its own styled view again shows an ``InvalidView``
/// instead of repeating itself without end.
public struct ViewStyledBody<StyledView: ViewStyledView>: View, PrimitiveView {
    /// The styled view.
    public var view: StyledView

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) {
        let stack = children.readOwn(\.styles[StyledView.styleKey]) ?? StyleStack()
        if let style = stack.styles.last,
            StyleResolution.viewStyle?.withOpened(
                style,
                as: (any ViewStyle).self,
                { style in
                    StyleResolution.append(style, configuration: view.configuration, to: &children)
                }
            ) == true
        {
            return
        }
        if stack.usedDefault {
            children.append(
                InvalidView(reason: "the default style of \(TypeMetadata(StyledView.self).name) builds it again")
            )
        } else {
            children.append(StyledView.defaultStyle.makeBody(configuration: view.configuration))
        }
    }

    func transformEnvironment(_ environment: inout EnvironmentValues) {
        // The style's output sees the styles above the one applied here.
        var stack = environment.styles[StyledView.styleKey] ?? StyleStack()
        if stack.styles.isEmpty {
            stack.usedDefault = true
        } else {
            stack.styles.removeLast()
            if stack.styles.isEmpty { stack.finalStyling = nil }
        }
        environment.styles[StyledView.styleKey] = stack
    }
}

/// Opening styles carried as `Any`.
@MainActor
enum StyleResolution {
    static let viewStyle = try? ProtocolDescriptor((any ViewStyle).self)
    static let styledView = try? ProtocolDescriptor((any ViewStyledView).self)

    /// Appends a style's body for a configuration, when the style takes that configuration.
    /// - Returns: Whether the style took the configuration.
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
    var styles: [ObjectIdentifier: StyleStack] {
        get { self[StylesKey.self] }
        set { self[StylesKey.self] = newValue }
    }
}

/// The styles of one configuration type set above a view, outermost first, and where the
/// view is in their composition.
struct StyleStack {
    /// The styles, outermost first: the last is applied next.
    var styles: [Any] = []
    /// The styled view type whose final styling the view is inside, if any.
    var finalStyling: ObjectIdentifier? = nil
    /// Whether the default style was applied above the view.
    var usedDefault = false
}

private struct StylesKey: EnvironmentKey {
    static var defaultValue: [ObjectIdentifier: StyleStack] { [:] }
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
        var stack = environment.styles[ObjectIdentifier(Style.Configuration.self)] ?? StyleStack()
        stack.styles.append(style)
        stack.usedDefault = false
        environment.styles[ObjectIdentifier(Style.Configuration.self)] = stack
    }
}
