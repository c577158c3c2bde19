// GenericAnyResolutionTests.swift
//
// Views that generic code nested in `Any` containers, or erased into `[Any]`, resolve to the
// views themselves, as `as?` sees them.

import RuntimeMetadata
import Testing
import ViewGraph

/// Returns its argument as `Any` from generic code: with `T == Any`, a container of a container.
private func wrap<T>(_ value: T) -> Any { value }

/// The elements of a collection as `[Any]`, built by generic code.
private func erased<C: Collection>(_ collection: C) -> [Any] { collection.map { $0 } }

@Suite("Resolving views nested by generic code")
@MainActor
struct GenericAnyResolutionTests {
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
}
