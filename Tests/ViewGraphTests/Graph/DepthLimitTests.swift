// DepthLimitTests.swift
//
// The depth limit at exactly the tree's depth, views of distinct generic types nested deep, and a
// value whose type nests too deep to name whole.

import RuntimeMetadata
import TestSupport
import Testing
import ViewGraph

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

@Suite("Depth limit")
@MainActor
struct DepthLimitTests {
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
                let depth = TestScale.scaled(2_000, minimum: 100)
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
