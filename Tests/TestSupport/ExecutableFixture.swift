// ExecutableFixture.swift
//
// A Swift executable built by the tests, once per process, whose initializer and main code
// would each write a marker file if they ran: read from its file by `Image.read` and listed by
// the inspector, it must never run.

import Foundation

/// The executable fixture's source: a protocol and a retroactive conformance, generic and
/// private types, an extension of another module's type with a nested type, and code at the
/// top level that would write a marker.
private func fixtureSource(marker: String) -> String {
    """
    import Glibc
    public protocol Shape { func area() -> Double }
    public protocol Named: AnyObject { associatedtype Label; var label: Label { get } }
    public struct Circle: Shape, Hashable, Codable { public var radius: Double; public func area() -> Double { radius } }
    public enum Tag: String, CaseIterable, Sendable { case first, second }
    public final class Box<Value>: CustomStringConvertible { public var value: Value
        public init(_ value: Value) { self.value = value }
        public var description: String { "Box" } }
    public final class Labelled: Named { public var label: String { "x" } }
    private struct Hidden: Equatable { var count = 1 }
    extension Int: Shape { public func area() -> Double { Double(self) } }
    extension Array { public struct Inner: Sendable { public var count: Int } }
    public struct Pair<A: Hashable, B>: Equatable where B: Equatable { var a: A; var b: B }
    public struct Lookalike { var both: ([(Character, Character, Character)], Circle); var other: ([(Bool, Bool, Bool)], Tag) }
    extension Pair: Hashable where B: Hashable {}
    func keep() -> [Any] { [Hidden(), Box(1), Labelled(), Array<Int>.Inner(count: 1), Pair(a: 1, b: 2)] }
    _ = keep()
    if let file = fopen("\(marker)/main-ran", "w") { fclose(file) }
    print(Circle(radius: 1).area())
    """
}

/// A C initializer, run by the loader before main, that would write a marker.
private func initializerSource(marker: String) -> String {
    """
    #include <fcntl.h>
    #include <unistd.h>
    __attribute__((constructor)) static void writeMarker(void) {
        int descriptor = open("\(marker)/initializer-ran", O_CREAT | O_WRONLY, 0644);
        if (descriptor >= 0) close(descriptor);
    }
    """
}

/// The built executable and its stripped copy (under the same file name, in another directory),
/// and the directory the markers go to.
public struct ExecutableFixture: Sendable {
    public let executable: String
    public let stripped: String
    /// The same program linked without `-pie`: a fixed-address executable (`ET_EXEC`).
    public let fixedAddress: String
    public let markers: String
}

/// A step of building the fixture failed.
public struct ExecutableFixtureError: Error {
    /// The step: `write`, `clang`, `swiftc`, `strip` or `swiftc -no-pie`.
    public var step: String
}

public let executableFixture: Result<ExecutableFixture, ExecutableFixtureError> = {
    let directory = temporaryDirectory.appendingPathComponent("executable-fixture")
    let markers = directory.appendingPathComponent("markers")
    let strippedDirectory = directory.appendingPathComponent("stripped")
    for folder in [directory, markers, strippedDirectory] {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    let source = directory.appendingPathComponent("main.swift")
    let initializer = directory.appendingPathComponent("initializer.c")
    let object = directory.appendingPathComponent("initializer.o")
    let executable = directory.appendingPathComponent("fixture-app")
    let stripped = strippedDirectory.appendingPathComponent("fixture-app")
    let fixedAddress = directory.appendingPathComponent("fixture-app-fixed")
    do {
        try fixtureSource(marker: markers.path).write(to: source, atomically: true, encoding: .utf8)
        try initializerSource(marker: markers.path).write(to: initializer, atomically: true, encoding: .utf8)
    } catch {
        return .failure(ExecutableFixtureError(step: "write"))
    }
    guard runTool(["clang", "-c", "-fPIC", initializer.path, "-o", object.path]) != nil else {
        return .failure(ExecutableFixtureError(step: "clang"))
    }
    guard
        runTool(["swiftc", "-O", "-module-name", "app", source.path, object.path, "-o", executable.path]) != nil
    else { return .failure(ExecutableFixtureError(step: "swiftc")) }
    guard runTool(["strip", executable.path, "-o", stripped.path]) != nil else {
        return .failure(ExecutableFixtureError(step: "strip"))
    }
    guard
        runTool([
            "swiftc", "-O", "-module-name", "app", source.path, object.path, "-o", fixedAddress.path,
            "-Xclang-linker", "-no-pie",
        ]) != nil
    else { return .failure(ExecutableFixtureError(step: "swiftc -no-pie")) }
    return .success(
        ExecutableFixture(
            executable: executable.path,
            stripped: stripped.path,
            fixedAddress: fixedAddress.path,
            markers: markers.path
        )
    )
}()
