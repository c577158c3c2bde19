// ReadmeViewGraphTests.swift
//
// The README's ViewGraph example, compiled and checked; keep the two in step.

import RuntimeMetadata
import Testing
import ViewGraph

// README: "ViewGraph: typed views from `Any`, without `AnyView`" (in a namespace here, as other
// tests of this module declare views with the same names; names print without it).
private enum Readme {}

extension Readme {
    struct Greeting: View {
        var name: String
        var body: some View {
            Stack(.vertical, spacing: 4) {
                Text("Hello")
                Text(name)
            }
        }
    }

    struct Counter: View {
        @State var count = 0
        var body: some View {
            Stack(.horizontal) {
                Text("Count")
                Text("\(count)").padding(2)
            }
        }
    }
}

@Suite("README: ViewGraph")
@MainActor
struct ReadmeViewGraphTests {
    @Test("The README's ViewGraph example")
    func example() throws {
        let items: [Any] = [Readme.Greeting(name: "Ada"), Readme.Counter(), 42]
        let graph = ViewGraph(
            root: Stack(.vertical) {
                ForEach(items.indices, id: \.self) { index in DynamicView(items[index]) }
            }
        )
        let lines = TextRenderer().render(graph).split(separator: "\n").map(String.init)
        #expect(
            Array(lines.prefix(7)) == [
                "Stack<ForEach<Range<Int>, Int, DynamicView>> [stack vertical, spacing 0]",
                "  ForEach<Range<Int>, Int, DynamicView>",
                "    Greeting",
                "      Stack<TupleView<Pack{Text, Text}>> [stack vertical, spacing 4]",
                "        TupleView<Pack{Text, Text}>",
                "          Text \"Hello\"",
                "          Text \"Ada\"",
            ]
        )
        #expect(lines[7] == "    Counter")
        #expect(
            lines[8]
                == "      Stack<TupleView<Pack{Text, ModifiedContent<Text, PaddingModifier>}>> [stack horizontal, spacing 0]"
        )
        #expect(lines.last == "    InvalidView [error: Swift.Int is not a view]")

        let counter = try #require(graph.allNodes.compactMap { $0.viewValue as? Readme.Counter }.first)
        counter.count = 1
        #expect(
            graph.update().map(TextRenderer.unqualifiedName) == [
                "Counter", "Stack<TupleView<Pack{Text, ModifiedContent<Text, PaddingModifier>}>>",
                "TupleView<Pack{Text, ModifiedContent<Text, PaddingModifier>}>",
                "ModifiedContent<Text, PaddingModifier>",
                "Text",
            ]
        )
        let page = HTMLRenderer(title: "Demo").render(graph)
        #expect(page.contains("flex-direction: column"))
    }
}
