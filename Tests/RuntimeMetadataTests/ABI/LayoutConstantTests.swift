// LayoutConstantTests.swift
//
// Constants the ABI layer uses on warm paths instead of computing offsets per call, checked
// against the mirrored structs' own layout.

import Testing

@testable import RuntimeMetadata

@Suite("ABI layout constants")
struct LayoutConstantTests {
    @Test("Value witness offsets are the positions of the mirrored fields")
    func valueWitnessOffsets() {
        typealias Fields = ValueWitnessTableLayout.Fields
        let expected: [(ValueWitnessTableLayout.Witness, Int?)] = [
            (.destroy, MemoryLayout<Fields>.offset(of: \.destroy)),
            (.initializeWithCopy, MemoryLayout<Fields>.offset(of: \.initializeWithCopy)),
            (.getEnumTag, MemoryLayout<Fields>.offset(of: \.getEnumTag)),
            (.destructiveProjectEnumData, MemoryLayout<Fields>.offset(of: \.destructiveProjectEnumData)),
            (.destructiveInjectEnumTag, MemoryLayout<Fields>.offset(of: \.destructiveInjectEnumTag)),
        ]
        for (witness, offset) in expected {
            #expect(ValueWitnessTableLayout.offset(of: witness) == offset, "\(witness)")
        }
        #expect(ValueWitnessTableLayout.flagsOffset == MemoryLayout<Fields>.offset(of: \.flags))
    }
}

extension LayoutConstantTests {
    @Test("The protocol field of a conformance descriptor is where the scans read it")
    func conformanceProtocolOffset() {
        #expect(
            ProtocolConformanceDescriptorLayout.protocolOffset
                == MemoryLayout<ProtocolConformanceDescriptorLayout.Fields>.offset(of: \.protocol)
        )
        #expect(
            ProtocolConformanceDescriptorLayout.typeReferenceOffset
                == MemoryLayout<ProtocolConformanceDescriptorLayout.Fields>.offset(of: \.typeRef)
        )
        #expect(
            ProtocolConformanceDescriptorLayout.flagsOffset
                == MemoryLayout<ProtocolConformanceDescriptorLayout.Fields>.offset(of: \.flags)
        )
    }
}

extension LayoutConstantTests {
    @Test("Existential metadata offsets are where the opening fast path reads them")
    func existentialOffsets() {
        typealias Fields = ExistentialTypeMetadataLayout.Fields
        #expect(ExistentialTypeMetadataLayout.flagsOffset == MemoryLayout<Fields>.offset(of: \.flags))
        #expect(ExistentialTypeMetadataLayout.protocolCountOffset == MemoryLayout<Fields>.offset(of: \.numProtocols))
        #expect(ExistentialTypeMetadataLayout.firstProtocolOffset == MemoryLayout<Fields>.size)
    }
}

extension LayoutConstantTests {
    @Test("The kind is read where the mirrored metadata header puts it")
    func kindOffset() {
        #expect(MetadataLayout.kindOffset == MemoryLayout<MetadataLayout.Fields>.offset(of: \.kind))
        // The kinds of records the compiler emits, as include/swift/ABI/MetadataKind.def numbers them.
        #expect(MetadataReference(Int.self).rawKind == 0x200)
        #expect(MetadataReference((any Equatable).self).rawKind == 0x303)
        #expect(MetadataReference(PlainClass.self).rawKind == 0)
    }

    private final class PlainClass {}
}
