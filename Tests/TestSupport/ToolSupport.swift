// ToolSupport.swift
//
// Running programs from the tests: the toolchain's (nm, readelf, swiftc) and the package's own
// executables, built beside the test bundle. Shared by the test targets.

public import Foundation

/// What a program did: its exit status and what it wrote.
public struct ProcessResult: Sendable {
    /// The exit status, or the signal's number for a program a signal ended.
    public let status: Int32
    /// What it wrote to standard output.
    public let output: String
    /// What it wrote to standard error.
    public let error: String
}

/// An error of a program that could not be run.
public struct ProcessRunError: Error, CustomStringConvertible {
    /// What went wrong.
    public let description: String
}

/// The path of one of the package's executables, built beside the test bundle, or `nil` when
/// it is not there.
/// - Parameter name: The executable's name.
/// - Returns: Its path, or `nil`.
public func builtExecutable(named name: String) -> String? {
    let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    let candidate = bundle.appendingPathComponent(name).path
    return FileManager.default.isExecutableFile(atPath: candidate) ? candidate : nil
}

/// Runs one of the package's executables, built beside the test bundle.
/// - Parameters:
///   - name: The executable's name.
///   - arguments: Its arguments.
/// - Returns: Its status, output and error.
/// - Throws: ``ProcessRunError`` when it is not built or cannot run.
public func runBuiltExecutable(_ name: String, _ arguments: [String]) throws -> ProcessResult {
    guard let path = builtExecutable(named: name) else {
        throw ProcessRunError(description: "\(name) is not built beside the tests")
    }
    return try runProcess(path, arguments)
}

/// Runs a program and collects its status, output and error. Both pipes are read at once, so
/// that a program that fills one while the other is read cannot stall.
/// - Parameters:
///   - path: The program.
///   - arguments: Its arguments.
/// - Returns: Its status, output and error.
/// - Throws: What `Process.run()` throws.
public func runProcess(_ path: String, _ arguments: [String]) throws -> ProcessResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let errorData = ErrorData()
    let reader = Thread { errorData.set(error.fileHandleForReading.readDataToEndOfFile()) }
    reader.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return ProcessResult(
        status: process.terminationStatus,
        output: String(decoding: outputData, as: UTF8.self),
        error: String(decoding: errorData.wait(), as: UTF8.self)
    )
}

/// Standard error's bytes, handed from the thread that reads them.
private final class ErrorData: @unchecked Sendable {
    private let condition = NSCondition()
    private var data: Data?

    func set(_ value: Data) {
        condition.lock()
        data = value
        condition.signal()
        condition.unlock()
    }

    func wait() -> Data {
        condition.lock()
        defer { condition.unlock() }
        while data == nil { condition.wait() }
        return data ?? Data()
    }
}

/// Runs a program and returns its standard output, or `nil` when it cannot run or fails.
///
/// Input goes through a file, so that a program that writes while it reads cannot fill both
/// pipes and stall.
public func runTool(_ arguments: [String], input: String? = nil) -> String? {
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
        .appendingPathComponent("\(ProcessInfo.processInfo.processName)-\(ProcessInfo.processInfo.processIdentifier)")
}

/// A fresh temporary directory for this process, removed when the process exits.
public let temporaryDirectory: URL = {
    let directory = processDirectory()
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(at: processDirectory()) }
    return directory
}()

/// The toolchain's library directory, where libFoundationEssentials.so lives.
public let toolchainLibraryDirectory: String? = {
    guard let swiftc = runTool(["which", "swiftc"])?.split(separator: "\n").first else { return nil }
    let resolved = URL(fileURLWithPath: String(swiftc)).resolvingSymlinksInPath()
    return resolved.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("lib/swift/linux").path
}()
