// RemoteProcessTests.swift
//
// RemoteProcess against a program built here and run with a plugin: its images are the
// program's, the plugin's and the toolchain's, another image's descriptors are real (not
// stand-ins), and a process that ends during the read is an exit, not a crash or a wrong list.

import Foundation
import TestSupport
import Testing

@testable import RuntimeMetadata

@Suite("Reading a running process's images")
struct RemoteProcessTests {
    @Test("The program's, the plugin's and the toolchain's images, read from memory")
    func images() throws {
        let fixture = try processFixture.get()
        let running = try RunningFixture(program: fixture.program, plugin: fixture.plugin)
        defer { running.stop() }
        let process = try RemoteProcess.read(running.processID)
        #expect(process.processID == running.processID)
        let names = Set(process.images.map(\.fileName))
        for name in ["census-app", "libCensusPlugin.so", "libswiftCore.so"] {
            #expect(names.contains(name), "\(name) is not among \(names.sorted())")
        }
        #expect(process.imagesWithChangedFiles.isEmpty)
        #expect(process.images.allSatisfy { !$0.isLoaded })
        let program = try #require(process.images.first { $0.fileName == "census-app" })
        #expect(program.isExecutable)
        // `extension Int: Shape`: the type is libswiftCore's own descriptor, read from the
        // process, where a file's listing has a stand-in that cannot say whether it is generic.
        let retroactive = try #require(program.conformances.first { $0.typeDescriptor?.portableName == "Swift.Int" })
        #expect(retroactive.typeDescriptor?.isStandIn == false)
        #expect(retroactive.isGeneric == false)
        #expect(retroactive.protocolDescriptor?.portableName == "CensusApp.Shape")
        let file = try Image.read(fixture.program)
        let fromFile = try #require(file.conformances.first { $0.typeDescriptor?.portableName == "Swift.Int" })
        #expect(fromFile.typeDescriptor?.isStandIn == true)
    }

    @Test("A process killed during the read is an exit")
    func killedDuringRead() throws {
        let fixture = try processFixture.get()
        let running = try RunningFixture(program: fixture.program, plugin: fixture.plugin)
        defer { running.stop() }
        let error = #expect(throws: RuntimeMetadataError.self) {
            try RemoteProcess.read(running.processID) {
                running.kill()
                // Until the kernel has taken its memory: a zombie has no executable.
                var waited = 0
                while waited < 2_000,
                    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(running.processID)/exe"))
                        != nil
                {
                    usleep(1_000)
                    waited += 1
                }
            }
        }
        // A zombie until its parent reaps it (Foundation may, meanwhile), and said to be one.
        guard case .processUnreadable(let pid, let problem, let reason)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(pid == running.processID)
        #expect(problem == .zombie || problem == .exited, "\(problem)")
        #expect(reason.hasPrefix("process \(running.processID) exited during the read"), "\(reason)")
        if problem == .zombie { #expect(reason.hasSuffix("it is a zombie, which its parent has not reaped")) }
        // Reaped, its pid names no process.
        running.stop()
        let afterwards = #expect(throws: RuntimeMetadataError.self) { try RemoteProcess.read(running.processID) }
        guard case .processUnreadable(_, let problem, _)? = afterwards else {
            Issue.record("\(String(describing: afterwards))")
            return
        }
        #expect(problem == .noSuchProcess)
    }
}
