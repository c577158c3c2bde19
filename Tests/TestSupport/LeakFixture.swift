// LeakFixture.swift
//
// A Swift program the tests build with `swiftc` (without sanitizers, so that its heap is glibc
// malloc's) and run, to be searched for leaks while it waits. It leaks known cycles (two
// classes, self-references, through a closure's context, through an Array's and a Dictionary's
// storage, self-references a live object refers to weakly, through memory `malloc` gave, and
// objects holding such memory, one block shared, through a closure's context and the box of a
// captured `var` of generic type) and keeps others alive the ways a
// search must see (a global, a sleeping thread's stack, a spinning thread's registers, another
// thread's pthread-specific slots, a ManagedBuffer's tail, a multi-payload enum's payload with
// its tag in the spare bits). It prints its own account of them (`leak`, `cycle` and `live`
// lines), then `ready PID`, and exits when its standard input closes. It keeps no address of a
// leaked object: the lines are printed as the leaks are made, on a thread whose stack is
// unmapped after it ends.

import Foundation

/// The program's source. Its module is `LeakApp`.
private let leakProgramSource = """
    import Glibc
    import Synchronization

    final class Parent { var child: Child?; init() {} }
    final class Child { var parent: Parent?; init() {} }
    final class Loop { var me: Loop?; init() {} }
    final class Handler { var action: (() -> Void)?; init() {} }
    final class Node { var peers: [Node] = []; init() {} }
    final class Registry { var entries: [String: Registry] = [:]; init() {} }
    final class Watched { var me: Watched?; init() {} }
    final class Watcher { weak var target: Watched?; init() {} }
    /// Each holds memory `malloc` gave, its own and one both share.
    final class Holder {
        let buffer: UnsafeMutableRawPointer, shared: UnsafeMutableRawPointer
        var partner: Holder?
        init(buffer: UnsafeMutableRawPointer, shared: UnsafeMutableRawPointer) { self.buffer = buffer; self.shared = shared }
    }
    /// Refers to itself through a closure that captures a `var` of generic type: a box
    /// `swift_allocBox` makes (metadata kind 0x500), held by the closure's context beside the
    /// type's metadata.
    final class Keeper { var action: (() -> Void)?; init() {} }
    @_semantics("optimize.sil.specialize.generic.never") @inline(never)
    func keepInBox<T>(_ value: T, in keeper: Keeper) {
        var held = value
        keeper.action = { withExtendedLifetime(held) {} }
        held = value
    }
    /// Refers to itself through memory `malloc` gave, which holds a retained reference to it.
    final class Linked { var slot: UnsafeMutablePointer<UInt>?; init() {} }
    /// Kept alive; each refers to itself, so that it would be reported if it were not reached.
    final class Anchored { var me: Anchored?; init() { me = self } }
    final class Shelf: ManagedBuffer<Int, Anchored> {}
    enum Slot { case first(Anchored), second(Anchored), third(Anchored) }

    typealias UsableSize = @convention(c) (UnsafeMutableRawPointer?) -> Int
    let usableSize = unsafeBitCast(dlsym(nil, "malloc_usable_size"), to: UsableSize.self)
    func hex(_ address: UInt) -> String { "0x" + String(address, radix: 16) }
    func address(_ object: AnyObject) -> UInt { UInt(bitPattern: Unmanaged.passUnretained(object).toOpaque()) }
    /// An object's usable size, and its side table's when its counts name one (RefCount.h).
    func bytes(_ address: UInt) -> Int {
        let object = UnsafeMutableRawPointer(bitPattern: address)!
        let counts = object.load(fromByteOffset: 8, as: UInt64.self)
        var total = usableSize(object)
        if counts >> 62 == 3 {
            total += usableSize(UnsafeMutableRawPointer(bitPattern: UInt((counts & ((1 << 62) - 1)) << 3)))
        }
        return total
    }
    /// One leaked Swift object: `leak TYPE ADDRESS BYTES` (TYPE as String(reflecting:) prints it
    /// here, or `(closure context)`; BYTES what its row counts for it).
    func leak(_ type: String, _ address: UInt, _ extra: Int = 0) {
        print("leak\\t\\(type)\\t\\(hex(address))\\t\\(bytes(address) + extra)")
    }
    func leak(_ object: AnyObject, _ extra: Int = 0) {
        leak(String(reflecting: type(of: object)), address(object), extra)
    }
    func cycle(_ addresses: [UInt]) { print("cycle\\t" + addresses.sorted().map(hex).joined(separator: ",")) }

    @inline(never) func makeLeaks() {
        for _ in 0..<3 {
            let parent = Parent(), child = Child()
            parent.child = child
            child.parent = parent
            leak(parent); leak(child); cycle([address(parent), address(child)])
        }
        for _ in 0..<4 {
            let loop = Loop()
            loop.me = loop
            leak(loop); cycle([address(loop)])
        }
        for _ in 0..<2 {
            let handler = Handler()
            // Two captures: a closure that captures one reference alone uses it as its context.
            let tag = Int.random(in: 1...1000)
            handler.action = { withExtendedLifetime(handler) { precondition(tag > 0) } }
            // The context: the second word of the function value stored at offset 16.
            let context = UnsafeRawPointer(bitPattern: address(handler))!.load(fromByteOffset: 24, as: UInt.self)
            leak(handler, usableSize(UnsafeMutableRawPointer(bitPattern: context)))
            print("context\\t\\(hex(context))\\t(closure context)")
            cycle([address(handler), context])
        }
        for _ in 0..<2 {
            let node = Node()
            node.peers = [node]
            let storage = node.peers.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress!) } - 32
            let storageObject = Unmanaged<AnyObject>.fromOpaque(UnsafeRawPointer(bitPattern: storage)!)
                .takeUnretainedValue()
            leak(node); leak(storageObject); cycle([address(node), storage])
        }
        for _ in 0..<2 {
            let registry = Registry()
            registry.entries["self"] = registry
            let storage = unsafeBitCast(registry.entries, to: AnyObject.self)
            leak(registry); leak(storage); cycle([address(registry), address(storage)])
        }
        // Blocks that are no Swift object count once, in the row of the object that reaches them
        // first; one that links a cycle is not a member.
        do {
            let shared = calloc(1, 200)!
            let first = Holder(buffer: calloc(1, 100)!, shared: shared)
            let second = Holder(buffer: calloc(1, 100)!, shared: shared)
            first.partner = second
            second.partner = first
            leak(first, usableSize(first.buffer) + usableSize(shared))
            leak(second, usableSize(second.buffer))
            cycle([address(first), address(second)])
        }
        for _ in 0..<2 {
            let keeper = Keeper()
            keepInBox(keeper, in: keeper)
            let context = UnsafeRawPointer(bitPattern: address(keeper))!.load(fromByteOffset: 24, as: UInt.self)
            // The box: the word of the context that is a heap object whose metadata's kind is
            // 0x500 (the other is the class's metadata, whose first word is 0).
            var box: UInt = 0
            for offset in [16, 24] {
                let word = UnsafeRawPointer(bitPattern: context)!.load(fromByteOffset: offset, as: UInt.self)
                guard word > 4096, word % 8 == 0 else { continue }
                let metadata = UnsafeRawPointer(bitPattern: word)!.load(as: UInt.self)
                if metadata > 4096, UnsafeRawPointer(bitPattern: metadata)!.load(as: UInt.self) == 0x500 { box = word }
            }
            leak(
                keeper,
                usableSize(UnsafeMutableRawPointer(bitPattern: context)) + usableSize(UnsafeMutableRawPointer(bitPattern: box))
            )
            print("context\\t\\(hex(context))\\t(closure context)")
            print("context\\t\\(hex(box))\\t(box)")
            cycle([address(keeper), context, box])
        }
        for _ in 0..<2 {
            let linked = Linked()
            let slot = UnsafeMutablePointer<UInt>.allocate(capacity: 4)
            slot.initialize(repeating: 0, count: 4)
            slot[0] = UInt(bitPattern: Unmanaged.passRetained(linked).toOpaque())
            linked.slot = slot
            leak(linked, usableSize(UnsafeMutableRawPointer(slot)))
            cycle([address(linked)])
        }
        for _ in 0..<2 {
            let watched = Watched()
            watched.me = watched
            let watcher = Watcher()
            watcher.target = watched
            watchers.append(watcher)
            leak(watched); cycle([address(watched)])
        }
    }
    nonisolated(unsafe) var watchers: [Watcher] = []

    /// Spells every leaked type's name once before any leak is made: the runtime keeps the names
    /// it spells in blocks that could otherwise reuse memory holding a leaked object's address.
    @inline(never) func spellNames() {
        let node = Node(), registry = Registry()
        node.peers = [Node()]
        registry.entries["other"] = Registry()
        let storages: [AnyObject] = [
            Unmanaged<AnyObject>.fromOpaque(
                UnsafeRawPointer(bitPattern: node.peers.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress!) } - 32)!
            ).takeUnretainedValue(),
            unsafeBitCast(registry.entries, to: AnyObject.self),
        ]
        let holder = Holder(buffer: malloc(8)!, shared: malloc(8)!)
        let objects: [AnyObject] =
            [Parent(), Child(), Loop(), Handler(), node, registry, Watched(), Watcher(), holder, Linked(), Keeper()]
            + storages
        for object in objects { _ = String(reflecting: type(of: object)) }
    }


    func live(_ object: AnyObject, _ how: String) { print("live\\t\\(how)\\t\\(hex(address(object)))") }

    // Held by a global.
    nonisolated(unsafe) var global: Anchored? = Anchored()
    live(global!, "global")
    // In a ManagedBuffer's tail.
    let shelf = Shelf.create(minimumCapacity: 3) { _ in 3 } as! Shelf
    shelf.withUnsafeMutablePointerToElements { elements in
        for index in 0..<3 {
            (elements + index).initialize(to: Anchored())
            live(elements[index], "tail")
        }
    }
    // A multi-payload enum's payloads, with the case in the reference's spare bits.
    nonisolated(unsafe) var slots: [Slot] = [.second(Anchored()), .third(Anchored())]
    nonisolated(unsafe) var slot: Slot = .third(Anchored())
    for each in slots + [slot] {
        switch each {
        case .first(let object), .second(let object), .third(let object): live(object, "enum")
        }
    }
    let ready = Atomic<Int>(0)
    // A sleeping thread's stack: a local it holds while it sleeps.
    var sleeper = pthread_t()
    pthread_create(&sleeper, nil, { _ in
        let local = Anchored()
        live(local, "stack")
        ready.add(1, ordering: .sequentiallyConsistent)
        withExtendedLifetime(local) { while true { sleep(1000) } }
        return nil
    }, nil)
    // Another thread's pthread-specific slots: one in its first block (inside the thread's
    // descriptor), one in a second-level block glibc allocates (keys past 32).
    var keys: [pthread_key_t] = []
    for _ in 0..<40 {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        keys.append(key)
    }
    nonisolated(unsafe) var specificKeys = (keys[1], keys[39])
    var holder = pthread_t()
    pthread_create(&holder, nil, { _ in
        for key in [specificKeys.0, specificKeys.1] {
            let object = Anchored()
            live(object, "specific")
            pthread_setspecific(key, Unmanaged.passRetained(object).toOpaque())
        }
        ready.add(1, ordering: .sequentiallyConsistent)
        while true { sleep(1000) }
        return nil
    }, nil)
    // A spinning thread's registers: the only word that is the reference is computed from a
    // disguised one and kept in a register while the thread spins.
    let disguise: UInt = 0x5A5A_5A5A_5A5A_5A5A
    nonisolated(unsafe) var disguised: UInt = 0
    /// The reference, from its disguise, computed where the optimizer cannot move it past the loop.
    @inline(never) func reveal(_ word: UInt) -> UInt { word ^ disguise }
    let spinning = Atomic<Bool>(true)
    do {
        let object = Anchored()
        live(object, "register")
        disguised = UInt(bitPattern: Unmanaged.passRetained(object).toOpaque()) ^ disguise
    }
    var spinner = pthread_t()
    pthread_create(&spinner, nil, { _ in
        let held = reveal(disguised)
        disguised = 0
        ready.add(1, ordering: .sequentiallyConsistent)
        // Yielding, so that the spin does not take a core from the tests.
        while spinning.load(ordering: .relaxed) { sched_yield() }
        print(held)
        return nil
    }, nil)
    while ready.load(ordering: .sequentiallyConsistent) < 3 { usleep(1000) }

    // The leaks are made on a thread whose stack is unmapped after it ends, so that no stale
    // word of a stack or a register refers to them.
    let stackSize = 1 << 20
    let stack = mmap(nil, stackSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)!
    var attributes = pthread_attr_t()
    pthread_attr_init(&attributes)
    pthread_attr_setstack(&attributes, stack, stackSize)
    var maker = pthread_t()
    pthread_create(&maker, &attributes, { _ in
        spellNames()
        makeLeaks()
        return nil
    }, nil)
    pthread_join(maker, nil)
    munmap(stack, stackSize)
    print("ready", getpid())
    fflush(stdout)
    while let line = readLine() {
        if line == "exit" { break }
    }
    spinning.store(false, ordering: .relaxed)
    withExtendedLifetime((shelf, watchers)) {}
    """

/// The built program.
public struct LeakFixture: Sendable {
    /// The program.
    public let program: String
}

/// The leak fixture, built once per test process.
public let leakFixture: Result<LeakFixture, ProcessFixtureError> = {
    let directory = temporaryDirectory.appendingPathComponent("leak-fixture")
    try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let program = directory.appendingPathComponent("leak-app")
    let programFile = directory.appendingPathComponent("main.swift")
    do {
        try leakProgramSource.write(to: programFile, atomically: true, encoding: .utf8)
    } catch {
        return .failure(ProcessFixtureError(description: "cannot write the source: \(error)"))
    }
    guard runTool(["swiftc", "-O", "-module-name", "LeakApp", programFile.path, "-o", program.path]) != nil else {
        return .failure(ProcessFixtureError(description: "swiftc failed on the leak fixture"))
    }
    return .success(LeakFixture(program: program.path))
}()

/// A running leak fixture, which waits until it is stopped.
public final class RunningLeakFixture: @unchecked Sendable {
    /// Its pid.
    public let processID: Int32
    /// The leaked objects it made: by type name, their count and the bytes their row counts.
    public private(set) var leaks: [String: (count: Int, bytes: Int)] = [:]
    /// The cycles it made: each its members' addresses (`0x…`), ascending.
    public private(set) var cycles: [[String]] = []
    /// The addresses of its closure contexts and boxes in cycles.
    public private(set) var contexts: Set<String> = []
    /// The types of the leaked objects, by address.
    public private(set) var typesByAddress: [String: String] = [:]
    /// The objects it keeps alive, by how (`global`, `stack`, ...), their addresses.
    public private(set) var live: [String: [String]] = [:]
    private let process: Process
    private let input: Pipe

    /// Starts the program and waits until it is ready.
    /// - Parameter program: The program.
    /// - Throws: ``ProcessFixtureError`` when it does not start or report ready.
    public init(program: String) throws {
        let output: FileHandle
        (process, input, output) = try startFixture(program, arguments: [], name: "the leak fixture")
        processID = process.processIdentifier
        while true {
            let text = readFixtureLine(output)
            if text.hasPrefix("ready") { break }
            let fields = text.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            switch fields.first {
            case "leak" where fields.count == 4:
                leaks[fields[1], default: (0, 0)].count += 1
                leaks[fields[1], default: (0, 0)].bytes += Int(fields[3]) ?? -1_000_000
                typesByAddress[fields[2]] = fields[1]
            case "context" where fields.count == 3:
                contexts.insert(fields[1])
                typesByAddress[fields[1]] = fields[2]
            case "cycle" where fields.count == 2: cycles.append(fields[1].split(separator: ",").map(String.init))
            case "live" where fields.count == 3: live[fields[1], default: []].append(fields[2])
            default:
                process.terminate()
                throw ProcessFixtureError(description: "the leak fixture did not report ready: '\(text)'")
            }
        }
    }

    /// Ends the program and waits for it.
    public func stop() {
        try? input.fileHandleForWriting.close()
        process.terminate()
        process.waitUntilExit()
    }
}
