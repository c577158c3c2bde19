// ScaleProbe: one measurement of RuntimeMetadata or of the runtime at an app's size, in a fresh
// process. Benchmarks/Scripts/scale.py generates the fixture libraries (N types, 5 protocols,
// each type conforming to 4 of them), runs this probe once per (question, side), and draws the
// chart.
//
// Usage: ScaleProbe <libScaleN.so> <question> <library|runtime> [stride]
//        ScaleProbe table <entries>
//
// `table` fills one cache table (the ConcurrentTable every cache is an instance of) to the given
// number of entries and prints the nanoseconds of a warm lookup: of 4 keys spread over the table,
// alternating (a user's few types), and of every key in a shuffled order (the whole table, past
// the processor's caches at a million entries); then the slot bytes per entry.
//
// With a stride k > 1, the runtime's side of `first`, `warm` and `agree` asks only every k-th
// type (all 5 protocols): at 50,000 types the runtime's full first pass takes most of an hour,
// and its cost per question is what the sample measures (scale.py scales it back to every pair).
// The library's side of `warm` then asks the same pairs, so both caches hold as many answers.
//
// The fixture is opened with dlopen, as a linked library would be at launch, and exports C entry
// points: its types (`scale_type`), the runtime's own casts (`scale_conforms`: `type is any Pk.Type`)
// and the first failing cast (`scale_firstMiss`). The probe prints one line: the question's
// time in nanoseconds, then a count that both sides must agree on.

import Foundation
@_spi(Benchmarks) import RuntimeMetadata

#if canImport(Glibc)
import Glibc
#endif

typealias CountFunction = @convention(c) () -> Int
typealias TypeFunction = @convention(c) (Int) -> UnsafeRawPointer
typealias ConformsFunction = @convention(c) (Int, Int) -> Bool
typealias MissFunction = @convention(c) () -> Bool

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[1] == "table", let entries = Int(arguments[2]), entries > 0 {
    measureTable(entries)
    exit(0)
}
guard arguments.count == 4 || arguments.count == 5 else {
    FileHandle.standardError.write(Data("usage: ScaleProbe <library> <question> <library|runtime> [stride]\n".utf8))
    exit(2)
}
let (path, question, side) = (arguments[1], arguments[2], arguments[3])
let sampleStride = arguments.count == 5 ? max(Int(arguments[4]) ?? 1, 1) : 1
guard let handle = dlopen(path, RTLD_NOW) else {
    FileHandle.standardError.write(Data("cannot load \(path): \(String(cString: dlerror()))\n".utf8))
    exit(1)
}
func symbol<T>(_ name: String, as type: T.Type) -> T {
    guard let address = dlsym(handle, name) else { fatalError("missing \(name)") }
    return unsafeBitCast(address, to: type)
}
let typeCount = symbol("scale_typeCount", as: CountFunction.self)()
let typeAt = symbol("scale_type", as: TypeFunction.self)
let runtimeConforms = symbol("scale_conforms", as: ConformsFunction.self)
let runtimeFirstMiss = symbol("scale_firstMiss", as: MissFunction.self)
let module = path.split(separator: "/").last.map { String($0.dropFirst(3).dropLast(3)) } ?? ""
let types: [Any.Type] = (0..<typeCount).map { unsafeBitCast(typeAt($0), to: Any.Type.self) }
let protocolCount = 5
/// The types the runtime's side asks about: all of them, or every `sampleStride`-th.
let sampledIndices = Array(stride(from: 0, to: typeCount, by: sampleStride))

func time(_ body: () -> Int) -> (Int, Int) {
    let start = ContinuousClock.now
    let count = body()
    let elapsed = ContinuousClock.now - start
    return (
        Int(elapsed.components.seconds) * 1_000_000_000 + Int(elapsed.components.attoseconds / 1_000_000_000), count
    )
}

func protocols() -> [ProtocolDescriptor] {
    (0..<protocolCount).map { index in
        guard let descriptor = try? ProtocolDescriptor(named: "\(module).P\(index)") else {
            fatalError("no protocol \(module).P\(index)")
        }
        return descriptor
    }
}

/// Every (type, protocol) pair, protocols alternating; or the pairs of the sampled types only.
func libraryPass(_ descriptors: [ProtocolDescriptor], sampled: Bool = false) -> Int {
    var count = 0
    if sampled {
        for index in sampledIndices {
            for descriptor in descriptors where descriptor.isConformed(by: types[index]) { count += 1 }
        }
        return count
    }
    for type in types {
        for descriptor in descriptors where descriptor.isConformed(by: type) { count += 1 }
    }
    return count
}

func runtimePass() -> Int {
    var count = 0
    for index in sampledIndices {
        for protocolIndex in 0..<protocolCount where runtimeConforms(index, protocolIndex) { count += 1 }
    }
    return count
}

let result: (Int, Int)
switch (question, side) {
case ("first", "library"):
    let descriptors = protocols()
    result = time { libraryPass(descriptors) }
case ("first", "runtime"):
    result = time { runtimePass() }
case ("warm", "library"):
    // With a stride, the same sampled pairs as the runtime's side, so that both caches hold the
    // same number of answers.
    let descriptors = protocols()
    let sampled = sampleStride > 1
    _ = libraryPass(descriptors, sampled: sampled)
    let (elapsed, count) = time { libraryPass(descriptors, sampled: sampled) }
    result = (elapsed / ((sampled ? sampledIndices.count : typeCount) * protocolCount), count)
case ("warm", "both"):
    // Both sides' warm questions in one process, alternating: each cache filled by its own first
    // pass, then 7 rounds of a library pass, a runtime pass and a floor pass, so that a slow
    // spell of the machine weighs on all three. Prints each side's median per question, the
    // floor's, and the count.
    let sampled = sampleStride > 1
    let descriptors = protocols()
    _ = libraryPass(descriptors, sampled: sampled)
    _ = runtimePass()
    let questions = (sampled ? sampledIndices.count : typeCount) * protocolCount
    let floor = WarmFloor(
        types: types,
        indices: sampled ? sampledIndices : Array(0..<typeCount),
        protocols: protocolCount,
        conforms: runtimeConforms
    )
    var libraryTimes: [Int] = []
    var runtimeTimes: [Int] = []
    var floorTimes: [Int] = []
    var counts: (Int, Int) = (0, 0)
    for _ in 0..<7 {
        let (libraryElapsed, libraryCount) = time { libraryPass(descriptors, sampled: sampled) }
        let (runtimeElapsed, runtimeCount) = time { runtimePass() }
        let (floorElapsed, floorCount) = time { floor.pass() }
        libraryTimes.append(libraryElapsed * 1000 / questions)
        runtimeTimes.append(runtimeElapsed * 1000 / questions)
        floorTimes.append(floorElapsed * 1000 / questions)
        counts = (libraryCount, runtimeCount)
        guard floorCount == libraryCount else {
            fatalError("warm: the floor counted \(floorCount), the library \(libraryCount)")
        }
    }
    guard counts.0 == counts.1 else { fatalError("warm: the library counted \(counts.0), the runtime \(counts.1)") }
    print(libraryTimes.sorted()[3], runtimeTimes.sorted()[3], counts.0, floorTimes.sorted()[3])
    exit(0)
case ("warm", "runtime"):
    _ = runtimePass()
    let (elapsed, count) = time { runtimePass() }
    result = (elapsed / (sampledIndices.count * protocolCount), count)
case ("agree", "library"):
    // The generated matrix: every (type, protocol) pair decided by the library first (from its
    // index, in this fresh process), then asked of the runtime's own cast; prints the pairs
    // compared and the disagreements.
    let descriptors = protocols()
    var answers: [Bool] = []
    for type in types {
        for descriptor in descriptors { answers.append(descriptor.isConformed(by: type)) }
    }
    var disagreements = 0
    for index in sampledIndices {
        for protocolIndex in 0..<protocolCount
        where runtimeConforms(index, protocolIndex) != answers[index * protocolCount + protocolIndex] {
            disagreements += 1
            FileHandle.standardError.write(Data("disagree: \(types[index]) P\(protocolIndex)\n".utf8))
        }
    }
    print(sampledIndices.count * protocolCount, disagreements)
    exit(0)
case ("memory", "library"):
    // Bytes per cached answer, per indexed record and per type record: the growth of the
    // process's anonymous memory over the step that creates them.
    let descriptors = protocols()
    let beforeIndexes = heapInUse()
    let recordCount = descriptors.reduce(0) { $0 + $1.conformanceRecords().count }
    _ = descriptors.map { $0.isConformed(by: Int.self) }  // files each protocol's records by type
    let indexBytes = heapInUse() - beforeIndexes
    let beforeAnswers = heapInUse()
    _ = libraryPass(descriptors)
    let answerBytes = heapInUse() - beforeAnswers
    let beforeRecords = heapInUse()
    let structs = types.reduce(0) { $0 + (TypeMetadata($1).kind == .struct ? 1 : 0) }
    let recordBytes = heapInUse() - beforeRecords
    print(
        "answer",
        answerBytes / (typeCount * protocolCount),
        "indexedRecord",
        indexBytes / max(recordCount, 1),
        "typeRecord",
        recordBytes / typeCount,
        "structs",
        structs
    )
    exit(0)
case ("protocolByName", "library"):
    result = time { (try? ProtocolDescriptor(named: "\(module).P0")) == nil ? 0 : 1 }
case ("records", "library"):
    let descriptor = ProtocolDescriptor.protocolDescriptor(named: "\(module).P0")
    result = time { descriptor?.conformanceRecords().count ?? -1 }
case ("typeConformances", "library"):
    let type = TypeMetadata(types[typeCount / 2])
    result = time { type.conformances.count }
case ("firstMiss", "runtime"), ("protocolByName", "runtime"), ("records", "runtime"), ("typeConformances", "runtime"),
    ("bare", "runtime"):
    result = time { runtimeFirstMiss() ? 1 : 0 }
default:
    FileHandle.standardError.write(Data("unknown question \(question) \(side)\n".utf8))
    exit(2)
}
print(result.0, result.1)

/// The process's anonymous resident memory in bytes (`RssAnon` of /proc/self/status): the heap
/// and every other private allocation, in pages; measured over steps of megabytes.
func heapInUse() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("RssAnon:") }),
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { return 0 }
    return kilobytes * 1024
}

extension ProtocolDescriptor {
    /// The protocol of a name, found outside the timed region for the records question.
    static func protocolDescriptor(named name: String) -> ProtocolDescriptor? {
        try? ProtocolDescriptor(named: name)
    }
}

/// The `table` question: warm lookups in a table of `entries` entries.
func measureTable(_ entries: Int) {
    let probe = CacheTableProbe(filledTo: entries)
    let lookups = 4_000_000
    // A user's few types: 4 keys spread over the table, alternating.
    let hot = (0..<4).map { $0 * entries / 4 }
    var found = 0
    let hotTime = time {
        for round in 0..<lookups where probe.contains(hot[round & 3]) { found += 1 }
        return found
    }
    // Every key, in an order no prefetcher follows (a multiplicative permutation of the indices).
    var order = Array(0..<entries)
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    for index in stride(from: entries - 1, to: 0, by: -1) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        order.swapAt(index, Int(state >> 33) % (index + 1))
    }
    var everyFound = 0
    let rounds = max(1, lookups / entries)
    let everyTime = time {
        for _ in 0..<rounds {
            for index in order where probe.contains(index) { everyFound += 1 }
        }
        return everyFound
    }
    // The same lookups in a standard Dictionary of the same keys: what the memory hierarchy costs
    // a hash table that nobody here wrote.
    let dictionary = Dictionary(uniqueKeysWithValues: (0..<entries).map { (CacheTableProbe.key($0), $0) })
    var dictionaryFound = 0
    let dictionaryTime = time {
        for _ in 0..<rounds {
            for index in order where dictionary[CacheTableProbe.key(index)] != nil { dictionaryFound += 1 }
        }
        return dictionaryFound
    }
    guard found == lookups, everyFound == rounds * entries, dictionaryFound == everyFound, !probe.contains(entries)
    else {
        fatalError("the table lost entries: \(found) of \(lookups), \(everyFound) of \(rounds * entries)")
    }
    print(
        "entries",
        entries,
        "hotPicoseconds",
        hotTime.0 * 1000 / lookups,
        "everyKeyPicoseconds",
        everyTime.0 * 1000 / (rounds * entries),
        "dictionaryEveryKeyPicoseconds",
        dictionaryTime.0 * 1000 / (rounds * entries),
        "slotBytesPerEntry",
        probe.slotBytes / entries
    )
}

/// The floor of a warm question, the same dynamic work done by hand: one probe of a plain
/// open-addressed table per protocol, laid out as the cached answers are (two-word slots, a key
/// and an answer, sized as the library sizes a table for as many answers), in the library pass's
/// loop: each type read from the same array, its address hashed as the tables hash it, then
/// each protocol's table probed from that slot, the key compared and the answer read. What the
/// library adds above it is its generality: the table's root, read atomically, and the answer's
/// decoding.
final class WarmFloor {
    private let tables: UnsafeMutablePointer<UnsafeMutablePointer<UInt>>
    private let tableCount: Int
    private let mask: Int
    private let types: [Any.Type]
    private let indices: [Int]

    /// Fills one table per protocol with the runtime's answers about the types.
    init(types: [Any.Type], indices: [Int], protocols: Int, conforms: (Int, Int) -> Bool) {
        // The capacity a table grows to for this many entries: the smallest power of two of at
        // least 16 that keeps the load factor at most 3/4 (ConcurrentTable.swift).
        var capacity = 16
        while capacity * 3 < indices.count * 4 { capacity *= 2 }
        mask = capacity - 1
        tableCount = protocols
        tables = .allocate(capacity: protocols)
        for protocolIndex in 0..<protocols {
            let words = UnsafeMutablePointer<UInt>.allocate(capacity: capacity * 2)
            words.initialize(repeating: 0, count: capacity * 2)
            (tables + protocolIndex).initialize(to: words)
        }
        self.types = types
        self.indices = indices
        for index in indices {
            let key = Self.key(types[index])
            for protocolIndex in 0..<protocols {
                let table = tables[protocolIndex]
                var slot = Self.home(key) & mask
                while table[2 * slot] != 0 { slot = (slot + 1) & mask }
                table[2 * slot + 1] = conforms(index, protocolIndex) ? 2 : 1
                table[2 * slot] = key
            }
        }
    }

    @inline(__always)
    static func key(_ type: Any.Type) -> UInt { UInt(bitPattern: unsafeBitCast(type, to: Int.self)) }

    /// The tables' hash of an address: multiplied by the 64-bit golden ratio, the high half
    /// folded into the low (UInt.cacheHash).
    @inline(__always)
    static func home(_ key: UInt) -> Int {
        let mixed = key &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: mixed ^ (mixed >> 29))
    }

    /// One pass: every question's slot probed once; returns the number of conformances found.
    @inline(never)
    func pass() -> Int {
        var found = 0
        for index in indices {
            let key = Self.key(types[index])
            let home = Self.home(key)
            for protocolIndex in 0..<tableCount {
                let table = tables[protocolIndex]
                var slot = home & mask
                while table[2 * slot] != key { slot = (slot + 1) & mask }
                found &+= Int(table[2 * slot + 1] >> 1)
            }
        }
        return found
    }
}
