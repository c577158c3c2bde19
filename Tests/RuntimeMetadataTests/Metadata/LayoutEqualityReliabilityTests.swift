// LayoutEqualityReliabilityTests.swift
//
// Layout equality on values of unbounded depth, run in a child process (it overflowed the
// stack at 100,000 nodes), and its one rule for references and existentials at every level,
// checked against `==`.

import Fixtures
import RuntimeMetadata
import Synchronization
import TestSupport
import Testing

/// Values kept for the life of the process: releasing a million-node indirect list recurses
/// once per node in Swift's own deinitialization, which no library can change.
private let kept = Mutex<[PlainList]>([])

/// Keeps `list` alive until the process exits, and returns it.
private func keep(_ list: PlainList) -> PlainList {
    kept.withLock { $0.append(list) }
    return list
}

@Suite("Reliability: layout equality")
struct EqualityReliabilityTests {
    @Test("A non-Equatable indirect list of 200,000 nodes compares without overflowing the stack")
    func deepList() async {
        await #expect(processExitsWith: .success) {
            let count = TestScale.scaled(200_000)
            let list = keep(PlainList.make(count: count))
            let same = keep(PlainList.make(count: count))
            let differentAtTheEnd = keep(PlainList.make(count: count, last: -1))
            let shorter = keep(PlainList.make(count: count - 1))
            #expect(TypeMetadata.layoutEquals(list, same))
            #expect(!TypeMetadata.layoutEquals(list, differentAtTheEnd))
            #expect(!TypeMetadata.layoutEquals(list, shorter))
            // As deep from a 512 KiB thread.
            onSmallStack {
                #expect(TypeMetadata.layoutEquals(list, same))
                #expect(!TypeMetadata.layoutEquals(list, differentAtTheEnd))
            }
        }
    }

    @Test("Non-Equatable lists agree with their Equatable twin's synthesized ==")
    func listsAgreeWithEquatable() {
        func twin(_ list: PlainList) -> EquatableList {
            var values: [Int] = []
            var current = list
            while case .node(let value, let next) = current {
                values.append(value)
                current = next
            }
            return values.reversed().reduce(EquatableList.end) { .node($1, $0) }
        }
        let lists = [
            PlainList.end, .make(count: 1), .make(count: 3), .make(count: 3, last: 7), .make(count: 4),
        ]
        for left in lists {
            for right in lists {
                #expect(TypeMetadata.layoutEquals(left, right) == (twin(left) == twin(right)))
            }
        }
    }

    @Test("Equatable classes use == in fields as at the top; identity otherwise")
    func equatableClassInField() {
        let dog = Dog()
        let first = HoldsReferences(
            box: ContentBox(["a"]),
            error: CodedError(code: 1, message: "x"),
            object: dog,
            speaker: dog
        )
        let equalBox = HoldsReferences(
            box: ContentBox(["a"]),
            error: CodedError(code: 1, message: "x"),
            object: dog,
            speaker: dog
        )
        #expect(ContentBox(["a"]) == ContentBox(["a"]))
        #expect(TypeMetadata.layoutEquals(ContentBox(["a"]), ContentBox(["a"])))
        #expect(TypeMetadata.layoutEquals(first, equalBox))
        var other = equalBox
        other.box = ContentBox(["b"])
        #expect(!TypeMetadata.layoutEquals(first, other))
        // Non-Equatable classes: identity, through a class-bound existential too.
        other = equalBox
        other.object = Dog()
        #expect(!TypeMetadata.layoutEquals(first, other))
        other = equalBox
        other.speaker = Cat()
        #expect(!TypeMetadata.layoutEquals(first, other))
        withExtendedLifetime(dog) {}
    }

    @Test("Two any Error boxes holding equal values are equal; different values or types are not")
    func errorBoxes() {
        let a: any Error = CodedError(code: 1, message: "x")
        let b: any Error = CodedError(code: 1, message: "x")
        let c: any Error = CodedError(code: 2, message: "x")
        let d: any Error = FixtureError.failed(code: 1)
        #expect(TypeMetadata.layoutEquals(a, b))
        #expect(!TypeMetadata.layoutEquals(a, c))
        #expect(!TypeMetadata.layoutEquals(a, d))
        let anyA: Any = a
        let anyB: Any = b
        #expect(TypeMetadata.layoutEquals(anyA, anyB))
        var holder = HoldsReferences(box: ContentBox([]), error: a, object: Dog(), speaker: Cat())
        let copy = holder
        holder.error = b
        #expect(TypeMetadata.layoutEquals(holder, copy))
        holder.error = c
        #expect(!TypeMetadata.layoutEquals(holder, copy))
    }
}
