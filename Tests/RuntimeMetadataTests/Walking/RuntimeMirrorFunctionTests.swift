// RuntimeMirrorFunctionTests.swift
//
// Function children, against Swift.Mirror: each has the type Mirror gives it; one that takes
// and returns its values as the general form does is called as the stored closure, and any
// other stops the program with a message when called (in a child process), where Mirror's
// would be called with the wrong convention.

import Foundation
import Testing

@testable import RuntimeMetadata

/// Counts calls and deinitializations, in a closure's context.
private final class Calls: @unchecked Sendable {
    var count = 0
}

private struct Actions {
    var run: () -> Void
    var throwing: () throws -> Void
    var later: () async -> Void
    var update: (inout Any) -> Void
    var transform: (Any) -> Any
    var pointer: @convention(c) (Int32) -> Int32
    var convert: (Int) -> Int
    var labelled: (title: String, action: (Int) -> Void)
    var optional: ((Int) -> Int)?
    var absent: ((Int) -> Int)?
    var maybeRun: (() -> Void)?
}

private enum Command {
    case run(() -> Void)
    case convert((Int) -> Int)
    case labelled(title: String, action: (String) -> Void)
    indirect case boxed(() -> Void)
}

private final class Button {
    var title = "OK"
    var action: () -> Void
    init(action: @escaping () -> Void) {
        self.action = action
    }
}

private func actions(_ calls: Calls) -> Actions {
    Actions(
        run: { calls.count += 1 },
        throwing: { calls.count += 10 },
        later: { calls.count += 100 },
        update: { $0 = "updated" },
        transform: { "\($0)!" },
        pointer: { $0 * 2 },
        convert: { [calls] in $0 + calls.count },
        labelled: (title: "Save", action: { calls.count += $0 }),
        optional: { $0 * 3 },
        absent: nil,
        maybeRun: { calls.count += 1_000 }
    )
}

/// The children's types as each mirror gives them.
private func childTypes(_ children: some Collection<Mirror.Child>) -> [String] {
    children.map { "\($0.label ?? "_"): \(type(of: $0.value))" }
}

@Suite("RuntimeMirror function children")
struct RuntimeMirrorFunctionTests {
    @Test("Each function child has the type Mirror gives it")
    func typesAreMirrors() {
        let calls = Calls()
        let value = actions(calls)
        #expect(childTypes(RuntimeMirror(reflecting: value).children) == childTypes(Mirror(reflecting: value).children))
        for command in [Command.run {}, .convert { $0 }, .labelled(title: "t") { _ in }, .boxed {}] {
            #expect(
                childTypes(RuntimeMirror(reflecting: command).children)
                    == childTypes(Mirror(reflecting: command).children)
            )
        }
        let button = Button {}
        #expect(
            childTypes(RuntimeMirror(reflecting: button).children) == childTypes(Mirror(reflecting: button).children)
        )
        #expect(RuntimeMirror(reflecting: value).descendant("labelled", "title") as? String == "Save")
        let absent: Any = RuntimeMirror(reflecting: value).children.first { $0.label == "absent" }?.value ?? 0
        #expect((absent as? ((Int) -> Int)?).map { $0 == nil } == true)
    }

    @Test("A function whose conventions agree is the stored closure, called as Mirror's is")
    func callable() async throws {
        let calls = Calls()
        let children = Dictionary(
            uniqueKeysWithValues: RuntimeMirror(reflecting: actions(calls)).children.map { ($0.label!, $0.value) }
        )
        let run = try #require(children["run"] as? () -> Void)
        run()
        #expect(calls.count == 1)
        let throwing = try #require(children["throwing"] as? () throws -> Void)
        try throwing()
        #expect(calls.count == 11)
        let later = try #require(children["later"] as? () async -> Void)
        await later()
        #expect(calls.count == 111)
        var held: Any = 1
        let update = try #require(children["update"] as? (inout Any) -> Void)
        update(&held)
        #expect(held as? String == "updated")
        let transform = try #require(children["transform"] as? (Any) -> Any)
        #expect(transform(4) as? String == "4!")
        let pointer = try #require(children["pointer"] as? @convention(c) (Int32) -> Int32)
        #expect(pointer(21) == 42)
        let maybeRun = try #require(children["maybeRun"] as? (() -> Void)?)
        let unwrapped = try #require(maybeRun)
        unwrapped()
        #expect(calls.count == 1_111)
        // The same closures through Mirror, for the same counts.
        let mirrored = Dictionary(
            uniqueKeysWithValues: Mirror(reflecting: actions(calls)).children.map { ($0.label!, $0.value) }
        )
        let mirroredRun = try #require(mirrored["run"] as? () -> Void)
        mirroredRun()
        #expect(calls.count == 1_112)
        let values = [
            RuntimeMirror(reflecting: Command.boxed { calls.count += 1 }).children.first?.value,
            RuntimeMirror(reflecting: Command.run { calls.count += 1 }).children.first?.value,
            RuntimeMirror(reflecting: Button { calls.count += 1 }).children.last?.value,
        ]
        for value in values {
            let function = try #require(value as? () -> Void)
            function()
        }
        #expect(calls.count == 1_115)
    }

    @Test("A stand-in keeps the closure's context alive as long as the child, and releases it")
    func contextsAreReleased() {
        weak var released: Calls?
        do {
            let calls = Calls()
            released = calls
            var children: [Mirror.Child] = []
            for _ in 0..<3 {
                children += Array(RuntimeMirror(reflecting: actions(calls)).children)
                children += Array(RuntimeMirror(reflecting: Command.convert { [calls] in $0 + calls.count }).children)
            }
            #expect(children.count == 36)
        }
        #expect(released == nil)
    }

    @Test("A function stored at another convention stops with a message when called")
    func standInStops() async {
        // One child process per shape: a stored function, a tuple's element, an optional's
        // payload and an enum's payload.
        let results = [
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { callStandIn("convert") },
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { callStandIn("labelled") },
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { callStandIn("optional") },
            await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) { callStandIn("payload") },
        ]
        for result in results {
            let text = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
            #expect(text.contains("cannot be called as a value of its type"))
        }
    }
}

/// Calls a function child that is a stand-in; exits with success only if it was none.
private func callStandIn(_ name: String) {
    let children = RuntimeMirror(reflecting: actions(Calls())).children
    switch name {
    case "convert":
        _ = (children.first { $0.label == "convert" }?.value as? (Int) -> Int)?(1)
    case "labelled":
        let pair = children.first { $0.label == "labelled" }?.value as? (title: String, action: (Int) -> Void)
        pair?.action(1)
    case "optional":
        let function = children.first { $0.label == "optional" }?.value as? ((Int) -> Int)?
        _ = function??(1)
    default:
        let payload = RuntimeMirror(reflecting: Command.convert { $0 }).children.first?.value
        _ = (payload as? (Int) -> Int)?(1)
    }
    exit(0)
}
