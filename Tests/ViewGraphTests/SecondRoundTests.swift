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

/// A reader of toolbar items shown or not, with a writer whose text changes.
private struct ToggledReader: View {
    @State var shown = true
    @State var label = "first"
    var body: some View {
        Stack(.vertical) {
            Button("toggle") { shown.toggle() }
            if shown {
                ViewOutputKeyReader(ToolbarItems.self) {
                    Text("page").viewOutput(ToolbarItems.self) { Text(label) }
                } content: { items in
                    Stack(.horizontal) { items }
                }
            }
        }
    }
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

    @Test("Graphs made and released in a loop: an id kept from another graph names no node, wherever it is allocated")
    func idsAcrossReleasedGraphs() throws {
        // A fixed-seed generator (SplitMix64's steps), so that a failure repeats.
        var state: UInt64 = 0x1D5_0001
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        var kept: [NodeID] = []
        var rejected = 0
        for round in 0..<300 {
            let graph: ViewGraph =
                switch next() % 3 {
                case 0: ViewGraph(root: TapCounter())
                case 1: ViewGraph(root: BoundCounter())
                default: ViewGraph(any: TapCounter() as Any)
                }
            let before = TextRenderer().render(graph)
            for id in kept where next() % 2 == 0 {
                #expect(graph.node(id: id) == nil, "round \(round): \(id)")
                #expect(throws: ViewGraphError.self) { try graph.send(.tap, to: id) }
                rejected += 1
            }
            #expect(TextRenderer().render(graph) == before, "round \(round): a kept id changed this graph")
            // This graph's own ids work, and join the kept ones.
            let handlers = graph.allNodes.filter { $0.handlesActions }
            let button = try #require(handlers.first)
            #expect(graph.node(id: button.id) == button)
            _ = try graph.send(.tap, to: button.id)
            kept.append(contentsOf: graph.allNodes.map(\.id).filter { _ in next() % 4 == 0 })
            if kept.count > 64 { kept.removeFirst(kept.count - 64) }
        }
        print("FUZZ-REPORT graph ids: 300 graphs made and released, \(rejected) kept ids refused")
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

    @Test("A reader removed and made again, 200 times, shows only its own writers' outputs")
    func readersMadeAgain() throws {
        let graph = ViewGraph(root: ToggledReader())
        let root = try #require(graph.root.viewValue as? ToggledReader)
        let button = try #require(graph.allNodes.first { $0.handlesActions })
        for round in 0..<200 {
            try graph.send(.tap, to: button.id)
            #expect(texts(graph) == ["toggle"], "round \(round)")
            root.label = "label \(round)"
            try graph.send(.tap, to: button.id)
            #expect(texts(graph) == ["toggle", "page", "label \(round)"], "round \(round)")
        }
    }
}
