// ModifierStateTests.swift
//
// A ViewModifier's @State, @Binding and @Environment work as a view's own fields do (SwiftUI
// makes a modifier a view of its own): its state lives with its node, is kept across updates
// and released with the node; its environment is the modified view's.

import RuntimeMetadata
import Testing
import ViewGraph

/// A modifier with state of its own, set from a tap inside its body.
struct Disclosure: ViewModifier {
    @State var open = false
    func body(content: Content) -> some View {
        Stack(.vertical) {
            Text(open ? "open" : "closed").onTapGesture { open.toggle() }
            content
        }
    }
}

/// A modifier that reads and changes its view's state through a binding.
struct Bump: ViewModifier {
    @Binding var count: Int
    func body(content: Content) -> some View {
        Group {
            content
            Text("bumped \(count)")
            Text("bump").onTapGesture { count += 1 }
        }
    }
}

/// A modifier that reads the environment.
struct AccentLabel: ViewModifier {
    @Environment(\.accent) var accent
    func body(content: Content) -> some View {
        Group {
            content
            Text("modifier sees \(accent)")
        }
    }
}

struct DisclosureHost: View {
    @State var shown = true
    @State var generation = 0
    var body: some View {
        Stack(.vertical) {
            Text("generation \(generation)")
            if shown {
                Text("details").modifier(Disclosure())
            }
        }
    }
}

/// Its body does not read the state: only the modifier's body does, through the binding.
struct BumpHost: View {
    @State var count = 0
    var body: some View {
        Text("content").modifier(Bump(count: $count))
    }
}

struct AccentHost: View {
    var body: some View {
        Text("content").modifier(AccentLabel()).environment(\.accent, "green")
    }
}

@MainActor
private func tapTarget(_ graph: ViewGraph, text: String) throws -> ViewNode {
    // The text's handler is its tap gesture modifier node: the handling node above the text.
    let handlers = graph.allNodes.filter(\.handlesActions)
    return try #require(
        handlers.first { node in
            node.children.contains { child in
                if case .text(let shown) = child.renderAttributes.role { return shown == text }
                return false
            }
        } ?? handlers.first
    )
}

@Suite("ViewModifier state, bindings and environment")
@MainActor
struct ModifierStateTests {
    @Test("@State in a modifier: set from a tap in its body, kept across updates, released with its node")
    func state() throws {
        let graph = ViewGraph(root: DisclosureHost())
        #expect(texts(graph).contains("closed"))
        let evaluated = try graph.send(.tap, to: try tapTarget(graph, text: "closed").id)
        #expect(!evaluated.isEmpty)
        #expect(texts(graph).contains("open"))
        // Kept when the parent evaluates again.
        let host = try #require(graph.allNodes.first { $0.viewType == TypeMetadata(DisclosureHost.self) })
        let hostValue = try #require(host.viewValue as? DisclosureHost)
        hostValue.generation += 1
        graph.update()
        #expect(texts(graph).contains("generation 1"))
        #expect(texts(graph).contains("open"))
        // Released with its node: shown again, the modifier starts from its initial state.
        hostValue.shown = false
        graph.update()
        #expect(!texts(graph).contains("open") && !texts(graph).contains("closed"))
        hostValue.shown = true
        graph.update()
        #expect(texts(graph).contains("closed"))
    }

    @Test("@Binding in a modifier writes its view's state, and its body follows the state")
    func binding() throws {
        let graph = ViewGraph(root: BumpHost())
        #expect(texts(graph).contains("bumped 0"))
        try graph.send(.tap, to: try tapTarget(graph, text: "bump").id)
        try graph.send(.tap, to: try tapTarget(graph, text: "bump").id)
        // The host's body never reads the state; the modifier's reading is its dependency.
        #expect(texts(graph).contains("bumped 2"))
    }

    @Test("@Environment in a modifier reads the modified view's environment")
    func environment() {
        let graph = ViewGraph(root: AccentHost())
        #expect(texts(graph) == ["content", "modifier sees green"])
    }

    /// A view type's store is made from what the first graph found of the type (its store
    /// class and graph properties, kept for the process): what each graph holds stays its own.
    @Test("Two graphs of the same views, alive together, keep their own modifier state and bindings")
    func twoGraphs() throws {
        let first = ViewGraph(root: DisclosureHost())
        let second = ViewGraph(root: DisclosureHost())
        try first.send(.tap, to: try tapTarget(first, text: "closed").id)
        #expect(texts(first).contains("open"))
        #expect(texts(second).contains("closed") && !texts(second).contains("open"))
        try second.send(.tap, to: try tapTarget(second, text: "closed").id)
        #expect(texts(second).contains("open"))

        let bumps = (ViewGraph(root: BumpHost()), ViewGraph(root: BumpHost()))
        try bumps.0.send(.tap, to: try tapTarget(bumps.0, text: "bump").id)
        #expect(texts(bumps.0).contains("bumped 1"))
        #expect(texts(bumps.1).contains("bumped 0"))
        #expect(texts(ViewGraph(root: AccentHost())) == ["content", "modifier sees green"])
    }
}
