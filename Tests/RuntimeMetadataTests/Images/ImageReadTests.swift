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

    @Test("A file truncated or rewritten while an image holds it: the image still lists, nothing faults")
    func fileChangedWhileHeld() async throws {
        let library = toolchainLibraries + "/libswiftObservation.so"
        let file = try #require(ELFFileEditing(path: library))
        let truncated = try #require(file.write(named: "held-truncated.so"))
        let rewritten = try #require(file.write(named: "held-rewritten.so"))
        await #expect(processExitsWith: .success) {
            [truncated = truncated as String, rewritten = rewritten as String] in
            let first = try Image.read(truncated)
            let second = try Image.read(rewritten)
            let expected = first.typeDescriptors.map(\.name)
            #expect(!expected.isEmpty)
            // The file shrinks to nothing, and the other is overwritten with other bytes of its size.
            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: truncated))
            try handle.truncate(atOffset: 0)
            try handle.close()
            let size = try #require(FileManager.default.attributesOfItem(atPath: rewritten)[.size] as? Int)
            #expect(FileManager.default.createFile(atPath: rewritten, contents: Data(repeating: 0xA5, count: size)))
            for image in [first, second] {
                #expect(image.typeDescriptors.map(\.name) == expected)
                #expect(!image.protocols.map(\.name).isEmpty)
                #expect(!image.conformances.map(\.description).isEmpty)
                for descriptor in image.typeDescriptors { _ = descriptor.fieldRecords }
            }
            // Read again, the changed files are new files: one now too short, one not ELF.
            #expect(throws: RuntimeMetadataError.self) { try Image.read(truncated) }
            #expect(throws: RuntimeMetadataError.self) { try Image.read(rewritten) }
        }
    }

    @Test("Reading an unchanged file again gives the same image; a file changed just now is read anew")
    func unchangedFileIsReadOnce() throws {
        // The toolchain's library has not changed since it was installed.
        let library = toolchainLibraries + "/libswift_Differentiation.so"
        let first = try Image.read(library)
        let again = try Image.read(library)
        #expect(first == again)
        #expect(first.typeDescriptors.map(\.name) == again.typeDescriptors.map(\.name))
        // The stand-ins are written once: the protocols of other modules are named alike.
        #expect(first.conformances.map(\.description) == again.conformances.map(\.description))
        // A copy written just now: a write within the clock tick of its times could follow
        // unseen, so each read copies it anew, as another image with the same listing.
        let file = try #require(ELFFileEditing(path: library))
        let path = try #require(file.write(named: "read-twice.so"))
        let fresh = try Image.read(path)
        let freshAgain = try Image.read(path)
        #expect(fresh != freshAgain)
        #expect(fresh != first)
        #expect(fresh.typeDescriptors.map(\.name) == first.typeDescriptors.map(\.name))
        #expect(freshAgain.typeDescriptors.map(\.name) == first.typeDescriptors.map(\.name))
    }

    @Test("A hard link to a file already read is its own image, named by its own path")
    func hardLinkKeepsItsPath() throws {
        let file = try #require(ELFFileEditing(path: toolchainLibraries + "/libswift_Differentiation.so"))
        let original = try #require(file.write(named: "hard-link-original.so"))
        let link = original.replacing("hard-link-original.so", with: "hard-link-other.so")
        try? FileManager.default.removeItem(atPath: link)
        try FileManager.default.linkItem(atPath: original, toPath: link)
        defer {
            try? FileManager.default.removeItem(atPath: link)
            try? FileManager.default.removeItem(atPath: original)
        }
        // Both names settled, so that an unchanged file is reused: its times were stamped more
        // than a clock second before the reads.
        Thread.sleep(forTimeInterval: 2.2)
        let first = try Image.read(original)
        let linked = try Image.read(link)
        #expect(first.path == original)
        #expect(linked.path == link)
        #expect(linked.typeDescriptors.map(\.name) == first.typeDescriptors.map(\.name))
        // The same path is still the same image.
        #expect(try Image.read(original) == first)
        #expect(try Image.read(link) == linked)
    }

    @Test("65,535 program headers read on a 512 KiB stack: no table sized by the file on the stack")
    func hugeProgramHeaderCount() async throws {
        let library = toolchainLibraries + "/libswift_Differentiation.so"
        var file = try #require(ELFFileEditing(path: library))
        // Elf64_Ehdr (<elf.h>): e_phoff at 0x20, e_phnum at 0x38; Elf64_Phdr is 56 bytes.
        let programHeaders = try #require(file.field(atFileOffset: 0x20, size: 8))
        let count = try #require(file.field(atFileOffset: 0x38, size: 2))
        let table = Array(file.bytes[programHeaders..<(programHeaders + count * 56)])
        let newOffset = (file.bytes.count + 7) & ~7
        file.bytes += [UInt8](repeating: 0, count: newOffset - file.bytes.count) + table
        file.bytes += [UInt8](repeating: 0, count: (0xFFFF - count) * 56)  // PT_NULL entries
        file.setField(atFileOffset: 0x20, size: 8, to: newOffset)
        file.setField(atFileOffset: 0x38, size: 2, to: 0xFFFF)
        let path = try #require(file.write(named: "many-program-headers.so"))
        let expected = try Image.read(library).typeDescriptors.map(\.name)
        await #expect(processExitsWith: .success) { [path = path as String, expected = expected as [String]] in
            onSmallStack {
                #expect((try? Image.read(path))?.typeDescriptors.map(\.name) == expected)
            }
        }
    }

    @Test("Types in constrained extensions are named by their extended type, read and loaded alike")
    func constrainedExtensionNames() throws {
        // libswift_Concurrency.so declares `UnsafeSleepStateToken` in
        // `extension Task where Success == Never, Failure == Never` (nm | swift demangle:
        // `(extension in Swift):Swift.Task< where A == Swift.Never, B == Swift.Never>`).
        let path = toolchainLibraries + "/libswift_Concurrency.so"
        let read = try Image.read(path)
        let loaded = try #require(Image.all.first { $0.fileName == "libswift_Concurrency.so" })
        let readNames = read.typeDescriptors.map(\.portableName)
        let loadedNames = loaded.typeDescriptors.map(\.portableName)
        #expect(readNames.contains("(extension in Swift):Swift.Task.UnsafeSleepStateToken"))
        #expect(readNames == loadedNames)
        // No extension of any toolchain library reads as an unknown extended type.
        var extensionTypes = 0
        for library in try FileManager.default.contentsOfDirectory(atPath: toolchainLibraries)
        where library.hasPrefix("libswift") && library.hasSuffix(".so") {
            guard let image = try? Image.read(toolchainLibraries + "/" + library) else { continue }
            for descriptor in image.typeDescriptors where descriptor.portableName.hasPrefix("(extension in ") {
                extensionTypes += 1
                #expect(!descriptor.portableName.contains(":?"), "\(library): \(descriptor.portableName)")
            }
        }
        #expect(extensionTypes > 10)
    }
}
