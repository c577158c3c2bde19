// VariadicView.swift
//
// Variadic views in the manner of Engine's VariadicViewAdapter: a view's children as a
// collection. The source's tuples, groups, `ForEach`es and branches are flattened into their
// leaf views; each leaf keeps its value and identity, and when placed again it resolves
// through RuntimeMetadata to the same typed node it would have made in place.

public import RuntimeMetadata

/// Hands the children of a source view to a content closure as a collection.
///
/// ```swift
/// VariadicViewAdapter {
///     Text("a")
///     ForEach(["b", "c"], id: \.self) { Text($0) }
/// } content: { children in
///     Stack(.vertical) {
///         ForEach(children) { child in child.padding(child.index == 0 ? 4 : 0) }
///     }
/// }
/// ```
public struct VariadicViewAdapter<Source: View, Content: View>: View, PrimitiveView {
    /// The source view.
    public var source: Source
    /// Builds the content from the source's children.
    public var content: (VariadicView) -> Content

    /// Adapts a source's children.
    /// - Parameters:
    ///   - source: The views whose children are handed on.
    ///   - content: Builds the content from them.
    public init(@ViewBuilder source: () -> Source, @ViewBuilder content: @escaping (VariadicView) -> Content) {
        self.source = source()
        self.content = content
    }

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) {
        let subviews = VariadicFlattening.flatten(source, environment: children.environment)
        children.append(content(VariadicView(subviews)))
    }
}

/// The children of a ``VariadicViewAdapter``'s source, in order.
public struct VariadicView: RandomAccessCollection {
    /// The children.
    public let elements: [Subview]

    init(_ elements: [Subview]) {
        self.elements = elements
    }

    /// The first position.
    public var startIndex: Int { elements.startIndex }
    /// The position after the last child.
    public var endIndex: Int { elements.endIndex }
    /// The child at a position.
    /// - Parameter position: The position.
    public subscript(position: Int) -> Subview { elements[position] }
}

/// One child of a variadic source: a view that shows the child as its own typed node.
public struct Subview: View, PrimitiveView, @MainActor Identifiable {
    /// The child's view.
    let value: any View
    /// The child's identity: the `ForEach` identity it came with, or its position.
    public let id: AnyHashable
    /// The child's position among its siblings.
    public let index: Int

    /// The child's identity as a value of a type, such as the `ForEach` data's identity.
    /// - Parameter type: The identity's type.
    /// - Returns: The identity, or `nil` when it is of another type.
    public func id<ID: Hashable>(as type: ID.Type) -> ID? { id.base as? ID }

    /// The type of the child's view.
    public var viewType: TypeMetadata { TypeMetadata(Swift.type(of: value)) }

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) { children.append(value) }
}

extension ForEach where Data == VariadicView, ID == AnyHashable {
    /// One view per child of a variadic source.
    /// - Parameters:
    ///   - data: The children.
    ///   - content: Builds a child's view.
    public init(_ data: VariadicView, @ViewBuilder content: @escaping (Subview) -> Content) {
        self.init(data, id: \.id, content: content)
    }
}

/// Flattens a source into its leaves, as SwiftUI's `_VariadicView` does: multi-view
/// primitives (tuples, groups, `ForEach`, branches, optionals) list their children, and a
/// custom view or an alias whose body or source is several views stands for them. A custom
/// view whose body is one view stays one child, itself, so that it keeps its node.
///
/// A custom view with ``State``, ``Environment`` or ``Binding`` properties stays one child:
/// its body needs the state of its own node, which only exists once it is placed. The walk
/// keeps its own stack for multi-view primitives, looks into custom views at most
/// ``customViewDepth`` levels deep, and stops at ``limit`` views with an error child.
enum VariadicFlattening {
    /// The most views one source may expand to.
    static let limit = 1_000_000
    /// How many custom views nested in each other's bodies are looked into.
    static let customViewDepth = 64

    typealias Item = (view: any View, identity: AnyHashable?, environment: EnvironmentValues)

    @MainActor
    static func flatten<Source: View>(_ source: Source, environment: EnvironmentValues) -> [Subview] {
        var leaves: [Item] = []
        var budget = limit
        expand((source, nil, environment), customDepth: 0, budget: &budget, into: &leaves)
        var subviews: [Subview] = []
        for (index, leaf) in leaves.enumerated() {
            subviews.append(Subview(value: leaf.view, id: leaf.identity ?? AnyHashable(index), index: index))
        }
        if budget <= 0 {
            let error = InvalidView(reason: "a variadic source expands to more than \(limit) views")
            subviews.append(Subview(value: error, id: AnyHashable(subviews.count), index: subviews.count))
        }
        return subviews
    }

    /// Expands an item into its leaves.
    @MainActor
    private static func expand(_ root: Item, customDepth: Int, budget: inout Int, into leaves: inout [Item]) {
        var stack: [Item] = [root]
        while let item = stack.popLast() {
            budget -= 1
            if budget <= 0 { return }
            /// The leaves of a view standing for `item`, one level of custom views deeper.
            func innerLeaves(of view: any View, _ environment: EnvironmentValues) -> [Item] {
                var inner: [Item] = []
                expand((view, item.identity, environment), customDepth: customDepth + 1, budget: &budget, into: &inner)
                return inner
            }
            /// `item` itself when it stands for one view, or its leaves, transformed.
            func replace(_ item: Item, by inner: [Item], _ transform: (Item) -> Item) {
                if inner.count == 1 { leaves.append(item) } else { leaves.append(contentsOf: inner.map(transform)) }
            }
            func step<V: View>(_ view: V) {
                if V.Body.self != Never.self {
                    // A custom view: its body's leaves, or itself when they are one.
                    guard customDepth < customViewDepth, PropertyFields.of(TypeMetadata(V.self)).isEmpty else {
                        leaves.append(item)
                        return
                    }
                    replace(item, by: innerLeaves(of: view.body, item.environment)) { $0 }
                    return
                }
                if let modified = view as? any DistributableModifiedContent {
                    // A modified view: its content's leaves, each with the modifier, as SwiftUI
                    // applies a modifier to each view of a group; or itself when they are one.
                    var environment = item.environment
                    modified.transformContentEnvironment(&environment)
                    replace(item, by: innerLeaves(of: modified.contentView, environment)) {
                        (modified.applied(to: $0.view), $0.identity, $0.environment)
                    }
                    return
                }
                guard
                    let primitive = PrimitiveResolution.primitiveProtocol?.open(
                        V.self,
                        as: (any PrimitiveView.Type).self
                    ),
                    primitive.isMultiView(view)
                else {
                    leaves.append(item)
                    return
                }
                var environment = item.environment
                primitive.transformEnvironment(&environment, by: view)
                var children = Children(listing: environment, own: item.environment)
                primitive.makeChildren(of: view, into: &children)
                for entry in children.entries.reversed() {
                    stack.append((entry.view, entry.identity ?? item.identity, environment))
                }
            }
            step(item.view)
        }
    }
}

extension PrimitiveView {
    /// Whether a view of this type only lists other views.
    static func isMultiView<V>(_ view: V) -> Bool {
        (view as? Self)?.isMultiView ?? false
    }

    /// Lists the children of a view of this type.
    static func makeChildren<V>(of view: V, into children: inout Children) {
        (view as? Self)?.makeChildren(&children)
    }

    /// Changes the environment by a view of this type.
    static func transformEnvironment<V>(_ environment: inout EnvironmentValues, by view: V) {
        (view as? Self)?.transformEnvironment(&environment)
    }
}

/// A modified view whose modifier a variadic view applies to each view of its content.
@MainActor
protocol DistributableModifiedContent {
    /// The modified view.
    var contentView: any View { get }
    /// Changes the environment the content sees by the modifier.
    func transformContentEnvironment(_ environment: inout EnvironmentValues)
    /// A view with the same modifier applied.
    func applied(to view: any View) -> any View
}

extension ModifiedContent: DistributableModifiedContent {
    var contentView: any View { content }

    func transformContentEnvironment(_ environment: inout EnvironmentValues) {
        ModifierRoles.transformEnvironment(&environment, by: modifier)
    }

    func applied(to view: any View) -> any View {
        func apply<V: View>(_ view: V) -> any View { ModifiedContent<V, Modifier>(content: view, modifier: modifier) }
        return apply(view)
    }
}
