// FuzzRun.swift
//
// The harness of the fuzz targets, deterministic (fixed seeds) and bounded (a fixed number of
// inputs per target, never a time budget: a loaded machine runs the same inputs, only slower).
// Each target runs in a child process, so that a crash fails its test with the input that
// caused it instead of taking the test runner down; the child prints what it tried, which the
// parent reports.

import Foundation
public import Testing

/// The inputs of one fuzz target, and its report.
public struct FuzzRun {
    /// The target's name.
    public let name: String
    /// How many inputs it tries.
    public let maximumInputs: Int
    /// The inputs tried so far.
    public var inputs = 0
    /// The inputs that gave an answer.
    public var resolved = 0
    /// The inputs refused with a typed error.
    public var refused = 0

    /// A run of `inputs` inputs, or of a tenth of them (at least 200) under a sanitizer
    /// (``TestScale``).
    /// - Parameters:
    ///   - name: The target's name.
    ///   - inputs: How many inputs it tries in an uninstrumented build.
    public init(_ name: String, inputs: Int) {
        self.name = name
        self.maximumInputs = TestScale.scaled(inputs, minimum: min(inputs, 200))
    }

    /// Whether inputs remain to be tried.
    public var hasBudget: Bool { inputs < maximumInputs }

    /// Notes the input about to be tried: every 64th on standard error, where a crash leaves
    /// one of the last; every one in the file `FUZZ_TRACE` names, when it is set.
    public mutating func attempt(_ description: @autoclosure () -> String) {
        inputs += 1
        if let path = ProcessInfo.processInfo.environment["FUZZ_TRACE"] {
            try? "\(name) #\(inputs): \(description())".write(toFile: path, atomically: false, encoding: .utf8)
        } else if inputs % 64 == 0 {
            FileHandle.standardError.write(Data("FUZZ \(name) #\(inputs): \(description().prefix(300))\n".utf8))
        }
    }

    /// Prints the counts on standard output.
    public func report() {
        print("FUZZ-REPORT \(name): \(inputs) inputs, \(resolved) resolved, \(refused) refused with a typed error")
    }

    /// Prints a child's report lines in the parent's output, and after a crash the last input
    /// it noted (run one target with `FUZZ_TRACE=/tmp/input` to keep the exact one).
    public static func printReport(_ result: ExitTest.Result?) {
        guard let result else { return }
        let output = String(decoding: result.standardOutputContent, as: UTF8.self)
        for line in output.split(separator: "\n") where line.hasPrefix("FUZZ-REPORT") { print(line) }
        if result.exitStatus != .exitCode(0) {
            let errors = String(decoding: result.standardErrorContent, as: UTF8.self).split(separator: "\n")
            for line in errors.filter({ $0.hasPrefix("FUZZ ") }).suffix(2) { print("last input: \(line)") }
            for line in errors.suffix(5) { print("child: \(line)") }
        }
    }
}
