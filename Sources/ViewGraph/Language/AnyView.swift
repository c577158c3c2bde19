// AnyView.swift

/// A type-erased view: the usual answer to views that arrive as `Any`, kept here only as the
/// baseline the benchmarks compare against.
///
/// Erasing boxes the view in a new object, the graph keeps a node for the box besides the
/// node of the view, and two boxes are never the same value, so a parent evaluated again
/// evaluates every erased child again. ``DynamicView`` resolves `Any` without any of that.
public struct AnyView: View, PrimitiveView {
    private let storage: AnyViewStorage

    /// Erases a view's type.
    /// - Parameter view: The view.
    public init<V: View>(_ view: V) {
        storage = TypedAnyViewStorage(view)
    }

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) { storage.append(to: &children) }
}

/// The box of an ``AnyView``.
class AnyViewStorage {
    @MainActor func append(to children: inout Children) {}
}

/// The box of a view of type `V`.
final class TypedAnyViewStorage<V: View>: AnyViewStorage {
    let view: V

    init(_ view: V) {
        self.view = view
    }

    @MainActor override func append(to children: inout Children) { children.append(view) }
}
