// GraphLifetimeTests.swift
//
// Graphs made and released in a loop: an identity kept from another graph names no node.

import RuntimeMetadata
import Testing
import ViewGraph

@Suite("Graph lifetime")
@MainActor
struct GraphLifetimeTests {
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
}
