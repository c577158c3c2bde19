// Subviews.swift
//
// The Subviews scenario: a `@Subview` property wrapper marks the views a container shows; the
// container finds them by walking its own stored properties through RuntimeMetadata's cached
// field model, not `Mirror`. A non-nil optional and each element of an array count.

import RuntimeMetadata
public import ViewGraph

/// Where a subview sits in its container.
public enum SubviewPlacement: String, Sendable {
    /// Fills the container.
    case pin
    /// At the top.
    case top
    /// At the bottom.
    case bottom
}

/// Marks a view, an optional view, or an array of views, as shown by its container.
///
/// ```swift
/// struct Profile: Superview {
///     @Subview(.top) var title = Text("Ada")
///     @Subview var badge: Text? = Text("new")
///     @Subview var rows = [Text("a"), Text("b")]
///     var note = "not shown"
/// }
/// ```
@propertyWrapper
public struct Subview<Value> {
    /// The view, optional view or views.
    public var wrappedValue: Value
    /// Where the container places it.
    public var placement: SubviewPlacement

    /// Marks a view.
    /// - Parameters:
    ///   - wrappedValue: The view, optional view or views.
    ///   - placement: Where the container places it.
    public init(wrappedValue: Value, _ placement: SubviewPlacement = .pin) {
        self.wrappedValue = wrappedValue
        self.placement = placement
    }
}

/// What a container reads from a ``Subview`` property.
protocol SubviewProperty {
    /// The views: none for `nil`, one, or an array's elements.
    var views: [Any] { get }
    /// Where they go.
    var subviewPlacement: SubviewPlacement { get }
}

extension Subview: SubviewProperty {
    var views: [Any] {
        // An array of views counts element by element, an optional when it holds one; both
        // are looked through by RuntimeMetadata's walker, which reports their parts.
        let node = ValueWalker().node(for: wrappedValue)
        switch node.style {
        case .optional, .collection: return node.children.compactMap(\.value)
        default: return [wrappedValue]
        }
    }

    var subviewPlacement: SubviewPlacement { placement }
}

/// A container view that shows its ``Subview`` properties, in declaration order.
public protocol Superview: View {}

extension Superview {
    /// The subviews, top first, then pinned, then bottom.
    public var body: SuperviewBody<Self> { SuperviewBody(container: self) }

    /// The subviews, found from the container's stored properties through the cached field
    /// model, in declaration order, with their placements.
    public var subviews: [(label: String, placement: SubviewPlacement, view: Any)] {
        SubviewDiscovery.subviews(of: self)
    }
}

/// The body of a ``Superview``.
public struct SuperviewBody<Container: Superview>: View {
    /// The container.
    public var container: Container

    /// Each subview, in a stack.
    public var body: some View {
        let ordered = SubviewPlacement.allOrdered.flatMap { placement in
            container.subviews.filter { $0.placement == placement }.map(\.view)
        }
        return Stack(.vertical) {
            ForEach(ordered.indices, id: \.self) { DynamicView(ordered[$0]) }
        }
    }
}

extension SubviewPlacement {
    /// The placements in the order a container shows them.
    static let allOrdered: [SubviewPlacement] = [.top, .pin, .bottom]
}

/// Finds subviews through RuntimeMetadata's field model.
enum SubviewDiscovery {
    static let subviewProtocol = try? ProtocolDescriptor((any SubviewProperty).self)

    static func subviews(of container: Any) -> [(label: String, placement: SubviewPlacement, view: Any)] {
        guard let marker = subviewProtocol, let fields = try? TypeMetadata(type(of: container)).fields else {
            return []
        }
        var result: [(label: String, placement: SubviewPlacement, view: Any)] = []
        for field in fields {
            // The static type of the stored property decides: only `Subview` properties count.
            guard let fieldType = field.type, marker.conformance(of: fieldType) != nil,
                let value = try? field.value(in: container),
                let property = marker.open(value, as: (any SubviewProperty).self)
            else { continue }
            // A wrapper's storage is named `_label`.
            let label = field.name.hasPrefix("_") ? String(field.name.dropFirst()) : field.name
            for view in property.views { result.append((label, property.subviewPlacement, view)) }
        }
        return result
    }
}
