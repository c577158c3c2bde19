// FrameworkShape.swift
//
// The warm paths in the shape a framework calls them (issue 47), each beside what its author
// would write instead, and, where the goal is above what the shape allows, beside a ceiling:
// the same dynamic work written by hand.
//
// The shape:
// - values, types and descriptors are globals of a library file (lazily initialized, so each
//   read goes through the global's accessor, as a framework's `static let`s do);
// - four types alternate on every call: two structs, a final class and an enum that conform
//   to `FrameShape`, or four that do not for a miss;
// - each side is a closure the optimizer cannot see (`hidden`), called from a timing loop
//   that is not inlined (`frameworkTimed`);
// - the baselines are `is any P.Type`, `as? any P` then the call, a `KeyPath` held in a
//   global, `Mirror`, the type's own synthesized `==` and `_typeByName`.
//
// The same rows, interleaved in one process: ../Tools/FrameworkShapeProbe (a copy of the
// issue's probe).

import Benchmark
import RuntimeMetadata
import Synchronization

/// The protocol frameworks ask about.
protocol FrameShape { func area() -> Int }

struct FrameSquare: FrameShape {
    var side = 3
    func area() -> Int { side * side }
}

struct FrameRect: FrameShape {
    var width = 2
    var height = 5
    func area() -> Int { width * height }
}

final class FrameDisc: FrameShape {
    var radius = 2
    func area() -> Int { 3 * radius * radius }
}

enum FrameTriangle: FrameShape {
    case right(Int), flat
    func area() -> Int {
        if case .right(let base) = self { return base }
        return 0
    }
}

struct FrameNotShape { var x = 1 }
struct FrameAlsoNot { var y = "y" }
final class FrameNotClass { var z = 0 }
enum FrameNotEnum { case one, two }

/// Eight stored properties: four integers, two strings, two doubles.
struct FrameEight: Equatable {
    var a = 1, b = 2, c = 3, d = 4
    var e = "e", f = "f"
    var g = 7.0, h = 8.0
}

/// The same properties, not `Equatable`: compared by layout alone.
struct FramePlainEight {
    var a = 1, b = 2, c = 3, d = 4
    var e = "e", f = "f"
    var g = 7.0, h = 8.0
}

enum FrameEvent { case tap(x: Int, y: Int), key(String), scroll(Double), idle }

// The globals a framework keeps.
let frameShape = try! ProtocolDescriptor((any FrameShape).self)
nonisolated(unsafe) let frameHits: [Any.Type] = hidden([
    FrameSquare.self, FrameRect.self, FrameDisc.self, FrameTriangle.self,
])
nonisolated(unsafe) let frameMisses: [Any.Type] = hidden([
    FrameNotShape.self, FrameAlsoNot.self, FrameNotClass.self, FrameNotEnum.self,
])
nonisolated(unsafe) let frameValues: [Any] = hidden([FrameSquare(), FrameRect(), FrameDisc(), FrameTriangle.right(4)])
nonisolated(unsafe) let frameTyped: [any FrameShape] = hidden([
    FrameSquare(), FrameRect(), FrameDisc(), FrameTriangle.right(4),
])
let frameEight: FrameEight = hidden(FrameEight())
let frameEightOther: FrameEight = hidden(FrameEight())
let framePlainEight: FramePlainEight = hidden(FramePlainEight())
let framePlainEightOther: FramePlainEight = hidden(FramePlainEight())
nonisolated(unsafe) let frameEightType: Any.Type = hidden(FrameEight.self)
let frameEightMetadata = TypeMetadata(FrameEight.self)
let frameFieldC = try! frameEightMetadata.field(named: "c")
nonisolated(unsafe) let frameKeyPathC: KeyPath<FrameEight, Int> = hidden(\FrameEight.c)
let frameEvents: [FrameEvent] = hidden([.tap(x: 1, y: 2), .key("k"), .scroll(1.5), .idle])
let frameEventMetadata = TypeMetadata(FrameEvent.self)
let frameTypeNames: [String] = hidden([
    "Swift.Dictionary<Swift.String, Swift.Array<Swift.Int>>", "Swift.Int", "Swift.Optional<Swift.String>",
    "Swift.Array<Swift.Double>",
])
let frameMangledNames: [String] = hidden(["SDySSSaySiGG", "Si", "SSSg", "SaySdG"])

/// The index of the type the next call asks about: 0, 1, 2, 3, 0, …
nonisolated(unsafe) var frameIndex = 0

@inline(__always)
func frameNext() -> Int {
    frameIndex = (frameIndex &+ 1) & 3
    return frameIndex
}

/// Calls `body` ``callsPerSample`` times per sample, out of line: `body` is a closure the
/// timing loop calls through its context, as a framework's callback is called.
@inline(never)
func frameworkTimed(_ benchmark: Benchmark, _ body: () -> Int) {
    var sink = 0
    for _ in benchmark.scaledIterations {
        for _ in 0..<callsPerSample { sink &+= body() }
    }
    blackHole(sink)
}

/// A copy of an element, out of line, so that the call is made on a copy.
@inline(never)
func frameCopyOut(_ elements: [any FrameShape], _ index: Int) -> any FrameShape { elements[index] }

/// An open-addressed table of 64 slots of (metadata, word), keyed and probed as the library's
/// caches are: the one probe each ceiling makes, by hand. Read as a cache that other threads
/// may fill must be, each key with an acquire load (the library's tables are filled by the
/// first question, from any thread): to Swift 6.3's optimizer an atomic load may write memory,
/// so a value whose address is lent across the probe is copied first, by hand as in the
/// library. A table read with plain loads would lose the copy, a static shortcut: it holds
/// only for a table filled before any thread reads it, and races with any thread that fills it.
struct FrameProbeTable: @unchecked Sendable {
    /// Each slot's key, then its word.
    let words: UnsafeMutablePointer<Atomic<UInt>>

    init(keyed entries: [(key: UInt, word: UInt)]) {
        words = .allocate(capacity: 128)
        for word in 0..<128 { (words + word).initialize(to: Atomic(0)) }
        for entry in entries {
            var index = Self.home(entry.key)
            while words[2 * index].load(ordering: .relaxed) != 0 { index = (index + 1) & 63 }
            words[2 * index + 1].store(entry.word, ordering: .relaxed)
            words[2 * index].store(entry.key, ordering: .releasing)
        }
    }

    init(_ entries: [(type: Any.Type, word: UInt)]) {
        self.init(keyed: entries.map { (Self.key($0.type), $0.word) })
    }

    @inline(__always)
    static func key(_ type: Any.Type) -> UInt { UInt(bitPattern: unsafeBitCast(type, to: Int.self)) }

    @inline(__always)
    static func home(_ key: UInt) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 58) }

    /// The word stored for a metadata address, or 0.
    @inline(__always)
    func word(forKey key: UInt) -> UInt {
        var index = Self.home(key)
        while true {
            let slotKey = words[2 * index].load(ordering: .acquiring)
            if slotKey == key { return words[2 * index + 1].load(ordering: .relaxed) }
            if slotKey == 0 { return 0 }
            index = (index + 1) & 63
        }
    }

    /// The word stored for a type, or 0.
    @inline(__always)
    func word(for type: Any.Type) -> UInt { word(forKey: Self.key(type)) }
}

/// The conformance ceiling's table: each hit's witness table (any nonzero word), each miss's "no".
let frameConformanceCeiling = FrameProbeTable(
    [FrameSquare.self, FrameRect.self, FrameDisc.self, FrameTriangle.self].map { ($0, 2) }
        + [FrameNotShape.self, FrameAlsoNot.self, FrameNotClass.self, FrameNotEnum.self].map { ($0, 1) }
)

/// The opening ceilings' table: (metadata, witness table) for `FrameShape`, each table read by
/// hand from the last word of an `any FrameShape` container holding a value of the type.
let frameOpeningCeiling = FrameProbeTable(
    keyed: frameTyped.map { shape in
        let container = unsafeBitCast(shape as any FrameShape, to: (UInt, UInt, UInt, UInt, UInt).self)
        return (container.3, container.4)
    }
)

/// The opening ceilings' dynamic work, by hand: the value's dynamic type read from its `Any`
/// container (the object's isa for a class, which may be stored under a superclass), one probe
/// of a table keyed by it for the witness table, and the words of the `any FrameShape`
/// container for the same value, lent to `body`: a view of the value, not a copy.
@inline(__always)
func frameOpenedByHand<R>(_ value: borrowing Any, _ body: (borrowing any FrameShape) -> R) -> R? {
    withUnsafePointer(to: value) { container in
        let buffer = UnsafeRawPointer(container)
        var metadata = buffer.load(fromByteOffset: 24, as: UInt.self)
        // Kinds above 0x7FF are isa pointers: class metadata.
        if UnsafeRawPointer(bitPattern: metadata).unsafelyUnwrapped.load(as: UInt.self) > 0x7FF {
            metadata = UnsafeRawPointer(bitPattern: buffer.load(as: UInt.self)).unsafelyUnwrapped.load(as: UInt.self)
        }
        let witnessTable = frameOpeningCeiling.word(forKey: metadata)
        guard witnessTable != 0 else { return nil }
        var words = (
            buffer.load(as: UInt.self), buffer.load(fromByteOffset: 8, as: UInt.self),
            buffer.load(fromByteOffset: 16, as: UInt.self), metadata, witnessTable
        )
        return withUnsafeMutablePointer(to: &words) { words in
            UnsafeMutableRawPointer(words).withMemoryRebound(to: (any FrameShape).self, capacity: 1) {
                body($0.pointee)
            }
        }
    }
}

/// The layout ceiling's table: for `FrameEight`, "identical bits decide unless a NaN" and the
/// offsets of its two doubles.
let frameLayoutCeiling = FrameProbeTable([
    (
        FrameEight.self,
        1 | UInt(MemoryLayout<FrameEight>.offset(of: \.g)!) << 8 | UInt(MemoryLayout<FrameEight>.offset(of: \.h)!) << 16
    )
])

/// The ceiling of layout equality, by hand: the metadata, one probe of a table keyed by it for
/// the word that says what identical bits decide, the values' bytes compared, and the two
/// doubles the word locates checked for NaN.
@inline(__always)
func frameLayoutCeilingEquals<T>(_ lhs: T, _ rhs: T) -> Bool {
    let word = frameLayoutCeiling.word(for: T.self)
    guard word & 1 != 0 else { return false }
    return withUnsafeBytes(of: lhs) { left in
        withUnsafeBytes(of: rhs) { right in
            for offset in stride(from: 0, to: MemoryLayout<T>.size, by: 8)
            where left.load(fromByteOffset: offset, as: UInt64.self)
                != right.load(fromByteOffset: offset, as: UInt64.self)
            {
                return false
            }
            let first = Int(word >> 8 & 0xFF)
            let second = Int(word >> 16 & 0xFF)
            return left.load(fromByteOffset: first, as: UInt64.self) & 0x7FFF_FFFF_FFFF_FFFF <= 0x7FF0_0000_0000_0000
                && left.load(fromByteOffset: second, as: UInt64.self) & 0x7FFF_FFFF_FFFF_FFFF
                    <= 0x7FF0_0000_0000_0000
        }
    }
}

/// The held field's ceiling: what a held `Field` must check and read, kept in an object a global
/// refers to, as a `Field` keeps it: the declaring type and the property's type, compared with
/// the root's and the result's, and the offset to load from.
final class FrameFieldCeiling: Sendable {
    let declaringType: ObjectIdentifier
    let fieldType: ObjectIdentifier
    let offset: Int

    init(_ field: Field) {
        declaringType = ObjectIdentifier(FrameEight.self)
        fieldType = ObjectIdentifier(field.type!.type!)
        offset = field.offset
    }

    /// The property's value, by hand: both types compared, then one load at the offset.
    @inline(__always)
    func value<Root, Value>(in root: Root, as _: Value.Type) -> Value? {
        guard declaringType == ObjectIdentifier(Root.self), fieldType == ObjectIdentifier(Value.self) else {
            return nil
        }
        return withUnsafeBytes(of: root) { $0.load(fromByteOffset: offset, as: Value.self) }
    }
}

let frameFieldCeiling = FrameFieldCeiling(frameFieldC)

/// The case-name ceiling's table: for `FrameEvent`, the index of its names in `frameCaseNames`.
let frameCaseNameCeiling = FrameProbeTable([(FrameEvent.self, 1)])
/// The names the ceiling reads, as the library lists them, behind an unused first entry.
let frameCaseNames: [[String]] = [[], try! frameEventMetadata.cases.map(\.name)]

func frameworkShapeBenchmarks(_ warm: Benchmark.Configuration) {
    // Every answer cached before the warm rows, as in a framework that has run for a while.
    for type in frameHits + frameMisses { _ = frameShape.conformance(of: type) }
    for value in frameValues { _ = frameShape.open(value, as: (any FrameShape).self) }
    _ = TypeMetadata.layoutEquals(frameEight, frameEightOther)
    _ = TypeMetadata.layoutEquals(framePlainEight, framePlainEightOther)
    for event in frameEvents { _ = try! frameEventMetadata.caseName(of: event) }

    // Conformance checks.
    Benchmark("Framework.conformance.hit.warm", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameShape.isConformed(by: frameHits[frameNext()]) ? 1 : 0 })
    }
    Benchmark("Framework.is.hit", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameHits[frameNext()] is any FrameShape.Type ? 1 : 0 })
    }
    Benchmark("Framework.conformance.miss.warm", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameShape.isConformed(by: frameMisses[frameNext()]) ? 1 : 0 })
    }
    Benchmark("Framework.is.miss", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameMisses[frameNext()] is any FrameShape.Type ? 1 : 0 })
    }
    Benchmark("Framework.ceiling.conformance.probe", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameConformanceCeiling.word(for: frameHits[frameNext()]) & 2 != 0 ? 1 : 0 })
    }
    Benchmark("Framework.conformanceOf.warm", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameShape.conformance(of: frameHits[frameNext()]) != nil ? 1 : 0 })
    }
    Benchmark("Framework.asCast.metatype", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { (frameHits[frameNext()] as? any FrameShape.Type) != nil ? 1 : 0 })
    }

    // Opening an Any, then a call; the ceilings are the same call on values already typed.
    Benchmark("Framework.withOpened.call.warm", configuration: warm) { benchmark in
        frameworkTimed(
            benchmark,
            hidden { frameShape.withOpened(frameValues[frameNext()], as: (any FrameShape).self) { $0.area() } ?? 0 }
        )
    }
    Benchmark("Framework.open.call.warm", configuration: warm) { benchmark in
        frameworkTimed(
            benchmark,
            hidden { frameShape.open(frameValues[frameNext()], as: (any FrameShape).self)?.area() ?? 0 }
        )
    }
    Benchmark("Framework.asCast.call", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { (frameValues[frameNext()] as? any FrameShape)?.area() ?? 0 })
    }
    Benchmark("Framework.ceiling.typed.call", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameTyped[frameNext()].area() })
    }
    Benchmark("Framework.ceiling.typedCopy.call", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameCopyOut(frameTyped, frameNext()).area() })
    }
    Benchmark("Framework.ceiling.withOpened.byHand", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameOpenedByHand(frameValues[frameNext()]) { $0.area() } ?? 0 })
    }
    Benchmark("Framework.ceiling.open.byHand", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameOpenedByHand(frameValues[frameNext()]) { copy $0 }?.area() ?? 0 })
    }

    // Fields.
    Benchmark("Framework.fields.names.warm", configuration: warm) { benchmark in
        frameworkTimed(
            benchmark,
            hidden {
                var sum = 0
                for field in try! TypeMetadata(frameEightType).fields { sum &+= field.name.utf8.count &+ field.offset }
                return sum
            }
        )
    }
    Benchmark("Framework.Mirror.labels", configuration: warm) { benchmark in
        frameworkTimed(
            benchmark,
            hidden {
                var sum = 0
                for child in Mirror(reflecting: frameEight).children { sum &+= child.label!.utf8.count }
                return sum
            }
        )
    }
    Benchmark("Framework.field.byName.warm", configuration: warm) { benchmark in
        frameworkTimed(
            benchmark,
            hidden { try! frameEightMetadata.field(named: "c").value(in: frameEight, as: Int.self) }
        )
    }
    Benchmark("Framework.field.held.warm", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { try! frameFieldC.value(in: frameEight, as: Int.self) })
    }
    Benchmark("Framework.ceiling.field.held", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameFieldCeiling.value(in: frameEight, as: Int.self) ?? 0 })
    }
    Benchmark("Framework.keyPath.read", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameEight[keyPath: frameKeyPathC] })
    }

    // Enum case names.
    Benchmark("Framework.enum.caseName.warm", configuration: warm) { benchmark in
        frameworkTimed(
            benchmark,
            hidden { try! frameEventMetadata.caseName(of: frameEvents[frameNext()]).utf8.count }
        )
    }
    // The ceiling: the tag, read by the library's witness call (the dynamic work a case name
    // cannot avoid), then one probe of a table keyed by the metadata for the names and a load.
    Benchmark("Framework.ceiling.enum.tagProbe", configuration: warm) { benchmark in
        frameworkTimed(
            benchmark,
            hidden {
                let tag = try! frameEventMetadata.tag(of: frameEvents[frameNext()])
                return frameCaseNames[Int(frameCaseNameCeiling.word(for: FrameEvent.self))][tag].utf8.count
            }
        )
    }
    Benchmark("Framework.Mirror.caseName", configuration: warm) { benchmark in
        frameworkTimed(
            benchmark,
            hidden {
                let event = frameEvents[frameNext()]
                return (Mirror(reflecting: event).children.first?.label ?? String(describing: event)).utf8.count
            }
        )
    }

    // Layout equality.
    Benchmark("Framework.equality.layout.warm", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { TypeMetadata.layoutEquals(frameEight, frameEightOther) ? 1 : 0 })
    }
    Benchmark("Framework.equality.layout.plain.warm", configuration: warm) { benchmark in
        frameworkTimed(
            benchmark,
            hidden { TypeMetadata.layoutEquals(framePlainEight, framePlainEightOther) ? 1 : 0 }
        )
    }
    Benchmark("Framework.Equatable.own", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameEight == frameEightOther ? 1 : 0 })
    }
    Benchmark("Framework.ceiling.layout.probeCompare", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameLayoutCeilingEquals(frameEight, frameEightOther) ? 1 : 0 })
    }

    // Types by name.
    Benchmark("Framework.typeByName.warm", configuration: warm) { benchmark in
        frameworkTimed(
            benchmark,
            hidden { (try? TypeMetadata(named: frameTypeNames[frameNext()])) != nil ? 1 : 0 }
        )
    }
    Benchmark("Framework.stdlibTypeByName", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { _typeByName(frameMangledNames[frameNext()]) != nil ? 1 : 0 })
    }

    // Every conformer of a protocol, warm (an absolute time).
    Benchmark("Framework.conformers.warm", configuration: warm) { benchmark in
        frameworkTimed(benchmark, hidden { frameShape.conformanceRecords().count })
    }
}
