// RenderingTests.swift
//
// The HTML renderer, and AnyView as the baseline it is kept for.

import RuntimeMetadata
import Testing
import ViewGraph

struct ErasedParent: View {
    @State var tick = 0
    var body: some View {
        Group {
            Text("\(tick)")
            AnyView(Badge(count: 1))
        }
    }
}

struct ResolvedParent: View {
    @State var tick = 0
    var body: some View {
        Group {
            Text("\(tick)")
            DynamicView(Badge(count: 1))
        }
    }
}

@Suite("Rendering and AnyView")
@MainActor
struct RenderingTests {
    @Test("HTML: stacks are flex containers, text is escaped, modifiers are attributes")
    func html() {
        let graph = ViewGraph(
            root: Stack(.vertical, spacing: 6) {
                Text("<b>Tom & \"Jerry\"</b>")
                Stack(.horizontal) { Text("a").padding(3).tag(1) }.className("row")
                DynamicView(42)
            }
        )
        let page = HTMLRenderer(title: "A & B").render(graph)
        #expect(page.hasPrefix("<!DOCTYPE html>"))
        #expect(page.contains("<title>A &amp; B</title>"))
        #expect(page.contains("<p>&lt;b&gt;Tom &amp; &quot;Jerry&quot;&lt;/b&gt;</p>"))
        #expect(page.contains("<div style=\"display: flex; flex-direction: column; gap: 6px\">"))
        #expect(page.contains("<div class=\"row\">"))
        #expect(page.contains("<div style=\"display: flex; flex-direction: row; gap: 0px\">"))
        #expect(page.contains("<div style=\"padding: 3px\">") && page.contains("<div data-tag=\"1\">"))
        #expect(page.contains("<p class=\"vg-error\">Swift.Int is not a view</p>"))
        #expect(!page.contains("<b>"))
        #expect(HTMLRenderer.escape("'") == "&#39;")
    }

    @Test("AnyView resolves the same leaves with a box node each, and never compares equal")
    func anyViewBaseline() throws {
        let erased = ViewGraph(
            root: Stack(.vertical) {
                AnyView(Text("a")); AnyView(Badge(count: 1))
            }
        )
        let typed = ViewGraph(
            root: Stack(.vertical) {
                DynamicView(Text("a")); DynamicView(Badge(count: 1))
            }
        )
        let erasedTuple = try #require(erased.root.children.first)
        let typedTuple = try #require(typed.root.children.first)
        #expect(erasedTuple.children.map(\.viewType) == [TypeMetadata(AnyView.self), TypeMetadata(AnyView.self)])
        #expect(erasedTuple.children.map { $0.children.first?.viewType } == typedTuple.children.map(\.viewType))
        #expect(erased.allNodes.count == typed.allNodes.count + 2)
    }

    @Test("An AnyView child is never equal to its previous value; a resolved child is")
    func anyViewIdentity() throws {
        let erased = ViewGraph(root: ErasedParent())
        try #require(erased.root.viewValue as? ErasedParent).tick = 1
        let erasedRun = erased.update().map(TextRenderer.unqualifiedName)
        let resolved = ViewGraph(root: ResolvedParent())
        try #require(resolved.root.viewValue as? ResolvedParent).tick = 1
        let resolvedRun = resolved.update().map(TextRenderer.unqualifiedName)
        // The box is new on every evaluation, so the AnyView node runs again; the Badge it
        // wraps is compared by value like any child and does not.
        #expect(erasedRun.contains("AnyView"))
        #expect(!erasedRun.contains("Badge") && !resolvedRun.contains("Badge"))
        #expect(
            resolvedRun == [
                "ResolvedParent", "Group<TupleView<Pack{Text, DynamicView}>>", "TupleView<Pack{Text, DynamicView}>",
                "Text",
            ]
        )
    }
}
