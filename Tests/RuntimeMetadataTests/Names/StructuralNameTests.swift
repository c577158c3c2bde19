// StructuralNameTests.swift
//
// The name spelled from a type's structure (the census's names of another process's types)
// against `String(reflecting:)`, the oracle, for every fixture and for functions, existentials
// and metatypes of each shape the spelling covers, constrained existentials included.

import Fixtures
import Testing

@testable import RuntimeMetadata

private protocol Drawable {}
private protocol Sized {}
private protocol Owner: AnyObject {}
private class Canvas {}
private struct Failure: Error {}
private typealias Variadic = (Int...) -> Void
private typealias Owned = (__owned String) -> Void
private typealias Borrowed = (borrowing Int) -> Void
private typealias Typed = () throws(Failure) -> Void
private typealias IsolatedAny = @isolated(any) () -> Void
private typealias SendingResult = () -> sending Canvas
private typealias SendingParameter = (sending Canvas) -> Void
private typealias IsolatedParameter = (isolated any Actor) -> Void
private typealias Autoclosure = (@autoclosure () -> Int) -> Void
private typealias InOut = (inout Int, Double) -> Void

private protocol Store<Item>: AnyObject { associatedtype Item }
private protocol Pairing<First, Second> {
    associatedtype First
    associatedtype Second
}

/// Constrained existentials, the extended existential metadata that the runtime names from its
/// shape and generalization arguments, alone and inside other types.
private let constrainedTypes: [Any.Type] = [
    (any Sequence<Int>).self, (any Collection<String>).self, [any Sequence<Double>].self,
    (any Sequence<(key: Int, value: String)>).self, (any Sequence<any Sequence<Int>>).self, (any Store<Int>).self,
    (any Pairing<Int, String>).self, (any Pairing<[Int], (Int) -> Void>).self, Optional<any Sequence<Int>>.self,
    ((any Sequence<Int>) -> Void).self, (any Sequence<Int> & Sendable).self, (any Pairing<Int, Int>)?.self,
]

/// Types of every structural shape the spelling covers.
private let structuralTypes: [Any.Type] = [
    (() -> Void).self, ((Int) throws -> Int).self, (() async -> Void).self, (() async throws -> String).self,
    InOut.self, (@convention(c) (Int32) -> Int32).self, (@convention(thin) () -> Void).self,
    (@Sendable () -> Void).self, (@MainActor () -> Void).self, Autoclosure.self, Variadic.self, Owned.self,
    Borrowed.self, Typed.self, IsolatedAny.self, SendingResult.self, SendingParameter.self, IsolatedParameter.self,
    ((Int, String) -> (a: Int, b: String)).self, (@MainActor @Sendable () async throws -> Int).self,
    Any.self, AnyObject.self, (any Drawable).self, (any Drawable & Sized).self, (any Canvas & Drawable).self,
    (any Error).self, (any Drawable & AnyObject).self, (any Owner).self, Int.Type.self, (any Drawable).Type.self,
    (any Drawable.Type).self, Any.Type.self, AnyObject.Type.self, (any Drawable.Type).Type.self, Int?.self,
    [Int].self, [String: [Double?]].self, (Int, label: String).self, Void.self, ((Int) -> Int)?.self,
    [(x: Int, (String) -> Void)].self, Set<Int>.self, Dictionary<Int, any Drawable>.Index.self,
]

@Suite("Names spelled from structure")
struct StructuralNameTests {
    @Test("Every fixture: String(reflecting:)'s name, or none for a shape it does not cover")
    func fixtures() {
        var named = 0
        for fixture in Fixtures.all {
            guard let name = MetadataReference(fixture.type).structuralReflectingName else { continue }
            named += 1
            // Anonymous contexts are spelled by image offset here, by address by the runtime.
            guard !fixture.name.contains("(unknown context at") else {
                #expect(name.contains("(unknown context at"))
                continue
            }
            #expect(name == fixture.name)
        }
        #expect(named >= Fixtures.all.count - 3)
    }

    @Test("Functions, existentials, metatypes and containers: String(reflecting:)'s name", arguments: 0..<43)
    func structural(_ index: Int) {
        let type = structuralTypes[index]
        let name = MetadataReference(type).structuralReflectingName
        let expected = String(reflecting: type)
        if expected.contains("(unknown context at") {
            // A private type of this file: the same name but for the context's spelling.
            let pattern = /\(unknown context at [^)]*\)/
            #expect(name?.replacing(pattern, with: "_") == expected.replacing(pattern, with: "_"))
        } else {
            #expect(name == expected)
        }
    }

    @Test("Constrained existentials: String(reflecting:)'s name", arguments: 0..<12)
    func constrained(_ index: Int) {
        let type = constrainedTypes[index]
        let name = MetadataReference(type).structuralReflectingName
        // A private protocol of this file: the same name but for the context's spelling.
        let pattern = /\(unknown context at [^)]*\)/
        #expect(name?.replacing(pattern, with: "_") == String(reflecting: type).replacing(pattern, with: "_"))
    }

    @Test("The lists cover every entry")
    func count() {
        #expect(structuralTypes.count == 43)
        #expect(constrainedTypes.count == 12)
    }
}
