// PluginTests.swift
//
// A Swift shared library built during the test run declares a conformance the process does
// not have; after Image.load it is found through lookup and through enumeration.

import Foundation
import RuntimeMetadata
import Testing

/// This process's directory for the plugin's source and library.
private func pluginDirectory() -> URL {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("RuntimeMetadataPlugin-\(ProcessInfo.processInfo.processIdentifier)")
}

/// Builds the plugin library once per process.
private let pluginPath: Result<String, PluginBuildError> = buildPlugin(
    module: "RuntimeMetadataPlugin",
    code: """
        /// A type only the plugin defines.
        public struct PluginWidget: Hashable {
            public var size: Int
        }

        /// A protocol only the plugin defines.
        public protocol PluginProtocol {}
        extension PluginWidget: PluginProtocol {}

        /// A retroactive conformance of a standard library type, absent until the plugin loads.
        extension Int: @retroactive Identifiable {
            public var id: Int { self }
        }
        """
)

/// A second plugin, loaded while other threads ask first questions.
private let racePluginPath: Result<String, PluginBuildError> = buildPlugin(
    module: "RuntimeMetadataRacePlugin",
    code: """
        extension Int8: @retroactive Identifiable {
            public var id: Int8 { self }
        }
        """
)

/// Two plugins that declare the same retroactive conformance, with different associated types:
/// the protocol's index then holds two records for one type descriptor.
private let repeatedPluginPaths: Result<[String], PluginBuildError> = Result { () throws(PluginBuildError) in
    try [
        buildPlugin(
            module: "RuntimeMetadataRepeatA",
            code: """
                extension Int16: @retroactive Identifiable {
                    public var id: Int16 { self }
                }
                """
        ).get(),
        buildPlugin(
            module: "RuntimeMetadataRepeatB",
            code: """
                extension Int16: @retroactive Identifiable {
                    public var id: String { "\\(self)" }
                }
                """
        ).get(),
    ]
}

/// A plugin loaded with a plain `dlopen`, which no enumeration of the library notices.
private let unnoticedPluginPath: Result<String, PluginBuildError> = buildPlugin(
    module: "RuntimeMetadataUnnoticedPlugin",
    code: """
        extension Int32: @retroactive Identifiable {
            public var id: Int32 { self }
        }
        """
)

/// Compiles a plugin library.
private func buildPlugin(module: String, code: String) -> Result<String, PluginBuildError> {
    let directory = pluginDirectory()
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    // The loaded library stays mapped after its file is gone; remove the directory at exit.
    atexit { try? FileManager.default.removeItem(at: pluginDirectory()) }
    let source = directory.appendingPathComponent("\(module).swift")
    let library = directory.appendingPathComponent("lib\(module).so")
    do {
        try code.write(to: source, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "swiftc", "-emit-library", "-module-name", module, "-parse-as-library", source.path, "-o",
            library.path,
        ]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            return .failure(PluginBuildError(status: process.terminationStatus))
        }
        return .success(library.path)
    } catch {
        return .failure(PluginBuildError(status: -1))
    }
}

/// The plugin did not compile.
private struct PluginBuildError: Error {
    var status: Int32
}

@Suite("Plugins", .serialized)
struct PluginTests {
    @Test("A conformance a plugin declares is absent before loading and found after, by lookup and enumeration")
    func pluginConformance() throws {
        let identifiable = try ProtocolDescriptor((any Identifiable).self)
        #expect(!(Int.self is any Identifiable.Type))
        #expect(identifiable.conformance(of: Int.self) == nil)
        #expect(!identifiable.conformanceRecords().contains { $0.typeDescriptor?.qualifiedName == "Swift.Int" })
        #expect(throws: RuntimeMetadataError.self) { try TypeMetadata(named: "RuntimeMetadataPlugin.PluginWidget") }

        let path = try pluginPath.get()
        let imagesBefore = Image.all.count
        let image = try Image.load(path)
        #expect(image.fileName == "libRuntimeMetadataPlugin.so")
        // Other suites running at the same time may load libraries too.
        #expect(Image.all.count >= imagesBefore + 1)
        #expect(Image.all.contains(image))

        // The runtime's own cast sees the new conformance, and so does the cached lookup.
        #expect(Int.self is any Identifiable.Type)
        let conformance = try #require(identifiable.conformance(of: Int.self))
        #expect(conformance.associatedType(named: "ID") == TypeMetadata(Int.self))
        let record = try #require(
            identifiable.conformanceRecords().first { $0.typeDescriptor?.qualifiedName == "Swift.Int" }
        )
        #expect(record.isRetroactive && record.image == image)
        #expect(image.conformances.contains(record))

        let widget = try TypeMetadata(named: "RuntimeMetadataPlugin.PluginWidget")
        #expect(try widget.fields.map(\.name) == ["size"])
        let pluginProtocol = try ProtocolDescriptor(named: "RuntimeMetadataPlugin.PluginProtocol")
        #expect(pluginProtocol.conformingTypes() == [widget])
        #expect(image.typeDescriptors.map(\.name) == ["PluginWidget"])
        #expect(image.protocols == [pluginProtocol])
        // Loading again is harmless.
        #expect(try Image.load(path) == image)
    }

    @Test("First questions raced from many threads, with an image loaded in the middle, agree with as?")
    func racedFirstQuestionsAcrossALoad() async throws {
        let path = try racePluginPath.get()
        let identifiable = try ProtocolDescriptor((any Identifiable).self)
        let protocols = try [
            ProtocolDescriptor((any Hashable).self), ProtocolDescriptor((any Comparable).self),
            ProtocolDescriptor((any Encodable).self), ProtocolDescriptor((any CustomStringConvertible).self),
            identifiable,
        ]
        // Types no other test asks about first: generic instantiations made here.
        let types: [Any.Type] = [
            [Int8].self, [Int8: Int8].self, Set<Int8>.self, Int8?.self, [[Int8]].self, (Int8, Int8).self,
            ClosedRange<Int8>.self, [Int8?].self, Result<Int8, Never>.self, Int8.self,
        ]
        let loaded = await withTaskGroup(of: Bool.self) { group in
            for worker in 0..<6 {
                group.addTask {
                    for round in 0..<50 {
                        for (index, type) in types.enumerated() where (index + worker + round).isMultiple(of: 2) {
                            for descriptor in protocols { _ = descriptor.isConformed(by: type) }
                        }
                    }
                    return true
                }
            }
            group.addTask { (try? Image.load(path)) != nil }
            return await group.allSatisfy { $0 }
        }
        #expect(loaded)
        // After the load, every answer is the runtime's, the plugin's conformance included.
        #expect(identifiable.isConformed(by: Int8.self) == (Int8.self is any Identifiable.Type))
        #expect(identifiable.isConformed(by: Int8.self))
        let hashable = protocols[0]
        for type in types {
            #expect(hashable.isConformed(by: type) == (type is any Hashable.Type), "\(type)")
            #expect(protocols[2].isConformed(by: type) == (type is any Encodable.Type), "\(type)")
            #expect(protocols[3].isConformed(by: type) == (type is any CustomStringConvertible.Type), "\(type)")
        }
    }

    @Test("A conformance two images declare is decided as the runtime decides it, by its first record")
    func repeatedConformance() throws {
        let paths = try repeatedPluginPaths.get()
        let identifiable = try ProtocolDescriptor((any Identifiable).self)
        #expect(identifiable.conformance(of: Int16.self) == nil)
        for path in paths { _ = try Image.load(path) }
        let records = identifiable.conformanceRecords().filter { $0.typeDescriptor?.qualifiedName == "Swift.Int16" }
        #expect(records.count == 2)
        // The runtime's own choice, seen through the witness it calls.
        let runtimeID = try #require(Int16(7) as Any as? any Identifiable).id
        let conformance = try #require(identifiable.conformance(of: Int16.self))
        let expected = runtimeID is String ? TypeMetadata(String.self) : TypeMetadata(Int16.self)
        #expect(conformance.associatedType(named: "ID") == expected)
        #expect(identifiable.isConformed(by: Int16.self) == (Int16.self is any Identifiable.Type))
    }

    @Test("A first question after a plain dlopen finds a conformance the new image declares")
    func firstQuestionAfterPlainLoad() throws {
        let path = try unnoticedPluginPath.get()
        let identifiable = try ProtocolDescriptor((any Identifiable).self)
        // Asked before: the answers of other types, with the images loaded then.
        #expect(identifiable.isConformed(by: UInt32.self) == (UInt32.self is any Identifiable.Type))
        #expect(dlopen(path, RTLD_NOW) != nil)
        // A first question is decided from the images seen so far, then, before a negative
        // answer, again with the images loaded now.
        #expect(Int32.self is any Identifiable.Type)
        let conformance = try #require(identifiable.conformance(of: Int32.self))
        #expect(conformance.associatedType(named: "ID") == TypeMetadata(Int32.self))
    }

    @Test("Files that are not Swift images are refused with an error")
    func badImages() throws {
        #expect(throws: RuntimeMetadataError.self) { try Image.load("/nonexistent/libNothing.so") }
        let text = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-library-\(UUID()).so")
        try "not a library".write(to: text, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: text) }
        #expect(throws: RuntimeMetadataError.self) { try Image.load(text.path) }
        // A real shared library without Swift metadata.
        let candidates = [
            "/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1", "/lib/x86_64-linux-gnu/libm.so.6",
        ]
        if let library = candidates.first(where: { FileManager.default.fileExists(atPath: $0) }) {
            #expect(throws: RuntimeMetadataError.notASwiftImage(path: library)) { try Image.load(library) }
        }
    }

    @Test("Images list the standard library and this test binary with their records")
    func images() throws {
        let images = Image.all
        let core = try #require(images.first { $0.fileName == "libswiftCore.so" })
        #expect(core.typeDescriptors.contains { $0.qualifiedName == "Swift.Int" })
        #expect(core.protocols.contains { $0.qualifiedName == "Swift.Hashable" })
        #expect(core.conformances.count > 100)
    }
}
