// KeyedMatchingTests.swift
//
// A ForEach's rows are matched by their identities' hashes in a table of positions, after a
// guess at the position after the last row matched. These cases reach the table's probing,
// not only the guess: shuffles, identities whose hashes all collide, identities of several
// kinds (an enum with payloads, a class's identity, a string), duplicates, and rows of two
// types in one ForEach through `DynamicView`. The oracle is each row's own state, which must
// follow its identity.

import Testing
import ViewGraph

/// An identity whose hash is the same for every value: every lookup probes past the others.
struct CollidingID: Hashable {
    let value: Int
    static func == (lhs: CollidingID, rhs: CollidingID) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(0) }
}

/// An identity with cases and payloads.
enum RowKey: Hashable {
    case header
    case item(Int)
    case named(String)
}

final class KeyedModel {}

/// A list of identified rows whose order lives in its own state.
struct KeyedList<ID: Hashable>: View {
    @State var ids: [ID]
    var body: some View {
        Stack(.vertical) {
            ForEach(ids, id: \.self) { id in StatefulRow(title: "\(id)") }
        }
    }
}

/// A deterministic shuffle: each position moved by a stride coprime with the count.
func shuffled<T>(_ values: [T], stride: Int) -> [T] {
    values.indices.map { values[($0 * stride + 3) % values.count] }
}

@Suite("Keyed matching")
@MainActor
struct KeyedMatchingTests {
    /// Builds a list, gives each row a state of its own, reorders, and checks that each row's
    /// state followed its identity.
    func checkReorders<ID: Hashable>(_ ids: [ID], _ orders: [[ID]]) throws {
        let graph = ViewGraph(root: KeyedList(ids: ids))
        let rows = graph.allNodes.compactMap { $0.viewValue as? StatefulRow }
        #expect(rows.count == ids.count)
        var taps: [String: Int] = [:]
        for (position, row) in rows.enumerated() {
            row.taps = position + 1
            taps[row.title] = position + 1
        }
        graph.update()
        let list = try #require(graph.root.viewValue as? KeyedList<ID>)
        for order in orders {
            list.ids = order
            graph.update()
            // A row removed and later added again is a new node, with its state from the start.
            let kept = Set(order.map { "\($0)" })
            taps = taps.filter { kept.contains($0.key) }
            #expect(texts(graph) == order.map { "\($0):\(taps["\($0)", default: 0])" })
        }
    }

    @Test("Identities whose hashes all collide, shuffled and reversed")
    func collidingHashes() throws {
        let ids = (0..<60).map(CollidingID.init)
        try checkReorders(ids, [shuffled(ids, stride: 7), ids.reversed(), Array(ids.dropFirst(5)), ids])
    }

    @Test("Enum identities with payloads, shuffled, with rows removed and added")
    func enumIdentities() throws {
        let ids: [RowKey] = [.header] + (0..<40).map(RowKey.item) + ["a", "b"].map(RowKey.named)
        let changed = [RowKey.named("c")] + shuffled(Array(ids.dropLast()), stride: 11)
        try checkReorders(ids, [shuffled(ids, stride: 5), changed, ids.reversed()])
    }

    @Test("A class's identity and strings as identities")
    func objectAndStringIdentities() throws {
        let models = (0..<30).map { _ in KeyedModel() }
        let objects = models.map(ObjectIdentifier.init)
        try withExtendedLifetime(models) {
            try checkReorders(objects, [shuffled(objects, stride: 7), objects.reversed()])
        }
        let strings = (0..<30).map { "row \($0)" }
        try checkReorders(strings, [shuffled(strings, stride: 11), Array(strings.suffix(10))])
    }

    @Test("Rows whose data lends its storage on some evaluations and not others keep their state")
    func storageLentSometimes() throws {
        // Lent storage: the rows are reconciled as a run, matched by their typed identities.
        // Not lent: one by one, matched through `AnyHashable`. Each evaluation may take
        // either path after the other.
        struct Switching: View {
            @State var data = SometimesContiguous(ids: Array(0..<50))
            var body: some View {
                ForEach(data, id: \.self) { id in StatefulRow(title: "\(id)") }
            }
        }
        let graph = ViewGraph(root: Switching())
        for row in graph.allNodes.compactMap({ $0.viewValue as? StatefulRow }) { row.taps = Int(row.title)! + 100 }
        graph.update()
        let root = try #require(graph.root.viewValue as? Switching)
        var order = Array(0..<50)
        for (step, (lends, stride)) in zip([false, true, true, false, false, true], [7, 9, 11, 13, 17, 19]).enumerated()
        {
            order = shuffled(order, stride: stride)
            if step == 3 { order = order.filter { $0 != 4 } + [4] }
            root.data = SometimesContiguous(ids: order, lendsStorage: lends)
            graph.update()
            #expect(texts(graph) == order.map { "\($0):\($0 + 100)" }, "step \(step)")
        }
        // A row added to the run is new: its state starts over.
        root.data = SometimesContiguous(ids: order + [50], lendsStorage: true)
        graph.update()
        #expect(texts(graph) == order.map { "\($0):\($0 + 100)" } + ["50:0"])
        let identities = graph.allNodes.filter { $0.viewValue is StatefulRow }.map(\.dataIdentity)
        #expect(identities == (order + [50]).map { AnyHashable($0) })
    }

    @Test("A run of rows deeper than the limit is one error node, on every evaluation")
    func runPastTheDepthLimit() throws {
        let graph = ViewGraph(root: KeyedList(ids: Array(0..<10)), configuration: .init(maximumDepth: 2))
        func shown() -> [String] { graph.allNodes.map(\.viewType.name) }
        let built = shown()
        #expect(built.count == 4)
        #expect(built.last == String(reflecting: InvalidView.self))
        let list = try #require(graph.root.viewValue as? KeyedList<Int>)
        list.ids = Array((0..<10).reversed())
        graph.update()
        #expect(shown() == built)
    }

    @Test("Rows of two types in one ForEach, through DynamicView, keep their state when shuffled")
    func dynamicRows() throws {
        struct Mixed: View {
            @State var ids = Array(0..<20)
            var body: some View {
                ForEach(ids, id: \.self) { id in
                    id.isMultiple(of: 2) ? DynamicView(StatefulRow(title: "\(id)")) : DynamicView(Text("text \(id)"))
                }
            }
        }
        let graph = ViewGraph(root: Mixed())
        for row in graph.allNodes.compactMap({ $0.viewValue as? StatefulRow }) { row.taps = Int(row.title)! + 100 }
        graph.update()
        let mixed = try #require(graph.root.viewValue as? Mixed)
        let order = shuffled(Array(0..<20), stride: 7)
        mixed.ids = order
        graph.update()
        #expect(texts(graph) == order.map { $0.isMultiple(of: 2) ? "\($0):\($0 + 100)" : "text \($0)" })
    }
}

/// Identifiers that lend their storage to `withContiguousStorageIfAvailable` only when asked.
struct SometimesContiguous: RandomAccessCollection {
    var ids: [Int]
    var lendsStorage = true
    var startIndex: Int { ids.startIndex }
    var endIndex: Int { ids.endIndex }
    subscript(position: Int) -> Int { ids[position] }

    func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Int>) throws -> R) rethrows -> R? {
        guard lendsStorage else { return nil }
        return try ids.withContiguousStorageIfAvailable(body)
    }
}
