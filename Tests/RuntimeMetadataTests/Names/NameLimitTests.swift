// NameLimitTests.swift
//
// Names from input that used to crash or be answered wrongly: nesting deep enough to overflow
// the stack (on the main thread and on a 512 KiB thread), tuples wider than the runtime's
// 16-bit count, and compositions that were neither minimized nor de-duplicated. Each crash
// reproducer runs in a child process.

import Dispatch
import Fixtures
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import RuntimeMetadata

/// Runs `body` on a thread with a 512 KiB stack, as a secondary thread of an app may have.
func onSmallStack(_ body: @escaping @Sendable () -> Void) {
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        done.signal()
    }
    thread.stackSize = 512 * 1024
    thread.start()
    done.wait()
}

/// `Swift.Optional<…<Swift.Int>…>`, `depth` levels deep.
func nestedName(_ depth: Int, outer: String = "Swift.Optional") -> String {
    String(repeating: outer + "<", count: depth) + "Swift.Int" + String(repeating: ">", count: depth)
}

@Suite("Reliability: name limits")
struct NameLimitTests {
    @Test("A name nested 30,000 deep is refused by the nesting limit, not by the stack")
    func deepName() async {
        await #expect(processExitsWith: .success) {
            let error = #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(named: nestedName(30_000)) }
            guard case .limitExceeded(.nameNesting, let value, _)? = error else {
                Issue.record("expected the nesting limit, got \(String(describing: error))")
                return
            }
            #expect(value == 30_001)
        }
    }

    @Test("Deep names on a 512 KiB thread: refused past the limit, resolved and named up to it")
    func deepNameOnSmallStack() async {
        await #expect(processExitsWith: .success) {
            onSmallStack {
                #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(named: nestedName(10_000)) }
                #expect(throws: RuntimeMetadataError.self) {
                    try TypeMetadata(named: nestedName(10_000, outer: "Swift.Array"))
                }
                let depth = RuntimeMetadataLimits.maximumNameNesting - 1
                let name = nestedName(depth, outer: "Swift.Array")
                let metadata = try? TypeMetadata(named: name)
                #expect(metadata?.name == name)
                #expect(metadata?.kind == .struct)
            }
        }
    }

    @Test("Postfix nesting (a million '?', '!' or '.Type') is refused before it is built, on a 512 KiB thread")
    func postfixNesting() async {
        await #expect(processExitsWith: .success) {
            onSmallStack {
                for suffix in ["?", "!", ".Type"] {
                    let name = "Swift.Int" + String(repeating: suffix, count: 1_000_000 / suffix.utf8.count)
                    let error = #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(named: name) }
                    guard case .limitExceeded(.nameNesting, _, _)? = error else {
                        Issue.record("expected the nesting limit for '\(suffix)', got \(String(describing: error))")
                        continue
                    }
                }
            }
            // Within the limit, a postfix chain resolves as its bracketed spelling does.
            let depth = RuntimeMetadataLimits.maximumNameNesting - 1
            let chained = try TypeMetadata(named: "Swift.Int" + String(repeating: "?", count: depth))
            #expect(chained == (try TypeMetadata(named: nestedName(depth))))
        }
    }

    @Test("The nesting limit is exact: the deepest allowed name resolves, one more level is refused")
    func nestingBoundary() throws {
        let limit = RuntimeMetadataLimits.maximumNameNesting
        #expect(try TypeMetadata(named: nestedName(limit - 1)).kind == .optional)
        #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(named: nestedName(limit)) }
        let error = #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(named: nestedName(limit + 5)) }
        guard case .limitExceeded(.nameNesting, _, _)? = error else {
            Issue.record("expected the nesting limit, got \(String(describing: error))")
            return
        }
        #expect("\(error!)".contains("nesting of a type name"))
    }

    @Test("Tuples wider than the runtime's 16-bit element count are refused, not truncated")
    func tupleArity() async {
        await #expect(processExitsWith: .success) {
            for count in [65_536, 70_000] {
                let name = "(" + Array(repeating: "Swift.Int", count: count).joined(separator: ", ") + ")"
                let error = #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(named: name) }
                guard case .limitExceeded(.tupleArity, let value, _)? = error else {
                    Issue.record("expected the tuple arity limit, got \(String(describing: error))")
                    continue
                }
                #expect(value == count)
            }
            // Nothing past the flags reaches the runtime through the ABI layer either.
            let int = MetadataReference(Int.self)
            #expect(MetadataReference.tuple(Array(repeating: int, count: 65_536), labels: []) == nil)
        }
    }

    @Test("Compositions are minimized and de-duplicated as the compiler does")
    func compositions() throws {
        #expect(try TypeMetadata(named: "Swift.Equatable & Swift.Hashable") == TypeMetadata((any Hashable).self))
        #expect(
            try TypeMetadata(named: "Swift.Hashable & Swift.Equatable") == TypeMetadata((any Equatable & Hashable).self)
        )
        let repeated = Array(repeating: "Fixtures.FixtureProtocol", count: 3).joined(separator: " & ")
        #expect(try TypeMetadata(named: repeated) == TypeMetadata((any FixtureProtocol).self))
        #expect(
            try TypeMetadata(named: "Fixtures.InheritingProtocol & Fixtures.FixtureProtocol & Swift.Equatable")
                == TypeMetadata((any InheritingProtocol).self)
        )
        #expect(
            try TypeMetadata(named: "Swift.AnyObject & Fixtures.ClassBoundProtocol")
                == TypeMetadata((any ClassBoundProtocol).self)
        )
        #expect(
            try TypeMetadata(named: "Swift.Hashable & Fixtures.FixtureProtocol").existential?.protocolNames.count == 2
        )
    }

    @Test("Compositions past the size limit are refused; a million protocols reach no stack buffer")
    func hugeComposition() async {
        await #expect(processExitsWith: .success) {
            let name = Array(repeating: "Fixtures.FixtureProtocol", count: 10_000).joined(separator: " & ")
            let error = #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(named: name) }
            guard case .limitExceeded(.compositionSize, 10_000, _)? = error else {
                Issue.record("expected the composition limit, got \(String(describing: error))")
                return
            }
            // The C layer copies the list for the runtime on the heap, not in a variable-length array.
            let reference = try ProtocolDescriptor((any FixtureProtocol).self).reference
            let existential = MetadataReference.existential(
                protocols: Array(repeating: reference, count: TestScale.scaled(1_000_000)),
                classBound: false,
                superclass: nil
            )
            #expect(existential != nil)
        }
    }
}

/// `[[…[Int]…]]`, `depth` levels deep, built by generic recursion as a program may build it.
func programBuiltArray<T>(_ type: T.Type, depth: Int) -> Any.Type {
    depth == 0 ? type : programBuiltArray([T].self, depth: depth - 1)
}

@Suite("Reliability: names of deep program-built types")
struct DeepProgramTypeTests {
    @Test("A type the program nests 3,000 deep is named on a 512 KiB thread as String(reflecting:) names it")
    func deepName() async {
        await #expect(processExitsWith: .success) {
            let type = programBuiltArray(Int.self, depth: 3_000)
            let metadata = TypeMetadata(type)
            // Named first on the small stack: the runtime caches a name once it has built it.
            let names = Mutex<(String, String?)>(("", nil))
            onSmallStack { names.withLock { $0 = (metadata.name, metadata.mangledName) } }
            let (name, mangled) = names.withLock { $0 }
            #expect(name == String(reflecting: type))
            #expect(mangled == _mangledTypeName(type))
        }
    }
}

/// A generic wrapper, nested by ``programBuiltWrapper(depth:)``.
struct Wrapping<T> {}

/// `Wrapping<…<Int>…>`, `depth` levels of `Wrapping` deep, built in a loop by generic code.
func programBuiltWrapper(depth: Int) -> Any.Type {
    func wrap<T>(_: T.Type) -> Any.Type { Wrapping<T>.self }
    var type: Any.Type = Int.self
    for _ in 0..<depth { type = _openExistential(type, do: wrap) }
    return type
}

@Suite("Reliability: names past the named nesting")
struct NamedNestingTests {
    @Test("A type nested 60,000 deep is named, abbreviated past the limit, without a crash")
    func beyondTheStack() async {
        await #expect(processExitsWith: .success) {
            let limit = RuntimeMetadataLimits.maximumNamedNesting
            for depth in [60_000] {
                let metadata = TypeMetadata(programBuiltWrapper(depth: depth))
                let name = metadata.name
                let prefix = String(repeating: "RuntimeMetadataTests.Wrapping<", count: limit)
                #expect(name == prefix + "…" + String(repeating: ">", count: limit))
                #expect(metadata.mangledName == nil)
                let short = metadata.name(maximumNesting: 3)
                #expect(
                    short
                        == "RuntimeMetadataTests.Wrapping<RuntimeMetadataTests.Wrapping<RuntimeMetadataTests.Wrapping<…>>>"
                )
            }
        }
    }

    @Test("At the limit the name is whole, as String(reflecting:) prints it; one level more is abbreviated")
    func atTheLimit() async {
        await #expect(processExitsWith: .success) {
            let limit = RuntimeMetadataLimits.maximumNamedNesting
            // `limit - 1` wrappers and `Int`: exactly `limit` levels.
            let whole = programBuiltWrapper(depth: limit - 1)
            // The oracles recurse as deep as the type: on a stack large enough for them.
            let (reflecting, mangled) = ReserveStack.run { (String(reflecting: whole), _mangledTypeName(whole)) }
            #expect(TypeMetadata(whole).name == reflecting)
            #expect(TypeMetadata(whole).mangledName == mangled)
            let deeper = TypeMetadata(programBuiltWrapper(depth: limit))
            #expect(
                deeper.name.hasSuffix("RuntimeMetadataTests.Wrapping<…>" + String(repeating: ">", count: limit - 1))
            )
        }
    }

    @Test("name(maximumNesting:) spells the levels asked for; shallower types keep their whole name")
    func abbreviatedNames() {
        #expect(TypeMetadata([[Int]].self).name(maximumNesting: 2) == "Swift.Array<Swift.Array<…>>")
        #expect(TypeMetadata([[Int]].self).name(maximumNesting: 3) == String(reflecting: [[Int]].self))
        #expect(TypeMetadata([[Int]].self).name(maximumNesting: 1) == "Swift.Array<…>")
        let tuple = ([Int], Int, (Int) -> [String]).self
        #expect(TypeMetadata(tuple).name(maximumNesting: 2) == "(Swift.Array<…>, Swift.Int, (…) -> …)")
        #expect(TypeMetadata(tuple).name(maximumNesting: 8) == String(reflecting: tuple))
        let deep = programBuiltWrapper(depth: 200)
        #expect(TypeMetadata(deep).name(maximumNesting: 500) == String(reflecting: deep))
        #expect(
            TypeMetadata(deep).name(maximumNesting: 200).hasSuffix("Wrapping<…>" + String(repeating: ">", count: 199))
        )
    }
}
