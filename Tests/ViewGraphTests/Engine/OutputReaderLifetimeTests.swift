// OutputReaderLifetimeTests.swift
//
// A view output reader removed and made again shows only its own writers' outputs.

import RuntimeMetadata
import Testing
import ViewGraph

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

@Suite("Output reader lifetime")
@MainActor
struct OutputReaderLifetimeTests {
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
