// InteractionTests.swift
//
// Events flow into state without searching the graph: an action sent to a node by its
// identity runs the handler with the view's state connected, and the update that follows
// evaluates what the state change reaches.

import RuntimeMetadata
import Testing
import ViewGraph

struct TapCounter: View {
    @State var count = 0
    var body: some View {
        Stack(.vertical) {
            Text("count \(count)")
            Button("Add") { count += 1 }
            Text("reset").onTapGesture { count = 0 }
            Text("double").onAction(ViewAction("double")) { count *= 2 }
        }
    }
}

/// A child that changes its parent's state through a binding, from a button.
struct Increment: View {
    @Binding var value: Int
    var body: some View { Button("+") { value += 1 } }
}

struct BoundCounter: View {
    @State var total = 10
    var body: some View {
        Group {
            Text("total \(total)")
            Increment(value: $total)
        }
    }
}

@MainActor
private func handler(_ graph: ViewGraph, _ index: Int = 0) throws -> ViewNode {
    let handlers = graph.allNodes.filter(\.handlesActions)
    return try #require(handlers.indices.contains(index) ? handlers[index] : nil)
}

@Suite("Interaction")
@MainActor
struct InteractionTests {
    @Test("A tap sent to a button's node runs its action; the update shows the new state")
    func buttonTap() throws {
        let graph = ViewGraph(root: TapCounter())
        let button = try handler(graph)
        #expect(button.viewType == TypeMetadata(Button<Text>.self))
        let evaluated = try graph.send(.tap, to: button.id)
        #expect(evaluated.first == TypeMetadata(TapCounter.self).name)
        try graph.send(.tap, to: button.id)
        #expect(texts(graph).first == "count 2")
        // The button is the same node after the updates.
        #expect(button.isAlive && graph.node(id: button.id) == button)
    }

    @Test("onTapGesture and onAction handle their own actions only")
    func modifiers() throws {
        let graph = ViewGraph(root: TapCounter())
        let button = try handler(graph, 0)
        let reset = try handler(graph, 1)
        let double = try handler(graph, 2)
        try graph.send(.tap, to: button.id)
        try graph.send(ViewAction("double"), to: double.id)
        #expect(texts(graph).first == "count 2")
        #expect(throws: ViewGraphError.actionNotHandled(.tap, typeName: double.viewType.name)) {
            try graph.send(.tap, to: double.id)
        }
        try graph.send(.tap, to: reset.id)
        #expect(texts(graph).first == "count 0")
    }

    @Test("A button changes its parent's state through a binding")
    func bindingFromButton() throws {
        let graph = ViewGraph(root: BoundCounter())
        try graph.send(.tap, to: try handler(graph).id)
        #expect(texts(graph) == ["total 11", "+"])
    }

    @Test("Clear errors: a removed node, and a view that handles nothing")
    func errors() throws {
        struct Switch: View {
            @State var on = true
            var body: some View {
                if on { Button("x") {} } else { Text("off") }
            }
        }
        let graph = ViewGraph(root: Switch())
        let button = try handler(graph)
        let view = try #require(graph.root.viewValue as? Switch)
        view.on = false
        graph.update()
        #expect(throws: ViewGraphError.nodeNotFound(button.id)) { try graph.send(.tap, to: button.id) }
        #expect(graph.node(id: button.id) == nil)
        let text = try #require(graph.allNodes.last)
        let error = #expect(throws: ViewGraphError.self) { try graph.send(.tap, to: text.id) }
        #expect(error?.description == "ViewGraph.Text does not handle the action \"tap\"")
        #expect(ViewGraphError.nodeNotFound(button.id).description.contains("\(button.id)"))
    }

    @Test("Renderers show buttons with their node identity")
    func rendering() throws {
        let graph = ViewGraph(root: TapCounter())
        let button = try handler(graph)
        #expect(TextRenderer().render(graph).contains("[button \(button.id)]"))
        #expect(HTMLRenderer(title: "t").render(graph).contains("<button data-node=\"\(button.id)\">"))
    }
}

@Suite("Actions in HTML")
@MainActor
struct ActionAddressingTests {
    @Test("Every node that handles an action carries data-node, and an action sent to it is handled")
    func everyHandlerAddressable() throws {
        let graph = ViewGraph(root: TapCounter())
        let page = HTMLRenderer(title: "t").render(graph)
        let handlers = graph.allNodes.filter(\.handlesActions)
        #expect(handlers.count == 3)
        for handler in handlers {
            #expect(page.contains("data-node=\"\(handler.id)\""), "\(handler.viewType.name)")
        }
        #expect(page.ranges(of: "data-node=").count == 3)
        // The page's address of the tap gesture's node is the one the graph handles.
        let button = try handler(graph, 0)
        let reset = try handler(graph, 1)
        #expect(page.contains("<div data-node=\"\(reset.id)\">"))
        try graph.send(.tap, to: button.id)
        #expect(texts(graph).first == "count 1")
        try graph.send(.tap, to: reset.id)
        #expect(texts(graph).first == "count 0")
    }
}
