// View.swift

/// A piece of user interface, described by value.
///
/// A view either composes others in its ``body``, or is a primitive (its `Body` is `Never`)
/// that the graph understands directly: ``Text``, ``EmptyView``, ``Group``, ``Stack``,
/// ``ForEach``, ``ModifiedContent`` and the other types of this module.
///
/// ```swift
/// struct Greeting: View {
///     var name: String
///     var body: some View {
///         Stack(.vertical) {
///             Text("Hello")
///             Text(name)
///         }
///     }
/// }
/// ```
@MainActor @preconcurrency
public protocol View {
    /// The type of view this view is made of.
    associatedtype Body: View

    /// The content of the view, evaluated by the graph when the view is new or changed.
    @ViewBuilder var body: Body { get }
}

extension Never: View {
    /// Primitive views have no body; the graph never asks for it.
    public var body: Never { fatalError("Never has no body") }
}

extension View where Body == Never {
    /// Primitive views have no body; the graph never asks for it.
    public var body: Never { fatalError("\(Self.self) is a primitive view and has no body") }
}
