// ViewGraphClient.swift
//
// ViewGraph used from a Swift 5 language-mode module: views with state, a binding, a closure,
// an enum, a class and an existential in their fields, built through generic code and as
// `Any`, and tapped through `ViewGraph.send(_:to:)`.

import ViewGraph

struct Swift5Stepper: View {
    @Binding var value: Int
    var body: some View { Button("+") { value += 1 } }
}

enum Swift5Mode {
    case plain
    case labelled(String)
}

final class Swift5Model {
    var name = "model"
}

struct Swift5Screen: View {
    @State var count = 0
    var mode: Swift5Mode = .labelled("payload")
    var model = Swift5Model()
    var payload: Any = 42
    var format: (Int) -> String = { "count \($0)" }

    var body: some View {
        Group {
            Text(format(count))
            Swift5Stepper(value: $count)
            DynamicView(payload)
            ForEach(0..<2) { Text("row \($0)") }
        }
    }
}

extension Swift5Client {
    /// Builds a screen through a generic function and as `Any`, taps its button in the first.
    /// - Returns: The texts of the generic graph before and after the tap, the names the tap's
    ///   update evaluated, and whether the `Any` root made the same node types.
    @MainActor
    public static func viewGraphTap() throws -> (
        before: [String], after: [String], evaluated: [String], sameAsAny: Bool
    ) {
        func build<V: View>(_ view: V) -> ViewGraph { ViewGraph(root: view) }
        let graph = build(Swift5Screen())
        let asAny = ViewGraph(any: Swift5Screen() as Any)
        func texts() -> [String] {
            graph.allNodes.compactMap { node -> String? in
                switch node.renderAttributes.role {
                case .text(let text): return text
                case .error(let reason): return reason
                default: return nil
                }
            }
        }
        let before = texts()
        let button = graph.allNodes.first { $0.handlesActions }
        let evaluated = try button.map { try graph.send(.tap, to: $0.id) } ?? []
        let same = graph.allNodes.map(\.viewType) == asAny.allNodes.map(\.viewType)
        return (before, texts(), evaluated.map(TextRenderer.unqualifiedName), same)
    }
}
