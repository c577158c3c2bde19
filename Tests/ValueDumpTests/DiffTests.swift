// DiffTests.swift
//
// ValueDump.differences and diff against the oracle `==`: on a corpus of app states and their
// mutations, the diff is empty exactly when the states are equal, and each mutation is
// reported at its own path, once.

import Fixtures
import Foundation
import RuntimeMetadata
import Testing
import ValueDump

/// An element that is not `Identifiable`.
private struct Unkeyed: Equatable {
    var number: Int
}

struct DiffTodo: Identifiable, Equatable, Hashable {
    var id: Int
    var title: String
    var done = false
}

struct DiffNamedTodo: Identifiable, Equatable, Hashable {
    var id: String
    var title: String
}

enum DiffFilter: Equatable, Hashable {
    case all
    case done
    case search(text: String, caseSensitive: Bool)
}

final class DiffSession: Equatable {
    var user: String
    var token: Int
    init(user: String, token: Int) { (self.user, self.token) = (user, token) }
    static func == (lhs: DiffSession, rhs: DiffSession) -> Bool { lhs.user == rhs.user && lhs.token == rhs.token }
}

/// A number no test makes `Identifiable` (plugins the suite loads make `Int` conform, and an
/// array of `Identifiable` elements is compared by id).
struct DiffScore: Equatable, ExpressibleByIntegerLiteral {
    var points: Int
    init(integerLiteral points: Int) { self.points = points }
}

struct DiffAppState: Equatable {
    struct Settings: Equatable {
        var theme = "light"
        var fontSize = 12.0
        var flags: Set<String> = ["beta", "sync"]
    }
    var todos: [DiffTodo] = (0..<8).map { DiffTodo(id: $0, title: "todo \($0)") }
    var filter = DiffFilter.all
    var settings = Settings()
    var counts: [String: Int] = ["open": 8, "done": 0]
    var selection: Int? = nil
    var session = DiffSession(user: "ada", token: 1)
    var history: [DiffScore] = [1, 2, 3]
}

/// The paths of a diff.
private func paths<T>(_ lhs: T, _ rhs: T) -> [String] {
    ValueDump.differences(lhs, rhs).map(\.path)
}

/// A link of a long list.
final class DiffLink {
    var value: Int
    var next: DiffLink?
    init(_ value: Int, _ next: DiffLink?) { (self.value, self.next) = (value, next) }

    /// A list of 100,001 links whose last value is `last`.
    static func list(last: Int) -> DiffLink? {
        var head: DiffLink? = DiffLink(last, nil)
        for value in (0..<100_000).reversed() { head = DiffLink(value, head) }
        return head
    }
}

@Suite("ValueDump.diff against ==")
struct ValueDiffTests {
    /// One mutation of an app state, and the path it changes.
    typealias Mutation = (path: String, apply: @Sendable (inout DiffAppState) -> Void)

    static let mutations: [Mutation] = [
        (".todos[id: 3].title", { $0.todos[3].title = "changed" }),
        (".todos[id: 0].done", { $0.todos[0].done = true }),
        (".filter", { $0.filter = .done }),
        (".filter", { $0.filter = .search(text: "a", caseSensitive: false) }),
        (".settings.theme", { $0.settings.theme = "dark" }),
        (".settings.fontSize", { $0.settings.fontSize = 13 }),
        (".settings.flags", { $0.settings.flags.insert("new") }),
        (".counts[\"open\"]", { $0.counts["open"] = 7 }),
        (".counts[\"late\"]", { $0.counts["late"] = 1 }),
        (".selection", { $0.selection = 2 }),
        (".session.user", { $0.session = DiffSession(user: "bob", token: 1) }),
        (".history[1].points", { $0.history[1] = 20 }),
        (".history[3]", { $0.history.append(4) }),
        (".todos[id: 8]", { $0.todos.append(DiffTodo(id: 8, title: "new")) }),
        (".todos[id: 7]", { $0.todos.removeLast() }),
        (".todos (order)", { $0.todos.swapAt(0, 1) }),
    ]

    @Test("Past the edit bound, only the middle between the common ends is compared by position")
    func pastTheEditBound() {
        // Elements no test makes `Identifiable` (another test target makes `Int` so).
        func values(_ range: Range<Int>) -> [Unkeyed] { range.map { Unkeyed(number: $0) } }
        // 129 removals and no insertion: one more than the bound, before 20 common elements.
        let changes = ValueDump.differences(values(0..<149), values(129..<149))
        #expect(changes.count == 129)
        #expect(changes.map(\.path) == (0..<129).map { "[\($0)]" })
        #expect(changes.allSatisfy { $0.new == nil })
        // With a common prefix the middle starts after it: 129 pairs compared, one insertion.
        let prefixed = ValueDump.differences(
            values(-1..<0) + values(0..<149),
            values(-1..<0) + values(1000..<1130) + values(129..<149)
        )
        #expect(prefixed.count == 130)
        #expect(Set(prefixed.map { $0.path.prefix { $0 != "]" } }) == Set((1...130).map { "[\($0)" }))
        #expect(prefixed.filter { $0.old == nil }.map(\.path) == ["[130]"])
    }

    @Test("Each mutation is reported at its path, once; equal states have no diff")
    func mutationsAtTheirPaths() {
        let state = DiffAppState()
        #expect(ValueDump.differences(state, state).isEmpty)
        #expect(ValueDump.diff(state, state) == nil)
        var copy = state
        copy.session = DiffSession(user: "ada", token: 1)
        // A different object equal by its own ==: equal.
        #expect(state == copy && ValueDump.differences(state, copy).isEmpty)
        for mutation in Self.mutations {
            var changed = state
            mutation.apply(&changed)
            #expect(changed != state, "\(mutation.path)")
            let found = paths(state, changed)
            #expect(found == [mutation.path], "\(mutation.path): \(found)")
        }
    }

    @Test("A corpus of random mutations: the diff is empty exactly when == says equal, each path once")
    func corpus() {
        var generator = SplitMix64(state: 0xD1FF)
        let state = DiffAppState()
        var checked = 0
        for _ in 0..<400 {
            var lhs = state
            var rhs = state
            var applied = Set<String>()
            for _ in 0..<Int.random(in: 0...3, using: &generator) {
                let mutation = Self.mutations.randomElement(using: &generator)!
                if Bool.random(using: &generator) { mutation.apply(&lhs) } else { mutation.apply(&rhs) }
                applied.insert(mutation.path)
            }
            let found = ValueDump.differences(lhs, rhs)
            #expect(found.isEmpty == (lhs == rhs))
            let foundPaths = found.map(\.path)
            #expect(Set(foundPaths).count == foundPaths.count, "\(foundPaths)")
            // Every path reported is one the mutations could have changed, or lies under one.
            for path in foundPaths {
                #expect(
                    applied.contains { path == $0 || path.hasPrefix($0) || $0.hasPrefix(path) }
                        || path.hasPrefix(".todos"),
                    "\(path) not among \(applied)"
                )
            }
            checked += 1
        }
        #expect(checked == 400)
    }

    @Test("Old and new values are dumped; the text marks them - and +")
    func text() throws {
        var changed = DiffAppState()
        changed.settings.theme = "dark"
        changed.counts["late"] = 1
        changed.todos.removeLast()
        let diffed = ValueDump.diff(DiffAppState(), changed)
        let text = try #require(diffed)
        #expect(
            text
                == """
                .todos[id: 7]
                  - DiffTodo
                  -   - id: 7
                  -   - title: "todo 7"
                  -   - done: false
                .settings.theme
                  - "light"
                  + "dark"
                .counts["late"]
                  + 1

                """.replacingOccurrences(of: "DiffTodo", with: String(reflecting: DiffTodo.self))
        )
        let differences = ValueDump.differences(DiffAppState(), changed)
        #expect(differences[1] == ValueDifference(path: ".settings.theme", old: "\"light\"", new: "\"dark\""))
    }

    @Test("Arrays by position without ids; sets by element; types and cases as wholes")
    func shapes() {
        #expect(paths([1, 2, 3] as [DiffScore], [1, 5, 3]) == ["[1].points"])
        #expect(paths([1, 2] as [DiffScore], [1, 2, 3]) == ["[2]"])
        #expect(paths([[1], [2]] as [[DiffScore]], [[1], [2, 3]]) == ["[1][1]"])
        let sets = ValueDump.differences(Set(["a", "b"]), Set(["b", "c"]))
        #expect(sets == [ValueDifference(path: "", old: "\"a\"", new: "\"c\"")])
        #expect(paths(1 as Any, "1" as Any) == [""])
        #expect(paths(DiffFilter.all, .done) == [""])
        let search = DiffFilter.search(text: "a", caseSensitive: false)
        #expect(paths(search, .search(text: "b", caseSensitive: false)) == [".search.text"])
        #expect(paths(Optional(1), nil) == [""])
        #expect(paths(Optional(DiffTodo(id: 1, title: "a")), Optional(DiffTodo(id: 1, title: "b"))) == ["?.title"])
        #expect(paths((1, "a"), (1, "b")) == [".1"])
        #expect(paths((x: 1, y: 2), (x: 3, y: 2)) == [".x"])
        // A thousand elements, one changed.
        var large = (0..<1_000).map { DiffTodo(id: $0, title: "\($0)") }
        let original = large
        large[500].title = "changed"
        #expect(paths(original, large) == ["[id: 500].title"])
    }

    @Test("Keys and ids whose texts are alike get numbered paths, each once")
    func collidingKeyTexts() {
        // NaN keys: none equals another, so every entry is only on its side.
        let nanKeys = ValueDump.differences([Double.nan: 1, -Double.nan: 2], [Double.nan: 1, -Double.nan: 2])
        #expect(!nanKeys.isEmpty)
        #expect(Set(nanKeys.map(\.path)).count == nanKeys.count, "\(nanKeys.map(\.path))")
        #expect(nanKeys.map(\.path).contains("[nan]") && nanKeys.map(\.path).contains("[nan #2]"))
        // 1, "1" and Character("1"): keys that one AnyHashable dictionary holds apart, the
        // last two dumped alike (as Swift.dump writes them, `AnyHashable("1")`).
        let old: [AnyHashable: Int] = [1: 1, "1": 1, Character("1"): 1]
        let new: [AnyHashable: Int] = [1: 2, "1": 2, Character("1"): 2]
        let mixed = ValueDump.differences(old, new)
        #expect(mixed.count == 3)
        #expect(Set(mixed.map(\.path)).count == mixed.count, "\(mixed.map(\.path))")
        // Identified elements whose ids are of two types with alike texts.
        let todos: [Any] = [DiffTodo(id: 1, title: "a"), DiffNamedTodo(id: "1", title: "a")]
        let edited: [Any] = [DiffTodo(id: 1, title: "b"), DiffNamedTodo(id: "1", title: "b")]
        let identified = ValueDump.differences(todos, edited)
        #expect(identified.count == 2)
        #expect(Set(identified.map(\.path)).count == identified.count, "\(identified.map(\.path))")
    }

    @Test("Long linked lists differing at their ends are diffed on a 512 KiB thread, in a child process")
    func deepValues() async {
        await #expect(processExitsWith: .success) {
            nonisolated(unsafe) let old = DiffLink.list(last: -1)
            nonisolated(unsafe) let new = DiffLink.list(last: -2)
            nonisolated(unsafe) var found: [ValueDifference] = []
            let done = DispatchSemaphore(value: 0)
            let thread = Thread {
                found = ValueDump.differences(old, new)
                done.signal()
            }
            thread.stackSize = 512 * 1024
            thread.start()
            done.wait()
            // Reported once, whole, at the walk's deepest level; its text is a few lines.
            #expect(found.count == 1)
            #expect(found.first.map { $0.path.hasPrefix("?.next?.next") } == true)
            #expect((found.first?.old?.count ?? .max) < 2_000)
            // Unlinked iteratively: released recursively, the lists would overflow the stack.
            for var head in [old, new] {
                while let link = head {
                    head = link.next
                    link.next = nil
                }
            }
        }
    }

    @Test("Objects: the same object is equal; cycles end")
    func objects() {
        final class Node {
            var value: Int
            var next: Node?
            init(_ value: Int) { self.value = value }
        }
        let shared = Node(1)
        #expect(ValueDump.differences(shared, shared).isEmpty)
        let a = Node(1)
        let b = Node(2)
        a.next = b
        b.next = a
        let c = Node(1)
        let d = Node(3)
        c.next = d
        d.next = c
        #expect(paths(a, c) == [".next?.value"])
        // Broken, so that LeakSanitizer does not report the cycles.
        b.next = nil
        d.next = nil
    }

    @Test("Equal arrays and dictionaries of values that are not Equatable have no diff")
    func equalUnequatableCollections() {
        let list: [Any] = [1, "a", DiffTodo(id: 1, title: "t"), [2.5]]
        let table: [String: Any] = ["a": 1, "b": [DiffTodo(id: 2, title: "u")]]
        #expect(ValueDump.differences(list, list.map { $0 }).isEmpty)
        #expect(ValueDump.differences(table, table.mapValues { $0 }).isEmpty)
        #expect(ValueDump.diff(list, list.map { $0 }) == nil)
        // Still told apart where an element differs.
        #expect(ValueDump.differences(list, [1, "b", DiffTodo(id: 1, title: "t"), [2.5]]).map(\.path) == ["[1]"])
        #expect(ValueDump.differences(table, ["a": 2, "b": [DiffTodo(id: 2, title: "u")]]).map(\.path) == ["[\"a\"]"])
    }

    @Test("Arrays of an Identifiable type report what the same elements held as Any report")
    func identifiedTypedAgreesWithAny() {
        var generator = SplitMix64(state: 0x1D_0047)
        func randomTodos(_ count: Int) -> [DiffTodo] {
            (0..<count).map { _ in
                DiffTodo(
                    id: Int.random(in: 0..<8, using: &generator),
                    title: ["a", "b"].randomElement(using: &generator)!,
                    done: Bool.random(using: &generator)
                )
            }
        }
        var compared = 0
        for _ in 0..<3_000 {
            let old = randomTodos(Int.random(in: 0...6, using: &generator))
            var new = old
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: new = randomTodos(Int.random(in: 0...6, using: &generator))
            case 1: new.append(contentsOf: randomTodos(1))
            case 2: if !new.isEmpty { new.remove(at: Int.random(in: 0..<new.count, using: &generator)) }
            case 3: new.shuffle(using: &generator)
            case 4: if !new.isEmpty { new[Int.random(in: 0..<new.count, using: &generator)].title = "c" }
            default: if !new.isEmpty { new[Int.random(in: 0..<new.count, using: &generator)].id = 9 }
            }
            let typed = ValueDump.differences(old, new)
            let erased = ValueDump.differences(old.map { $0 as Any }, new.map { $0 as Any })
            #expect(typed == erased, "\(old) -> \(new)")
            #expect(typed.isEmpty == (old == new))
            compared += typed.isEmpty ? 0 : 1
        }
        #expect(compared > 1_000)
        // Ids that are never equal to themselves: every element is only on its side.
        let nanIDs = [DiffNaNKeyed(id: .nan, note: "x"), DiffNaNKeyed(id: 1, note: "y")]
        let nanEdited = [
            DiffNaNKeyed(id: .nan, note: "x"), DiffNaNKeyed(id: 1, note: "z"), DiffNaNKeyed(id: 2, note: "w"),
        ]
        let typed = ValueDump.differences(nanIDs, nanEdited)
        #expect(typed == ValueDump.differences(nanIDs.map { $0 as Any }, nanEdited.map { $0 as Any }))
        #expect(typed.map(\.path) == ["[id: nan]", "[id: 1.0].note", "[id: nan #2]", "[id: 2.0]"])
    }

    @Test("A reported value is its dump without the first bullet, empty lines and the last newline")
    func describedText() {
        for text in ["a\n\nb", "a\r\n\nb\r\n", "a\n", "plain", "é\n\n", "\n\nx"] {
            let found = ValueDump.differences(DiffDescribed(text: text) as Any, 1 as Any)
            var dumped = ""
            Swift.dump(DiffDescribed(text: text), to: &dumped)
            let lines = dumped.split(separator: "\n").enumerated().map {
                $0.offset == 0 ? $0.element.dropFirst(2) : $0.element
            }
            #expect(found.map(\.old) == [lines.joined(separator: "\n")], "\(text.debugDescription)")
        }
    }
}

/// An element whose id may be NaN.
private struct DiffNaNKeyed: Identifiable {
    var id: Double
    var note: String
}

/// A value whose description has line breaks.
private struct DiffDescribed: CustomStringConvertible {
    var text: String
    var description: String { text }
}
