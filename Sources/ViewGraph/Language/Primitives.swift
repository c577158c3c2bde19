// Primitives.swift
//
// The views the graph understands directly. Each is a primitive (`Body == Never`) that lists
// its children, typed, through ``PrimitiveView``.

/// A view the graph builds without a body: it lists its children and its render attributes.
@MainActor
protocol PrimitiveView: View {
    /// Adds the view's children, in order.
    /// - Parameter children: The list to add to.
    @MainActor func makeChildren(_ children: inout Children)
    /// What a renderer shows for this view itself.
    var renderAttributes: RenderAttributes { get }
    /// Changes the environment this view's children see.
    /// - Parameter environment: The environment, changed in place.
    func transformEnvironment(_ environment: inout EnvironmentValues)
    /// Whether the view only lists other views (a tuple, `ForEach`, a group, a branch): a
    /// ``VariadicViewAdapter`` sees its children, not the view itself.
    var isMultiView: Bool { get }
    /// Whether ``transformEnvironment(_:)`` may change the environment: `true` unless a type
    /// says otherwise, so that the graph skips the call only for the types known not to.
    static var transformsEnvironment: Bool { get }
}

extension PrimitiveView {
    @MainActor func makeChildren(_ children: inout Children) {}
    var renderAttributes: RenderAttributes { RenderAttributes() }
    func transformEnvironment(_ environment: inout EnvironmentValues) {}
    var isMultiView: Bool { false }
    static var transformsEnvironment: Bool { true }
}

/// A string of text.
public struct Text: View, PrimitiveView, Equatable {
    /// The text.
    public var content: String

    /// Creates a text view.
    /// - Parameter content: The text.
    public init(_ content: String) {
        self.content = content
    }

    /// Primitive views have no body.
    public typealias Body = Never

    var renderAttributes: RenderAttributes { RenderAttributes(role: .text(content)) }
    static var transformsEnvironment: Bool { false }
}

/// A view that shows nothing.
public struct EmptyView: View, PrimitiveView, Equatable {
    var isMultiView: Bool { true }
    static var transformsEnvironment: Bool { false }

    /// Creates an empty view.
    public init() {}

    /// Primitive views have no body.
    public typealias Body = Never
}

/// Views grouped without a layout of their own.
public struct Group<Content: View>: View, PrimitiveView {
    var isMultiView: Bool { true }
    static var transformsEnvironment: Bool { false }

    /// The grouped views.
    public var content: Content

    /// Groups views.
    /// - Parameter content: The views.
    public init(@ViewBuilder content: () -> Content) {
        self.content = content()
    }

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) { children.append(content) }
}

/// The direction of a ``Stack``.
public enum Axis: String, Hashable, Sendable {
    /// Top to bottom.
    case vertical
    /// Leading to trailing.
    case horizontal
}

/// Views laid out one after another along an axis.
public struct Stack<Content: View>: View, PrimitiveView {
    /// The direction.
    public var axis: Axis
    /// The space between children, in points.
    public var spacing: Int
    /// The children.
    public var content: Content

    /// Creates a stack.
    /// - Parameters:
    ///   - axis: The direction.
    ///   - spacing: The space between children.
    ///   - content: The children.
    public init(_ axis: Axis, spacing: Int = 0, @ViewBuilder content: () -> Content) {
        self.axis = axis
        self.spacing = spacing
        self.content = content()
    }

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) { children.append(content) }
    static var transformsEnvironment: Bool { false }
    // A stack sets no style context, as SwiftUI's stacks set none.
    var renderAttributes: RenderAttributes { RenderAttributes(role: .stack(axis, spacing: spacing)) }
}

/// A scrollable region; it sets ``ScrollViewStyleContext`` for its content, as SwiftUI's
/// `ScrollView` does.
public struct ScrollView<Content: View>: View, PrimitiveView {
    /// The scroll direction.
    public var axis: Axis
    /// The content.
    public var content: Content

    /// Creates a scroll view.
    /// - Parameters:
    ///   - axis: The scroll direction.
    ///   - content: The content.
    public init(_ axis: Axis = .vertical, @ViewBuilder content: () -> Content) {
        self.axis = axis
        self.content = content()
    }

    /// Primitive views have no body.
    public typealias Body = Never

    func makeChildren(_ children: inout Children) { children.append(content) }
    var renderAttributes: RenderAttributes { RenderAttributes(role: .stack(axis, spacing: 0), classNames: ["scroll"]) }
    func transformEnvironment(_ environment: inout EnvironmentValues) {
        environment.styleContext.contexts.append(ObjectIdentifier(ScrollViewStyleContext.self))
    }
}

/// A list of rows; it sets ``ListStyleContext`` for its rows, as SwiftUI's `List` does.
public struct List<Content: View>: View, PrimitiveView {
    /// The rows.
    public var content: Content

    /// Creates a list.
    /// - Parameter content: The rows.
    public init(@ViewBuilder content: () -> Content) {
        self.content = content()
    }

    /// Primitive views have no body.
    public typealias Body = Never

    func makeChildren(_ children: inout Children) { children.append(content) }
    var renderAttributes: RenderAttributes {
        RenderAttributes(role: .stack(.vertical, spacing: 0), classNames: ["list"])
    }
    func transformEnvironment(_ environment: inout EnvironmentValues) {
        environment.styleContext.contexts.append(ObjectIdentifier(ListStyleContext.self))
    }
}

/// Several views built by one ``ViewBuilder`` block, each typed.
public struct TupleView<each Content: View>: View, PrimitiveView {
    var isMultiView: Bool { true }

    /// The views.
    public var value: (repeat each Content)

    /// Creates the tuple.
    /// - Parameter content: The views.
    public init(_ content: repeat each Content) {
        value = (repeat each content)
    }

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) {
        for child in repeat each value {
            children.append(child)
        }
    }

    static var transformsEnvironment: Bool { false }
}

/// One of two views, chosen by an `if`/`else` or `switch` in a ``ViewBuilder``.
public struct ConditionalContent<First: View, Second: View>: View, PrimitiveView {
    var isMultiView: Bool { true }
    static var transformsEnvironment: Bool { false }

    /// The chosen branch.
    public enum Storage {
        /// The first branch.
        case first(First)
        /// The second branch.
        case second(Second)
    }

    /// The chosen branch.
    public var storage: Storage

    /// Chooses a branch.
    /// - Parameter storage: The branch.
    public init(_ storage: Storage) {
        self.storage = storage
    }

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) {
        switch storage {
        case .first(let first): children.append(first, branch: 0)
        case .second(let second): children.append(second, branch: 1)
        }
    }
}

extension Optional: View where Wrapped: View {
    /// Primitive views have no body.
    public typealias Body = Never
}

extension Optional: PrimitiveView where Wrapped: View {
    var isMultiView: Bool { true }

    @MainActor func makeChildren(_ children: inout Children) {
        if let view = self { children.append(view) }
    }
}

/// Views built from a collection of identified data, one per element.
public struct ForEach<Data: RandomAccessCollection, ID: Hashable, Content: View>: View, PrimitiveView {
    var isMultiView: Bool { true }
    static var transformsEnvironment: Bool { false }

    /// The data.
    public var data: Data
    /// Each element's identity.
    public var id: KeyPath<Data.Element, ID>
    /// Builds an element's view.
    public var content: (Data.Element) -> Content

    /// Creates views for the elements of a collection.
    /// - Parameters:
    ///   - data: The collection.
    ///   - id: The key path of each element's identity.
    ///   - content: Builds an element's view.
    public init(_ data: Data, id: KeyPath<Data.Element, ID>, @ViewBuilder content: @escaping (Data.Element) -> Content)
    {
        self.data = data
        self.id = id
        self.content = content
    }

    /// Primitive views have no body.
    public typealias Body = Never

    // The graph calls this through the primitive's conformance, unspecialized: a generic
    // collection's elements are then read through a coroutine that allocates per element. An
    // array's elements are read from its storage instead, and a range of integers, the other
    // common data, has a specialization the generic entry dispatches to.
    @_specialize(kind:partial,where Data == Range<Int>, ID == Int)
    @MainActor func makeChildren(_ children: inout Children) {
        let listed: Void? = data.withContiguousStorageIfAvailable { elements in
            guard children.reconcilesRuns else {
                // Listed or evaluated bare: each row as it comes.
                for index in elements.indices {
                    children.append(content(elements[index]), identifiedBy: elements[index][keyPath: id])
                }
                return
            }
            children.appendIdentified(count: elements.count) { offset in
                let element = elements[elements.startIndex + offset]
                return (content(element), element[keyPath: id])
            }
        }
        guard listed == nil else { return }
        for element in data {
            children.append(content(element), identifiedBy: element[keyPath: id])
        }
    }
}

extension ForEach where Data == Range<Int>, ID == Int {
    /// Creates views for a range of integers, each identified by its value, as SwiftUI's
    /// `ForEach(0..<count)` does.
    /// - Parameters:
    ///   - data: The range.
    ///   - content: Builds an element's view.
    public init(_ data: Range<Int>, @ViewBuilder content: @escaping (Int) -> Content) {
        self.init(data, id: \.self, content: content)
    }
}

extension ForEach where Data.Element: Identifiable, ID == Data.Element.ID {
    /// Creates views for the elements of a collection of identifiable elements.
    /// - Parameters:
    ///   - data: The collection.
    ///   - content: Builds an element's view.
    public init(_ data: Data, @ViewBuilder content: @escaping (Data.Element) -> Content) {
        self.init(data, id: \.id, content: content)
    }
}

/// A view known only at run time: any value, resolved by the graph to the typed node of its
/// dynamic type through RuntimeMetadata's conformance lookup, without `AnyView` and without
/// `as? any View`.
///
/// Use it where views arrive as `Any`: decoded models, plugin output, heterogeneous lists.
/// A `DynamicView` makes no node of its own: in its place the graph makes the node a
/// statically typed view of the value's type makes, so the tree is the same either way. A
/// value that is not a view makes an ``InvalidView`` node naming its type.
public struct DynamicView: View, PrimitiveView {
    /// The value.
    public var value: Any

    /// Wraps a value that may be a view.
    /// - Parameter value: The value.
    public init(_ value: Any) {
        self.value = value
    }

    /// Primitive views have no body.
    public typealias Body = Never

    /// A dynamic view stands for its value in a variadic view's children.
    var isMultiView: Bool { true }
    static var transformsEnvironment: Bool { false }

    @MainActor func makeChildren(_ children: inout Children) { children.append(any: value) }
}

/// The node that stands for what cannot be shown: a value that is not a view, a view the
/// graph does not know how to show, a view nested deeper than the graph's limit.
public struct InvalidView: View, PrimitiveView, Equatable {
    /// The name of the value's type, as `String(reflecting:)` prints it, when the value is not
    /// a view; `nil` for other errors.
    public var typeName: String?
    /// What went wrong, as renderers show it.
    public var reason: String

    /// The error view for a value that is not a view.
    /// - Parameter typeName: The name of the value's type.
    public init(typeName: String) {
        self.typeName = typeName
        reason = "\(typeName) is not a view"
    }

    /// An error view with a reason.
    /// - Parameter reason: What went wrong.
    public init(reason: String) {
        typeName = nil
        self.reason = reason
    }

    /// Primitive views have no body.
    public typealias Body = Never

    var renderAttributes: RenderAttributes { RenderAttributes(role: .error(reason)) }
}
