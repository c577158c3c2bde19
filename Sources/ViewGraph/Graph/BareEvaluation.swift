// BareEvaluation.swift
//
// The least any graph must do to build a tree: each body evaluated once, each primitive's
// children listed, each `DynamicView` opened, and nothing kept. `Benchmarks/` measures the
// graph's build, update and reorder against it.

import RuntimeMetadata

/// Evaluates a tree's bodies once each and keeps nothing: the floor that the graph's build,
/// update and reorder are measured against in `Benchmarks/`.
///
/// The evaluation takes the graph's own steps: each view's ``View/body`` through the `View`
/// protocol, each primitive's children listed by the same requirement and in the same
/// environment, each ``DynamicView`` opened by the same cached conformance lookup. It keeps
/// nothing per view: no node records, no identities, no comparison with a previous tree, no
/// state installed (a ``State`` reads its initial value, a ``Binding`` its constant). What it
/// keeps is per type, as the graph's stores are: whether the type is a primitive, looked up
/// once.
///
/// A view type that styles itself (``ViewStyledView``) is evaluated through its plain body;
/// the graph's final styling is not applied.
///
/// ```swift
/// let views = BareEvaluation.evaluate(Stack(.vertical) { Text("a"); Text("b") })
/// // views == ViewGraph(root: …).nodeCount == 4
/// ```
@_spi(Baseline) @MainActor
public enum BareEvaluation {
    /// Evaluates a view and the views below it, down to a depth.
    /// - Parameters:
    ///   - view: The root.
    ///   - depth: The levels evaluated: a view `depth` levels below the root is made by its
    ///     parent and counted, but not evaluated. At most ``maximumDepth``.
    /// - Returns: The number of views made, the root included: the nodes a graph of the same
    ///   tree has, when `depth` reaches its leaves.
    public static func evaluate(_ view: some View, depth: Int = maximumDepth) -> Int {
        let evaluator = BareEvaluator(maximumDepth: min(max(depth, 0), maximumDepth))
        evaluator.evaluate(view, environment: EnvironmentValues())
        return evaluator.count
    }

    /// The deepest evaluation, bounded because each level is a call on the thread's stack.
    public static let maximumDepth = 2_000

    /// The evaluation of each view type, by type, made on first use.
    fileprivate static var evaluations: [ObjectIdentifier: AnyBareTypeEvaluation] = [:]

    /// The evaluation of a view type.
    fileprivate static func evaluation<V: View>(of type: V.Type) -> BareTypeEvaluation<V> {
        if let known = evaluations[ObjectIdentifier(V.self)] as? BareTypeEvaluation<V> { return known }
        var made = BareTypeEvaluation<V>()
        if V.Body.self == Never.self,
            let primitive = PrimitiveResolution.primitiveProtocol?.open(V.self, as: (any PrimitiveView.Type).self),
            let typed = primitive.makeBareEvaluation() as? BareTypeEvaluation<V>
        {
            made = typed
        }
        evaluations[ObjectIdentifier(V.self)] = made
        return made
    }
}

/// One bare evaluation: the views made so far and the depth reached.
@MainActor
final class BareEvaluator {
    /// The views made so far.
    private(set) var count = 0
    /// The depth of the view being evaluated.
    private var depth = 0
    /// The depth below which views are made but not evaluated.
    private let maximumDepth: Int

    init(maximumDepth: Int) {
        self.maximumDepth = maximumDepth
    }

    /// Counts a view and, above the depth limit, evaluates it: its body or its children.
    /// - Parameters:
    ///   - view: The view.
    ///   - environment: The environment it sees.
    func evaluate<V: View>(_ view: consuming V, environment: EnvironmentValues) {
        count += 1
        guard depth < maximumDepth else { return }
        depth += 1
        defer { depth -= 1 }
        BareEvaluation.evaluation(of: V.self).evaluate(view, environment: environment, evaluator: self)
    }
}

/// The bare evaluation of one view type, without its type.
@MainActor
class AnyBareTypeEvaluation {}

/// The bare evaluation of a view type with a body.
@MainActor
class BareTypeEvaluation<V: View>: AnyBareTypeEvaluation {
    /// Evaluates a view's body, or an ``InvalidView`` as the graph does for a view without one.
    func evaluate(_ view: borrowing V, environment: EnvironmentValues, evaluator: BareEvaluator) {
        var children = Children(evaluating: evaluator, environment: environment, own: environment)
        if V.Body.self == Never.self {
            children.append(InvalidView(reason: "\(V.self) has no body and is not a view the graph knows"))
        } else {
            children.append(view.body)
        }
    }
}

/// The bare evaluation of a primitive view type: its children, listed in its children's
/// environment.
@MainActor
final class BarePrimitiveEvaluation<P: PrimitiveView>: BareTypeEvaluation<P> {
    override func evaluate(_ view: borrowing P, environment: EnvironmentValues, evaluator: BareEvaluator) {
        var childEnvironment = environment
        view.transformEnvironment(&childEnvironment)
        var children = Children(evaluating: evaluator, environment: childEnvironment, own: environment)
        view.makeChildren(&children)
    }
}

extension PrimitiveView {
    /// The bare evaluation of this primitive type.
    static func makeBareEvaluation() -> AnyBareTypeEvaluation { BarePrimitiveEvaluation<Self>() }
}
