// DescriptorFactsTests.swift
//
// Echo's last facts against the compiler's and the runtime's own layout: the sizes of the
// symbols that hold each type's nominal type descriptor (`Mn`) and field descriptor (`MF`), as
// `nm -S` reads them from this test executable, and the sizes of the class metadata the runtime
// built.

import Fixtures
import Foundation
import RuntimeMetadata
import Testing

struct FactsPair<T, U: Equatable> { var t: T; var u: U }
enum FactsEither<L, R: Hashable> { case left(L), right(R), neither }
struct FactsValues<let N: Int, T> { var t: T }
struct FactsPack<each T> { var t: (repeat each T) }
struct FactsConstrained<T: Sequence> where T.Element: Hashable, T.Element: Comparable { var t: T }
enum FactsPayloads { case one(Int), two(String), none }
class FactsBase {
    var a = 1
    func f() {}
}
class FactsDerived: FactsBase {
    var b = 2
    override func f() {}
    func g() {}
}
final class FactsGenericChild<T>: FactsBase {
    var t: T
    init(_ t: T) { self.t = t }
}
final class FactsEmpty {}

/// The sizes of this executable's symbols, by demangled name (`nm -S | swift demangle`).
private func symbolSizes() throws -> [String: Int] {
    let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    let process = Process()
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: "/bin/sh")
    process.arguments = ["-c", "nm -S --defined-only '\(executable)' | swift demangle --compact"]
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    var sizes: [String: Int] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
        // address size type name…
        let parts = line.split(separator: " ", maxSplits: 3)
        guard parts.count == 4, let size = Int(parts[1], radix: 16) else { continue }
        sizes[String(parts[3])] = size
    }
    return sizes
}

/// A struct's or enum's descriptor before its trailing objects (`TargetStructDescriptor`,
/// `TargetEnumDescriptor`, include/swift/ABI/Metadata.h): seven 32-bit fields.
private let valueDescriptorSize = 7 * 4

@Suite("Descriptor facts against the compiler's layout")
struct DescriptorFactsTests {
    @Test("A generic context's byte size is what the compiler emitted after the descriptor")
    func genericContextSizes() throws {
        let sizes = try symbolSizes()
        let types: [Any.Type] = [
            FactsPair<Int, String>.self, FactsEither<Int, String>.self, FactsValues<3, Int>.self,
            FactsPack<Int, String>.self, FactsConstrained<[Int]>.self, GenericBox<Int>.self,
        ]
        for type in types {
            let descriptor = try #require(TypeMetadata(type).descriptor)
            let context = try #require(descriptor.genericContext)
            let symbol = try #require(sizes["nominal type descriptor for " + descriptor.qualifiedName], "\(type)")
            #expect(symbol == valueDescriptorSize + context.typeContextByteSize, "\(type)")
            // The type header: two relative pointers before the base header.
            #expect(context.typeContextByteSize == context.byteSize + 8)
            // At least the header, the parameter bytes padded to four and the requirements.
            #expect(context.byteSize >= 8 + (context.parameterCount + 3) / 4 * 4 + 12 * context.requirementCount)
        }
        // The simplest: one parameter, no requirement: 8 + 4.
        let box = try #require(TypeMetadata(GenericBox<Int>.self).descriptor?.genericContext)
        #expect(box.byteSize == 12)
        // Packs and values add their trailing objects.
        let values = try #require(TypeMetadata(FactsValues<3, Int>.self).descriptor?.genericContext)
        #expect(values.hasValues && values.byteSize > 8 + 4)
        #expect(TypeMetadata(Int.self).descriptor?.genericContext == nil)
    }

    @Test("A field descriptor's size, record size and count are what the compiler emitted")
    func fieldDescriptors() throws {
        let sizes = try symbolSizes()
        var compared = 0
        for descriptor in TypeDescriptor.allLoaded()
        where ["Fixtures", "RuntimeMetadataTests"].contains(descriptor.moduleName) {
            guard let facts = descriptor.fieldDescriptor,
                let symbol = sizes["reflection metadata field descriptor " + descriptor.qualifiedName]
            else { continue }
            compared += 1
            #expect(facts.byteSize == symbol, "\(descriptor.qualifiedName)")
            #expect(facts.recordSize == 12, "\(descriptor.qualifiedName)")
            #expect(facts.byteSize == 16 + facts.recordSize * facts.recordCount)
            #expect(facts.hasMangledTypeName, "\(descriptor.qualifiedName)")
        }
        #expect(compared > 50)
        let pair = try #require(TypeMetadata(FactsPair<Int, String>.self).descriptor?.fieldDescriptor)
        #expect(pair.kind == .struct && pair.recordCount == 2 && !pair.hasSuperclass)
        let payloads = try #require(TypeMetadata(FactsPayloads.self).descriptor?.fieldDescriptor)
        #expect(payloads.kind == .multiPayloadEnum && payloads.recordCount == 3)
        // A generic enum's payloads have no fixed layout: the compiler records it as `enum`
        // whatever its payload count (IRGen's non-fixed strategy).
        let either = try #require(TypeMetadata(FactsEither<Int, String>.self).descriptor?.fieldDescriptor)
        #expect(either.kind == .enum && either.recordCount == 3)
        let derived = try #require(TypeMetadata(FactsDerived.self).descriptor?.fieldDescriptor)
        #expect(derived.kind == .class && derived.hasSuperclass && derived.recordCount == 1)
        #expect(TypeMetadata(FactsBase.self).descriptor?.fieldDescriptor?.hasSuperclass == false)
    }

    @Test("A class's immediate members are the words its metadata adds to its superclass's")
    func immediateMembers() throws {
        func facts(_ type: Any.Type) throws -> (members: Int, size: Int) {
            let metadata = TypeMetadata(type)
            let members = try #require(metadata.descriptor?.immediateMemberCount, "\(type)")
            let size = try #require(metadata.classLayout?.size, "\(type)")
            return (members, size)
        }
        let word = MemoryLayout<UInt>.size
        let empty = try facts(FactsEmpty.self)
        let base = try facts(FactsBase.self)
        let derived = try facts(FactsDerived.self)
        let child = try facts(FactsGenericChild<Int>.self)
        // The runtime's class sizes: every root class's metadata is the same size before its
        // immediate members; a subclass's is its superclass's and its own members.
        #expect(base.size - word * base.members == empty.size - word * empty.members)
        #expect(derived.size - base.size == word * derived.members)
        #expect(child.size - base.size == word * child.members)
        #expect(base.members > empty.members && derived.members > 0 && child.members > 0)
        #expect(TypeMetadata(FactsPair<Int, Int>.self).descriptor?.immediateMemberCount == nil)
    }
}
