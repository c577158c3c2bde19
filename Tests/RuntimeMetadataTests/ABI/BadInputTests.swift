// BadInputTests.swift
//
// Input the library cannot describe gets a thrown error, never a crash: an unknown metadata
// kind (a metadata record forged in memory, which only the ABI layer can reach), a module
// built without reflection metadata, and type names that do not resolve.

import Dispatch
import Fixtures
import FixturesWithoutReflection
import Testing

@testable import RuntimeMetadata

/// A metadata record with a kind no runtime defines, and a value witness table for it.
///
/// Layout per swiftlang/swift include/swift/ABI/Metadata.h: the value witness table pointer
/// one word before the address point, the kind word at it. The memory is never freed, as the
/// library caches what it learns about metadata for the life of the process.
private let forgedMetadata: MetadataReference = {
    let witnesses = UnsafeMutableRawPointer.allocate(byteCount: 14 * 8, alignment: 8)
    witnesses.initializeMemory(as: UInt8.self, repeating: 0, count: 14 * 8)
    witnesses.storeBytes(of: UInt(8), toByteOffset: 64, as: UInt.self)  // size
    witnesses.storeBytes(of: UInt(8), toByteOffset: 72, as: UInt.self)  // stride
    witnesses.storeBytes(of: UInt32(7), toByteOffset: 80, as: UInt32.self)  // flags: alignment 8
    let record = UnsafeMutableRawPointer.allocate(byteCount: 4 * 8, alignment: 8)
    record.initializeMemory(as: UInt8.self, repeating: 0, count: 4 * 8)
    record.storeBytes(of: UInt(bitPattern: witnesses), as: UInt.self)
    record.storeBytes(of: UInt(0x7FE), toByteOffset: 8, as: UInt.self)  // an unassigned kind
    return MetadataReference(UnsafeRawPointer(record + 8))
}()

@Suite("Bad input")
struct BadInputTests {
    @Test("An unknown metadata kind is reported, not trapped on")
    func unknownKind() throws {
        let metadata = TypeMetadata(forgedMetadata)
        #expect(metadata.kind == .unknown(0x7FE))
        #expect(!metadata.kind.isKnown)
        #expect(metadata.size == 8)
        #expect(metadata.descriptor == nil)
        #expect(metadata.mangledName == nil)
        #expect(metadata.genericArguments.isEmpty)
        #expect(metadata.tupleElements.isEmpty)
        #expect(metadata.function == nil)
        #expect(throws: RuntimeMetadataError.unknownKind(rawValue: 0x7FE, typeName: metadata.name)) {
            try metadata.validateKind()
        }
        #expect(throws: RuntimeMetadataError.unknownKind(rawValue: 0x7FE, typeName: metadata.name)) {
            _ = try metadata.fields
        }
        #expect(throws: RuntimeMetadataError.self) { _ = try metadata.cases }
        #expect("\(RuntimeMetadataError.unknownKind(rawValue: 0x7FE, typeName: "x"))".contains("0x7fe"))
    }

    @Test("A module built without reflection metadata: layout known, fields and case names not")
    func withoutReflection() throws {
        let structMetadata = TypeMetadata(UnreflectedStruct.self)
        #expect(structMetadata.size == MemoryLayout<UnreflectedStruct>.size)
        #expect(structMetadata.descriptor?.hasReflectionMetadata == false)
        #expect(
            throws: RuntimeMetadataError.missingReflectionMetadata(
                typeName: "FixturesWithoutReflection.UnreflectedStruct"
            )
        ) {
            _ = try structMetadata.fields
        }
        #expect(throws: RuntimeMetadataError.self) { _ = try structMetadata.field(named: "first") }
        #expect(throws: RuntimeMetadataError.self) { _ = try TypeMetadata(UnreflectedClass.self).fields }
        let enumMetadata = TypeMetadata(UnreflectedEnum.self)
        #expect(
            throws: RuntimeMetadataError.missingReflectionMetadata(
                typeName: "FixturesWithoutReflection.UnreflectedEnum"
            )
        ) {
            _ = try enumMetadata.cases
        }
        // Tags come from value witnesses, which exist regardless.
        #expect(try enumMetadata.tag(of: UnreflectedEnum.alpha(1)) != enumMetadata.tag(of: UnreflectedEnum.beta))
        #expect(throws: RuntimeMetadataError.self) { _ = try enumMetadata.caseName(of: UnreflectedEnum.beta) }
        // A type without stored properties needs no reflection metadata.
        #expect(try TypeMetadata(UnreflectedEmptyStruct.self).fields.isEmpty)
        // Layout equality still works, bytewise or through ==.
        #expect(
            TypeMetadata.layoutEquals(
                UnreflectedStruct(first: 1, second: "a"),
                UnreflectedStruct(first: 1, second: "a")
            )
        )
    }

    @Test("Block function types on Linux have no value witnesses; their values are refused, not read")
    func blockFunctions() throws {
        // DispatchWorkItem stores its work as a @convention(block) function, whose metadata the
        // runtime leaves without a value witness table when there is no Objective-C interop.
        let field = try TypeMetadata(DispatchWorkItem.self).field(named: "_block")
        let blockType = try #require(field.type)
        #expect(blockType.kind == .function)
        #expect(blockType.function?.convention == .block)
        #if !canImport(Darwin)
        #expect(!blockType.hasValueWitnesses)
        #expect(blockType.size == MemoryLayout<UnsafeRawPointer>.size)
        let item = DispatchWorkItem {}
        #expect(throws: RuntimeMetadataError.self) { _ = try field.value(in: item) }
        #endif
    }

    @Test("Error descriptions name the type and the part")
    func descriptions() {
        let errors: [RuntimeMetadataError] = [
            .missingReflectionMetadata(typeName: "M.T"),
            .wrongKind(typeName: "M.T", expected: "an enum"),
            .noSuchField(name: "f", typeName: "M.T"),
            .fieldIndexOutOfRange(index: 3, count: 2, typeName: "M.T"),
            .noSuchCase(name: "c", typeName: "M.T"),
            .typeMismatch(expected: "Swift.Int", actual: "Swift.String", context: "field 'f' of 'M.T'"),
            .unresolvableFieldType(name: "f", typeName: "M.T", mangledName: "<ref>"),
            .unresolvableName(name: "M.T<X>", part: "X", reason: "unknown"),
            .noncopyableType(typeName: "M.T"),
        ]
        for error in errors {
            #expect(error.description.contains("M.T"))
        }
    }
}
