// DiffBenchmarks.swift
//
// ValueDump's diff against swift-custom-dump's `diff`, which TCA-style test stores call on every
// assertion, and against the state's own `==` (issue 31): two equal app states, two states
// that differ in a few places, a 1,000-element array with one element changed and one with an
// element inserted at the front (aligned, not reported at every later index), and the bound of
// the alignment: two 10,000-element arrays that differ everywhere. Each sample is one diff of
// values made beforehand.

import Benchmark
import CustomDump
import ValueDump

/// A to-do item, identified.
struct BenchTodo: Identifiable, Equatable {
    var id: Int
    var title: String
    var isDone = false
    var tags: [String] = ["home"]
}

/// An app's state: a list, a filter, settings, counters, a selection and a session.
struct BenchAppState: Equatable {
    enum Filter: Equatable { case all, done, search(String) }
    struct Settings: Equatable {
        var theme = "light"
        var fontSize = 12.0
        var notifications = true
        var flags: Set<String> = ["beta", "sync"]
    }
    var todos = (0..<50).map { BenchTodo(id: $0, title: "todo \($0)") }
    var filter = Filter.all
    var settings = Settings()
    var counts: [String: Int] = ["open": 50, "done": 0, "archived": 3]
    var selection: Int? = nil
    var user = "ada"
}

/// A row of a long list, compared by position.
struct BenchRow: Equatable {
    var index: Int
    var label: String
    var value: Double
}

func diffBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        maxDuration: .seconds(2)
    )
    let state = hidden(BenchAppState())
    let equal = hidden(BenchAppState())
    var changedState = BenchAppState()
    changedState.todos[12].isDone = true
    changedState.settings.theme = "dark"
    changedState.counts["done"] = 1
    let changed = hidden(changedState)
    let rows = hidden((0..<1_000).map { BenchRow(index: $0, label: "row \($0)", value: Double($0) / 3) })
    var changedRowsValue = rows
    changedRowsValue[700].label = "changed"
    let changedRows = hidden(changedRowsValue)
    var insertedRowsValue = rows
    insertedRowsValue.insert(BenchRow(index: -1, label: "new", value: 0), at: 0)
    let insertedRows = hidden(insertedRowsValue)
    let manyRows = hidden((0..<10_000).map { BenchRow(index: $0, label: "row \($0)", value: 0) })
    let otherRows = hidden((0..<10_000).map { BenchRow(index: -$0 - 1, label: "other \($0)", value: 1) })
    precondition(ValueDump.differences(state, changed).count == 3)
    precondition(ValueDump.differences(rows, insertedRows).map(\.path) == ["[0]"])
    precondition(ValueDump.differences(rows, changedRows).map(\.path) == ["[700].label"])
    precondition(CustomDump.diff(state, changed) != nil && CustomDump.diff(rows, changedRows) != nil)

    Benchmark("Diff.equal.appState", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(ValueDump.diff(state, equal)) }
    }
    Benchmark("Diff.equal.appState.equatable", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(state == equal) }
    }
    Benchmark("Diff.fewChanges.appState", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(ValueDump.diff(state, changed)) }
    }
    Benchmark("Diff.fewChanges.appState.customDump", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(CustomDump.diff(state, changed)) }
    }
    Benchmark("Diff.array1k.oneChange", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(ValueDump.diff(rows, changedRows)) }
    }
    Benchmark("Diff.array1k.oneChange.customDump", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(CustomDump.diff(rows, changedRows)) }
    }
    Benchmark("Diff.array1k.oneInsert", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(ValueDump.diff(rows, insertedRows)) }
    }
    Benchmark("Diff.array1k.oneInsert.customDump", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(CustomDump.diff(rows, insertedRows)) }
    }
    Benchmark("Diff.array10k.allChanged", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations { blackHole(ValueDump.diff(manyRows, otherRows)) }
    }
}
