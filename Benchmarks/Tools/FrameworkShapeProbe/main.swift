// RuntimeMetadata's warm paths in the shape a framework calls them, against what its author
// would write instead, interleaved in one process: values, types and descriptors are globals of
// an executable, four types alternate on every call, each side runs in a closure that the timer
// does not inline, and each round times both sides back to back. The figure is the median over
// rounds of baseline / library; a row's goal is the ratio it must reach.
// Build it as an executable target depending on RuntimeMetadata, release, Swift 5 language mode.
// (This copy: `swift build -c release --product FrameworkShapeProbe` in Benchmarks, then run
// `.build/release/FrameworkShapeProbe` alone on a quiet machine.)
import Glibc
import RuntimeMetadata
import Synchronization

protocol Shape { func area() -> Int }
protocol Unrelated {}
struct Sq: Shape { var s = 3; func area() -> Int { s * s } }
struct Rect: Shape { var w = 2, h = 5; func area() -> Int { w * h } }
final class Disc: Shape { var r = 2; func area() -> Int { 3 * r * r } }
enum Tri: Shape {
    case right(Int), flat; func area() -> Int { if case .right(let b) = self { return b } else { return 0 } }
}
struct NotShape { var x = 1 }
struct AlsoNot { var y = "y" }
final class NotClass { var z = 0 }
enum NotEnum { case one, two }
struct Eight: Equatable { var a = 1, b = 2, c = 3, d = 4; var e = "e", f = "f"; var g = 7.0, h = 8.0 }
enum Event { case tap(x: Int, y: Int), key(String), scroll(Double), idle }

@inline(never) func opaque<T>(_ x: T) -> T { x }
@inline(__always) func now() -> UInt64 {
    var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}
func fmt(_ x: Double, _ d: Int = 1) -> String {
    var p = 1.0; for _ in 0..<d { p *= 10 }
    let v = (x * p).rounded() / p; return "\(v)"
}
func pad(_ s: String, _ w: Int) -> String { s.count >= w ? s : s + String(repeating: " ", count: w - s.count) }

var sink = 0
var short = 0
var lastRatio = 0.0
/// Median over rounds of (baseline ns / library ns); goal is a minimum ratio.
func pair(
    _ name: String,
    goal: Double,
    n: Int = 20_000,
    rounds: Int = 31,
    lib: () -> Int,
    base: () -> Int
) {
    var ratios: [Double] = [], libs: [Double] = [], bases: [Double] = []
    for _ in 0..<100 { sink &+= lib(); sink &+= base() }
    for r in 0..<rounds {
        var tl: UInt64 = 0, tb: UInt64 = 0
        if r & 1 == 0 {
            let a = now(); for _ in 0..<n { sink &+= lib() }
            let b = now(); for _ in 0..<n { sink &+= base() }
            let c = now(); tl = b - a; tb = c - b
        } else {
            let a = now(); for _ in 0..<n { sink &+= base() }
            let b = now(); for _ in 0..<n { sink &+= lib() }
            let c = now(); tb = b - a; tl = c - b
        }
        libs.append(Double(tl) / Double(n)); bases.append(Double(tb) / Double(n));
        ratios.append(Double(tb) / Double(tl))
    }
    func med(_ x: [Double]) -> Double { x.sorted()[x.count / 2] }
    let ratio = med(ratios)
    lastRatio = ratio
    if ratio < goal { short += 1 }
    print(
        pad(name, 36),
        "lib",
        pad(fmt(med(libs)) + " ns", 11),
        "base",
        pad(fmt(med(bases)) + " ns", 11),
        "ratio",
        pad(fmt(ratio, 2) + "x", 9),
        "goal >=",
        pad(fmt(goal, 2) + "x", 7),
        ratio >= goal ? "met" : "SHORT"
    )
}

let shape = try! ProtocolDescriptor((any Shape).self)
let hits: [Any.Type] = opaque([Sq.self, Rect.self, Disc.self, Tri.self])
let misses: [Any.Type] = opaque([NotShape.self, AlsoNot.self, NotClass.self, NotEnum.self])
let values: [Any] = opaque([Sq(), Rect(), Disc(), Tri.right(4)])
var i = 0
@inline(__always) func next() -> Int { i = (i &+ 1) & 3; return i }

// 1. conformance check, warm
pair(
    "conformance check, hit",
    goal: 5,
    lib: { shape.isConformed(by: hits[next()]) ? 1 : 0 },
    base: { hits[next()] is any Shape.Type ? 1 : 0 }
)
pair(
    "conformance check, miss",
    goal: 5,
    lib: { shape.isConformed(by: misses[next()]) ? 1 : 0 },
    base: { misses[next()] is any Shape.Type ? 1 : 0 }
)
pair(
    "conformance(of:) returns witness",
    goal: 5,
    lib: { shape.conformance(of: hits[next()]) != nil ? 1 : 0 },
    base: { (hits[next()] as? any Shape.Type) != nil ? 1 : 0 }
)
// 2. opening an Any. The ceilings: the same call on values already typed `any Shape` (what any
// lending must still do), and on a copy of one (what any opening that returns a copy must do).
// An opening's goal is 0.6 of its ceiling's ratio to as?, and at least 5x.
let typedShapes: [any Shape] = opaque([Sq(), Rect(), Disc(), Tri.right(4)])
@inline(never) func copyOut(_ a: [any Shape], _ k: Int) -> any Shape { a[k] }
pair(
    "ceiling: typed any Shape, call",
    goal: 0,
    lib: { typedShapes[next()].area() },
    base: { (values[next()] as? any Shape)?.area() ?? 0 }
)
// Lending's goal (turn 4): within 2x of the typed call in the shape users write (values in a
// global array, as here), i.e. half the ceiling's ratio.
let lentGoal = max(5, 0.5 * lastRatio)
pair(
    "ceiling: typed copy, call",
    goal: 0,
    lib: { copyOut(typedShapes, next()).area() },
    base: { (values[next()] as? any Shape)?.area() ?? 0 }
)
let copiedGoal = max(5, 0.6 * lastRatio)
pair(
    "Any -> any Shape, lent, call",
    goal: lentGoal,
    lib: { shape.withOpened(values[next()], as: (any Shape).self) { $0.area() } ?? 0 },
    base: { (values[next()] as? any Shape)?.area() ?? 0 }
)
pair(
    "Any -> any Shape, copied, call",
    goal: copiedGoal,
    lib: { shape.open(values[next()], as: (any Shape).self)?.area() ?? 0 },
    base: { (values[next()] as? any Shape)?.area() ?? 0 }
)
// This copy adds two rows the shared probe does not have: each opening against its ceiling in
// Benchmarks/Benchmarks/RuntimeMetadataBenchmarks/FrameworkShape.swift, the same dynamic work
// by hand (the dynamic type read from the `Any`, one probe of a 64-slot table keyed by it for
// the witness table, the container's words lent or copied out). An atomic load is a write to
// Swift 6.3's optimizer, so the caller's copy of the element stays, by hand as in the library;
// a table read with plain loads (racing with any thread that fills it) would lose the copy. The ratio is by hand / library;
// the goal, within 1.5x.
/// A 64-slot open-addressed table of (metadata, word), as the suite's `FrameProbeTable`, read as
/// a cache that other threads may fill must be: each key with an acquire load. (To Swift 6.3's
/// optimizer an atomic load may write memory, so a value lent across the probe is copied first,
/// as in the library; plain loads would lose the copy, and race with any thread filling it.)
struct HandTable: @unchecked Sendable {
    let words: UnsafeMutablePointer<Atomic<UInt>>
    init(keyed entries: [(UInt, UInt)]) {
        words = .allocate(capacity: 128)
        for word in 0..<128 { (words + word).initialize(to: Atomic(0)) }
        for (key, word) in entries {
            var index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 58)
            while words[2 * index].load(ordering: .relaxed) != 0 { index = (index + 1) & 63 }
            words[2 * index + 1].store(word, ordering: .relaxed)
            words[2 * index].store(key, ordering: .releasing)
        }
    }
    init(_ entries: [(Any.Type, UInt)]) {
        self.init(keyed: entries.map { (UInt(bitPattern: unsafeBitCast($0.0, to: Int.self)), $0.1) })
    }
    @inline(__always) func word(forKey key: UInt) -> UInt {
        var index = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 58)
        while true {
            let slotKey = words[2 * index].load(ordering: .acquiring)
            if slotKey == key { return words[2 * index + 1].load(ordering: .relaxed) }
            if slotKey == 0 { return 0 }
            index = (index + 1) & 63
        }
    }
    @inline(__always) func word(for type: Any.Type) -> UInt {
        word(forKey: UInt(bitPattern: unsafeBitCast(type, to: Int.self)))
    }
}
let openingTable = HandTable(
    keyed: typedShapes.map { typed in
        let words = unsafeBitCast(typed as any Shape, to: (UInt, UInt, UInt, UInt, UInt).self)
        return (words.3, words.4)
    }
)
@inline(__always) func openedByHand<R>(_ value: Any, _ body: (any Shape) -> R) -> R? {
    withUnsafePointer(to: value) { container in
        let buffer = UnsafeRawPointer(container)
        var metadata = buffer.load(fromByteOffset: 24, as: UInt.self)
        if UnsafeRawPointer(bitPattern: metadata)!.load(as: UInt.self) > 0x7FF {
            metadata = UnsafeRawPointer(bitPattern: buffer.load(as: UInt.self))!.load(as: UInt.self)
        }
        let witnessTable = openingTable.word(forKey: metadata)
        if witnessTable == 0 { return nil }
        var words = (
            buffer.load(as: UInt.self), buffer.load(fromByteOffset: 8, as: UInt.self),
            buffer.load(fromByteOffset: 16, as: UInt.self), metadata, witnessTable
        )
        return withUnsafeMutablePointer(to: &words) { words in
            UnsafeMutableRawPointer(words).withMemoryRebound(to: (any Shape).self, capacity: 1) { body($0.pointee) }
        }
    }
}
pair(
    "lent, against the same work by hand",
    goal: 1 / 1.5,
    lib: { shape.withOpened(values[next()], as: (any Shape).self) { $0.area() } ?? 0 },
    base: { openedByHand(values[next()]) { $0.area() } ?? 0 }
)
pair(
    "copied, against the same work by hand",
    goal: 1 / 1.5,
    lib: { shape.open(values[next()], as: (any Shape).self)?.area() ?? 0 },
    base: { openedByHand(values[next()]) { $0 }?.area() ?? 0 }
)
// 3. fields
let eight: Eight = opaque(Eight())
let eightType: Any.Type = opaque(Eight.self)
pair(
    "fields of 8-field struct (names)",
    goal: 200,
    n: 2_000,
    lib: {
        var s = 0; for f in try! TypeMetadata(eightType).fields { s &+= f.name.utf8.count &+ f.offset }; return s
    },
    base: {
        var s = 0; for c in Mirror(reflecting: eight).children { s &+= c.label!.utf8.count }; return s
    }
)
let md = TypeMetadata(Eight.self)
let fieldC = try! md.field(named: "c")
let kp: KeyPath<Eight, Int> = opaque(\Eight.c)
pair(
    "read one field by name",
    goal: 2,
    lib: { try! md.field(named: "c").value(in: eight, as: Int.self) },
    base: { eight[keyPath: kp] }
)
pair(
    "read one field, held Field",
    goal: 5,
    lib: { try! fieldC.value(in: eight, as: Int.self) },
    base: { eight[keyPath: kp] }
)
// 4. enum case name
let events: [Event] = opaque([.tap(x: 1, y: 2), .key("k"), .scroll(1.5), .idle])
let eventMD = TypeMetadata(Event.self)
pair(
    "enum case name",
    goal: 100,
    n: 5_000,
    lib: { try! eventMD.caseName(of: events[next()]).utf8.count },
    base: {
        let e = events[next()]; return (Mirror(reflecting: e).children.first?.label ?? String(describing: e)).utf8.count
    }
)
// This copy adds: the case name against its ceiling in FrameworkShape.swift, by hand (the tag
// read by the library's witness call, one probe of a 64-slot table keyed by the metadata for the
// type's names, the name loaded). The ratio is by hand / library; the goal, within 1.5x.
let caseNameTable = HandTable([(Event.self, 1)])
let caseNames: [[String]] = [[], try! eventMD.cases.map(\.name)]
pair(
    "case name, against the same work by hand",
    goal: 1 / 1.5,
    lib: { try! eventMD.caseName(of: events[next()]).utf8.count },
    base: {
        let tag = try! eventMD.tag(of: events[next()])
        return caseNames[Int(caseNameTable.word(for: Event.self))][tag].utf8.count
    }
)
// 5. layout equality
let e1: Eight = opaque(Eight()), e2: Eight = opaque(Eight())
pair(
    "layout equality, 8 fields",
    goal: 0.5,
    lib: { TypeMetadata.layoutEquals(e1, e2) ? 1 : 0 },
    base: { e1 == e2 ? 1 : 0 }
)
// This copy adds: layout equality against its ceiling in FrameworkShape.swift, by hand (one
// probe of a table keyed by the metadata for "identical bits decide unless a NaN" and the two
// doubles' offsets, the bytes compared, the two doubles checked for NaN).
let layoutTable = HandTable([
    (Eight.self, 1 | UInt(MemoryLayout<Eight>.offset(of: \.g)!) << 8 | UInt(MemoryLayout<Eight>.offset(of: \.h)!) << 16)
])
@inline(__always) func layoutEqualsByHand<T>(_ lhs: T, _ rhs: T) -> Bool {
    let word = layoutTable.word(for: T.self)
    guard word & 1 != 0 else { return false }
    return withUnsafeBytes(of: lhs) { left in
        withUnsafeBytes(of: rhs) { right in
            for offset in stride(from: 0, to: MemoryLayout<T>.size, by: 8)
            where left.load(fromByteOffset: offset, as: UInt64.self)
                != right.load(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            let first = Int(word >> 8 & 0xFF), second = Int(word >> 16 & 0xFF)
            return left.load(fromByteOffset: first, as: UInt64.self) & 0x7FFF_FFFF_FFFF_FFFF <= 0x7FF0_0000_0000_0000
                && left.load(fromByteOffset: second, as: UInt64.self) & 0x7FFF_FFFF_FFFF_FFFF
                    <= 0x7FF0_0000_0000_0000
        }
    }
}
pair(
    "layout equality, against the same work by hand",
    goal: 1 / 1.5,
    lib: { TypeMetadata.layoutEquals(e1, e2) ? 1 : 0 },
    base: { layoutEqualsByHand(e1, e2) ? 1 : 0 }
)
// 6. type by name
let names: [String] = opaque([
    "Swift.Dictionary<Swift.String, Swift.Array<Swift.Int>>", "Swift.Int", "Swift.Optional<Swift.String>",
    "Swift.Array<Swift.Double>",
])
pair(
    "type by reflecting name, warm",
    goal: 5,
    n: 2_000,
    lib: { (try? TypeMetadata(named: names[next()])) != nil ? 1 : 0 },
    base: { _typeByName(["SDySSSaySiGG", "Si", "SSSg", "SaySdG"][i & 3]) != nil ? 1 : 0 }
)
// 7. all conformers, warm
pair(
    "all conformers of Shape, warm (abs ns)",
    goal: 0,
    n: 2_000,
    lib: { shape.conformanceRecords().count },
    base: { 0 }
)
print("SHORT:", short, "sink", sink & 1)
