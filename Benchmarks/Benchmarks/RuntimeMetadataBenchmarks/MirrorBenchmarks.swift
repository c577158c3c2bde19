// MirrorBenchmarks.swift
//
// RuntimeMirror against Swift.Mirror as a framework uses them (issue 39): every child of every
// node of a 1,000-row app value listed, each label read, each child reflected again, the
// superclass chain followed. One traversal per sample; the same code for both sides.

import Benchmark
import RuntimeMetadata

/// A row's status, with payloads.
enum MirrorBenchStatus {
    case open
    case shipped(carrier: String, days: Int)
    case returned(reason: String)
}

/// A class a row refers to, with a superclass.
class MirrorBenchParty {
    var name: String
    init(name: String) { self.name = name }
}

/// A customer, a subclass.
final class MirrorBenchCustomer: MirrorBenchParty {
    var loyalty = 3
}

/// One row of the app value.
struct MirrorBenchRow {
    var id: Int
    var title: String
    var tags: [String]
    var price: Double
    var status: MirrorBenchStatus
    var note: String?
    var customer: MirrorBenchCustomer
    var size: (width: Int, height: Int)
}

/// The app value: a thousand rows, a filter, settings.
struct MirrorBenchApp {
    var rows: [MirrorBenchRow]
    var filter: [String: Int] = ["open": 1, "shipped": 2]
    var selection: Int? = 4
    var title = "orders"
}

/// Counts every child of every node under a Swift.Mirror, reading each label.
func visitEveryChild(_ mirror: Mirror, _ tally: inout (children: Int, labelBytes: Int)) {
    for child in mirror.children {
        tally.children += 1
        tally.labelBytes &+= child.label?.utf8.count ?? 0
        visitEveryChild(Mirror(reflecting: child.value), &tally)
    }
    if let superclass = mirror.superclassMirror { visitEveryChild(superclass, &tally) }
}

/// The same traversal under a RuntimeMirror.
func visitEveryChild(_ mirror: RuntimeMirror, _ tally: inout (children: Int, labelBytes: Int)) {
    for child in mirror.children {
        tally.children += 1
        tally.labelBytes &+= child.label?.utf8.count ?? 0
        visitEveryChild(RuntimeMirror(reflecting: child.value), &tally)
    }
    if let superclass = mirror.superclassMirror { visitEveryChild(superclass, &tally) }
}

func mirrorBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(2)
    )
    let statuses: [MirrorBenchStatus] = [.open, .shipped(carrier: "post", days: 2), .returned(reason: "size")]
    let app = hidden(
        MirrorBenchApp(
            rows: (0..<1_000).map { index in
                MirrorBenchRow(
                    id: index,
                    title: "row \(index)",
                    tags: ["a", "b"],
                    price: Double(index) / 4,
                    status: statuses[index % 3],
                    note: index % 2 == 0 ? "note" : nil,
                    customer: MirrorBenchCustomer(name: "c\(index % 10)"),
                    size: (index, index * 2)
                )
            }
        )
    )
    var standard = (children: 0, labelBytes: 0)
    visitEveryChild(Mirror(reflecting: app), &standard)
    var runtime = (children: 0, labelBytes: 0)
    visitEveryChild(RuntimeMirror(reflecting: app), &runtime)
    precondition(standard == runtime, "RuntimeMirror lists \(runtime), Mirror \(standard)")

    Benchmark("Reflect.runtimeMirror.rows1k", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            var tally = (children: 0, labelBytes: 0)
            visitEveryChild(RuntimeMirror(reflecting: app), &tally)
            blackHole(tally.children &+ tally.labelBytes)
        }
    }
    Benchmark("Reflect.mirror.rows1k", configuration: configuration) { benchmark in
        for _ in benchmark.scaledIterations {
            var tally = (children: 0, labelBytes: 0)
            visitEveryChild(Mirror(reflecting: app), &tally)
            blackHole(tally.children &+ tally.labelBytes)
        }
    }
}
