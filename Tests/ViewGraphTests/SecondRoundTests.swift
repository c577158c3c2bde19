// SecondRoundTests.swift
//
// The second adversarial round's findings in the graph: views nested in `Any` by generic
// code, identities kept across graphs released and made again, and the depth limit at exactly
// the tree's depth.

import RuntimeMetadata
import Testing
import ViewGraph

/// Returns its argument as `Any` from generic code: with `T == Any`, a container of a container.
private func wrap<T>(_ value: T) -> Any { value }

/// The elements of a collection as `[Any]`, built by generic code.
private func erased<C: Collection>(_ collection: C) -> [Any] { collection.map { $0 } }

/// A view one level deep: its body is a text.
private struct OneLevel: View {
    var body: some View { Text("x") }
}

/// A view that wraps its content, nested by ``layered(_:)`` into distinct generic types.
private struct Layer<Content: View>: View {
    var content: Content
    var body: some View { content }
}

/// A text in `depth` layers, each level a distinct generic type built at run time.
@MainActor
private func layered(_ depth: Int) -> any View {
    func wrap(_ view: some View) -> any View { Layer(content: view) }
    var view: any View = Text("x")
    for _ in 0..<depth { view = wrap(view) }
    return view
}

/// A generic non-view type.
private struct Carton<T> {}

/// A value of `Carton<Carton<…<Int>…>>`, `depth` levels of `Carton` deep.
private func nestedCarton(depth: Int) -> Any {
    func wrap<T>(_: T.Type) -> Any.Type { Carton<T>.self }
    func make<T>(_: T.Type) -> Any { Carton<T>() }
    var type: Any.Type = Int.self
    for _ in 0..<depth - 1 { type = _openExistential(type, do: wrap) }
    return _openExistential(type, do: make)
}

@Suite("ViewGraph: second round")
@MainActor
struct ViewGraphSecondRoundTests {
    @Test("A view nested in Any by generic code renders as the view, at any depth")
    func nestedAny() {
        let expected = TextRenderer().render(ViewGraph(root: Text("x")))
        var value: Any = Text("x")
        for depth in 1...50 {
            value = wrap(value)
            #expect(TextRenderer().render(ViewGraph(any: value)) == expected, "depth \(depth)")
        }
        #expect(TextRenderer().render(ViewGraph(any: wrap(Text("x") as Any))) == expected)
    }

    @Test("A ForEach over [Any] built by generic code shows each view, not error nodes")
    func forEachOverErasedValues() {
        struct List: View {
            let items: [Any]
            var body: some View { ForEach(items.indices, id: \.self) { index in DynamicView(items[index]) } }
        }
        let items = erased([Text("a"), Text("b"), Text("c")] as [Any])
        let graph = ViewGraph(root: List(items: items))
        #expect(texts(graph) == ["a", "b", "c"])
        #expect(!graph.allNodes.contains { $0.viewType == TypeMetadata(InvalidView.self) })
    }

    @Test("An id kept from a released graph names no node in any later graph, wherever it is allocated")
    func idsAcrossReleasedGraphs() throws {
        var kept: [NodeID] = []
        for round in 0..<200 {
            let graph = ViewGraph(root: TapCounter())
            for id in kept {
                #expect(graph.node(id: id) == nil, "round \(round): \(id)")
                #expect(throws: ViewGraphError.self) { try graph.send(.tap, to: id) }
            }
            #expect(texts(graph).first == "count 0", "round \(round): a kept id tapped this graph's button")
            let button = try #require(graph.allNodes.first { $0.handlesActions })
            #expect(graph.node(id: button.id) == button)
            kept = Array(kept.suffix(8)) + [button.id, graph.root.id]
        }
    }

    @Test("A tree exactly as deep as the limit is shown whole; one level deeper gets the error node")
    func depthLimitIsInclusive() throws {
        let exact = ViewGraph(root: OneLevel(), configuration: .init(maximumDepth: 1))
        #expect(TextRenderer().render(exact) == TextRenderer().render(ViewGraph(root: OneLevel())))
        #expect(!exact.allNodes.contains { $0.viewType == TypeMetadata(InvalidView.self) })
        let shallow = ViewGraph(root: OneLevel(), configuration: .init(maximumDepth: 0))
        // The root's body is the first view deeper than 0.
        #expect(shallow.allNodes.map(\.viewType) == [TypeMetadata(OneLevel.self), TypeMetadata(InvalidView.self)])
        guard case .error(let reason) = try #require(shallow.allNodes.last).renderAttributes.role else {
            Issue.record("no error node")
            return
        }
        #expect(reason.contains("nests deeper than 0 levels"))
    }

    @Test("Views of distinct generic types nested 2,000 deep build and render, names abbreviated past 32 levels")
    func distinctNestedTypes() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run {
                let depth = 2_000
                let graph = ViewGraph(any: layered(depth))
                #expect(graph.nodeCount == depth + 1)
                let lines = TextRenderer().render(graph).split(separator: "\n")
                #expect(lines.count == depth + 1)
                let levels = TextRenderer.maximumNameNesting
                #expect(
                    lines.first
                        == Substring(
                            String(repeating: "Layer<", count: levels) + "…" + String(repeating: ">", count: levels)
                        )
                )
                #expect(lines.last?.hasSuffix("Text \"x\"") == true)
                // Below 32 levels the whole name is printed.
                #expect(lines[depth - 2].hasSuffix("Layer<Layer<Text>>"))
                #expect(lines.allSatisfy { $0.utf8.count < 1_000 })
            }
        }
    }

    @Test("A value whose type nests 60,000 deep becomes an error node naming it, abbreviated, without a crash")
    func deepNonView() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run {
                let graph = ViewGraph(any: nestedCarton(depth: 60_000))
                #expect(graph.root.viewType == TypeMetadata(InvalidView.self))
                let text = TextRenderer().render(graph)
                // Booleans, so that a failure does not print half a megabyte of name.
                let namesCarton = text.contains(".Carton<")
                let abbreviated = text.contains("…")
                let size = text.utf8.count
                #expect(namesCarton)
                #expect(abbreviated)
                #expect(size < 1_000_000)
            }
        }
    }
}
