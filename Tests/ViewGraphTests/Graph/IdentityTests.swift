// IdentityTests.swift
//
// Identity as SwiftUI defines it: ForEach children follow their data identity across
// reorders, inserts and deletes, with their state; other children are identified by
// position and type. And what an update evaluates: a child whose inputs did not change is
// skipped even when it holds state, reads the environment or holds a binding.

import RuntimeMetadata
import Testing
import ViewGraph

// MARK: - Fixtures

struct ListItem: Identifiable, Equatable {
    var id: Int
    var title: String
}

/// A row with state of its own, which must follow the row's identity.
struct StatefulRow: View {
    var title: String
    @State var taps = 0
    var body: some View { Text("\(title):\(taps)") }
}

/// A list whose data lives in its own state, as an app's list does.
struct ItemList: View {
    @State var items: [ListItem]
    var body: some View {
        Stack(.vertical) {
            ForEach(items) { item in StatefulRow(title: item.title) }
        }
    }
}

/// A list identified by a key path, over strings.
struct NameList: View {
    @State var names: [String]
    var body: some View {
        Group {
            ForEach(names, id: \.self) { StatefulRow(title: $0) }
        }
    }
}

/// A view that switches between two branches of the same type.
struct Toggle: View {
    @State var isOn = false
    var body: some View {
        if isOn {
            StatefulRow(title: "on")
        } else {
            StatefulRow(title: "off")
        }
    }
}

/// A child holding a binding to its parent's state.
struct Stepper: View {
    @Binding var value: Int
    var label: String
    var body: some View { Text("\(label)=\(value)") }
}

/// A parent whose body does not read its own state: only the stepper shows it.
struct StepperHost: View {
    @State var count = 0
    @State var unrelated = 0
    var body: some View {
        Group {
            Text("unrelated \(unrelated)")
            Stepper(value: $count, label: "count")
            StatefulRow(title: "sibling")
            AccentReader()
        }
    }
}

/// A value that is not `Sendable`, held in `@State`.
final class Model {
    var rows: [Any] = ["a"]
}

struct ModelView: View {
    @State var model = Model()
    @State var payload: [Any] = [1, "two"]
    var body: some View { Text("\(model.rows.count) \(payload.count)") }
}

/// Text contents in tree order.
@MainActor
func texts(_ graph: ViewGraph) -> [String] {
    graph.allNodes.compactMap {
        guard case .text(let text) = $0.renderAttributes.role else { return nil }
        return text
    }
}

/// The nodes of the stateful rows, in tree order.
@MainActor
func rows(_ graph: ViewGraph) -> [ViewNode] {
    graph.allNodes.filter { $0.viewType == TypeMetadata(StatefulRow.self) }
}

/// Taps each row a different number of times: the row titled `t` gets the tap count the
/// closure gives.
@MainActor
func tap(_ graph: ViewGraph, _ count: (String) -> Int) throws {
    for node in rows(graph) {
        let row = try #require(node.viewValue as? StatefulRow)
        row.taps = count(row.title)
    }
    graph.update()
}

// MARK: - Tests

@Suite("Identity and skipping")
@MainActor
struct IdentityTests {
    static let items = (0..<29).map { ListItem(id: $0, title: "r\($0)") }

    @Test("Reversing a ForEach's data moves each row's node and state; no row is evaluated again")
    func reverse() throws {
        let graph = ViewGraph(root: ItemList(items: Self.items))
        try tap(graph) { title in Int(title.dropFirst())! * 2 }
        let before = Dictionary(uniqueKeysWithValues: rows(graph).map { ($0.dataIdentity as? Int ?? -1, $0) })
        let list = try #require(graph.root.viewValue as? ItemList)
        list.items.reverse()
        let evaluated = graph.update()
        #expect(!evaluated.contains(TypeMetadata(StatefulRow.self).name))
        let expected: [String] = Self.items.reversed().map { item in "\(item.title):\(item.id * 2)" }
        #expect(texts(graph) == expected)
        for node in rows(graph) {
            let id = try #require(node.dataIdentity as? Int)
            #expect(before[id] == node, "row \(id) is the same node")
            #expect(node.isAlive)
        }
        #expect(graph.nodeCount == 1 + 1 + 1 + 29 * 2)
    }

    @Test("Inserting at the front makes one row; every other row keeps its node and state")
    func insertAtFront() throws {
        let graph = ViewGraph(root: ItemList(items: Self.items))
        try tap(graph) { Int($0.dropFirst())! + 1 }
        let list = try #require(graph.root.viewValue as? ItemList)
        list.items.insert(ListItem(id: 100, title: "new"), at: 0)
        let evaluated = graph.update()
        #expect(evaluated.filter { $0 == TypeMetadata(StatefulRow.self).name }.count == 1)
        #expect(texts(graph) == ["new:0"] + Self.items.map { "\($0.title):\($0.id + 1)" })
    }

    @Test("Deleting from the middle removes that row's node and state only")
    func deleteFromMiddle() throws {
        let graph = ViewGraph(root: ItemList(items: Self.items))
        try tap(graph) { Int($0.dropFirst())! + 5 }
        let removed = try #require(rows(graph).first { $0.dataIdentity == AnyHashable(14) })
        let list = try #require(graph.root.viewValue as? ItemList)
        list.items.remove(at: 14)
        let evaluated = graph.update()
        #expect(!evaluated.contains(TypeMetadata(StatefulRow.self).name))
        #expect(!removed.isAlive)
        #expect(removed.children.isEmpty)
        #expect(texts(graph) == Self.items.filter { $0.id != 14 }.map { "\($0.title):\($0.id + 5)" })
        // The identity comes back as a new row, with new state.
        list.items.append(ListItem(id: 14, title: "r14"))
        graph.update()
        #expect(texts(graph).last == "r14:0")
    }

    @Test("ForEach by key path, over strings: a shuffle keeps every row's state")
    func keyPathIdentity() throws {
        let names = ["ada", "grace", "alan", "edsger", "barbara"]
        let graph = ViewGraph(root: NameList(names: names))
        try tap(graph) { $0.count }
        let list = try #require(graph.root.viewValue as? NameList)
        let shuffled = ["edsger", "ada", "barbara", "alan", "grace"]
        list.names = shuffled
        graph.update()
        #expect(texts(graph) == shuffled.map { "\($0):\($0.count)" })
    }

    @Test("ForEach over a range, without id:, identifies elements by value")
    func range() throws {
        struct Ranged: View {
            @State var count = 3
            var body: some View { ForEach(0..<count) { StatefulRow(title: "\($0)") } }
        }
        let graph = ViewGraph(root: Ranged())
        #expect(texts(graph) == ["0:0", "1:0", "2:0"])
        try tap(graph) { Int($0)! + 10 }
        let view = try #require(graph.root.viewValue as? Ranged)
        view.count = 4
        let evaluated = graph.update()
        #expect(evaluated.filter { $0 == TypeMetadata(StatefulRow.self).name }.count == 1)
        #expect(texts(graph) == ["0:10", "1:11", "2:12", "3:0"])
    }

    @Test("Structural identity: the two branches of an if are different nodes, so a switch resets state")
    func branches() throws {
        let graph = ViewGraph(root: Toggle())
        try tap(graph) { _ in 7 }
        #expect(texts(graph) == ["off:7"])
        let toggle = try #require(graph.root.viewValue as? Toggle)
        toggle.isOn = true
        graph.update()
        #expect(texts(graph) == ["on:0"])
        toggle.isOn = false
        graph.update()
        #expect(texts(graph) == ["off:0"])
    }

    @Test(
        "A parent evaluated again skips children with state, environment reads or bindings whose inputs are unchanged"
    )
    func skipsStatefulChildren() throws {
        let graph = ViewGraph(root: StepperHost())
        let host = try #require(graph.root.viewValue as? StepperHost)
        host.unrelated = 1
        let evaluated = graph.update()
        #expect(evaluated.first == TypeMetadata(StepperHost.self).name)
        #expect(!evaluated.contains(TypeMetadata(Stepper.self).name))
        #expect(!evaluated.contains(TypeMetadata(StatefulRow.self).name))
        #expect(!evaluated.contains(TypeMetadata(AccentReader.self).name))
        #expect(texts(graph).first == "unrelated 1")
    }

    @Test("A binding writes its owner's state; the views that read it are evaluated again")
    func binding() throws {
        let graph = ViewGraph(root: StepperHost())
        let stepperNode = try #require(graph.allNodes.first { $0.viewType == TypeMetadata(Stepper.self) })
        let stepper = try #require(stepperNode.viewValue as? Stepper)
        #expect(stepper.value == 0)
        stepper.value = 5
        #expect(stepper.value == 5)
        let evaluated = graph.update()
        #expect(evaluated.contains(TypeMetadata(Stepper.self).name))
        #expect(texts(graph).contains("count=5"))
        let host = try #require(graph.root.viewValue as? StepperHost)
        #expect(host.count == 5)
        #expect(host.$count.wrappedValue == 5)
        // A second write through the owner reaches the stepper, which the owner's body skips.
        host.count = 6
        graph.update()
        #expect(texts(graph).contains("count=6"))
    }

    @Test("Constant and accessor bindings")
    func otherBindings() {
        let constant = Binding.constant(3)
        constant.wrappedValue = 4
        #expect(constant.wrappedValue == 3)
        var stored = 1
        let accessor = Binding(get: { stored }, set: { stored = $0 })
        accessor.wrappedValue = 2
        #expect(stored == 2)
        let graph = ViewGraph(root: Stepper(value: .constant(9), label: "fixed"))
        #expect(texts(graph) == ["fixed=9"])
    }

    @Test("State of a type that is not Sendable, and a view value before it is placed in a graph")
    func nonSendableState() throws {
        let graph = ViewGraph(root: ModelView())
        #expect(texts(graph) == ["1 2"])
        let view = try #require(graph.root.viewValue as? ModelView)
        view.payload = [1, 2, 3]
        graph.update()
        #expect(texts(graph) == ["1 3"])
        // Not placed: the initial value, and writes are ignored.
        let loose = ModelView()
        loose.payload = []
        #expect(loose.payload.count == 2)
    }

    @Test("A removed node's state slot is reused without reaching the old handle")
    func staleState() throws {
        let graph = ViewGraph(root: ItemList(items: Array(Self.items.prefix(3))))
        try tap(graph) { _ in 4 }
        let stale = try #require(rows(graph).first?.viewValue as? StatefulRow)
        let list = try #require(graph.root.viewValue as? ItemList)
        list.items.removeFirst()
        graph.update()
        list.items.append(ListItem(id: 50, title: "r50"))
        graph.update()
        // The new row may take the freed slot; the old handle reads its initial value and
        // its writes go nowhere.
        #expect(stale.taps == 0)
        stale.taps = 99
        #expect(graph.update().isEmpty)
        #expect(texts(graph) == ["r1:4", "r2:4", "r50:0"])
    }
}

@Suite("State layout")
struct StateLayoutTests {
    @Test("A view with one @State Int fits an Any's inline buffer, so a list of such views boxes none")
    func stateSize() {
        struct OneCounter: View {
            @State var count = 0
            var body: some View { Text("\(count)") }
        }
        #expect(MemoryLayout<State<Int>>.size <= 24)
        #expect(MemoryLayout<OneCounter>.size <= 3 * MemoryLayout<Int>.size)
    }
}
