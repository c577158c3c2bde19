// ProcessFixture.swift
//
// A Swift program the tests build with `swiftc` (without sanitizers, so that its heap is glibc
// malloc's) and run, to be read while it waits: it loads a plugin with `dlopen`, allocates
// known numbers of instances of known classes, releases others, holds words that look like
// object headers, prints `ready`, and exits when its standard input closes (or execs `sleep`
// when it reads `exec`).

import Foundation
import Glibc

/// The fixture program's source. Its module is `CensusApp`.
private let programSource = """
    import Glibc

    public final class Plain { var value = 1; public init() {} }
    /// 377 bytes of fields and the 16-byte header: an instance asks `malloc` for 393 bytes, a
    /// 416-byte chunk (408 usable).
    public final class Wide {
        var fields = InlineArray<47, Int>(repeating: 0)
        var flag: UInt8 = 0
        public init() {}
    }
    open class Base { var base = 1; public init() {} }
    open class Middle: Base { var middle = 2 }
    public final class Leaf: Middle { var leaf = 3 }
    public final class Box<First, Second> {
        var first: First; var second: Second
        public init(_ first: First, _ second: Second) { self.first = first; self.second = second }
    }
    extension Int { public final class Counter { var count = 0; public init() {} } }
    public actor Account { var balance = 0; public init() {} }
    public final class Samples: ManagedBuffer<Int, Double> {}
    /// A generic subclass of a resilient generic class: its arguments sit after ManagedBuffer's,
    /// at an offset the runtime computes once (StoredClassMetadataBounds, in `.bss`).
    public final class Buf<Element>: ManagedBuffer<Int, Element> {}
    /// A class generic over a parameter pack.
    public final class PackBox<each Element> {
        var elements: (repeat each Element)
        public init(_ elements: repeat each Element) { self.elements = (repeat each elements) }
    }
    public protocol Shape { func area() -> Double }
    public struct Square: Shape, Hashable { var side = 1.0; public func area() -> Double { side * side } }
    extension Int: Shape { public func area() -> Double { Double(self) } }
    private struct Hidden: Equatable { var count = 1 }

    /// Two words that equal a live object's header: its metadata and its reference count.
    struct Lookalike { var metadata: UInt; var referenceCount: UInt }

    @inline(never) func keepAlive(_ value: Any) { withExtendedLifetime(value) {} }

    let arguments = CommandLine.arguments
    // An instance in a chunk 16 bytes larger than its size asks for: glibc hands a best-fit
    // chunk out whole when what would remain is smaller than its minimum chunk (32 bytes), as a
    // server's heap does after a while. Its 393 bytes ask for a 416-byte chunk; a freed 432-byte
    // chunk is the only one that fits (the tcache of its size full, so that it goes to a bin).
    // The class's metadata is made first: making it allocates, and could take the chunk.
    keepAlive(Wide.self)
    let spare = UnsafeMutablePointer<UnsafeMutableRawPointer>.allocate(capacity: 9)
    for index in 0..<9 { spare[index] = malloc(index == 8 ? 24 : 424)! }
    for index in 0..<8 { free(spare[index]) }
    let wide = Wide()
    // A busy heap, as a server's after an hour: freed chunks of about 90 sizes between live
    // ones, sorted into the arena's small and large bins, most of its 127 bins holding chunks.
    var pinned: [UnsafeMutableRawPointer] = []
    var freed: [UnsafeMutableRawPointer] = []
    for _ in 0..<10 {
        for size in stride(from: 24, to: 1000, by: 16) { freed.append(malloc(size)!); pinned.append(malloc(size)!) }
        for size in stride(from: 1100, to: 60000, by: 400) { freed.append(malloc(size)!); pinned.append(malloc(size)!) }
    }
    for block in freed { free(block) }
    pinned.append(malloc(70000)!)
    var kept: [AnyObject] = []
    kept.append(wide)
    for _ in 0..<3 { kept.append(Plain()) }
    for _ in 0..<2 { kept.append(Leaf()) }
    kept.append(Middle())
    kept.append(Base())
    for _ in 0..<4 { kept.append(Box(1.5, [1, 2, 3])) }
    for _ in 0..<5 { kept.append(Box("five", 5)) }
    // Arguments of every shape a name copies from the process: a labelled tuple, a function, an
    // existential, a metatype, an optional.
    kept.append(Box((1, label: "one"), { (value: Int) in value }))
    kept.append(Box(Square() as any Shape, Int.self))
    kept.append(Box(Optional(Square()), [String: Double]()))
    // Constrained existentials: extended existential metadata, named from a shape.
    kept.append(Box([1] as any Sequence<Int>, [(1, "one")] as any Collection<(Int, String)>))
    for _ in 0..<6 { kept.append(Int.Counter()) }
    for _ in 0..<5 { kept.append(Buf<Int>.create(minimumCapacity: 4) { _ in 0 }) }
    for _ in 0..<4 { kept.append(Buf<String>.create(minimumCapacity: 4) { _ in 0 }) }
    for _ in 0..<3 { kept.append(Buf<()>.create(minimumCapacity: 4) { _ in 0 }) }
    for _ in 0..<2 { kept.append(PackBox(1, "two")) }
    kept.append(PackBox())
    for _ in 0..<7 { kept.append(Account()) }
    for index in 0..<2 {
        let samples = Samples.create(minimumCapacity: 1_000 * (index + 1)) { _ in 0 }
        kept.append(samples)
    }
    // Released: their headers may survive in freed memory.
    do {
        var released: [AnyObject] = []
        for _ in 0..<100 { released.append(Plain()) }
        for _ in 0..<50 { released.append(Int.Counter()) }
        keepAlive(released)
    }
    // Words that equal live objects' headers, inside an array and at the start of a buffer.
    let header = Unmanaged.passUnretained(kept[0]).toOpaque().assumingMemoryBound(to: UInt.self)
    let lookalikes = (0..<64).map { _ in Lookalike(metadata: header[0], referenceCount: header[1]) }
    let buffer = UnsafeMutablePointer<Lookalike>.allocate(capacity: 256)
    buffer.initialize(repeating: Lookalike(metadata: header[0], referenceCount: header[1]), count: 256)
    var plugin: UnsafeMutableRawPointer?
    if arguments.count > 1 {
        guard let handle = dlopen(arguments[1], RTLD_NOW) else {
            print("dlopen failed: \\(String(cString: dlerror()))")
            exit(2)
        }
        typealias Make = @convention(c) (Int) -> UnsafeMutableRawPointer
        let make = unsafeBitCast(dlsym(handle, "censusPluginMake"), to: Make.self)
        plugin = make(8)
    }
    keepAlive(Hidden())
    // The oracle: each type's name as String(reflecting:) prints it here, its instances' count,
    // the usable size of their heap blocks, and their addresses.
    var oracle: [String: (count: Int, bytes: Int, addresses: [UInt])] = [:]
    typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
    let usableSize = unsafeBitCast(dlsym(nil, "malloc_usable_size"), to: UsableSize.self)
    func record(_ object: AnyObject) {
        let name = String(reflecting: type(of: object))
        let address = Unmanaged.passUnretained(object).toOpaque()
        oracle[name, default: (0, 0, [])].count += 1
        oracle[name, default: (0, 0, [])].bytes += usableSize(address)
        oracle[name, default: (0, 0, [])].addresses.append(UInt(bitPattern: address))
    }
    for object in kept { record(object) }
    if let plugin, let widgets = Unmanaged<AnyObject>.fromOpaque(plugin).takeUnretainedValue() as? [AnyObject] {
        for widget in widgets { record(widget) }
    }
    for (name, entry) in oracle.sorted(by: { $0.key < $1.key }) {
        let addresses = entry.addresses.sorted().map { "0x" + String($0, radix: 16) }.joined(separator: ",")
        print("oracle\\t\\(name)\\t\\(entry.count)\\t\\(entry.bytes)\\t\\(addresses)")
    }
    print("ready", getpid())
    fflush(stdout)
    while let line = readLine() {
        if line == "exit" { break }
        // Another program in the same process: its pid and start time stay, its memory does not.
        if line == "exec" {
            let sleep: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sleep"), strdup("30"), nil]
            execv("/bin/sleep", sleep)
        }
    }
    keepAlive((kept, lookalikes, buffer, plugin as Any, pinned))
    """

/// The plugin's source. Its module is `CensusPlugin`.
private let pluginSource = """
    public final class Widget { var size = 1; public init() {} }
    public protocol Gadget {}
    extension Widget: Gadget, CustomStringConvertible { public var description: String { "widget" } }
    @_cdecl("censusPluginMake")
    public func censusPluginMake(_ count: Int) -> UnsafeMutableRawPointer {
        let widgets = (0..<count).map { _ in Widget() }
        return Unmanaged.passRetained(widgets as AnyObject).toOpaque()
    }
    """

/// The built program and plugin.
public struct ProcessFixture: Sendable {
    /// The program.
    public let program: String
    /// The plugin, a shared library.
    public let plugin: String
}

/// A step of building the process fixture failed.
public struct ProcessFixtureError: Error, CustomStringConvertible {
    /// What failed.
    public var description: String
}

/// The process fixture, built once per test process.
public let processFixture: Result<ProcessFixture, ProcessFixtureError> = {
    let directory = temporaryDirectory.appendingPathComponent("process-fixture")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let program = directory.appendingPathComponent("census-app")
    let plugin = directory.appendingPathComponent("libCensusPlugin.so")
    let programFile = directory.appendingPathComponent("main.swift")
    let pluginFile = directory.appendingPathComponent("Plugin.swift")
    do {
        try programSource.write(to: programFile, atomically: true, encoding: .utf8)
        try pluginSource.write(to: pluginFile, atomically: true, encoding: .utf8)
    } catch {
        return .failure(ProcessFixtureError(description: "cannot write the sources: \(error)"))
    }
    guard
        runTool([
            "swiftc", "-O", "-module-name", "CensusPlugin", "-emit-library", pluginFile.path, "-o", plugin.path,
        ]) != nil
    else { return .failure(ProcessFixtureError(description: "swiftc failed on the plugin")) }
    guard runTool(["swiftc", "-O", "-module-name", "CensusApp", programFile.path, "-o", program.path]) != nil else {
        return .failure(ProcessFixtureError(description: "swiftc failed on the program"))
    }
    return .success(ProcessFixture(program: program.path, plugin: plugin.path))
}()

/// Starts a fixture program with its standard input and output piped, its errors discarded.
/// - Parameters:
///   - program: The program.
///   - arguments: Its arguments.
///   - name: What to call it in an error.
/// - Returns: The process, the pipe to its standard input, and its standard output.
/// - Throws: ``ProcessFixtureError`` when it does not start.
func startFixture(
    _ program: String,
    arguments: [String],
    name: String
) throws -> (process: Process, input: Pipe, output: FileHandle) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    do {
        try process.run()
    } catch {
        throw ProcessFixtureError(description: "cannot start \(name): \(error)")
    }
    return (process, input, output.fileHandleForReading)
}

/// Reads one line a fixture printed, without its newline; empty at the end of its output.
/// Byte by byte, so that nothing past the line is taken from the pipe.
func readFixtureLine(_ reader: FileHandle) -> String {
    var line = Data()
    while true {
        let byte = reader.readData(ofLength: 1)
        if byte.isEmpty || byte == Data([0x0A]) { break }
        line.append(byte)
    }
    return String(decoding: line, as: UTF8.self)
}

/// A running fixture program, which waits until it is stopped.
public final class RunningFixture: @unchecked Sendable {
    /// Its pid.
    public let processID: Int32
    /// What the program says of its own objects: by type name as `String(reflecting:)` prints
    /// it there, their count, the usable size of their heap blocks, and their addresses.
    public private(set) var oracle: [String: (count: Int, bytes: Int, addresses: [String])] = [:]
    private let process: Process
    private let input: Pipe

    /// Starts the program with a plugin to load, and waits until it is ready.
    /// - Parameters:
    ///   - program: The program.
    ///   - plugin: The plugin's path, or `nil` for none.
    /// - Throws: ``ProcessFixtureError`` when it does not start or report ready.
    public init(program: String, plugin: String?) throws {
        let reader: FileHandle
        (process, input, reader) = try startFixture(program, arguments: plugin.map { [$0] } ?? [], name: "the fixture")
        processID = process.processIdentifier
        // Oracle lines, then `ready PID`.
        while true {
            let text = readFixtureLine(reader)
            if text.hasPrefix("ready") { break }
            let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, fields[0] == "oracle", let count = Int(fields[2]), let bytes = Int(fields[3])
            else {
                process.terminate()
                throw ProcessFixtureError(description: "the fixture did not report ready: '\(text)'")
            }
            oracle[fields[1]] = (count, bytes, fields[4].split(separator: ",").map(String.init))
        }
    }

    /// Ends the program and waits for it.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Sends the program a line: `exec` makes it replace itself with `/bin/sleep 30`.
    /// - Parameter line: The line, without its newline.
    public func send(_ line: String) {
        try? input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
    }

    /// Kills the program without reaping it (a zombie until ``stop()``).
    public func kill() {
        Glibc.kill(processID, SIGKILL)
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

/// The fixture program built with AddressSanitizer, whose heap is not glibc malloc's.
public let sanitizedProcessProgram: Result<String, ProcessFixtureError> = {
    let directory = temporaryDirectory.appendingPathComponent("process-fixture-asan")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let program = directory.appendingPathComponent("census-app-asan")
    let programFile = directory.appendingPathComponent("main.swift")
    guard (try? programSource.write(to: programFile, atomically: true, encoding: .utf8)) != nil else {
        return .failure(ProcessFixtureError(description: "cannot write the source"))
    }
    guard
        runTool([
            "swiftc", "-Onone", "-sanitize=address", "-module-name", "CensusApp", programFile.path, "-o", program.path,
        ]) != nil
    else { return .failure(ProcessFixtureError(description: "swiftc -sanitize=address failed on the program")) }
    return .success(program.path)
}()
