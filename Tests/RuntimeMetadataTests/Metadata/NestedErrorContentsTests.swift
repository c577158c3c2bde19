// NestedErrorContentsTests.swift
//
// An error stored in an `any Error` by generic code: the box holds a box, and its contents are
// the inner error's, checked against the conformance the runtime gives.

import Fixtures
import Testing

@testable import RuntimeMetadata

/// An error stored in `any Error` from generic code: with `T == any Error` (`Error`
/// self-conforms), the box holds a box.
private func boxedError<T: Error>(_ error: T) -> any Error { error }

@Suite("Existential contents of nested errors")
struct NestedErrorContentsTests {
    @Test("An any Error stored in an any Error pairs the inner error's type with its own conformance")
    func errorInError() throws {
        let inner: any Error = FixtureError.failed(code: 3)
        let outer = boxedError(inner as any Error)
        let twice = boxedError(outer as any Error)
        let errorProtocol = try ProtocolDescriptor((any Error).self)
        let expected = try #require(errorProtocol.conformance(of: FixtureError.self))
        for value in [outer, twice] {
            let contents = try ExistentialContents(of: value, as: (any Error).self)
            #expect(contents.dynamicType == TypeMetadata(FixtureError.self))
            #expect(contents.conformances == [expected])
            #expect(contents.conformances.allSatisfy { $0.type == contents.dynamicType })
            #expect(
                try ExistentialContents.projectedValue(of: value, as: (any Error).self) as? FixtureError
                    == .failed(code: 3)
            )
        }
    }
}
