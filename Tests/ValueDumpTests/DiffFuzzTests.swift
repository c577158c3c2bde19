// DiffFuzzTests.swift
//
// The fuzz target of ValueDump's diff and stable dump, run by TestSupport's `FuzzRun`: random
// pairs of values, checked against layout equality (the type's own `==` where it has one).

import Fixtures
import Foundation
import RuntimeMetadata
import TestSupport
import Testing
import ValueDump

@Suite("Diff fuzzing")
struct DiffFuzzTests {
    @Test("Random pairs diffed and dumped stably: empty exactly when layout-equal, each path once")
    func diffsAndStableDumps() async {
        let result = await #expect(
            processExitsWith: .success,
            observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            var generator = SplitMix64(state: 0x5EED_0007)
            var run = FuzzRun("diffs and stable dumps", inputs: 20_000)
            var equalPairs = 0
            var differingPairs = 0
            var reportedPaths = 0
            let dog = Dog()
            let cat = Cat()
            let samples: [() -> Any] = Fixtures.all.compactMap(\.sample).map { sample in { sample() } }
            let roots: [() -> Any] =
                samples + [
                    { Callbacks() }, { HoldsExistential(item: Point(x: 1, y: 2), anything: "a") },
                    { SpeakerReferences(delegate: dog, owner: cat) }, { Holder<Any>(Point(x: 3, y: 4)) },
                    { TreeNode(label: "root") }, { [Point(x: 1, y: 1), Point(x: 2, y: 2)] },
                    { ["a": Point(x: 1, y: 1)] }, { Set(["x", "y"]) }, { Optional(Point(x: 0, y: 0)) as Any },
                    { (1, "tuple", Point(x: 5, y: 5)) },
                ]
            let values: [Any] = [
                0, -1, Int.max, "text", "it's", "", 2.5, Double.nan, true, Int32(3), Float(1), [1, 2], ["a"],
                Optional<String>.none as Any, Optional("some") as Any, Point(x: 9, y: 9), ReferenceFixture.shared, dog,
                { (x: Int) in x } as Any, Date(timeIntervalSince1970: 0), [String: Int](), ["k": 1, "j": 2],
                Optional<any Speaker>.some(dog) as Any, (1, "tuple"), EightFieldStruct.sample, TreeNode(label: "n"),
            ]
            while run.hasBudget {
                let old = roots.randomElement(using: &generator)!()
                var new: Any
                switch Int.random(in: 0..<4, using: &generator) {
                case 0:
                    // The same value again: no difference unless it is unequal to itself (NaN).
                    new = old
                case 1:
                    // Another root, usually of another type: reported whole.
                    new = roots.randomElement(using: &generator)!()
                case 2:
                    // A random value of any type against the root.
                    new = values.randomElement(using: &generator)!
                default:
                    // One or two fields rewritten through the Any root, where the write is taken.
                    new = old
                    let fields: [Field] = (try? TypeMetadata(Swift.type(of: old)).fields.array) ?? []
                    for _ in 0..<Int.random(in: 1...2, using: &generator) where !fields.isEmpty {
                        let field = fields[Int.random(in: 0..<fields.count, using: &generator)]
                        try? field.setValue(values.randomElement(using: &generator)!, in: &new)
                    }
                }
                run.attempt("\(Swift.type(of: old)) against \(Swift.type(of: new))")
                let found = ValueDump.differences(old, new)
                // The oracle: layout equality, the type's own == where it has one.
                #expect(found.isEmpty == TypeMetadata.layoutEquals(old, new), "\(Swift.type(of: old))")
                // A path names one change, or at most one removal and one insertion.
                for kind in [
                    found.filter { $0.new == nil }, found.filter { $0.old == nil },
                    found.filter { $0.old != nil && $0.new != nil },
                ] {
                    #expect(Set(kind.map(\.path)).count == kind.count, "a path twice: \(found.map(\.path))")
                }
                let changed = Set(found.filter { $0.old != nil && $0.new != nil }.map(\.path))
                #expect(changed.isDisjoint(with: found.filter { $0.old == nil || $0.new == nil }.map(\.path)))
                #expect((ValueDump.diff(old, new) == nil) == found.isEmpty)
                for difference in found { #expect(difference.old != nil || difference.new != nil) }
                // A stable dump is the same text each time, and walks whatever the diff walked.
                var first = ""
                var second = ""
                ValueDump.dump(new, to: &first, options: .stable)
                ValueDump.dump(new, to: &second, options: .stable)
                #expect(first == second && !first.isEmpty)
                run.resolved += 1
                if found.isEmpty { equalPairs += 1 } else { differingPairs += 1 }
                reportedPaths += found.count
            }
            withExtendedLifetime((dog, cat)) {}
            run.report()
            print("FUZZ-REPORT diffs: \(equalPairs) equal pairs, \(differingPairs) differing, \(reportedPaths) paths")
            // Both outcomes are exercised, so that neither side of the oracle passes vacuously.
            // (500 and 2,000 of 20,000 inputs; in proportion under a sanitizer, TestScale.)
            #expect(equalPairs > run.maximumInputs / 40 && differingPairs > run.maximumInputs / 10)
        }
        FuzzRun.printReport(result)
    }
}
