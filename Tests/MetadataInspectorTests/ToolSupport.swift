// ToolSupport.swift
//
// Running toolchain programs (nm, swift-demangle, swiftc) from the tests.

import Foundation

/// Runs a program and returns its standard output, or `nil` when it cannot run or fails.
///
/// Input goes through a file, so that a program that writes while it reads cannot fill both
/// pipes and stall.
func runTool(_ arguments: [String], input: String? = nil) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    if let input {
        let file = temporaryDirectory.appendingPathComponent("input-\(UUID().uuidString)")
        guard (try? input.write(to: file, atomically: true, encoding: .utf8)) != nil,
            let handle = try? FileHandle(forReadingFrom: file)
        else { return nil }
        process.standardInput = handle
    }
    do {
        try process.run()
    } catch {
        return nil
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self)
}

/// This process's temporary directory's location.
private func processDirectory() -> URL {
    FileManager.default.temporaryDirectory
        .appendingPathComponent("MetadataInspectorTests-\(ProcessInfo.processInfo.processIdentifier)")
}

/// A fresh temporary directory for this process, removed when the process exits.
let temporaryDirectory: URL = {
    let directory = processDirectory()
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: processDirectory()) }
    return directory
}()

/// The toolchain's library directory, where libFoundationEssentials.so lives.
let toolchainLibraryDirectory: String? = {
    guard let swiftc = runTool(["which", "swiftc"])?.split(separator: "\n").first else { return nil }
    let resolved = URL(fileURLWithPath: String(swiftc)).resolvingSymlinksInPath()
    return resolved.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("lib/swift/linux").path
}()
