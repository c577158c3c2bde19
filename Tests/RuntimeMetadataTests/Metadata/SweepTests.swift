// SweepTests.swift
//
// Every type descriptor of every loaded image (libswiftCore, Foundation, the test binary):
// each non-generic type's metadata is reached, its name equals String(reflecting:), its size
// equals MemoryLayout's, its name resolves back to it, and reading its fields or cases
// does not crash.

import Fixtures
import Foundation
import RuntimeMetadata
import Testing

/// MemoryLayout's size of a type known only as a metatype.
private func memoryLayoutSize(_ type: Any.Type) -> Int {
    func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
    return _openExistential(type, do: size)
}

@Suite("Sweep of every loaded type")
struct SweepTests {
    @Test("Every non-generic type of every image is described, named and sized like the compiler does")
    func sweep() throws {
        // Make sure Foundation is loaded and registered.
        _ = Date()
        let descriptors = TypeDescriptor.allLoaded()
        var modules = Set<String>()
        var nonGeneric = 0
        var reached = 0
        var unreached: [String] = []
        var withoutMetadata: [String] = []
        var nameMismatches: [String] = []
        var sizeMismatches: [String] = []
        var unresolvedNames: [String] = []
        var fieldFailures: [String] = []
        for descriptor in descriptors {
            modules.insert(descriptor.moduleName)
            guard !descriptor.isGeneric else { continue }
            nonGeneric += 1
            guard descriptor.hasMetadata else {
                withoutMetadata.append(descriptor.qualifiedName)
                continue
            }
            guard let metadata = descriptor.metadata else {
                unreached.append(descriptor.qualifiedName)
                continue
            }
            reached += 1
            guard let type = metadata.type else { continue }
            if metadata.name != String(reflecting: type) { nameMismatches.append(metadata.name) }
            if metadata.size != memoryLayoutSize(type) { sizeMismatches.append(metadata.name) }
            do {
                if try TypeMetadata(named: metadata.name) != metadata { unresolvedNames.append(metadata.name) }
            } catch {
                unresolvedNames.append("\(metadata.name): \(error)")
            }
            do {
                switch metadata.kind {
                case .struct, .class:
                    if ProcessInfo.processInfo.environment["SWEEP_TRACE"] != nil {
                        FileHandle.standardError.write(Data("SWEEPTRACE \(metadata.name)\n".utf8))
                    }
                    _ = try metadata.fields
                case .enum, .optional: _ = try metadata.cases
                default: break
                }
            } catch {
                // Only a module built without reflection metadata may refuse.
                fieldFailures.append(metadata.name)
                #expect(error == .missingReflectionMetadata(typeName: metadata.name))
            }
        }
        print(
            """
            Sweep: \(descriptors.count) type descriptors in \(modules.count) modules; \(nonGeneric) non-generic, \
            \(reached) reached through their access functions, \(withoutMetadata.count) without metadata (no access \
            function: \(withoutMetadata.joined(separator: ", "))); \(nameMismatches.count) name mismatches, \
            \(sizeMismatches.count) size mismatches, \(unresolvedNames.count) names that did not resolve back, \
            field or case reads that threw (no reflection metadata): \(fieldFailures)
            """
        )
        for name in unresolvedNames.prefix(20) { print("  unresolved: \(name)") }
        for name in unreached { print("  not reached: \(name)") }
        #expect(nonGeneric > 1_000)
        #expect(reached + withoutMetadata.count == nonGeneric)
        #expect(unreached.isEmpty, "\(unreached)")
        #expect(nameMismatches.isEmpty, "\(nameMismatches.prefix(10))")
        #expect(sizeMismatches.isEmpty, "\(sizeMismatches.prefix(10))")
        #expect(unresolvedNames.isEmpty, "\(unresolvedNames.prefix(10))")
        #expect(modules.isSuperset(of: ["Swift", "Fixtures", "RuntimeMetadata"]))
    }

    @Test("Every field and payload type the sweep meets resolves back by its mangled name and its name")
    func fieldTypesRoundTrip() throws {
        _ = Date()
        var seen = Set<TypeMetadata>()
        var types: [TypeMetadata] = []
        for descriptor in TypeDescriptor.allLoaded() where !descriptor.isGeneric && descriptor.hasMetadata {
            guard let metadata = descriptor.metadata else { continue }
            var met: [TypeMetadata?] = []
            switch metadata.kind {
            case .struct, .class: met = (try? metadata.fields).map { $0.map(\.type) } ?? []
            case .enum, .optional: met = (try? metadata.cases).map { $0.map(\.payloadType) } ?? []
            default: break
            }
            for case let type? in met where seen.insert(type).inserted { types.append(type) }
        }
        // What this library documents it does not resolve: constrained existentials (`any
        // Sequence<Int>`, whose names carry requirements or which the runtime cannot name), and
        // names the runtime's own lookup refuses as well (`_typeByName`, the oracle: local
        // contexts the runtime spells with an address, some async function types).
        func isConstrainedExistential(_ type: TypeMetadata) -> Bool {
            type.kind == .extendedExistential || type.name.contains(" == ") || type.mangledName == nil
        }
        var mangledFailures: [String] = []
        var nameFailures: [String] = []
        var documented: [String] = []
        var byNameSkipped = 0
        for type in types {
            if let mangled = type.mangledName {
                do {
                    if try TypeMetadata(mangledName: mangled) != type {
                        mangledFailures.append("\(mangled): another type")
                    }
                } catch {
                    if isConstrainedExistential(type) || _typeByName(mangled) == nil {
                        documented.append(mangled)
                    } else {
                        mangledFailures.append("\(mangled): \(error)")
                    }
                }
            } else if !isConstrainedExistential(type) {
                mangledFailures.append("\(type.name): no mangled name")
            }
            // Function types, and tuples with raw-identifier labels, resolve by mangled name
            // only (documented on init(named:)).
            if type.name.contains("->") || type.name.contains("`") {
                byNameSkipped += 1
                continue
            }
            do {
                if try TypeMetadata(named: type.name) != type { nameFailures.append("\(type.name): another type") }
            } catch {
                if isConstrainedExistential(type) {
                    documented.append(type.name)
                } else {
                    nameFailures.append("\(type.name): \(error)")
                }
            }
        }
        let builtins = types.filter { $0.name.hasPrefix("Builtin.") }.map(\.name)
        print(
            "Field types: \(types.count) distinct, \(builtins.count) builtin, \(byNameSkipped) by mangled name only; "
                + "\(mangledFailures.count) mangled and \(nameFailures.count) name failures, \(documented.count) documented limits"
        )
        #expect(types.count > 1_000)
        #expect(
            Set(builtins).isSuperset(of: ["Builtin.Int64", "Builtin.RawPointer", "Builtin.FPIEEE64", "Builtin.Int1"])
        )
        #expect(mangledFailures.isEmpty, "\(mangledFailures.prefix(20))")
        #expect(nameFailures.isEmpty, "\(nameFailures.prefix(20))")
        #expect(documented.count < types.count / 50, "\(documented)")
    }
}
