// Benchmarks.swift
//
// Each benchmark is paired with the baseline a user would reach for instead, measured in the
// same run: `as?`, `Mirror`, `_forEachField`, key paths, synthesized `==` and `_typeByName`.
// Names follow Area.operation.state; a baseline's name starts with the tool it measures.

import Benchmark
import Foundation
import RuntimeMetadata
@_spi(Reflection) import Swift

/// The fixtures the benchmarks measure.
protocol Drawable {
    func draw() -> Int
}

struct Circle: Drawable, Equatable {
    var radius: Int
    func draw() -> Int { radius }
}

struct Square {
    var side: Int
}

/// Eight stored properties of mixed kinds.
struct EightFields: Equatable {
    var id = 1
    var title = "title"
    var score = 2.5
    var isActive = true
    var count: Int32 = 3
    var values = [4, 5]
    var note: String? = "note"
    var ratio: Float = 0.5
}

enum Shape {
    case circle(radius: Double)
    case rectangle(width: Double, height: Double)
    case point
}

/// Hides a value from the optimizer, so that a cast of a constant is not folded at compile time.
@_optimize(none)
func hidden<T>(_ value: T) -> T { value }

/// Hides a metatype from the optimizer.
@_optimize(none)
func hiddenType(_ type: Any.Type) -> Any.Type { type }

/// `_EachFieldOptions()` spelled by value.
let noFieldOptions = _EachFieldOptions(rawValue: 0)

/// The calls each sample makes: the harness reports whole nanoseconds per sample, and a
/// thousand calls per sample keep three more digits for the paths that take a few
/// nanoseconds. Results are per thousand calls (`results.py` divides).
let callsPerSample = 1000

/// Runs `body` ``callsPerSample`` times per sample.
@inline(__always)
func measure(_ benchmark: Benchmark, _ body: () -> Void) {
    for _ in benchmark.scaledIterations {
        for _ in 0..<callsPerSample { body() }
    }
}

/// A protocol no benchmark queries before the cold probes.
protocol ColdProtocol {}

extension Circle: ColdProtocol {}

/// A type no benchmark queries before the cold probes, and which does not conform.
struct NeverQueried {}

/// The first query in a fresh process, measured inside a child process of the benchmark.
///
/// The benchmark executable runs itself with ``variable`` set to a mode; before anything else
/// queries the runtime's conformances for `ColdProtocol` or `NeverQueried`, the child times one
/// first query and prints the nanoseconds.
/// - `library`: every conformance record of `ColdProtocol`, which enumerates all loaded images'
///   records and builds the index by protocol.
/// - `runtime`: the first failing `as?` of a type the runtime has never seen, which makes
///   `swift_conformsToProtocol` scan every record of every image.
enum ColdProbe {
    static let variable = "RUNTIME_METADATA_COLD_PROBE"

    /// The custom metric the cold benchmarks report.
    static let metric = BenchmarkMetric.custom("First query (ns)", polarity: .prefersSmaller, useScalingFactor: false)

    /// Runs the probe and exits when this process is a probe child.
    static func runIfRequested() {
        guard let mode = ProcessInfo.processInfo.environment[variable] else { return }
        let clock = ContinuousClock()
        let start = clock.now
        switch mode {
        case "library":
            blackHole(try! ProtocolDescriptor((any ColdProtocol).self).conformanceRecords().count)
        case "runtime":
            blackHole(hiddenType(NeverQueried.self) is any ColdProtocol.Type)
        default:
            fatalError("unknown probe \(mode)")
        }
        let elapsed = clock.now - start
        print(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
        exit(0)
    }

    /// Runs a probe child and returns the nanoseconds it measured.
    static func measure(_ mode: String) -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = []
        var environment = ProcessInfo.processInfo.environment
        environment[variable] = mode
        environment["LD_PRELOAD"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try! process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        guard process.terminationStatus == 0, let nanoseconds = Int(text) else {
            fatalError("cold probe \(mode) failed: \(text)")
        }
        return nanoseconds
    }
}

let benchmarks: @Sendable () -> Void = {
    ColdProbe.runIfRequested()
    let warm = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .nanoseconds,
        scalingFactor: .one
    )
    let drawable = try! ProtocolDescriptor((any Drawable).self)
    let circleType: Any.Type = Circle.self
    let squareType: Any.Type = Square.self
    _ = drawable.conformance(of: circleType)
    _ = drawable.conformance(of: squareType)

    // Conformance checks.
    Benchmark("Conformance.lookup.hit.warm", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(drawable.isConformed(by: hiddenType(circleType))) }
    }
    Benchmark("AsCast.lookup.hit", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(hiddenType(circleType) is any Drawable.Type) }
    }
    Benchmark("Conformance.lookup.miss.warm", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(drawable.isConformed(by: hiddenType(squareType))) }
    }
    Benchmark("AsCast.lookup.miss", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(hiddenType(squareType) is any Drawable.Type) }
    }

    // Opening an Any as any P: the value is made opaque once (`hidden`), so that neither side
    // can fold the cast, and each call starts from the same `Any`.
    let value: Any = hidden(Circle(radius: 3) as Any)
    _ = drawable.open(value, as: (any Drawable).self)
    Benchmark("Open.visitor.warm", configuration: warm) { benchmark in
        measure(benchmark) {
            if let drawn = drawable.withOpened(value, as: (any Drawable).self, { $0.draw() }) { blackHole(drawn) }
        }
    }
    Benchmark("Open.value.warm", configuration: warm) { benchmark in
        measure(benchmark) {
            if let opened = drawable.open(value, as: (any Drawable).self) { blackHole(opened.draw()) }
        }
    }
    Benchmark("AsCast.value", configuration: warm) { benchmark in
        measure(benchmark) {
            if let cast = value as? any Drawable { blackHole(cast.draw()) }
        }
    }

    // Field lists of an eight-field struct.
    let eight = EightFields()
    _ = try! TypeMetadata(EightFields.self).fields
    Benchmark("Fields.list.warm", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(try! TypeMetadata(EightFields.self).fields.count) }
    }
    let eightMetadata = TypeMetadata(EightFields.self)
    Benchmark("Fields.list.heldMetadata.warm", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(try! eightMetadata.fields.count) }
    }
    Benchmark("Mirror.children", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(Mirror(reflecting: eight).children.count) }
    }
    Benchmark("ForEachField.list", configuration: warm) { benchmark in
        measure(benchmark) {
            var count = 0
            _ = _forEachField(of: EightFields.self, options: noFieldOptions) { _, _, _, _ in
                count += 1
                return true
            }
            blackHole(count)
        }
    }

    // Reading one field by name.
    let titleField = try! TypeMetadata(EightFields.self).field(named: "title")
    Benchmark("Fields.read.warm", configuration: warm) { benchmark in
        measure(benchmark) {
            blackHole(try! TypeMetadata(EightFields.self).field(named: "title").value(in: eight, as: String.self))
        }
    }
    Benchmark("Fields.read.cachedField", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(try! titleField.value(in: hidden(eight), as: String.self)) }
    }
    let titlePath = \EightFields.title
    Benchmark("KeyPath.read", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(hidden(eight)[keyPath: titlePath]) }
    }

    // Enum case names.
    let shape = Shape.rectangle(width: 2, height: 3)
    _ = try! TypeMetadata(Shape.self).caseName(of: shape)
    Benchmark("Enum.caseName.warm", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(try! TypeMetadata(Shape.self).caseName(of: shape)) }
    }
    Benchmark("Mirror.caseName", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(Mirror(reflecting: shape).children.first?.label) }
    }

    // Layout equality of an eight-field value.
    let other = EightFields()
    _ = TypeMetadata.layoutEquals(eight, other)
    Benchmark("Equality.layout.warm", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(TypeMetadata.layoutEquals(hidden(eight), other)) }
    }
    Benchmark("Equatable.equal", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(hidden(eight) == other) }
    }

    // All conformers of a protocol, cold: the first query in a fresh process, each sample one child process.
    let cold = Benchmark.Configuration(
        metrics: [ColdProbe.metric],
        warmupIterations: 0,
        maxDuration: .seconds(30),
        maxIterations: 15
    )
    Benchmark("Conformers.records.cold", configuration: cold) { benchmark in
        benchmark.measurement(ColdProbe.metric, ColdProbe.measure("library"))
    }
    Benchmark("Runtime.firstFailingCast.cold", configuration: cold) { benchmark in
        benchmark.measurement(ColdProbe.metric, ColdProbe.measure("runtime"))
    }

    // All conformers of a protocol, from the index.
    _ = drawable.conformanceRecords()
    Benchmark("Conformers.records.warm", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(drawable.conformanceRecords().count) }
    }

    // Types by name.
    let name = "Swift.Dictionary<Swift.String, Swift.Array<Swift.Int>>"
    let mangled = "SDySSSaySiGG"
    _ = try! TypeMetadata(named: name)
    Benchmark("TypeByName.reflectingName.warm", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(try! TypeMetadata(named: name)) }
    }
    Benchmark("TypeByName.stdlibTypeByName", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(_typeByName(mangled)) }
    }

    realisticBenchmarks(warm)
    frameworkShapeBenchmarks(warm)
    openingCeilingBenchmarks(warm)
    lendingRetainBenchmarks()
    elementRetainBenchmarks()
    diffBenchmarks()
    mirrorBenchmarks()
    wholeOperationBenchmarks()
    openingShapeBenchmarks(warm)
}
