// WholeOperations.swift
//
// Whole operations in the shapes issue 47 measured them: every child of every node of 1,000
// users listed through code that is generic over the mirror and that the caller cannot
// specialize (a framework's generic function in another module); the dump of an app state
// against `Swift.dump`; the diff of two app states with six scattered changes against
// swift-custom-dump's `diff`. The values are globals, lazily initialized, as a framework's
// fixtures and a test store's states are; each side is a closure the timing loop cannot see.

import Benchmark
import CustomDump
import RuntimeMetadata
import ValueDump

// MARK: - Reflection through generic code

/// What a framework's generic reflection code asks of a mirror.
protocol GenericMirror {
    associatedtype ChildList: Collection where ChildList.Element == Mirror.Child
    init(reflecting subject: Any)
    var children: ChildList { get }
    var superclassMirror: Self? { get }
}

extension Mirror: GenericMirror {}
extension RuntimeMirror: GenericMirror {}

/// A user's role, with payloads.
enum WholeRole {
    case member
    case admin(since: Int)
    case guest(invitedBy: String)
}

/// A user's postal address.
struct WholeAddress {
    var street: String
    var city: String
    var zip: Int
}

/// The team a user belongs to, shared between users.
class WholeGroup {
    var name: String
    init(name: String) { self.name = name }
}

/// A team with a parent class.
final class WholeTeam: WholeGroup {
    var size = 12
}

/// One user.
struct WholeUser {
    var id: Int
    var name: String
    var email: String?
    var address: WholeAddress
    var roles: [WholeRole]
    var score: Double
    var team: WholeTeam
    var lastSeen: (day: Int, minute: Int)
}

/// Counts every child of every node, reading each label, in code the caller cannot specialize.
@_semantics("optimize.sil.specialize.generic.never")
@inline(never)
func countEveryChild<M: GenericMirror>(_ mirror: M, _ tally: inout (children: Int, labelBytes: Int)) {
    for child in mirror.children {
        tally.children += 1
        tally.labelBytes &+= child.label?.utf8.count ?? 0
        countEveryChild(M(reflecting: child.value), &tally)
    }
    if let superclass = mirror.superclassMirror { countEveryChild(superclass, &tally) }
}

nonisolated(unsafe) private let wholeTeams = (0..<10).map { WholeTeam(name: "team \($0)") }

/// 1,000 users, a lazily initialized global.
nonisolated(unsafe) let wholeUsers: [WholeUser] = (0..<1_000).map { index in
    let roles: [WholeRole] = [.member, .admin(since: index), .guest(invitedBy: "u\(index / 2)")]
    return WholeUser(
        id: index,
        name: "user \(index)",
        email: index % 3 == 0 ? nil : "user\(index)@example.com",
        address: WholeAddress(street: "\(index) Main St", city: "Springfield", zip: 10_000 + index),
        roles: Array(roles.prefix(1 + index % 3)),
        score: Double(index) / 7,
        team: wholeTeams[index % 10],
        lastSeen: (index % 365, index % 1_440)
    )
}

// MARK: - An app state, dumped and diffed

/// An app's state: a profile with a nested address, 100 items with tags and an optional enum, a
/// second array, a phase with payloads, a dictionary and an optional selection.
struct WholeShop: Equatable {
    struct Address: Equatable {
        var street = "1 Infinite Loop"
        var city = "Cupertino"
    }
    struct Profile: Equatable {
        var name = "Ada"
        var address = Address()
        var verified = true
    }
    enum Status: Equatable {
        case draft
        case listed(at: Int)
        case sold(buyer: String, price: Double)
    }
    struct Item: Identifiable, Equatable {
        var id: Int
        var title: String
        var price: Double
        var tags: [String]
        var status: Status?
    }
    enum Phase: Equatable {
        case idle
        case loading(page: Int)
        case failed(message: String)
    }
    var profile = Profile()
    var items: [Item] = (0..<100).map { index in
        Item(
            id: index,
            title: "item \(index)",
            price: Double(index) + 0.5,
            tags: index % 2 == 0 ? ["new"] : ["sale", "gift"],
            status: index % 4 == 0
                ? nil
                : index % 4 == 1 ? .draft : index % 4 == 2 ? .listed(at: index) : .sold(buyer: "b\(index)", price: 3.5)
        )
    }
    var recent: [Int] = Array(0..<100)
    var phase = Phase.loading(page: 2)
    var filters: [String: Int] = ["open": 1, "sold": 2, "draft": 3]
    var selection: Int? = 7
}

/// The state, a lazily initialized global.
let wholeShop = WholeShop()

/// The state with six scattered changes.
let wholeShopChanged: WholeShop = {
    var state = WholeShop()
    state.profile.address.city = "Palo Alto"
    state.items[20].tags.append("clearance")
    state.items[41].price = 9.75
    state.items.append(WholeShop.Item(id: 100, title: "item 100", price: 1, tags: [], status: .draft))
    state.recent.append(100)
    state.phase = .failed(message: "offline")
    return state
}()

// MARK: - Rows

/// Runs `body` once per iteration; not inlined, so each side is a closure it cannot see.
@inline(never)
func wholeTimed(_ benchmark: Benchmark, _ body: () -> Void) {
    for _ in benchmark.scaledIterations { body() }
}

func wholeOperationBenchmarks() {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .mallocCountTotal],
        timeUnits: .microseconds,
        maxDuration: .seconds(2)
    )
    var standard = (children: 0, labelBytes: 0)
    countEveryChild(Mirror(reflecting: wholeUsers), &standard)
    var runtime = (children: 0, labelBytes: 0)
    countEveryChild(RuntimeMirror(reflecting: wholeUsers), &runtime)
    precondition(standard == runtime, "RuntimeMirror lists \(runtime), Mirror \(standard)")
    var standardText = ""
    Swift.dump(wholeShop, to: &standardText)
    var dumpText = ""
    ValueDump.dump(wholeShop, to: &dumpText)
    precondition(dumpText.split(separator: "\n").count == standardText.split(separator: "\n").count)
    precondition(ValueDump.differences(wholeShop, wholeShopChanged).count == 6)
    precondition(CustomDump.diff(wholeShop, wholeShopChanged) != nil)

    Benchmark("Reflect.generic.runtimeMirror.users1k", configuration: configuration) { benchmark in
        wholeTimed(benchmark) {
            var tally = (children: 0, labelBytes: 0)
            countEveryChild(RuntimeMirror(reflecting: wholeUsers), &tally)
            blackHole(tally.children &+ tally.labelBytes)
        }
    }
    Benchmark("Reflect.generic.mirror.users1k", configuration: configuration) { benchmark in
        wholeTimed(benchmark) {
            var tally = (children: 0, labelBytes: 0)
            countEveryChild(Mirror(reflecting: wholeUsers), &tally)
            blackHole(tally.children &+ tally.labelBytes)
        }
    }
    Benchmark("Dump.valueDump.appState", configuration: configuration) { benchmark in
        wholeTimed(benchmark) {
            var text = ""
            ValueDump.dump(wholeShop, to: &text)
            blackHole(text)
        }
    }
    Benchmark("Dump.Mirror.appState", configuration: configuration) { benchmark in
        wholeTimed(benchmark) {
            var text = ""
            Swift.dump(wholeShop, to: &text)
            blackHole(text)
        }
    }
    Benchmark("Diff.sixChanges.appState", configuration: configuration) { benchmark in
        wholeTimed(benchmark) { blackHole(ValueDump.diff(wholeShop, wholeShopChanged)) }
    }
    Benchmark("Diff.sixChanges.appState.customDump", configuration: configuration) { benchmark in
        wholeTimed(benchmark) { blackHole(CustomDump.diff(wholeShop, wholeShopChanged)) }
    }
}
