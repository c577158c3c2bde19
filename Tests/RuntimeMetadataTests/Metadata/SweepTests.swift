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
}
