// LayoutEqualityTests.swift
//
// Layout equality against `==` on Equatable types, for equal and unequal pairs.

import Fixtures
import Foundation
import RuntimeMetadata
import Testing

/// Checks layout equality against `==` for every pair of values.
private func expectAgreesWithEquality<T: Equatable>(_ values: [T], sourceLocation: SourceLocation = #_sourceLocation) {
    for lhs in values {
        for rhs in values {
            #expect(
                TypeMetadata.layoutEquals(lhs, rhs) == (lhs == rhs),
                "\(lhs) vs \(rhs)",
                sourceLocation: sourceLocation
            )
        }
    }
}

/// A non-Equatable mirror of EightFieldStruct: equality must be structural.
private struct PlainEightFields {
    var id: Int
    var title: String
    var score: Double
    var isActive: Bool
    var count: Int32
    var values: [Int]
    var note: String?
    var ratio: Float

    init(_ value: EightFieldStruct) {
        (id, title, score, isActive, count, values, note, ratio) = (
            value.id, value.title, value.score, value.isActive, value.count, value.values, value.note, value.ratio
        )
    }

    var equatable: EightFieldStruct {
        EightFieldStruct(
            id: id,
            title: title,
            score: score,
            isActive: isActive,
            count: count,
            values: values,
            note: note,
            ratio: ratio
        )
    }
}

/// A non-Equatable enum with payloads.
private enum PlainEnum {
    case text(String)
    case number(Int)
    case nested(PlainEightFields?)
    case nothing
}

/// An Equatable struct whose `==` is not structural: it ignores case and a cache field.
private struct CaseInsensitiveName: Equatable {
    var name: String
    var cachedLength = 0
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.name.lowercased() == rhs.name.lowercased() }
}

/// An Equatable class whose `==` compares contents, not identity.
private final class Box: Equatable {
    let value: [String]
    init(_ value: [String]) { self.value = value }
    static func == (lhs: Box, rhs: Box) -> Bool { lhs.value == rhs.value }
}

/// A generic Equatable type, conformance instantiated per argument.
private struct Pair<A: Equatable, B: Equatable>: Equatable {
    var first: A
    var second: B
}

/// Floating point stored inline at several depths, for the identical-bits shortcut.
private struct Measurement: Equatable {
    var label = "m"
    var reading: Double
}

private struct PlainMeasurement {
    var label = "m"
    var nested: (count: Int, value: Float?)
}

private enum Reading: Equatable {
    case none
    case value(Float)
    case pair(Int, Measurement)
}

/// A hand-written `==` under which a NaN equals itself.
private struct BitwiseReading: Equatable {
    var value: Double
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.value.bitPattern == rhs.value.bitPattern }
}

/// A struct with padding between its fields.
private struct Padded: Equatable {
    var flag: UInt8
    var count: Int
}

@Suite("Layout equality")
struct LayoutEqualityTests {
    static var eightFieldValues: [EightFieldStruct] {
        let base = EightFieldStruct.sample
        var values = [base]
        var copy = base
        copy.id += 1
        values.append(copy)
        copy = base
        copy.title = "other"
        values.append(copy)
        copy = base
        copy.note = nil
        values.append(copy)
        copy = base
        copy.values.append(1)
        values.append(copy)
        copy = base
        copy.ratio = -0.0
        values.append(copy)
        copy = base
        copy.score = .nan
        values.append(copy)
        return values
    }

    @Test("Equatable types agree with ==")
    func equatableTypes() {
        expectAgreesWithEquality(Self.eightFieldValues)
        expectAgreesWithEquality([Point(x: 1, y: 2), Point(x: 1, y: 3), Point(x: 0, y: 2)])
        expectAgreesWithEquality(["a", "b", "a" + "", String(repeating: "long string ", count: 4)])
        expectAgreesWithEquality([MultiPayloadEnum.int(1), .int(2), .string("s"), .pair(1, 2), .empty, .another])
        expectAgreesWithEquality([IndirectTree.leaf(1), .node(.leaf(1), .leaf(2)), .node(.leaf(1), .leaf(3))])
        expectAgreesWithEquality([Int?.none, 1, 2])
        expectAgreesWithEquality([
            FoundationFieldsStruct.sample,
            {
                var v = FoundationFieldsStruct.sample; v.data = Data([9]); return v
            }(),
        ])
        expectAgreesWithEquality([0.0, -0.0, 1.0, .nan])
    }

    @Test("A type's own == decides, even when it is not structural, for structs, classes and generics")
    func customEquality() {
        expectAgreesWithEquality([
            CaseInsensitiveName(name: "Ada"), CaseInsensitiveName(name: "ADA", cachedLength: 3),
            CaseInsensitiveName(name: "Grace"),
        ])
        expectAgreesWithEquality([Box(["a"]), Box(["a"]), Box(["b"]), Box([])])
        expectAgreesWithEquality([
            Pair(first: CaseInsensitiveName(name: "x"), second: [1.0, -0.0]),
            Pair(first: CaseInsensitiveName(name: "X"), second: [1.0, 0.0]),
            Pair(first: CaseInsensitiveName(name: "y"), second: [.nan]),
        ])
        expectAgreesWithEquality([[Box(["a"])], [Box(["a"])], [Box(["b"])], []])
        expectAgreesWithEquality([Set(["a", "b"]), Set(["b", "a"]), Set(["c"])])
        expectAgreesWithEquality([["k": Box(["v"])], ["k": Box(["v"])], ["k": Box(["w"])]])
    }

    @Test("Structs that are not Equatable compare field by field, as their Equatable twin")
    func structuralStructs() {
        for lhs in Self.eightFieldValues {
            for rhs in Self.eightFieldValues {
                #expect(TypeMetadata.layoutEquals(PlainEightFields(lhs), PlainEightFields(rhs)) == (lhs == rhs))
            }
        }
    }

    @Test("Enums that are not Equatable compare tags, then payloads")
    func structuralEnums() {
        let sample = PlainEightFields(.sample)
        var changed = sample
        changed.title = "x"
        let values: [PlainEnum] = [
            .text("a"), .text("b"), .number(1), .number(2), .nested(sample), .nested(changed), .nested(nil), .nothing,
        ]
        for (i, lhs) in values.enumerated() {
            for (j, rhs) in values.enumerated() {
                #expect(TypeMetadata.layoutEquals(lhs, rhs) == (i == j), "\(i) vs \(j)")
            }
        }
    }

    @Test("Class references compare by identity; tuples and existentials by content")
    func referencesTuplesExistentials() {
        let a = ReferenceFixture(id: 1, name: "a")
        let b = ReferenceFixture(id: 1, name: "a")
        #expect(TypeMetadata.layoutEquals(a, a))
        #expect(!TypeMetadata.layoutEquals(a, b))
        #expect(
            TypeMetadata.layoutEquals(ClassHoldingStruct(object: a, count: 1), ClassHoldingStruct(object: a, count: 1))
        )
        #expect(
            !TypeMetadata.layoutEquals(ClassHoldingStruct(object: a, count: 1), ClassHoldingStruct(object: b, count: 1))
        )
        #expect(TypeMetadata.layoutEquals((1, "x"), (1, "x")))
        #expect(!TypeMetadata.layoutEquals((1, "x"), (1, "y")))
        let any1: Any = Point(x: 1, y: 2)
        let any2: Any = Point(x: 1, y: 2)
        let any3: Any = "Point"
        #expect(TypeMetadata.layoutEquals(any1, any2))
        #expect(!TypeMetadata.layoutEquals(any1, any3))
        let big1: Any = EightFieldStruct.sample
        let big2: Any = EightFieldStruct.sample
        #expect(TypeMetadata.layoutEquals(big1, big2))
        let proto1: any FixtureProtocol = Point(x: 3, y: 4)
        let proto2: any FixtureProtocol = Point(x: 3, y: 5)
        #expect(!TypeMetadata.layoutEquals(proto1, proto2))
        #expect(TypeMetadata.layoutEquals(proto1, proto1))
    }

    @Test("Values with identical bits are equal, except where a NaN is stored inline")
    func identicalBits() {
        // The same bits, a NaN inline: as `==`, not equal, at every depth.
        let nan = Measurement(reading: .nan)
        #expect(!TypeMetadata.layoutEquals(nan, nan))
        #expect(!TypeMetadata.layoutEquals(PlainMeasurement(nested: (1, .nan)), PlainMeasurement(nested: (1, .nan))))
        #expect(!TypeMetadata.layoutEquals(Reading.value(.nan), Reading.value(.nan)))
        #expect(!TypeMetadata.layoutEquals(Reading.pair(1, nan), Reading.pair(1, nan)))
        #expect(!TypeMetadata.layoutEquals(Double?.some(.nan), Double?.some(.nan)))
        #expect(!TypeMetadata.layoutEquals((1, Double.nan), (1, Double.nan)))
        let vector = SIMD4<Float>(.nan, 0, 0, 0)
        #expect(TypeMetadata.layoutEquals(vector, vector) == (vector == vector))
        expectAgreesWithEquality([nan, Measurement(reading: 1), Measurement(reading: -0.0), Measurement(reading: 0)])
        expectAgreesWithEquality([
            Reading.none, .value(.nan), .value(1), .pair(1, nan), .pair(1, Measurement(reading: 2)),
        ])
        // A NaN in shared storage is the same storage: equal, as `Array`'s own `==` says.
        let shared = [Double.nan]
        #expect(TypeMetadata.layoutEquals(shared, shared) == (shared == shared))
        // Equal values whose bits differ (separate buffers, padding) are still compared by content.
        let long = String(repeating: "long string ", count: 4)
        #expect(TypeMetadata.layoutEquals([long], [String(repeating: "long string ", count: 4)]))
        var left = Padded(flag: 1, count: 2)
        var right = Padded(flag: 1, count: 2)
        unsafe withUnsafeMutableBytes(of: &left) { unsafe $0[1] = 0xAA }
        unsafe withUnsafeMutableBytes(of: &right) { unsafe $0[1] = 0x55 }
        #expect(TypeMetadata.layoutEquals(left, right))
        #expect(!TypeMetadata.layoutEquals(left, Padded(flag: 2, count: 2)))
    }

    @Test("Identical bits with a floating-point number inline agree with == in every format and encoding")
    func floatingPointFormats() {
        // Each format's NaNs (quiet, signaling, negative), infinities, zeros, and a number, inside
        // an Equatable struct (the type's own `==` skipped for identical bits) and a plain one.
        func check<F: BinaryFloatingPoint>(_ values: [F], sourceLocation: SourceLocation = #_sourceLocation) {
            for value in values {
                let inline = Pair(first: "label", second: value)
                #expect(
                    TypeMetadata.layoutEquals(inline, inline) == (inline == inline),
                    "\(F.self) \(value)",
                    sourceLocation: sourceLocation
                )
                let plain = (count: 1, value: value, tail: "t")
                #expect(
                    TypeMetadata.layoutEquals(plain, plain) == (plain.value == plain.value),
                    "\(F.self) \(value)",
                    sourceLocation: sourceLocation
                )
            }
            expectAgreesWithEquality(values.map { Pair(first: 1, second: $0) }, sourceLocation: sourceLocation)
        }
        check([Float.nan, -.nan, .signalingNaN, .infinity, -.infinity, 0, -0.0, 1, .leastNonzeroMagnitude])
        check([Double.nan, -.nan, .signalingNaN, .infinity, -.infinity, 0, -0.0, 1, .leastNonzeroMagnitude])
        check([Float16.nan, -.nan, .signalingNaN, .infinity, -.infinity, 0, -0.0, 1, .leastNonzeroMagnitude])
        #if arch(x86_64) && os(Linux)
        // x87's encodings that are no number: a pseudo-NaN, a pseudo-infinity and an
        // unnormal (the integer bit clear), each unequal to itself as `==` says.
        func extended(significand: UInt64, exponent: UInt16) -> Float80 {
            var value: Float80 = 0
            unsafe withUnsafeMutableBytes(of: &value) { bytes in
                unsafe bytes.storeBytes(of: significand, toByteOffset: 0, as: UInt64.self)
                unsafe bytes.storeBytes(of: exponent, toByteOffset: 8, as: UInt16.self)
            }
            return value
        }
        check([
            Float80.nan, -.nan, .signalingNaN, .infinity, -.infinity, 0, -0.0, 1,
            extended(significand: 1, exponent: 0x7FFF), extended(significand: 0, exponent: 0x7FFF),
            extended(significand: 1 << 40, exponent: 0x3FFF),
        ])
        #endif
        // A type whose own `==` calls NaNs equal: identical bits never decide against it.
        #expect(TypeMetadata.layoutEquals(BitwiseReading(value: .nan), BitwiseReading(value: .nan)))
    }

    @Test("A NaN in each of three slots (in line), two of one format, or a fourth (out of line) agrees with ==")
    func floatingPointSlotPositions() {
        // Three slots of three formats, and four doubles: the first fit the comparator's packed
        // slots, which the caller checks in line; the fourth slot sends the check out of line.
        // Neither type has padding, so a copy's bits are the value's and identical bits are
        // looked at (a padded copy's may differ, which sends the comparison to `==`).
        struct Three: Equatable {
            var half: Float16 = 0
            var count: Int16 = 1
            var single: Float = 0
            var double = 0.0
        }
        struct Four: Equatable { var a = 0.0, b = 0.0, c = 0.0, d = 0.0 }
        var threes = [Three()]
        for position in 0..<3 {
            var value = Three()
            switch position {
            case 0: value.half = .nan
            case 1: value.single = .nan
            default: value.double = .nan
            }
            threes.append(value)
        }
        var fours = [Four()]
        for position in 0..<4 {
            var value = Four()
            switch position {
            case 0: value.a = .nan
            case 1: value.b = .nan
            case 2: value.c = .nan
            default: value.d = -.signalingNaN
            }
            fours.append(value)
        }
        for value in threes {
            #expect(TypeMetadata.layoutEquals(value, value) == (value == value), "\(value)")
            let plain = (value.half, value.count, value.single, value.double)
            #expect(TypeMetadata.layoutEquals(plain, plain) == (value == value), "\(plain)")
        }
        for value in fours {
            #expect(TypeMetadata.layoutEquals(value, value) == (value == value), "\(value)")
            let plain = (value.a, value.b, value.c, value.d)
            #expect(TypeMetadata.layoutEquals(plain, plain) == (value == value), "\(plain)")
        }
        // Two slots of one format after one of another, out of their order in the value:
        // each slot's offset is found in its place.
        struct Mixed: Equatable {
            var first: Float = 0
            var second: Float = 0
            var double = 0.0
        }
        var mixed = [Mixed()]
        for position in 0..<3 {
            var value = Mixed()
            switch position {
            case 0: value.first = .nan
            case 1: value.second = -.nan
            default: value.double = .signalingNaN
            }
            mixed.append(value)
        }
        for value in mixed {
            #expect(TypeMetadata.layoutEquals(value, value) == (value == value), "\(value)")
        }
        expectAgreesWithEquality(threes)
        expectAgreesWithEquality(fours)
        expectAgreesWithEquality(mixed)
    }

    @Test("Padding at every level of a type that is not Equatable is not compared; every byte of data is")
    func paddingIsNotData() {
        // The data's bytes, from `MemoryLayout`'s offsets of each leaf; the rest is padding.
        let leaves: [(offset: Int?, size: Int)] = [
            (MemoryLayout<NestedPadding>.offset(of: \.inner.flag), 1),
            (MemoryLayout<NestedPadding>.offset(of: \.inner.count), 8),
            (MemoryLayout<NestedPadding>.offset(of: \.tail.0), 1),
            (MemoryLayout<NestedPadding>.offset(of: \.tail.1), 4),
            (MemoryLayout<NestedPadding>.offset(of: \.tail.2), 8),
            (MemoryLayout<NestedPadding>.offset(of: \.name), 16),
            (MemoryLayout<NestedPadding>.offset(of: \.last), 1),
        ]
        var data = Set<Int>()
        for leaf in leaves {
            guard let offset = leaf.offset else { Issue.record("no offset"); return }
            data.formUnion(offset..<offset + leaf.size)
        }
        let padding = (0..<MemoryLayout<NestedPadding>.size).filter { !data.contains($0) }
        #expect(padding.count >= 10)
        let value = NestedPadding(inner: PaddedPair(flag: true, count: 7), tail: (true, 3, 9), name: "row", last: false)
        for fill in [UInt8(0x00), 0xFF, 0x5A] {
            var left = value
            var right = value
            unsafe withUnsafeMutableBytes(of: &left) { bytes in for offset in padding { unsafe bytes[offset] = fill } }
            unsafe withUnsafeMutableBytes(of: &right) { bytes in for offset in padding { unsafe bytes[offset] = ~fill }
            }
            #expect(TypeMetadata.layoutEquals(left, right))
            // Each leaf changed alone: the oracle is the fields' own `==`.
            var changed = [left, left, left, left, left, left, left]
            changed[0].inner.flag = false
            changed[1].inner.count = 8
            changed[2].tail.0 = false
            changed[3].tail.1 = 4
            changed[4].tail.2 = 10
            changed[5].name = "rows"
            changed[6].last = true
            for other in changed { #expect(!TypeMetadata.layoutEquals(right, other)) }
        }
    }
}

/// A pair with padding after its first field, not Equatable.
private struct PaddedPair {
    var flag: Bool
    var count: Int
}

/// Padding inside a field, inside a tuple, and at the end, not Equatable.
private struct NestedPadding {
    var inner: PaddedPair
    var tail: (Bool, Int32, Int)
    var name: String
    var last: Bool
}
