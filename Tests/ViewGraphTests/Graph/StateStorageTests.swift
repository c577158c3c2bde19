// StateStorageTests.swift
//
// A state value lives exactly as long as its node: destroyed when the node goes, kept for the
// nodes that stay when others are removed around them (the store keeps its values dense, a
// freed place taken by the last value), and a slot reused by a new node starts from the new
// node's initial value.

import Testing
import ViewGraph

/// An object whose release a test can observe.
final class Tracked {
    let name: String
    init(_ name: String) { self.name = name }
}

/// A row holding an object in its state.
struct TrackedRow: View {
    var name: String
    @State var tracked: Tracked?
    @State var taps = 0
    var body: some View { Text("\(name):\(tracked?.name ?? "-"):\(taps)") }
}

struct TrackedList: View {
    @State var names: [String]
    var body: some View { ForEach(names, id: \.self) { TrackedRow(name: $0) } }
}

@Suite("State storage")
@MainActor
struct StateStorageTests {
    @Test("State is destroyed with its node, and the rows that stay keep theirs")
    func releaseAndKeep() throws {
        let graph = ViewGraph(root: TrackedList(names: ["a", "b", "c", "d"]))
        let rows = graph.allNodes.compactMap { $0.viewValue as? TrackedRow }
        #expect(rows.count == 4)
        weak var releasedA: Tracked?
        weak var keptD: Tracked?
        do {
            let a = Tracked("A")
            let d = Tracked("D")
            releasedA = a
            keptD = d
            rows[0].tracked = a
            rows[3].tracked = d
        }
        for (position, row) in rows.enumerated() { row.taps = position + 10 }
        graph.update()
        #expect(texts(graph) == ["a:A:10", "b:-:11", "c:-:12", "d:D:13"])

        // Remove the first row: its object goes; the last row's value takes its place in the
        // store and must still be the last row's.
        let list = try #require(graph.root.viewValue as? TrackedList)
        list.names = ["b", "c", "d"]
        graph.update()
        #expect(releasedA == nil)
        #expect(keptD != nil)
        #expect(texts(graph) == ["b:-:11", "c:-:12", "d:D:13"])

        // A new row reuses the freed slot and starts from its own initial value.
        list.names = ["b", "c", "d", "e"]
        graph.update()
        #expect(texts(graph) == ["b:-:11", "c:-:12", "d:D:13", "e:-:0"])

        // A removed row's view, kept by the test, writes nowhere: no row changes.
        let removed = rows[1]
        list.names = ["c", "d", "e"]
        graph.update()
        removed.taps = 99
        graph.update()
        #expect(texts(graph) == ["c:-:12", "d:D:13", "e:-:0"])
        list.names = []
        graph.update()
        #expect(keptD == nil)
    }
}

/// A list whose rows' titles come from its own state, each row with state of its own.
struct RetitledList: View {
    @State var titles = ["a", "b"]
    var body: some View {
        Stack(.vertical) {
            ForEach(titles.indices, id: \.self) { index in StatefulRow(title: titles[index]) }
        }
    }
}

@Suite("Kept installations and reserved sizes")
@MainActor
struct KeptInstallationTests {
    @Test("A state-only view given a new input shows it, with its state kept")
    func newInputAfterStateChange() throws {
        let graph = ViewGraph(root: RetitledList())
        let rows = graph.allNodes.compactMap { $0.viewValue as? StatefulRow }
        rows[0].taps = 5
        graph.update()
        #expect(texts(graph) == ["a:5", "b:0"])
        let list = try #require(graph.root.viewValue as? RetitledList)
        list.titles = ["A", "b"]
        graph.update()
        // The row was installed for "a"; its parent's new value is what its body reads.
        #expect(texts(graph) == ["A:5", "b:0"])
        rows[0].taps = 6
        graph.update()
        #expect(texts(graph) == ["A:6", "b:0"])
    }

    @Test("Graphs of one root type at different sizes, each built whole")
    func sizesReservedFromAnotherGraph() {
        for count in [100, 3, 250, 0, 40] {
            let titles = (0..<count).map { "row \($0)" }
            let graph = ViewGraph(root: RetitledList(titles: titles))
            #expect(texts(graph) == titles.map { "\($0):0" })
            #expect(graph.nodeCount == 3 + count * 2)
        }
    }
}
