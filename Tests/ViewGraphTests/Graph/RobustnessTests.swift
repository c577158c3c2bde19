// RobustnessTests.swift
//
// What users do that a graph must survive: duplicate identities, bodies that write their own
// state or ask for an update, view values kept after their graph went away, and identities
// from another graph.

import RuntimeMetadata
import Swift5Client
import Testing
import ViewGraph

/// A body that writes its own state every time it runs.
struct Restless: View {
    @State var runs = 0
    var body: some View {
        runs += 1
        return Text("runs")
    }
}

/// A body that asks its graph for an update while it is evaluated.
struct Reentrant: View {
    var graph: () -> ViewGraph?
    var body: some View {
        _ = graph()?.update()
        return Text("reentrant")
    }
}

@Suite("ViewGraph robustness under misuse")
@MainActor
struct MisuseTests {
    @Test("Duplicate ForEach identities: every element shows; the first keeps the node")
    func duplicateIdentities() {
        struct Duplicates: View {
            @State var names = ["a", "b", "a", "a"]
            var body: some View { ForEach(names, id: \.self) { StatefulRow(title: $0) } }
        }
        let graph = ViewGraph(root: Duplicates())
        #expect(texts(graph) == ["a:0", "b:0", "a:0", "a:0"])
        let view = graph.root.viewValue as? Duplicates
        view?.names = ["a", "a", "b"]
        graph.update()
        #expect(texts(graph) == ["a:0", "a:0", "b:0"])
    }

    @Test("Duplicate identities keep their nodes in order, and their state with them")
    func duplicateIdentitiesKeepTheirState() {
        struct Duplicates: View {
            @State var names = ["a", "b", "a"]
            var body: some View { ForEach(names, id: \.self) { StatefulRow(title: $0) } }
        }
        let graph = ViewGraph(root: Duplicates())
        let rows = graph.allNodes.compactMap { node in (node.viewValue as? StatefulRow).map { (node, $0) } }
        #expect(rows.count == 3)
        // Each row's state tells its node: the first "a" 1, "b" 2, the second "a" 3.
        for (position, (_, row)) in rows.enumerated() { row.taps = position + 1 }
        graph.update()
        #expect(texts(graph) == ["a:1", "b:2", "a:3"])
        let view = graph.root.viewValue as? Duplicates
        // Reversed, then one "a" more: the two "a" rows keep their nodes in their order, the
        // third is new.
        view?.names = ["a", "a", "b", "a"]
        graph.update()
        #expect(texts(graph) == ["a:1", "a:3", "b:2", "a:0"])
        let after = graph.allNodes.filter { $0.viewValue is StatefulRow }.map(\.id)
        #expect(Array(after.prefix(3)) == [rows[0].0.id, rows[2].0.id, rows[1].0.id])
    }

    @Test("A body that writes its own state stops after a bounded number of rounds")
    func restless() {
        let graph = ViewGraph(root: Restless())
        #expect(graph.root.evaluationCount > 1)
        #expect(graph.root.evaluationCount <= 66)
        #expect(texts(graph) == ["runs"])
    }

    @Test("An update asked for from a body is ignored, not run inside the evaluation")
    func reentrantUpdate() {
        final class Holder { var graph: ViewGraph? }
        let holder = Holder()
        let graph = ViewGraph(root: Reentrant(graph: { holder.graph }))
        holder.graph = graph
        let view = graph.root.viewValue as? Reentrant
        #expect(view != nil)
        #expect(texts(graph) == ["reentrant"])
        // The view's closure holds the holder, which holds the graph: the test's own cycle, broken
        // so that the graph goes (LeakSanitizer would report it).
        holder.graph = nil
    }

    @Test("A view value kept after its graph went away reads its last known value and writes nowhere")
    func orphanedState() throws {
        var graph: ViewGraph? = ViewGraph(root: Counter())
        let counter = try #require(graph?.root.viewValue as? Counter)
        counter.count = 3
        weak let released = graph
        graph = nil
        // Nothing keeps the graph alive: no cycle through its stores.
        #expect(released == nil)
        counter.count = 4
        #expect(counter.count >= 0)
    }

    @Test("An identity from another graph names no node here")
    func foreignIdentity() throws {
        let first = ViewGraph(root: Button("x") {})
        let second = ViewGraph(root: Button("y") {})
        #expect(first.root.id != second.root.id)
        #expect(second.node(id: first.root.id) == nil)
        #expect(throws: ViewGraphError.nodeNotFound(first.root.id)) { try second.send(.tap, to: first.root.id) }
    }
}

@Suite("ViewGraph from a Swift 5 client")
@MainActor
struct Swift5ViewGraphTests {
    @Test("Views with state, a binding, a closure, an enum, a class and an existential, built generically and as Any")
    func swift5Client() throws {
        let result = try Swift5Client.viewGraphTap()
        #expect(result.before == ["count 0", "+", "Swift.Int is not a view", "row 0", "row 1"])
        #expect(result.after == ["count 1", "+", "Swift.Int is not a view", "row 0", "row 1"])
        #expect(result.evaluated.first == "Swift5Screen")
        // The count's text changed; the rows' texts did not, though their ForEach (which holds
        // a closure, and closures never compare equal) is evaluated again.
        #expect(result.evaluated.filter { $0 == "Text" }.count == 1)
        #expect(result.evaluated.contains("Swift5Stepper"))
        #expect(result.sameAsAny)
    }
}
