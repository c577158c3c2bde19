// ProcessHoldTests.swift
//
// `--stop`'s hold on a process (CMetadata/ProcessControl.c) when its holder dies: a small C
// program built here from the package's own source stops the fixture and is then killed, and the
// kernel must resume the fixture, as the DocC article "Understanding the ABI layer" says.

import Foundation
import TestSupport
import Testing

/// The state letter of a process (`/proc/PID/stat` field 3): `t` while a tracer holds it.
private func state(of pid: Int32) -> Character? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
    else { return nil }
    return stat[stat.index(close, offsetBy: 2)]
}

/// A program that holds a process with `cmd_stopProcess`, prints `held`, and sleeps without
/// resuming it, until a signal ends it.
private let holderSource = """
    #include <signal.h>
    #include <stdio.h>
    #include <stdlib.h>
    #include <unistd.h>
    #include "CMDProcessControl.h"
    int main(int argc, char **argv) {
        // The test runner's blocked signals are inherited: unblock them, as a shell's child has.
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGTERM, SIG_DFL);
        CMDStoppedProcess stopped;
        int32_t error;
        if (argc < 2 || !cmd_stopProcess(atoi(argv[1]), &stopped, &error)) return 1;
        printf("held\\n");
        fflush(stdout);
        sleep(60);
        return 0;
    }
    """

@Suite("Holding a process")
struct ProcessHoldTests {
    @Test("A holder that dies, killed or exiting, leaves the process running")
    func holderDies() throws {
        let fixture = try processFixture.get()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("holder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let source = directory.appendingPathComponent("holder.c")
        let holder = directory.appendingPathComponent("holder")
        try holderSource.write(to: source, atomically: true, encoding: .utf8)
        let built = runTool([
            "clang", "-I", root.appendingPathComponent("CMetadata/include").path, source.path,
            root.appendingPathComponent("CMetadata/ProcessControl.c").path, "-o", holder.path,
        ])
        try #require(built != nil, "clang could not build the holder")
        let running = try RunningFixture(program: fixture.program, plugin: nil)
        defer { running.stop() }
        for signal in [SIGTERM, SIGKILL] {
            let process = Process()
            process.executableURL = holder
            process.arguments = ["\(running.processID)"]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let line = output.fileHandleForReading.readData(ofLength: 5)
            #expect(String(decoding: line, as: UTF8.self) == "held\n")
            #expect(state(of: running.processID) == "t", "not held before signal \(signal)")
            kill(process.processIdentifier, signal)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "the holder outlived signal \(signal)")
            // The kernel detaches a dead tracer's tracees; give it a moment.
            var resumed = false
            for _ in 0..<200 where !resumed {
                resumed = state(of: running.processID) != "t"
                if !resumed { usleep(10_000) }
            }
            #expect(resumed, "still held after the holder died of signal \(signal)")
        }
        // And it runs: the census still reads it.
        #expect(try RemoteProcessCheck.plainCount(running.processID) == 3)
    }
}

/// The census's count of the fixture's `Plain` objects.
private enum RemoteProcessCheck {
    static func plainCount(_ pid: Int32) throws -> Int? {
        let result = try runBuiltExecutable("metadata-inspect", ["instances", "--pid", "\(pid)", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let rows = object?["instances"] as? [[String: Any]]
        return rows?.first { $0["type"] as? String == "CensusApp.Plain" }?["count"] as? Int
    }
}
