// ImageFileTests.swift
//
// Images read from their files by `Image.read`: an executable built here, whose types have no
// metadata; executables told apart from libraries as readelf tells them; field records
// demangled from the file, against the names the runtime gives the same types loaded.

import Foundation
import RuntimeMetadata
import TestSupport
import Testing

@Suite("Image.read: executables and field records")
struct ImageFileTests {
    @Test("A read image's types have no metadata and refuse instantiation")
    func noMetadata() throws {
        let fixture = try executableFixture.get()
        let image = try Image.read(fixture.executable)
        let circle = try #require(image.typeDescriptors.first { $0.name == "Circle" })
        #expect(circle.metadata == nil)
        let box = try #require(image.typeDescriptors.first { $0.name == "Box" })
        #expect(throws: RuntimeMetadataError.self) { try box.instantiate(with: [.type(TypeMetadata(Int.self))]) }
        #expect(image.conformances.allSatisfy { $0.protocolDescriptor != nil })
    }

    @Test("Executables and libraries are told apart, read (as readelf says) and loaded")
    func executables() throws {
        let fixture = try executableFixture.get()
        for path in [fixture.executable, fixture.fixedAddress, fixture.stripped] {
            // The oracle: a program header of type INTERP, or the type EXEC.
            let headers = try #require(runTool(["readelf", "-W", "-h", "-l", path]))
            #expect(headers.contains("INTERP") || headers.contains("EXEC (Executable file)"), "\(path)")
            #expect(try Image.read(path).isExecutable, "\(path)")
        }
        let library = try #require(runTool(["readelf", "-W", "-h", "-l", differentiation]))
        #expect(!library.contains("INTERP") && library.contains("DYN"))
        #expect(try !Image.read(differentiation).isExecutable)
        // Loaded: this test program is the main executable; its libraries are not.
        let loaded = Image.all
        #expect(loaded.filter(\.isExecutable).count == 1)
        #expect(loaded.first { $0.fileName == "libswiftCore.so" }?.isExecutable == false)
    }

    @Test(
        "Every non-generic struct's and class's field types, demangled from the file, as String(reflecting:) names them"
    )
    func againstRuntimeNames() throws {
        let directory = try #require(toolchainLibraryDirectory)
        var compared = 0
        var mismatches: [String] = []
        for name in ["libFoundationEssentials.so", "libswiftCore.so"] {
            let read = try Image.read(directory + "/" + name)
            let loaded = try #require(Image.all.first { $0.fileName == name })
            let loadedByName = Dictionary(
                loaded.typeDescriptors.map { ($0.portableName, $0) },
                uniquingKeysWith: { first, _ in first }
            )
            // Structs: a class's fields list its superclass's too.
            for descriptor in read.typeDescriptors where !descriptor.isGeneric && descriptor.kind == .struct {
                guard let records = descriptor.fieldRecords, let twin = loadedByName[descriptor.portableName],
                    let metadata = twin.metadata, let fields = try? metadata.fields
                else { continue }
                for (record, field) in zip(records, fields) {
                    guard let oracle = field.type?.name else { continue }
                    compared += 1
                    // The demangler writes an existential without `any` and a class-bound one
                    // with `& Swift.AnyObject`, and prefixes weak and unowned references (`Xw`,
                    // `Xo`); the runtime names the referent. Anonymous contexts: by address there.
                    func normalized(_ name: String) -> String {
                        var name = name.replacing("any ", with: "").replacing(" & Swift.AnyObject", with: "")
                        for prefix in ["weak ", "unowned(unsafe) ", "unowned "] where name.hasPrefix(prefix) {
                            name.removeFirst(prefix.count)
                        }
                        return name.replacing(/\(unknown context at [^)]*\)/, with: "(unknown context)")
                    }
                    if record.name != field.name || record.typeName.map(normalized) != normalized(oracle) {
                        mismatches.append(
                            "\(descriptor.portableName).\(record.name): \(record.typeName ?? "nil") vs \(oracle)"
                        )
                    }
                }
            }
        }
        print("field records: \(compared) field types compared with the runtime's names, \(mismatches.count) differ")
        for mismatch in mismatches.prefix(40) { print("  differs: \(mismatch)") }
        #expect(compared > 500)
        #expect(mismatches.count == 0, "\(mismatches.prefix(8))")
    }
}
