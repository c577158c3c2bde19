// ImageProbeTests.swift
//
// `Image.probe` against what a library's initializer or a caller can do to it: a timeout too
// large to multiply, and a grandchild that holds the report pipe open while it sleeps.

import Foundation
import RuntimeMetadata
import TestSupport
import Testing

/// Builds a C shared library from source with the system's C compiler; `nil` when it fails.
private func buildLibrary(named name: String, source: String) -> String? {
    let directory = temporaryDirectory.appendingPathComponent("probe")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let sourceFile = directory.appendingPathComponent(name + ".c")
    let library = directory.appendingPathComponent("lib\(name).so")
    guard (try? source.write(to: sourceFile, atomically: true, encoding: .utf8)) != nil else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["cc", "-shared", "-fPIC", "-o", library.path, sourceFile.path]
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    return process.terminationStatus == 0 ? library.path : nil
}

@Suite("Probing libraries")
struct ImageProbeTests {
    @Test("Timeouts saturate: Int64.max seconds and negative durations probe, never trap")
    func saturatedTimeouts() async throws {
        let library = toolchainLibraries + "/libswift_Differentiation.so"
        await #expect(processExitsWith: .success) { [library = library as String] in
            let probe = try Image.probe(library, timeout: .seconds(Int64.max))
            #expect(probe.section(named: "swift5_protocol_conformances") != nil)
            #expect(probe.scanCompleted)
            _ = try? Image.probe(library, timeout: .seconds(Int64.min))
            _ = try? Image.probe(library, timeout: .zero)
        }
    }

    @Test("A non-Swift library whose initializer leaves a sleeping grandchild is not a Swift image, not a timeout")
    func grandchildHoldingThePipe() throws {
        let marker = FileManager.default.temporaryDirectory
            .appendingPathComponent("probe-grandchild-\(ProcessInfo.processInfo.processIdentifier)").path
        let library = try #require(
            buildLibrary(
                named: "SleepingGrandchild",
                source: """
                    #include <stdio.h>
                    #include <unistd.h>
                    __attribute__((constructor)) static void leaveAGrandchild(void) {
                        pid_t pid = fork();
                        if (pid == 0) {
                            FILE *file = fopen("\(marker)", "w");
                            if (file) { fprintf(file, "%d", (int)getpid()); fclose(file); }
                            sleep(60);
                            _exit(0);
                        }
                    }
                    """
            )
        )
        defer {
            // The grandchild sleeps on after the probe; end it.
            if let text = try? String(contentsOfFile: marker, encoding: .utf8), let pid = Int32(text) {
                kill(pid, SIGKILL)
            }
            try? FileManager.default.removeItem(atPath: marker)
        }
        #expect(throws: RuntimeMetadataError.notASwiftImage(path: library)) {
            try Image.probe(library, timeout: .seconds(20))
        }
    }

    // The probes run in child processes of their own, as the inspector does: a fork copies a
    // lock that another thread of the parallel test runner held at that instant, and a child
    // that then waits on it would wait until the probe's time-out.
    @Test("The probe reports the registered sections of a good library, as its section headers do")
    func probeAgreesWithHeaders() async {
        await #expect(processExitsWith: .success) {
            let probe = try #require(try? Image.probe(differentiation))
            #expect(probe.scanCompleted)
            let headers = swiftSections(of: differentiation)
            for name in ["swift5_protocols", "swift5_protocol_conformances", "swift5_type_metadata", "swift5_fieldmd"] {
                guard let header = headers[name] else { continue }
                let section = try #require(probe.section(named: name))
                #expect(section.size == header.size, "\(name)")
            }
            // Nothing was loaded here.
            #expect(!Image.all.contains { $0.path == differentiation })
        }
    }

    @Test("A probe of a file the loader refuses, or of a non-Swift library, throws")
    func probeErrors() async {
        await #expect(processExitsWith: .success) {
            #expect(throws: RuntimeMetadataError.self) { try Image.probe("/nonexistent/libNothing.so") }
            for library in ["/lib/x86_64-linux-gnu/libz.so.1", "/usr/lib/x86_64-linux-gnu/libz.so.1"]
            where FileManager.default.fileExists(atPath: library) {
                #expect(throws: RuntimeMetadataError.notASwiftImage(path: library)) { try Image.probe(library) }
                break
            }
        }
    }
}
