// PrivateTypeNameTests.swift
//
// The names of private types: portable, without addresses, resolving back to the type; and the
// types the runtime itself cannot name.

import Testing

@testable import RuntimeMetadata

/// `Optional<Optional<…<type>…>>`, `depth` levels deep, built at run time.
private func optionals(around type: Any.Type, depth: Int) -> Any.Type {
    func wrap<T>(_: T.Type) -> Any.Type { Optional<T>.self }
    var result = type
    for _ in 0..<depth { result = _openExistential(result, do: wrap) }
    return result
}

@Suite("Private and unnamable type names")
struct PrivateTypeNameTests {
    @Test("Every private type's portable name has no address and resolves to the type")
    func portableNames() {
        var checked = 0
        var failures: [String] = []
        for descriptor in TypeDescriptor.allLoaded() where descriptor.qualifiedName.contains("(unknown context at $") {
            let portable = descriptor.portableName
            if portable.contains("at $") { failures.append("address kept: \(portable)") }
            guard !descriptor.isGeneric, descriptor.hasMetadata, let metadata = descriptor.metadata else { continue }
            checked += 1
            do {
                if try TypeMetadata(named: portable) != metadata { failures.append("other type: \(portable)") }
            } catch {
                failures.append("\(portable): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        #expect(checked > 50)
    }

    @Test("Types the runtime cannot name (constrained existential metatypes) are named without crashing")
    func unnamableTypes() async {
        // `String(reflecting:)` itself crashes on these with Swift 6.3.1, so each question runs
        // in a child process: a crash fails the test instead of ending the run.
        await #expect(processExitsWith: .success) {
            let metatype = TypeMetadata((any Sequence<Int>.Type).self)
            #expect(metatype.kind == .extendedExistential)
            #expect(metatype.name == "any Swift.Sequence<Swift.Int>.Type")
            #expect(metatype.mangledName == nil)
            #expect(
                TypeMetadata([any Sequence<Int>.Type].self).name == "Swift.Array<any Swift.Sequence<Swift.Int>.Type>"
            )
            #expect(
                TypeMetadata((Int, label: any Collection<String>.Type).self).name
                    == "(Swift.Int, label: any Swift.Collection<Swift.String>.Type)"
            )
            #expect(
                TypeMetadata(Optional<any Sequence<Int>.Type>.self).name
                    == "Swift.Optional<any Swift.Sequence<Swift.Int>.Type>"
            )
            // Nested a thousand levels deep: named once per level, on the reserve stack.
            let deep = TypeMetadata(optionals(around: (any Sequence<Int>.Type).self, depth: 1000))
            #expect(
                deep.name
                    == String(repeating: "Swift.Optional<", count: 1000) + "any Swift.Sequence<Swift.Int>.Type"
                    + String(repeating: ">", count: 1000)
            )
            // The kinds the runtime names are still its names.
            #expect(TypeMetadata((any Sequence<Int>).self).name == String(reflecting: (any Sequence<Int>).self))
            #expect(TypeMetadata([Int].self).mangledName != nil)
            // Errors that name such a type say so instead of crashing.
            struct Holder { var numbers: any Sequence<Int>.Type = [Int].self }
            let field = try #require(try? TypeMetadata(Holder.self).field(named: "numbers"))
            let error = #expect(throws: RuntimeMetadataError.self) {
                try field.value(in: Holder(), as: Int.self)
            }
            #expect("\(error.map { "\($0)" } ?? "")".contains("any Swift.Sequence<Swift.Int>.Type"))
            #expect(throws: RuntimeMetadataError.self) {
                try ExistentialContents(of: [Int].self as any Sequence<Int>.Type, as: (any Sequence<Int>.Type).self)
            }
        }
    }
}
