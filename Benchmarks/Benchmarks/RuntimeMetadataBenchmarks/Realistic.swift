// Realistic.swift
//
// Warm paths measured the way users call them: several types alternating in one loop (structs,
// a class and an enum among them), the names read along with the offsets, equality against
// each type's own `==` called on the concrete type, and a dump of a realistic value against
// the standard library's Mirror-based `dump`.

import Benchmark
import RuntimeMetadata
import ValueDump

/// A class conforming to the benchmarks' protocol.
final class Badge: Drawable {
    var level = 4
    var label = "badge"
    func draw() -> Int { level }
}

/// An enum conforming to it.
enum Marker: Drawable, Equatable {
    case dot
    case ring(Int)
    func draw() -> Int {
        switch self {
        case .dot: 0
        case .ring(let size): size
        }
    }
}

/// A second struct conforming to it.
struct Label: Drawable, Equatable {
    var text = "label"
    var size = 12
    func draw() -> Int { size }
}

/// A class with a superclass, for field lists.
class Account {
    var id = 1
    var owner = "owner"
}

final class SavingsAccount: Account {
    var rate = 0.02
    var history: [Double] = [1, 2]
}

/// A generic struct, for field lists.
struct Page<Item> {
    var items: [Item]
    var index: Int
    var title: String
}

/// Enums for case names.
enum Status: Equatable {
    case active, suspended(reason: String), closed
}

enum Payment {
    case card(number: String, expiry: Int)
    case cash
    case transfer(iban: String)
}

/// The value the dump benchmarks dump: nested structs, an array of them, an optional, an enum
/// with a payload, a class instance with a superclass, a dictionary and a tuple.
struct Order {
    struct Line {
        var sku: String
        var quantity: Int
        var price: Double
    }
    var id = 42
    var customer = "Ada"
    var lines: [Line] = (0..<6).map { Line(sku: "SKU-\($0)", quantity: $0, price: Double($0) * 1.5) }
    var note: String? = "leave at the door"
    var status = Status.suspended(reason: "payment")
    var payment = Payment.card(number: "4111", expiry: 2028)
    var account: Account = SavingsAccount()
    var totals: [String: Double] = ["net": 10, "tax": 2]
    var dimensions = (width: 10, height: 20)
}

/// A copy of an element, made out of line so that the optimizer cannot borrow the element in
/// place instead.
@inline(never)
func copyOut(_ elements: [any Drawable], at index: Int) -> any Drawable { elements[index] }

/// The index of the next alternating type: 0, 1, 2, 3, 0, ...
@inline(__always)
func alternate(_ counter: inout Int) -> Int {
    counter &+= 1
    return counter & 3
}

func realisticBenchmarks(_ warm: Benchmark.Configuration) {
    let drawable = try! ProtocolDescriptor((any Drawable).self)
    let drawables: [Any] = hidden([Circle(radius: 3), Badge(), Marker.ring(2), Label()])
    for value in drawables { _ = drawable.open(value, as: (any Drawable).self) }

    // Opening and calling a requirement, four types alternating.
    Benchmark("Realistic.withOpened.call.warm", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            let index = alternate(&counter)
            if let drawn = drawable.withOpened(drawables[index], as: (any Drawable).self, { $0.draw() }) {
                blackHole(drawn)
            }
        }
    }
    Benchmark("Realistic.open.call.warm", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            if let opened = drawable.open(drawables[alternate(&counter)], as: (any Drawable).self) {
                blackHole(opened.draw())
            }
        }
    }
    // The ceiling of the two rows above: the same call on values already typed `any Drawable`,
    // which any opening must still make (project the value, call through the witness table).
    // No opening can be faster than `Realistic.AsCast.call` by more than this row is.
    let typedDrawables: [any Drawable] = hidden([Circle(radius: 3), Badge(), Marker.ring(2), Label()])
    Benchmark("Realistic.typed.call", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            blackHole(typedDrawables[alternate(&counter)].draw())
        }
    }
    // The ceiling of `open`, which returns its own copy: the same call on a copy of each value,
    // made and destroyed as the copy `open` returns is.
    Benchmark("Realistic.typed.copyCall", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            let copied = copyOut(typedDrawables, at: alternate(&counter))
            blackHole(copied.draw())
        }
    }
    Benchmark("Realistic.AsCast.call", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            if let cast = drawables[alternate(&counter)] as? any Drawable { blackHole(cast.draw()) }
        }
    }

    // Field names and offsets, four types alternating (a class with a superclass, a generic).
    let fieldTypes: [Any.Type] = hidden([EightFields.self, SavingsAccount.self, Page<Int>.self, Label.self])
    let fieldSamples: [Any] = hidden([EightFields(), SavingsAccount(), Page(items: [1], index: 0, title: "t"), Label()])
    for type in fieldTypes { _ = try! TypeMetadata(type).fields }
    Benchmark("Realistic.fields.namesOffsets.warm", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            var total = 0
            for field in try! TypeMetadata(fieldTypes[alternate(&counter)]).fields {
                total &+= field.name.utf8.count &+ field.offset
            }
            blackHole(total)
        }
    }
    Benchmark("Realistic.Mirror.labels", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            var total = 0
            let mirror = Mirror(reflecting: fieldSamples[alternate(&counter)])
            for child in mirror.children { total &+= child.label?.utf8.count ?? 0 }
            if let superclass = mirror.superclassMirror {
                for child in superclass.children { total &+= child.label?.utf8.count ?? 0 }
            }
            blackHole(total)
        }
    }

    // Enum case names, four values of three enums alternating.
    let enumValues: [Any] = hidden([
        Status.suspended(reason: "r"), Payment.transfer(iban: "DE"), Marker.ring(1), Status.closed,
    ])
    let enumTypes = enumValues.map { TypeMetadata(type(of: $0)) }
    for (type, value) in zip(enumTypes, enumValues) { _ = try! type.caseName(of: value) }
    Benchmark("Realistic.enum.caseName.warm", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            let index = alternate(&counter)
            blackHole(try! enumTypes[index].caseName(of: enumValues[index]))
        }
    }
    Benchmark("Realistic.Mirror.caseName", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            blackHole(Mirror(reflecting: enumValues[alternate(&counter)]).children.first?.label)
        }
    }

    // Equality: layout equality against each type's own `==`, called on the concrete type.
    let eightA = hidden(EightFields())
    let eightB = hidden(EightFields())
    let labelA = hidden(Label())
    let labelB = hidden(Label(text: "label", size: 12))
    let markerA = hidden(Marker.ring(3))
    let markerB = hidden(Marker.ring(3))
    let statusA = hidden(Status.suspended(reason: "payment"))
    let statusB = hidden(Status.suspended(reason: "payment"))
    _ = TypeMetadata.layoutEquals(eightA, eightB)
    _ = TypeMetadata.layoutEquals(labelA, labelB)
    _ = TypeMetadata.layoutEquals(markerA, markerB)
    _ = TypeMetadata.layoutEquals(statusA, statusB)
    Benchmark("Realistic.equality.layout.warm", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            switch alternate(&counter) {
            case 0: blackHole(TypeMetadata.layoutEquals(eightA, eightB))
            case 1: blackHole(TypeMetadata.layoutEquals(labelA, labelB))
            case 2: blackHole(TypeMetadata.layoutEquals(markerA, markerB))
            default: blackHole(TypeMetadata.layoutEquals(statusA, statusB))
            }
        }
    }
    Benchmark("Realistic.Equatable.own", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            switch alternate(&counter) {
            case 0: blackHole(eightA == eightB)
            case 1: blackHole(labelA == labelB)
            case 2: blackHole(markerA == markerB)
            default: blackHole(statusA == statusB)
            }
        }
    }

    // Reading a field: through a held Field, by name, and through a key path, four fields of
    // an eight-field struct alternating.
    let eight = hidden(EightFields())
    let eightType = TypeMetadata(EightFields.self)
    let names = ["id", "score", "count", "ratio"]
    let heldFields = names.map { try! eightType.field(named: $0) }
    // Key paths as a framework holds them (stored, not literals the optimizer can see through).
    let idPath = hidden(\EightFields.id)
    let scorePath = hidden(\EightFields.score)
    let countPath = hidden(\EightFields.count)
    let ratioPath = hidden(\EightFields.ratio)
    Benchmark("Realistic.field.held.warm", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            switch alternate(&counter) {
            case 0: blackHole(try! heldFields[0].value(in: eight, as: Int.self))
            case 1: blackHole(try! heldFields[1].value(in: eight, as: Double.self))
            case 2: blackHole(try! heldFields[2].value(in: eight, as: Int32.self))
            default: blackHole(try! heldFields[3].value(in: eight, as: Float.self))
            }
        }
    }
    Benchmark("Realistic.field.byName.warm", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            switch alternate(&counter) {
            case 0: blackHole(try! eightType.field(named: "id").value(in: eight, as: Int.self))
            case 1: blackHole(try! eightType.field(named: "score").value(in: eight, as: Double.self))
            case 2: blackHole(try! eightType.field(named: "count").value(in: eight, as: Int32.self))
            default: blackHole(try! eightType.field(named: "ratio").value(in: eight, as: Float.self))
            }
        }
    }
    Benchmark("Realistic.KeyPath.read", configuration: warm) { benchmark in
        var counter = 0
        measure(benchmark) {
            switch alternate(&counter) {
            case 0: blackHole(eight[keyPath: idPath])
            case 1: blackHole(eight[keyPath: scorePath])
            case 2: blackHole(eight[keyPath: countPath])
            default: blackHole(eight[keyPath: ratioPath])
            }
        }
    }

    // Untyped reads: every field of the eight-field struct as `Any` through the walker, against
    // the same fields read typed through held fields.
    let walker = ValueWalker()
    let eightAny: Any = eight
    Benchmark("Walker.parts.untyped.warm", configuration: warm) { benchmark in
        measure(benchmark) {
            walker.node(for: eightAny).forEachChild { blackHole($0.value) }
        }
    }
    let scoreField = heldFields[1]
    Benchmark("Fields.read.asAny.warm", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(try! scoreField.value(in: eight)) }
    }
    Benchmark("Fields.read.typed", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(try! scoreField.value(in: eight, as: Double.self)) }
    }
    // The same field read from the struct held as `Any`, as a framework holds the values it is
    // given, against what reflection offers for that: `Mirror`'s `descendant` by label.
    let scoreName = scoreField.name
    Benchmark("Fields.read.anyRoot.warm", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(try! scoreField.value(in: eightAny)) }
    }
    Benchmark("Mirror.descendant", configuration: warm) { benchmark in
        measure(benchmark) { blackHole(Mirror(reflecting: eightAny).descendant(scoreName)) }
    }
    let allHeld = try! eightType.fields.array
    // The same eight fields read untyped, one `value(in:)` each, without a walker: the copies
    // into `Any` that any untyped read of the parts makes.
    Benchmark("Fields.read.untypedAll", configuration: warm) { benchmark in
        measure(benchmark) {
            for field in allHeld { blackHole(try! field.value(in: eight)) }
        }
    }
    Benchmark("Fields.read.typedAll", configuration: warm) { benchmark in
        measure(benchmark) {
            blackHole(try! allHeld[0].value(in: eight, as: Int.self))
            blackHole(try! allHeld[1].value(in: eight, as: String.self))
            blackHole(try! allHeld[2].value(in: eight, as: Double.self))
            blackHole(try! allHeld[3].value(in: eight, as: Bool.self))
            blackHole(try! allHeld[4].value(in: eight, as: Int32.self))
            blackHole(try! allHeld[5].value(in: eight, as: [Int].self))
            blackHole(try! allHeld[6].value(in: eight, as: String?.self))
            blackHole(try! allHeld[7].value(in: eight, as: Float.self))
        }
    }

    // A dump of a realistic value, against the standard library's `dump`.
    let order = hidden(Order())
    var warmText = ""
    ValueDump.dump(order, to: &warmText)
    Benchmark("Dump.valueDump.order", configuration: warm) { benchmark in
        // One dump per sample (results.py counts `Dump.` samples as whole operations).
        for _ in benchmark.scaledIterations {
            var text = ""
            ValueDump.dump(order, to: &text)
            blackHole(text)
        }
    }
    Benchmark("Dump.Mirror.order", configuration: warm) { benchmark in
        for _ in benchmark.scaledIterations {
            var text = ""
            Swift.dump(order, to: &text)
            blackHole(text)
        }
    }
}
