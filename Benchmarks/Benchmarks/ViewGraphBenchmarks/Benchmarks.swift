// Benchmarks.swift
//
// ViewGraph beside the alternatives its users have: the same heterogeneous tree built with
// views erased into `AnyView`, and a rebuild of the whole tree instead of an update; and
// beside its floor (issue 30): the same tree's bodies evaluated once each, keeping nothing
// (`BareEvaluation`).

import Benchmark
import RuntimeMetadata
@_spi(Baseline) import ViewGraph

struct Label: View {
    var text: String
    var body: some View { Text(text).padding(2) }
}

struct Row: View {
    var title: String
    var detail: String
    var body: some View {
        Stack(.horizontal, spacing: 4) {
            Text(title)
            Text(detail).className("detail")
        }
    }
}

struct Counter: View {
    @State var count = 0
    var body: some View { Text("\(count)") }
}

/// The items of the heterogeneous tree, as a user's model would hold them: typed values of
/// several view types. Each item makes 1 to 5 nodes, 3 on average; `itemCount` of them and
/// the stack that holds them make 10,005 nodes.
@MainActor
enum Items {
    static let itemCount = 3_334

    static func typed(_ index: Int) -> Any {
        switch index % 4 {
        case 0: Text("item \(index)")
        case 1: Label(text: "label \(index)")
        case 2: Row(title: "row \(index)", detail: "detail")
        default: Counter()
        }
    }

    static func erased(_ index: Int) -> AnyView {
        switch index % 4 {
        case 0: AnyView(Text("item \(index)"))
        case 1: AnyView(Label(text: "label \(index)"))
        case 2: AnyView(Row(title: "row \(index)", detail: "detail"))
        default: AnyView(Counter())
        }
    }
}

/// The tree: a stack of every item, each resolved from `Any` to its typed node.
struct DynamicTree: View {
    var items: [Any]
    var body: some View {
        Stack(.vertical) {
            ForEach(items.indices, id: \.self) { index in DynamicView(items[index]) }
        }
    }
}

/// The same tree, each item erased into `AnyView`.
struct ErasedTree: View {
    var items: [AnyView]
    var body: some View {
        Stack(.vertical) {
            ForEach(items.indices, id: \.self) { index in items[index] }
        }
    }
}

/// A row of an identified list, as an app's model holds it.
struct RowModel: Identifiable {
    var id: Int
    var title: String
}

/// A row view with state of its own, which follows its identity.
struct ListRow: View {
    var title: String
    @State var expanded = false
    var body: some View { Text(expanded ? title + " (expanded)" : title) }
}

/// 1,000 identified rows whose data is in the list's own state, as an app's list is.
struct RowList: View {
    @State var rows: [RowModel] = (0..<1_000).map { RowModel(id: $0, title: "row \($0)") }
    var body: some View {
        Stack(.vertical) {
            ForEach(rows) { row in ListRow(title: row.title) }
        }
    }
}

/// An environment value no row reads, set above the rows (issue 37).
struct BenchmarkThemeKey: EnvironmentKey {
    static let defaultValue = "light"
}

extension EnvironmentValues {
    var benchmarkTheme: String {
        get { self[BenchmarkThemeKey.self] }
        set { self[BenchmarkThemeKey.self] = newValue }
    }
}

/// ``RowList`` under an `.environment(...)` modifier that no row reads.
struct EnvironmentRowList: View {
    @State var rows: [RowModel] = (0..<1_000).map { RowModel(id: $0, title: "row \($0)") }
    var body: some View {
        Stack(.vertical) {
            ForEach(rows) { row in ListRow(title: row.title) }
        }
        .environment(\.benchmarkTheme, "dark")
    }
}

/// Measures updates of a list of 1,000 rows after retitling every hundredth row.
/// - Parameters:
///   - benchmark: The benchmark.
///   - graph: The list's graph.
///   - setTitle: Sets the title of the row at an index, in the list's state.
@MainActor
func measureRowUpdates(_ benchmark: Benchmark, graph: ViewGraph, setTitle: (Int, String) -> Void) {
    var round = 0
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        round += 1
        for index in stride(from: 0, to: 1_000, by: 100) { setTitle(index, "row \(index) v\(round)") }
        blackHole(graph.update())
    }
    benchmark.stopMeasurement()
}

/// Runs a benchmark's body on the main actor, where the graph lives; the harness runs one
/// benchmark at a time, so handing it the benchmark is safe.
func onMainActor(_ benchmark: Benchmark, _ body: @MainActor (Benchmark) -> Void) async {
    nonisolated(unsafe) let benchmark = benchmark
    await MainActor.run { body(benchmark) }
}

/// A view that shows its content; nested by ``layerChain(_:)`` into distinct generic types.
struct Layer<Content: View>: View {
    var content: Content
    var body: some View { content }
}

/// `view` in a layer.
@MainActor
func layered(_ view: some View) -> any View { Layer(content: view) }

/// A text in `depth` layers, each level a distinct generic type made at run time, as a
/// framework's generic recursion makes them.
@MainActor
func layerChain(_ depth: Int) -> any View {
    var view: any View = Text("x")
    for _ in 0..<depth { view = layered(view) }
    return view
}

/// A view's body, opened from its existential.
@MainActor
func bodyOf(_ view: some View) -> any View { view.body }

/// Measures building a graph from items made before the measurement, one graph per iteration.
@MainActor
func measureBuilds<Item, Root: View>(_ benchmark: Benchmark, items: [Item], root: ([Item]) -> Root) {
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        blackHole(ViewGraph(root: root(items)))
    }
    benchmark.stopMeasurement()
}

/// Measures updates of a graph, each after incrementing the given counters.
@MainActor
func measureUpdates(_ benchmark: Benchmark, graph: ViewGraph, changing counters: [Counter]) {
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
        for counter in counters { counter.count += 1 }
        blackHole(graph.update())
    }
    benchmark.stopMeasurement()
}

/// The 10,005-node tree's graph, and 1% of its leaves' counters, spread over the tree, each of
/// which owns one leaf; each counter as the graph hands it out, its state connected.
@MainActor
func onePercentOfCounters() -> (ViewGraph, [Counter]) {
    let graph = ViewGraph(root: DynamicTree(items: (0..<Items.itemCount).map(Items.typed)))
    let leafCount = graph.allNodes.filter(\.children.isEmpty).count
    let counters = graph.allNodes.compactMap { $0.viewValue as? Counter }
    let step = max(1, counters.count / max(1, leafCount / 100))
    return (graph, stride(from: 0, to: counters.count, by: step).map { counters[$0] })
}

/// A tree a tenth the size (1,005 nodes), and as many of its counters as
/// ``onePercentOfCounters()`` changes, spread over it.
@MainActor
func sameChangesInASmallerTree() -> (ViewGraph, [Counter]) {
    let count = onePercentOfCounters().1.count
    let graph = ViewGraph(root: DynamicTree(items: (0..<Items.itemCount / 10).map(Items.typed)))
    let counters = graph.allNodes.compactMap { $0.viewValue as? Counter }
    let step = max(1, counters.count / count)
    return (graph, Array(stride(from: 0, to: counters.count, by: step).map { counters[$0] }.prefix(count)))
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(5),
        maxIterations: 200
    )
    // The updates take tens of microseconds: measured in nanoseconds, so that their ratios
    // are not rounded to whole microseconds.
    let updates = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        maxDuration: .seconds(5),
        maxIterations: 2_000
    )

    Benchmark("ViewGraph.build.dynamic10k", configuration: configuration) { benchmark in
        await onMainActor(benchmark) { benchmark in
            for _ in benchmark.scaledIterations {
                let items = (0..<Items.itemCount).map(Items.typed)
                blackHole(ViewGraph(root: DynamicTree(items: items)))
            }
        }
    }
    Benchmark("AnyView.build.erased10k", configuration: configuration) { benchmark in
        await onMainActor(benchmark) { benchmark in
            for _ in benchmark.scaledIterations {
                let items = (0..<Items.itemCount).map(Items.erased)
                blackHole(ViewGraph(root: ErasedTree(items: items)))
            }
        }
    }

    // Updating 1% of the leaves against rebuilding the tree.
    Benchmark("ViewGraph.update.onePercent", configuration: updates) { benchmark in
        await onMainActor(benchmark) { benchmark in
            let (graph, changed) = onePercentOfCounters()
            measureUpdates(benchmark, graph: graph, changing: changed)
        }
    }
    // An update with nothing changed: what every update costs, whatever changed and whatever
    // the tree's size (the constant of the 1% update's goal).
    Benchmark("ViewGraph.update.nothing", configuration: updates) { benchmark in
        await onMainActor(benchmark) { benchmark in
            measureUpdates(benchmark, graph: onePercentOfCounters().0, changing: [])
        }
    }
    // The same update in a tree a tenth the size: what of an update grows with the tree.
    Benchmark("ViewGraph.update.sameChanges.tree1k", configuration: updates) { benchmark in
        await onMainActor(benchmark) { benchmark in
            let (graph, changed) = sameChangesInASmallerTree()
            measureUpdates(benchmark, graph: graph, changing: changed)
        }
    }
    // The floor of that update: the changed counters' subtrees evaluated bare, each counter
    // reading its state where the graph keeps it.
    Benchmark("ViewGraph.bare.onePercent", configuration: updates) { benchmark in
        await onMainActor(benchmark) { benchmark in
            let (_, changed) = onePercentOfCounters()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                for counter in changed { blackHole(BareEvaluation.evaluate(counter)) }
            }
            benchmark.stopMeasurement()
        }
    }
    Benchmark("ViewGraph.rebuild", configuration: configuration) { benchmark in
        await onMainActor(benchmark) { benchmark in
            measureBuilds(benchmark, items: (0..<Items.itemCount).map(Items.typed)) { DynamicTree(items: $0) }
        }
    }

    // The same 10,005-node builds with the items made before the measurement: what the graph
    // itself allocates, beside the rows above, which include making the items (boxing a value
    // in `Any`, or in `AnyView`). The typed one is `ViewGraph.rebuild`'s measurement, named
    // for its pair.
    Benchmark("ViewGraph.build.dynamic10k.graphOnly", configuration: configuration) { benchmark in
        await onMainActor(benchmark) { benchmark in
            measureBuilds(benchmark, items: (0..<Items.itemCount).map(Items.typed)) { DynamicTree(items: $0) }
        }
    }
    Benchmark("AnyView.build.erased10k.graphOnly", configuration: configuration) { benchmark in
        await onMainActor(benchmark) { benchmark in
            measureBuilds(benchmark, items: (0..<Items.itemCount).map(Items.erased)) { ErasedTree(items: $0) }
        }
    }

    // The floor of a build (issue 30): the same 10,005 views evaluated once each, through the
    // same `View` requirements and the same opening of each `DynamicView`, keeping nothing.
    Benchmark("ViewGraph.bare.dynamic10k", configuration: configuration) { benchmark in
        await onMainActor(benchmark) { benchmark in
            let items = (0..<Items.itemCount).map(Items.typed)
            // The same tree: as many views as the graph makes nodes.
            precondition(
                BareEvaluation.evaluate(DynamicTree(items: items))
                    == ViewGraph(root: DynamicTree(items: items)).nodeCount
            )
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(BareEvaluation.evaluate(DynamicTree(items: items)))
            }
            benchmark.stopMeasurement()
        }
    }
    // The same build at a tenth of the size (1,005 nodes): its allocations against the
    // 10,005-node build's, which must not grow with the node count.
    Benchmark("ViewGraph.build.dynamic1k.graphOnly", configuration: configuration) { benchmark in
        await onMainActor(benchmark) { benchmark in
            measureBuilds(benchmark, items: (0..<Items.itemCount / 10).map(Items.typed)) { DynamicTree(items: $0) }
        }
    }

    // Reordering 1,000 identified rows, against changing 1% of their data: both through the
    // list's state, so both evaluate the list and reconcile its 1,000 rows; the reorder moves
    // every row's node, the change evaluates ten rows.
    Benchmark("ViewGraph.reorder.rows1k", configuration: configuration) { benchmark in
        await onMainActor(benchmark) { benchmark in
            let graph = ViewGraph(root: RowList())
            guard let list = graph.root.viewValue as? RowList else { return }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                list.rows.reverse()
                blackHole(graph.update())
            }
            benchmark.stopMeasurement()
        }
    }
    // The floor of the reorder: the list's body evaluated, its 1,000 rows made with their
    // identities, no row's body evaluated (the list, its stack, its ForEach: depth 3).
    Benchmark("ViewGraph.bare.rows1k.identities", configuration: configuration) { benchmark in
        await onMainActor(benchmark) { benchmark in
            let list = RowList()
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(BareEvaluation.evaluate(list, depth: 3))
            }
            benchmark.stopMeasurement()
        }
    }
    // The least any graph must do to reorder the same rows, beyond their bare evaluation:
    // each row's identity found among the previous rows' (hashed as its own type, and
    // compared with its match, in code specialized for `Int`), and each row compared with its
    // previous value by layout, as the graph compares views, to know that its body need not
    // run. Identities and rows are made before the measurement: the bare evaluation above
    // makes them.
    Benchmark("ViewGraph.floor.rows1k.keyedMatch", configuration: configuration) { benchmark in
        await onMainActor(benchmark) { benchmark in
            let list = RowList()
            let rows = (0..<1_000).map { RowModel(id: $0, title: "row \($0)") }
            let previous = Dictionary(uniqueKeysWithValues: rows.enumerated().map { ($1.id, $0) })
            let previousRows = rows.map { ListRow(title: $0.title) }
            let identities = rows.reversed().map(\.id)
            let newRows = rows.reversed().map { ListRow(title: $0.title) }
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(BareEvaluation.evaluate(list, depth: 3))
                var unchanged = 0
                for position in identities.indices {
                    guard let match = previous[identities[position]] else { continue }
                    if TypeMetadata.layoutEquals(newRows[position], previousRows[match]) { unchanged += 1 }
                }
                precondition(unchanged == rows.count)
            }
            benchmark.stopMeasurement()
        }
    }
    Benchmark("ViewGraph.update.rows1k.onePercent", configuration: configuration) { benchmark in
        await onMainActor(benchmark) { benchmark in
            let graph = ViewGraph(root: RowList())
            guard let list = graph.root.viewValue as? RowList else { return }
            measureRowUpdates(benchmark, graph: graph) { list.rows[$0].title = $1 }
        }
    }
    // Issue 37: the same update under an `.environment(...)` modifier that no row reads, which
    // makes a new environment on every evaluation of the list (goal: at most 1.2x of the above).
    Benchmark("ViewGraph.update.rows1k.onePercent.environment", configuration: configuration) { benchmark in
        await onMainActor(benchmark) { benchmark in
            let graph = ViewGraph(root: EnvironmentRowList())
            guard let list = graph.root.viewValue as? EnvironmentRowList else { return }
            measureRowUpdates(benchmark, graph: graph) { list.rows[$0].title = $1 }
        }
    }

    // Resolving one Any to a typed node, against a statically typed child.
    let small = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        maxDuration: .seconds(2)
    )
    // Views of 2,000 distinct generic types nested in one another (issue 28): a copy of the
    // view at depth k is 2,000 - k value-witness calls, so any build is quadratic in the views'
    // own witnesses. The baseline evaluates each body once and drops it, the least a graph can
    // do; the graph's build and release against it.
    Benchmark("ViewGraph.build.distinctNested2k", configuration: configuration) { benchmark in
        await onMainActor(benchmark) { benchmark in
            let root = layerChain(2_000)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations { blackHole(ViewGraph(any: root)) }
            benchmark.stopMeasurement()
        }
    }
    Benchmark("ViewGraph.bodies.distinctNested2k", configuration: configuration) { benchmark in
        await onMainActor(benchmark) { benchmark in
            let root = layerChain(2_000)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                var view = root
                for _ in 0..<2_000 { view = bodyOf(view) }
                blackHole(view)
            }
            benchmark.stopMeasurement()
        }
    }

    Benchmark("ViewGraph.resolve.anyChild.warm", configuration: small) { benchmark in
        await onMainActor(benchmark) { benchmark in
            let dynamicChild: Any = Row(title: "a", detail: "b")
            for _ in benchmark.scaledIterations {
                blackHole(ViewGraph(root: Group { DynamicView(dynamicChild) }))
            }
        }
    }
    Benchmark("ViewGraph.resolve.typedChild", configuration: small) { benchmark in
        await onMainActor(benchmark) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(ViewGraph(root: Group { Row(title: "a", detail: "b") }))
            }
        }
    }
}
