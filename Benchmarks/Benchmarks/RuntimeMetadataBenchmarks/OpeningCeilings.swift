// OpeningCeilings.swift
//
// Opening an `Any` as `any Drawable` and calling a requirement, as a framework's visitor makes
// the call: through a closure the optimizer cannot see into, over four alternating types (a
// small struct, a class, an enum with a payload, and a struct too large for an `Any`'s inline
// buffer, which the `Any` holds in a box). Beside them, their ceilings (issue 31): the same
// closure called on values already typed `any Drawable`, and on a copy of each, which no
// opening can beat; and `as?`, which users write instead.

import Benchmark
import RuntimeMetadata

/// A struct of five words: too large for an `Any`'s three-word buffer.
struct Poster: Drawable {
    var width = 3
    var height = 4
    var title = "poster"
    var scale = 2
    func draw() -> Int { width &* height &+ scale }
}

/// The visitor's call: a closure made out of line and stored, as a framework stores the
/// visitor it was given, so that the call is never inlined into the loop.
@inline(never)
func makeVisitor() -> (any Drawable) -> Int { { $0.draw() } }

func openingCeilingBenchmarks(_ warm: Benchmark.Configuration) {
    let drawable = try! ProtocolDescriptor((any Drawable).self)
    let values: [Any] = hidden([Circle(radius: 3), Badge(), Marker.ring(2), Poster()])
    let typed: [any Drawable] = hidden([Circle(radius: 3), Badge(), Marker.ring(2), Poster()])
    let visitor = hidden(makeVisitor())
    for value in values { _ = drawable.open(value, as: (any Drawable).self) }

    Benchmark("Opening.visitor.withOpened.warm", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            if let drawn = drawable.withOpened(values[alternate(&counter)], as: (any Drawable).self, visitor) {
                blackHole(drawn)
            }
        }
    }
    Benchmark("Opening.visitor.open.warm", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            if let opened = drawable.open(values[alternate(&counter)], as: (any Drawable).self) {
                blackHole(visitor(opened))
            }
        }
    }
    // The ceiling of withOpened: the visitor called on values already typed `any Drawable`.
    Benchmark("Opening.visitor.typed", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            blackHole(visitor(typed[alternate(&counter)]))
        }
    }
    // The ceiling of open, which returns its own copy: the visitor called on a copy of each
    // value, made and destroyed as open's copy is.
    Benchmark("Opening.visitor.typedCopy", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            let copied = copyOut(typed, at: alternate(&counter))
            blackHole(visitor(copied))
        }
    }
    Benchmark("Opening.visitor.asCast", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            if let cast = values[alternate(&counter)] as? any Drawable { blackHole(visitor(cast)) }
        }
    }
}

/// A generic function the lent value is passed to, as `withOpened`'s documentation shows.
@inline(never)
func drawTwice<D: Drawable>(_ drawable: D) -> Int { drawable.draw() &* 2 }

/// Rows that count retains, releases and allocations instead of timing: the counting hooks
/// slow every retain, so timed rows do not count.
func retainCounting() -> Benchmark.Configuration {
    Benchmark.Configuration(
        metrics: [.retainCount, .releaseCount, .mallocCountTotal],
        timeUnits: .nanoseconds,
        maxDuration: .seconds(1),
        maxIterations: 200
    )
}

/// Retains and releases per opening, counted in rows of their own (the counting hooks slow
/// every retain, so the timed rows do not count): `withOpened` documents that it lends the
/// value without a copy, to a closure literal and to a stored visitor closure alike. The values
/// are the four types of `Opening.visitor.`, two of which (the class and the boxed struct)
/// would be retained by a copy (500 retains per 1,000 openings, before the view was lent by an
/// `inout` access).
func lendingRetainBenchmarks() {
    let counted = retainCounting()
    let drawable = try! ProtocolDescriptor((any Drawable).self)
    let values: [Any] = hidden([Circle(radius: 3), Badge(), Marker.ring(2), Poster()])
    let visitor = hidden(makeVisitor())
    for value in values { _ = drawable.open(value, as: (any Drawable).self) }

    // Checked at zero (Benchmarks/Thresholds/6.3): the literal calls a requirement, and passes
    // the value to a generic function.
    Benchmark("Lending.literal.retains.warm", configuration: counted) { benchmark in
        var counter = 0
        measure(benchmark) {
            let index = alternate(&counter)
            if let drawn = drawable.withOpened(values[index], as: (any Drawable).self, { $0.draw() &+ drawTwice($0) }) {
                blackHole(drawn)
            }
        }
    }
    // Checked at zero too: the stored visitor, which the optimizer cannot see.
    Benchmark("Lending.visitor.retains.warm", configuration: counted) { benchmark in
        var counter = 0
        measure(benchmark) {
            if let drawn = drawable.withOpened(values[alternate(&counter)], as: (any Drawable).self, visitor) {
                blackHole(drawn)
            }
        }
    }
}

/// A requirement called on stored elements, as a framework calls `body` on stored views.
protocol Weighted {
    var weight: Int { get }
}

/// An element whose copy retains: a class reference and an array.
struct Parcel: Weighted {
    var owner = Badge()
    var sizes = [1, 2, 3]
    var weight: Int { sizes.count }
}

/// The weights of stored elements, read in place, in code not specialized for them.
@_semantics("optimize.sil.specialize.generic.never")
@inline(never)
func weightsInPlace<Element: Weighted>(_ elements: ContiguousArray<Element>, _ index: Int) -> Int {
    InPlace.withElement(at: index, of: elements) { $0.weight }
}

/// The same through the subscript, which copies each element for the call.
@_semantics("optimize.sil.specialize.generic.never")
@inline(never)
func weightsSubscripted<Element: Weighted>(_ elements: ContiguousArray<Element>, _ index: Int) -> Int {
    elements[index].weight
}

/// Retains of reading a requirement from stored elements in unspecialized code (counted, not
/// timed): checked at zero for `InPlace`, and the subscript's copy beside it.
func elementRetainBenchmarks() {
    let counted = retainCounting()
    let parcels = ContiguousArray((0..<4).map { _ in Parcel() })
    Benchmark("Lending.element.retains.warm", configuration: counted) { benchmark in
        var counter = 0
        measure(benchmark) { blackHole(weightsInPlace(parcels, alternate(&counter))) }
    }
    Benchmark("Lending.element.subscript.retains", configuration: counted) { benchmark in
        var counter = 0
        measure(benchmark) { blackHole(weightsSubscripted(parcels, alternate(&counter))) }
    }
}
