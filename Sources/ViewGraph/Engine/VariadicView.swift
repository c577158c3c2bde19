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
        var subviews: [Subview] = []
        VariadicFlattening.flatten(source, identity: nil, into: &subviews)
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

/// Flattens multi-view primitives into their leaves.
enum VariadicFlattening {
    @MainActor
    static func flatten<V: View>(_ view: V, identity: AnyHashable?, into subviews: inout [Subview]) {
        // A multi-view primitive, lent without a copy, lists its children.
        if V.Body.self == Never.self,
            let children = PrimitiveResolution.primitiveProtocol?.withOpened(
                view,
                as: (any PrimitiveView).self,
                { primitive -> Children? in
                    guard primitive.isMultiView else { return nil }
                    var children = Children()
                    primitive.makeChildren(&children)
                    return children
                }
            ) ?? nil
        {
            for entry in children.entries {
                flatten(entry.view, identity: entry.identity ?? identity, into: &subviews)
            }
            return
        }
        let index = subviews.count
        subviews.append(Subview(value: view, id: identity ?? AnyHashable(index), index: index))
    }
}
