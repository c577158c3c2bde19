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
    "$", "$2", "$D", "$SS_Sitc", "$sS", "$s$", "Si$2_", "$2_", "S", "SS_", "x", "q_", "Qz", "xq_", "Bi64_",
    "Bp", "ABC", "AA", "A", "_", "y", "G", "t", "c", "p", "Xp", "m", "SiSiG", "yG", "Sa", "SaySiSiG",
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
