// ImageReadTests.swift
//
// `Image.read` against hostile files, each case in a child process: pointers moved just
// outside the image, a file changed while an image holds it, huge header counts on a small
// stack. The oracle is the documentation: a read image's types have no metadata, bad files
// throw, and nothing crashes.

import Fixtures
import Foundation
import RuntimeMetadata
import Testing

@Suite("Reading image files: hostile files")
struct ImageReadTests {
    @Test("An access function moved just outside a read image is never called: metadata nil, instantiate throws")
    func accessFunctionOutsideTheImage() async throws {
        let library = toolchainLibraries + "/libswift_Differentiation.so"
        var file = try #require(ELFFileEditing(path: library))
        let descriptors = file.directTypeDescriptors
        try #require(!descriptors.isEmpty)
        // TargetTypeContextDescriptor: Flags, Parent, Name, AccessFunction (include/swift/ABI/Metadata.h).
        for descriptor in descriptors {
            let accessFunction = descriptor + 12
            let relative = try #require(file.field(at: accessFunction))
            file.setField(at: accessFunction, to: relative + 0x4000_0000)
        }
        let path = try #require(file.write(named: "access-function-outside.so"))
        await #expect(processExitsWith: .success) { [path = path as String] in
            let image = try Image.read(path)
            #expect(!image.typeDescriptors.isEmpty)
            for descriptor in image.typeDescriptors {
                #expect(descriptor.metadata == nil, "\(descriptor.name)")
                #expect(throws: RuntimeMetadataError.self) { try descriptor.instantiate(with: []) }
            }
        }
    }
}
