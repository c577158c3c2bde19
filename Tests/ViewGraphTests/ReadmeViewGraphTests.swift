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
                Button("Add") { count += 1 }
            }
        }
    }
}

@Suite("README: ViewGraph")
@MainActor
struct ReadmeViewGraphTests {
    @Test("The README's product example: a view known only as Any becomes a typed node")
    func productExample() {
        let items: [Any] = [Text("typed"), 42]
        let graph = ViewGraph(root: ForEach(items.indices, id: \.self) { DynamicView(items[$0]) })
        let text = TextRenderer().render(graph)
        #expect(text.contains("Text \"typed\""))
        #expect(text.contains("InvalidView [error: Swift.Int is not a view]"))
    }

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
                == "      Stack<TupleView<Pack{Text, ModifiedContent<Text, PaddingModifier>, Button<Text>}>> [stack horizontal, spacing 0]"
        )
        #expect(lines.last == "    InvalidView [error: Swift.Int is not a view]")

        let button = try #require(graph.allNodes.first { $0.handlesActions })
        // The button is evaluated again too: its action is a new closure each time, and
        // closures never compare equal; its label is unchanged and skipped.
        #expect(
            try graph.send(.tap, to: button.id).map(TextRenderer.unqualifiedName) == [
                "Counter", "Stack<TupleView<Pack{Text, ModifiedContent<Text, PaddingModifier>, Button<Text>}>>",
                "TupleView<Pack{Text, ModifiedContent<Text, PaddingModifier>, Button<Text>}>",
                "ModifiedContent<Text, PaddingModifier>", "Text", "Button<Text>",
            ]
        )
        #expect(TextRenderer().render(graph).contains("Text \"1\""))
        let page = HTMLRenderer(title: "Demo").render(graph)
        #expect(page.contains("flex-direction: column"))
        #expect(page.contains("<button data-node=\"\(button.id)\">"))
    }
}
