// OpeningShapes.swift
//
// `withOpened` then a call, in the shapes frameworks write it (issue 39): values kept in a
// global, in a `static`, in a class's property, visited by a `for`-in loop, and handed to a
// framework's entry point that takes `Any`. Each row stands beside the typed call written the
// same way (values typed `any Drawable`, the entry point taking `any Drawable`), its ceiling.
// Four alternating types, one boxed in its `Any`; the call goes through a stored visitor the
// optimizer cannot see into, as in OpeningCeilings.swift.

import Benchmark
import RuntimeMetadata

/// Values a framework keeps in a global.
nonisolated(unsafe) let shapeGlobalValues: [Any] = [Circle(radius: 3), Badge(), Marker.ring(2), Poster()]
/// The same values, typed.
nonisolated(unsafe) let shapeGlobalTyped: [any Drawable] = [Circle(radius: 3), Badge(), Marker.ring(2), Poster()]

/// Values a framework keeps in a `static`.
enum ShapeStore {
    nonisolated(unsafe) static let values: [Any] = [Circle(radius: 3), Badge(), Marker.ring(2), Poster()]
    nonisolated(unsafe) static let typed: [any Drawable] = [Circle(radius: 3), Badge(), Marker.ring(2), Poster()]
}

/// Values a framework keeps in a class's property.
final class ShapeModel {
    var values: [Any] = [Circle(radius: 3), Badge(), Marker.ring(2), Poster()]
    var typed: [any Drawable] = [Circle(radius: 3), Badge(), Marker.ring(2), Poster()]
}

/// A framework's entry point that takes `Any` and opens it.
@inline(never)
func shapeEntryPoint(
    _ value: Any,
    _ drawable: ProtocolDescriptor,
    _ visitor: (any Drawable) -> Int
) -> Int? {
    drawable.withOpened(value, as: (any Drawable).self, visitor)
}

/// The same entry point taking `any Drawable`: its ceiling.
@inline(never)
func shapeTypedEntryPoint(_ value: any Drawable, _ visitor: (any Drawable) -> Int) -> Int {
    visitor(value)
}

func openingShapeBenchmarks(_ warm: Benchmark.Configuration) {
    let drawable = try! ProtocolDescriptor((any Drawable).self)
    let visitor = hidden(makeVisitor())
    let model = hidden(ShapeModel())
    let loopValues: [Any] = hidden([Circle(radius: 3), Badge(), Marker.ring(2), Poster()])
    let loopTyped: [any Drawable] = hidden([Circle(radius: 3), Badge(), Marker.ring(2), Poster()])
    for value in shapeGlobalValues { _ = drawable.open(value, as: (any Drawable).self) }

    Benchmark("Shape.global.withOpened.warm", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            blackHole(drawable.withOpened(shapeGlobalValues[alternate(&counter)], as: (any Drawable).self, visitor))
        }
    }
    Benchmark("Shape.global.typed", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) { blackHole(visitor(shapeGlobalTyped[alternate(&counter)])) }
    }
    Benchmark("Shape.static.withOpened.warm", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            blackHole(drawable.withOpened(ShapeStore.values[alternate(&counter)], as: (any Drawable).self, visitor))
        }
    }
    Benchmark("Shape.static.typed", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) { blackHole(visitor(ShapeStore.typed[alternate(&counter)])) }
    }
    Benchmark("Shape.property.withOpened.warm", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            blackHole(drawable.withOpened(model.values[alternate(&counter)], as: (any Drawable).self, visitor))
        }
    }
    Benchmark("Shape.property.typed", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) { blackHole(visitor(model.typed[alternate(&counter)])) }
    }
    // A for-in loop over the four values: a sample is 250 passes, the same 1,000 calls.
    Benchmark("Shape.forIn.withOpened.warm", configuration: warm) { benchmark in
        for _ in benchmark.scaledIterations {
            for _ in 0..<(callsPerSample / 4) {
                for value in loopValues { blackHole(drawable.withOpened(value, as: (any Drawable).self, visitor)) }
            }
        }
    }
    Benchmark("Shape.forIn.typed", configuration: warm) { benchmark in
        for _ in benchmark.scaledIterations {
            for _ in 0..<(callsPerSample / 4) {
                for value in loopTyped { blackHole(visitor(value)) }
            }
        }
    }
    Benchmark("Shape.entryPoint.withOpened.warm", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) { blackHole(shapeEntryPoint(loopValues[alternate(&counter)], drawable, visitor)) }
    }
    Benchmark("Shape.entryPoint.typed", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) { blackHole(shapeTypedEntryPoint(loopTyped[alternate(&counter)], visitor)) }
    }
}
