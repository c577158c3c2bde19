// main.swift (CustomDumpBench)
//
// swift-custom-dump's `customDump` and `diff` of a 1,000-row app value. The package that
// Benchmarks/Scripts/custom_dump.py writes holds customDump twice: `CustomDump`, whose `Mirror`
// is RuntimeMirror, and `CustomDumpOriginal`, unchanged. Prints one JSON object: the median time
// of each operation in nanoseconds, and a hash of each text, so that the two are shown to write
// the same text.
//
// - With no option, `CustomDump` is timed, and then the two in turn (the ratios the goals judge,
//   since one process of this machine can run up to 2x faster than the next).
// - `--original` times `CustomDumpOriginal` alone, in a process of its own.
// - `--ceiling` times customDump's own work (below), the faster of the two modules.

import CustomDump
import CustomDumpOriginal
import Foundation

/// Whether this process times `CustomDumpOriginal` alone (`--original`).
let original = CommandLine.arguments.contains("--original")

/// customDump's text of `value`, from the module this process times.
func dumpText<T>(_ value: T, original: Bool = original) -> String {
    var text = ""
    if original {
        CustomDumpOriginal.customDump(value, to: &text)
    } else {
        CustomDump.customDump(value, to: &text)
    }
    return text
}

/// customDump's diff of two values, from the module this process times.
func diffText<T>(_ old: T, _ new: T, original: Bool = original) -> String? {
    original ? CustomDumpOriginal.diff(old, new) : CustomDump.diff(old, new)
}

/// A row's status, with payloads.
enum BenchStatus {
    case open
    case shipped(carrier: String, days: Int)
    case returned(reason: String)
}

/// A customer, a class with a superclass.
class BenchParty {
    var name: String
    init(name: String) { self.name = name }
}

/// A customer.
final class BenchCustomer: BenchParty {
    var loyalty = 3
}

/// One row.
struct BenchRow {
    var id: Int
    var title: String
    var tags: [String]
    var price: Double
    var status: BenchStatus
    var note: String?
    var customer: BenchCustomer
    var size: (width: Int, height: Int)
}

/// The app value.
struct BenchApp {
    var rows: [BenchRow]
    var filter: [String: Int] = ["open": 1, "shipped": 2]
    var selection: Int? = 4
    var title = "orders"
}

/// A stable 64-bit hash of a text (FNV-1a), to compare the builds' texts.
func textHash(_ text: String) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in text.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return String(hash, radix: 16)
}

/// The median time of `body` over `samples` runs, in nanoseconds.
func median(samples: Int, _ body: () -> Void) -> Double {
    body()
    var times: [UInt64] = []
    for _ in 0..<samples {
        let start = DispatchTime.now().uptimeNanoseconds
        body()
        times.append(DispatchTime.now().uptimeNanoseconds - start)
    }
    times.sort()
    return Double(times[times.count / 2])
}

let statuses: [BenchStatus] = [.open, .shipped(carrier: "post", days: 2), .returned(reason: "size")]
let customers = (0..<10).map { BenchCustomer(name: "c\($0)") }
let app = BenchApp(
    rows: (0..<1_000).map { index in
        BenchRow(
            id: index,
            title: "row \(index)",
            tags: ["a", "b"],
            price: Double(index) / 4,
            status: statuses[index % 3],
            note: index % 2 == 0 ? "note" : nil,
            customer: customers[index % 10],
            size: (index, index * 2)
        )
    }
)
var changed = app
changed.rows[700].title = "changed"
changed.rows[300].status = .returned(reason: "late")

// The ceiling (`--ceiling`): the same value in types whose children were computed beforehand
// (`CustomDumpReflectable` with stored children), so that customDump reads every struct, enum
// and class level without reflecting it; leaves, tuples and collections are reflected as
// customDump reflects them. What remains is customDump's own work, which bounds any `Mirror`.

/// A precomputed mirror's children and style.
protocol Precomputed: CustomDump.CustomDumpReflectable, CustomDumpOriginal.CustomDumpReflectable {
    var children: [(label: String?, value: Any)] { get }
    var style: Mirror.DisplayStyle { get }
}

extension Precomputed {
    var customDumpMirror: Mirror { Mirror(self, children: children, displayStyle: style) }
}

/// ``BenchStatus`` with its children computed beforehand.
struct PStatus: Precomputed {
    let children: [(label: String?, value: Any)]
    var style: Mirror.DisplayStyle { .enum }
    init(_ status: BenchStatus) {
        switch status {
        case .open: children = []
        case .shipped(let carrier, let days): children = [("shipped", (carrier: carrier, days: days))]
        case .returned(let reason): children = [("returned", reason)]
        }
    }
}

/// ``BenchCustomer`` with its children computed beforehand, its superclass's first.
final class PCustomer: Precomputed {
    let children: [(label: String?, value: Any)]
    var style: Mirror.DisplayStyle { .class }
    init(_ customer: BenchCustomer) { children = [("name", customer.name), ("loyalty", customer.loyalty)] }
}

/// ``BenchRow`` with its children computed beforehand.
struct PRow: Precomputed {
    let children: [(label: String?, value: Any)]
    var style: Mirror.DisplayStyle { .struct }
    init(_ row: BenchRow, customer: PCustomer) {
        children = [
            ("id", row.id), ("title", row.title), ("tags", row.tags), ("price", row.price),
            ("status", PStatus(row.status)), ("note", row.note as Any), ("customer", customer), ("size", row.size),
        ]
    }
}

/// ``BenchApp`` with its children computed beforehand.
struct PApp: Precomputed {
    let children: [(label: String?, value: Any)]
    var style: Mirror.DisplayStyle { .struct }
    init(_ app: BenchApp) {
        let customers = Dictionary(
            app.rows.map { (ObjectIdentifier($0.customer), $0.customer) },
            uniquingKeysWith: { first, _ in first }
        ).mapValues(PCustomer.init)
        children = [
            ("rows", app.rows.map { PRow($0, customer: customers[ObjectIdentifier($0.customer)]!) }),
            ("filter", app.filter), ("selection", app.selection as Any), ("title", app.title),
        ]
    }
}

let precomputed = PApp(app)
let changedPrecomputed = PApp(changed)

/// The time of one run of `body`, in nanoseconds.
func time(_ body: () -> Void) -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - start)
}

let samples = 15

if CommandLine.arguments.contains("--ceiling") {
    let times = [false, true].map { original in
        (
            dump: median(samples: samples) { _ = dumpText(precomputed, original: original) },
            diff: median(samples: samples) { _ = diffText(precomputed, changedPrecomputed, original: original) }
        )
    }
    print("{\"dump\": \(times.map(\.dump).min()!), \"diff\": \(times.map(\.diff).min()!)}")
    exit(0)
}

/// Over `samples` pairs of `first` and `second` run in turn, the median ratio of `first`'s time
/// to `second`'s, and the median time of `first`.
func pairedRatio(_ first: () -> Void, _ second: () -> Void) -> (ratio: Double, firstTime: Double) {
    first()
    second()
    var ratios: [Double] = []
    var times: [Double] = []
    for _ in 0..<samples {
        let firstTime = time(first)
        ratios.append(firstTime / time(second))
        times.append(firstTime)
    }
    return (ratios.sorted()[samples / 2], times.sorted()[samples / 2])
}

let dumped = dumpText(app)
let diffed = diffText(app, changed) ?? ""
let diffTime = median(samples: samples) { _ = diffText(app, changed) }
// The dump, each run paired with one of its ceiling's in the same process: how fast a process of
// this machine runs varies up to 2x from one process to the next, and their ratio does not.
let (dumpOverCeiling, dumpTime) = pairedRatio({ _ = dumpText(app) }, { _ = dumpText(precomputed) })

// Both modules timed in turn in this process, each ratio the time with Mirror over the time with
// RuntimeMirror.
var paired = ""
if !original {
    guard dumpText(app, original: true) == dumped, diffText(app, changed, original: true) == diffed else {
        fatalError("customDump with Mirror and with RuntimeMirror wrote different texts")
    }
    let dumpRatio = pairedRatio({ _ = dumpText(app, original: true) }, { _ = dumpText(app) }).ratio
    let diffRatio = pairedRatio({ _ = diffText(app, changed, original: true) }, { _ = diffText(app, changed) }).ratio
    paired = "\"pairedDumpRatio\": \(dumpRatio), \"pairedDiffRatio\": \(diffRatio), "
}

print(
    """
    {\(paired)"dump": \(dumpTime), "diff": \(diffTime), "dumpOverCeiling": \(dumpOverCeiling), \
    "dumpHash": "\(textHash(dumped))", "diffHash": "\(textHash(diffed))", \
    "dumpBytes": \(dumped.utf8.count), "diffBytes": \(diffed.utf8.count)}
    """
)
