// MangledNameTests.swift
//
// Mangled names from input are validated before the runtime's type lookup sees them: strings
// on which `_typeByName` itself crashes throw a typed error instead, and the mangled name of
// every type the loaded images declare still resolves to that type.

import Fixtures
import Foundation
import Testing

@testable import RuntimeMetadata

/// Strings that crash the runtime's own lookup, or that the demangler turns into non-types.
let hostileMangledNames: [String] = [
    "$", "$2", "$D", "$SS_Sitc", "$sS", "$s$", "Si$2_", "$2_", "S", "SS_", "x", "q_", "Qz", "xq_", "Bi24_",
    "BV", "SiBV", "ABC", "AA", "A", "_", "y", "G", "t", "c", "p", "Xp", "m", "SiSiG", "yG", "Sa", "SaySiSiG",
    "SiSi", "SiSc", "Si_Sc", "$SS_Si$tc", "SayxG", "Say$G", "SD$1_$2_G", "s11InlineArrayVy$2_G",
    "s11InlineArrayVySiSiG", "ytSg$c", "SS_SSSgSqtm", "Qy_", "Qz7Element", "14ANonExistentV",
]

@Suite("Reliability: mangled names")
struct MangledNameTests {
    @Test("Hostile mangled names throw a typed error in a child process, never crash")
    func hostileNames() async {
        await #expect(processExitsWith: .success) {
            for name in hostileMangledNames {
                #expect(throws: RuntimeMetadataError.self, "\(name)") { try TypeMetadata(mangledName: name) }
            }
        }
    }

    @Test("A mangled tuple wider than the runtime's 16-bit count is refused")
    func wideMangledTuple() async {
        await #expect(processExitsWith: .success) {
            for count in [65_536, 70_000] {
                let name = "Si" + String(repeating: "_Si", count: count - 1) + "t"
                #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(mangledName: name) }
            }
        }
    }

    @Test("Deep mangled names: refused past the nesting limit, on the main thread and a 512 KiB one")
    func deepMangledNames() async {
        await #expect(processExitsWith: .success) {
            let deep = String(repeating: "Say", count: 30_000) + "Si" + String(repeating: "G", count: 30_000)
            #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(mangledName: deep) }
            let allowed = RuntimeMetadataLimits.maximumNameNesting - 1
            let withinLimit = String(repeating: "Say", count: allowed) + "Si" + String(repeating: "G", count: allowed)
            onSmallStack {
                #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(mangledName: deep) }
                let metadata = try? TypeMetadata(mangledName: withinLimit)
                #expect(metadata?.mangledName == withinLimit)
                #expect(metadata.map { $0.name.hasPrefix("Swift.Array<Swift.Array<") } == true)
            }
        }
    }

    @Test("Function types resolve through the runtime once validated")
    func functionTypes() throws {
        #expect(try TypeMetadata(mangledName: "SiSic") == TypeMetadata(((Int) -> Int).self))
        let asyncThrows = ((inout Int) async throws -> String).self
        #expect(try TypeMetadata(mangledName: _mangledTypeName(asyncThrows)!) == TypeMetadata(asyncThrows))
        let nested = [(Int) -> (String, Int)?].self
        #expect(try TypeMetadata(mangledName: _mangledTypeName(nested)!) == TypeMetadata(nested))
        // A composition is minimized, as the compiler does: `any Hashable & Equatable` is `any Hashable`.
        #expect(try TypeMetadata(mangledName: "SH_SQp") == TypeMetadata((any Equatable & Hashable).self))
        // A function whose result or parameter does not resolve is refused before the runtime.
        #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(mangledName: "14ANonExistentVSic") }
    }

    @Test("The mangled name of every non-generic type the loaded images declare resolves to it")
    func everyLoadedType() async {
        await #expect(processExitsWith: .success) {
            _ = Date()
            var checked = 0
            var mismatches: [String] = []
            for descriptor in TypeDescriptor.allLoaded() where !descriptor.isGeneric && descriptor.hasMetadata {
                guard let metadata = descriptor.metadata, let type = metadata.type,
                    let mangled = _mangledTypeName(type)
                else { continue }
                // Private and local types are mangled with their runtime address or a
                // discriminator the runtime's printer does not spell; those are refused.
                guard let resolved = try? TypeMetadata(mangledName: mangled) else { continue }
                checked += 1
                if resolved != metadata { mismatches.append("\(mangled): \(resolved.name) != \(metadata.name)") }
            }
            #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
            #expect(checked > 2_000)
        }
    }
}

/// The storage of an `InlineArray` of four integers: a `Builtin.FixedArray<4, Swift.Int>`.
private func fixedArrayStorage<let count: Int, Element>(of _: InlineArray<count, Element>.Type) -> TypeMetadata? {
    try? TypeMetadata(InlineArray<count, Element>.self).fields.first?.type
}

@Suite("Builtin types by name and mangled name")
struct BuiltinTypeNameTests {
    @Test("The standard library's builtin storage resolves by its mangled name and by its name")
    func storage() throws {
        // Oracles: the fields the compiler gave the standard library's types, and the runtime's
        // own `_typeByName`.
        let stored: [(owner: Any.Type, mangled: String, name: String)] = [
            (Int.self, "Bi64_", "Builtin.Int64"), (Int8.self, "Bi8_", "Builtin.Int8"),
            (Int128.self, "Bi128_", "Builtin.Int128"), (Bool.self, "Bi1_", "Builtin.Int1"),
            (Double.self, "Bf64_", "Builtin.FPIEEE64"), (Float.self, "Bf32_", "Builtin.FPIEEE32"),
            (UnsafeRawPointer.self, "Bp", "Builtin.RawPointer"),
        ]
        for (owner, mangled, name) in stored {
            let field = try #require(try TypeMetadata(owner).fields.first?.type, "\(owner)")
            #expect(field.mangledName == mangled)
            #expect(field.name == name)
            #expect(try TypeMetadata(mangledName: mangled) == field)
            #expect(try TypeMetadata(mangledName: "$s" + mangled) == field)
            #expect(try TypeMetadata(named: name) == field)
            #expect(_typeByName(mangled).map(TypeMetadata.init) == field)
        }
        // Every builtin of the table: the runtime's lookup agrees, and its name is the table's.
        for (name, mangled) in BuiltinTypeNames.manglings {
            let oracle = try #require(_typeByName(mangled), "\(name)")
            #expect(try TypeMetadata(named: name) == TypeMetadata(oracle))
            #expect(try TypeMetadata(mangledName: mangled) == TypeMetadata(oracle))
            #expect(TypeMetadata(oracle).name == name)
            #expect(TypeMetadata(oracle).mangledName == mangled)
        }
        // In structures: a tuple of builtins, a builtin as a generic argument.
        let tuple = try TypeMetadata(named: "(Builtin.RawPointer, Builtin.Vec2xFPIEEE64)")
        #expect(tuple.tupleElements.map(\.type.name) == ["Builtin.RawPointer", "Builtin.Vec2xFPIEEE64"])
        #expect(try TypeMetadata(mangledName: try #require(tuple.mangledName)) == tuple)
        let array = try TypeMetadata(named: "Swift.Array<Builtin.Int64>")
        guard case .type(let element)? = array.genericArguments.first else {
            Issue.record("\(array.genericArguments)")
            return
        }
        #expect(element == (try TypeMetadata(named: "Builtin.Int64")))
    }

    @Test("Types holding a fixed-size array are mangled from their structure; the runtime's lookup resolves each")
    func fixedArraysInsideTypes() throws {
        let names = [
            "Swift.Array<Builtin.FixedArray<2, Swift.Int>>",
            "Swift.Dictionary<Swift.String, Builtin.FixedArray<3, Swift.Double>>",
            "Swift.Optional<Builtin.FixedArray<1, Swift.String>>",
            "(Builtin.FixedArray<2, Swift.Int>, Swift.Int)",
            "(first: Builtin.FixedArray<2, Swift.Int>, second: Swift.Array<Swift.Int>)",
            "Builtin.FixedArray<2, Swift.Int>.Type",
            "Fixtures.Holder<Builtin.FixedArray<4, Swift.UInt8>>",
            "Swift.Array<Builtin.FixedArray<2, Builtin.FixedArray<3, Swift.Int16>>>",
            "Swift.Array<Swift.Array<(Builtin.FixedArray<2, Swift.Int>, Fixtures.Point)>>",
        ]
        for name in names {
            let type = try TypeMetadata(named: name)
            let mangled = try #require(type.mangledName, "\(name)")
            // The runtime's own lookup, and this package's, resolve it to the same type.
            #expect(_typeByName(mangled).map(TypeMetadata.init) == type, "\(name): \(mangled)")
            #expect(try TypeMetadata(mangledName: mangled) == type, "\(name): \(mangled)")
        }
        // The spelling the documentation shows.
        #expect(try TypeMetadata(named: names[0]).mangledName == "Say$1_SiBVG")
        // The runtime's canonical forms: no elements is the empty tuple, one is the element.
        #expect(try TypeMetadata(named: "Builtin.FixedArray<0, Swift.Int>") == TypeMetadata(Void.self))
        #expect(try TypeMetadata(named: "Builtin.FixedArray<1, Swift.Int>") == TypeMetadata(Int.self))
    }

    @Test("A fixed-size array is named and mangled as the compiler spells it, and resolves back")
    func fixedArrays() throws {
        let four = try #require(fixedArrayStorage(of: InlineArray<4, Int>.self))
        #expect(four.kind == .fixedArray)
        #expect(four.name == "Builtin.FixedArray<4, Swift.Int>")
        // The compiler's mangling of the same count in InlineArray's own name: `$3_`.
        #expect(try #require(_mangledTypeName(InlineArray<4, Int>.self)).contains("$3_Si"))
        #expect(four.mangledName == "$3_SiBV")
        #expect(try TypeMetadata(mangledName: "$3_SiBV") == four)
        #expect(try TypeMetadata(named: four.name) == four)
        #expect(_typeByName("$3_SiBV").map(TypeMetadata.init) == four)
        for storage in [
            fixedArrayStorage(of: InlineArray<0, Int>.self), fixedArrayStorage(of: InlineArray<1, String>.self),
            fixedArrayStorage(of: InlineArray<100, (Int8, Double)>.self),
            fixedArrayStorage(of: InlineArray<2, InlineArray<3, Int16>>.self),
        ] {
            let storage = try #require(storage)
            let mangled = try #require(storage.mangledName, "\(storage.name)")
            #expect(try TypeMetadata(mangledName: mangled) == storage, "\(mangled)")
            #expect(try TypeMetadata(named: storage.name) == storage, "\(storage.name)")
            #expect(_typeByName(mangled).map(TypeMetadata.init) == storage, "\(mangled)")
        }
    }

    @Test("Wrong builtins throw: unknown names, arguments where none belong, negative and huge counts")
    func wrongBuiltins() async {
        await #expect(processExitsWith: .success) {
            for name in [
                "Builtin.Int24", "Builtin.Nope", "Builtin.Int64<Swift.Int>", "Builtin.FixedArray",
                "Builtin.FixedArray<Swift.Int>", "Builtin.FixedArray<Swift.Int, 4>",
                "Builtin.FixedArray<-1, Swift.Int>",
                "Builtin.FixedArray<9223372036854775807, Swift.Int>",
                "Builtin.FixedArray<4611686018427387904, Swift.Int8>",
                "Builtin.FixedArray<4, Builtin.Nope>", "Builtin.", "Builtin",
            ] {
                #expect(throws: RuntimeMetadataError.self, "\(name)") { try TypeMetadata(named: name) }
            }
            for mangled in ["Bi24_", "BV", "SiBV", "$n1_SiBV", "Bv4_", "B"] {
                #expect(throws: RuntimeMetadataError.self, "\(mangled)") { try TypeMetadata(mangledName: mangled) }
            }
        }
    }
}

@Suite("Names the runtime prints without parentheses")
struct AmbiguousRuntimeNameTests {
    @Test("A composition's existential metatype and a global actor's function type resolve back")
    func ambiguousNames() throws {
        // `String(reflecting:)` prints `Swift.Decodable & Swift.Encodable.Type` for the
        // existential metatype of the composition.
        let composition = TypeMetadata((any Decodable & Encodable).Type.self)
        #expect(composition.name == String(reflecting: (any Decodable & Encodable).Type.self))
        #expect(try TypeMetadata(named: composition.name) == composition)
        #expect(try TypeMetadata(mangledName: try #require(composition.mangledName)) == composition)
        // `@Swift.MainActor @Sendable () -> ()`: a global actor's qualified name as an attribute.
        let isolated = TypeMetadata((@MainActor @Sendable () -> Void).self)
        #expect(isolated.name == "@Swift.MainActor @Sendable () -> ()")
        #expect(try TypeMetadata(mangledName: try #require(isolated.mangledName)) == isolated)
        #expect(_typeByName(try #require(isolated.mangledName)).map(TypeMetadata.init) == isolated)
    }
}
