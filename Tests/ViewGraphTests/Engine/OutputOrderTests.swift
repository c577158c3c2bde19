// OutputOrderTests.swift
//
// View outputs follow tree order after the writers move: a pure reorder (no writer's input
// changes), a move with a change, and inserts before existing writers. The alias's "last
// definition in tree order wins" follows the same order.

import RuntimeMetadata
import Testing
import ViewGraph

struct RowOutputs: ViewOutputKey {
    typealias Content = Text
}

/// Rows that each hand up their name, uppercased; the reader lists them.
struct ReorderedOutputs: View {
    @State var names = ["a", "b"]
    var body: some View {
        ViewOutputKeyReader(RowOutputs.self) {
            Stack(.vertical) {
                ForEach(names, id: \.self) { name in
                    Text(name).viewOutput(RowOutputs.self) { Text(name.uppercased()) }
                }
            }
        } content: { outputs in
            Stack(.horizontal) { outputs }.className("outputs")
        }
    }
}

struct LastTitle: ViewOutputAlias {
    typealias Content = Text
}

/// Rows that each define the alias; the last in tree order wins.
struct ReorderedAlias: View {
    @State var names = ["a", "b"]
    var body: some View {
        ViewOutputAliasReader(LastTitle.self) {
            Stack(.vertical) {
                LastTitle()
                ForEach(names, id: \.self) { name in
                    Text(name).viewOutputAlias(LastTitle.self) { Text("title " + name) }
                }
            }
        }
    }
}

@MainActor
private func outputs(_ graph: ViewGraph) throws -> [String] {
    let reader = try #require(graph.allNodes.first { $0.renderAttributes.classNames.contains("outputs") })
    var result: [String] = []
    var pending = [reader]
    while let node = pending.popLast() {
        if case .text(let text) = node.renderAttributes.role { result.append(text) }
        pending.append(contentsOf: node.children.reversed())
    }
    return result
}

@Suite("View outputs follow tree order")
@MainActor
struct OutputOrderTests {
    @Test("A pure reorder of the writers: the reader shows the new order")
    func pureReorder() throws {
        let graph = ViewGraph(root: ReorderedOutputs())
        #expect(try outputs(graph) == ["A", "B"])
        let root = try #require(graph.allNodes.first?.viewValue as? ReorderedOutputs)
        root.names = ["b", "a"]
        graph.update()
        #expect(texts(graph).prefix(2) == ["b", "a"])
        #expect(try outputs(graph) == ["B", "A"])
    }

    @Test("Moves with changes, and inserts before existing writers")
    func movesAndInserts() throws {
        let graph = ViewGraph(root: ReorderedOutputs())
        let root = try #require(graph.allNodes.first?.viewValue as? ReorderedOutputs)
        root.names = ["c", "b", "a"]  // an insert at the front and a reorder
        graph.update()
        #expect(try outputs(graph) == ["C", "B", "A"])
        root.names = ["a", "d", "c"]  // a move, a removal and an insert
        graph.update()
        #expect(try outputs(graph) == ["A", "D", "C"])
        root.names = ["c", "a", "d"]  // a rotation
        graph.update()
        #expect(try outputs(graph) == ["C", "A", "D"])
    }

    @Test("An alias shows the last definition in the new tree order")
    func aliasAfterReorder() throws {
        let graph = ViewGraph(root: ReorderedAlias())
        #expect(texts(graph).first == "title b")
        let root = try #require(graph.allNodes.first?.viewValue as? ReorderedAlias)
        root.names = ["b", "a"]
        graph.update()
        #expect(texts(graph).first == "title a")
    }
}
