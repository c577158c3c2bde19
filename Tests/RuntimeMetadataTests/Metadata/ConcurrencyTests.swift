// ConcurrencyTests.swift
//
// The caches under contention: many tasks ask the same first questions at once. Run under
// the thread sanitizer by .ci/run.

import Fixtures
import Foundation
import RuntimeMetadata
import Testing

@Suite("Concurrency")
struct ConcurrencyTests {
    @Test("Concurrent first questions about the same types agree and do not race")
    func concurrentFirstQuestions() async throws {
        let fixtures = Fixtures.all
        let results = await withTaskGroup(of: [String].self) { group in
            for worker in 0..<8 {
                group.addTask {
                    var answers: [String] = []
                    for index in fixtures.indices {
                        let fixture = fixtures[(index + worker * 7) % fixtures.count]
                        let metadata = TypeMetadata(fixture.type)
                        let fields = (try? metadata.fields.map(\.name)) ?? []
                        let cases = (try? metadata.cases.map(\.name)) ?? []
                        let arguments = metadata.genericArguments.map(\.description)
                        answers.append("\(metadata.name) \(metadata.size) \(fields) \(cases) \(arguments)")
                    }
                    return answers.sorted()
                }
            }
            var collected: [[String]] = []
            for await answers in group { collected.append(answers) }
            return collected
        }
        #expect(results.count == 8)
        #expect(Set(results.map { $0.joined(separator: "\n") }).count == 1)
    }

    @Test("Concurrent name lookups, field reads and comparisons")
    func concurrentUse() async throws {
        let names = [
            "Swift.Dictionary<Swift.String, Fixtures.GenericBox<Swift.Int>>", "Swift.Array<Fixtures.Shape>",
            "(Swift.Int, label: Swift.String)", "Fixtures.GenericPair<Swift.Int16, Swift.Set<Swift.Int>>",
        ]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for round in 0..<50 {
                        let name = names[(round + worker) % names.count]
                        let metadata = try TypeMetadata(named: name)
                        #expect(metadata.name == name)
                        var value = EightFieldStruct.sample
                        let field = try TypeMetadata(EightFieldStruct.self).field(named: "id")
                        try field.setValue(round, in: &value)
                        #expect(try field.value(in: value, as: Int.self) == round)
                        #expect(TypeMetadata.layoutEquals(value, value))
                        #expect(try TypeMetadata(Shape.self).caseName(of: Shape.point) == "point")
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("Concurrent conformance lookups, enumerations and openings agree with as?")
    func concurrentConformances() async throws {
        let equatable = try ProtocolDescriptor((any Equatable).self)
        let hashable = try ProtocolDescriptor((any Hashable).self)
        let types: [Any.Type] = [
            Int.self, String.self, Point.self, EightFieldStruct.self, ReferenceFixture.self, GenericBox<Int>.self,
            GenericBox<ReferenceFixture>.self, [Point].self, Shape.self, MixedAlignmentStruct.self,
        ]
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    let values: [Any] = [1, "s", Point(x: 1, y: 2), EightFieldStruct.sample, Shape.point]
                    for round in 0..<40 {
                        let type = types[(round + worker) % types.count]
                        #expect(equatable.isConformed(by: type) == (type is any Equatable.Type))
                        #expect(hashable.isConformed(by: type) == (type is any Hashable.Type))
                        let value = values[(round + worker) % values.count]
                        #expect(
                            (hashable.open(value, as: (any Hashable).self) == nil) == ((value as? any Hashable) == nil)
                        )
                        if round % 10 == worker % 10 {
                            #expect(!hashable.conformanceRecords().isEmpty)
                            _ = TypeMetadata(type).conformances
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
