// ViewGraphTests.swift
//
// The view layer end to end: typed resolution of `Any`, rendering, and which bodies an update
// evaluates.

import RuntimeMetadata
import Testing
import ViewGraph

// MARK: - Fixtures

struct Greeting: View {
    var name: String
    var body: some View {
        Stack(.vertical, spacing: 4) {
            Text("Hello")
            Text(name)
        }
    }
}

struct Badge: View {
    var count: Int
    var body: some View { Text("\(count)").padding(2) }
}

struct Counter: View {
    @State var count = 0
    var body: some View {
        Stack(.horizontal) {
            Text("Count")
            Badge(count: count)
        }
    }
}

struct Leaf: View {
    var label: String
    @State var taps = 0
    var body: some View { Text("\(label): \(taps)") }
}

struct Branch: View {
    var title: String
    var body: some View {
        Group {
            Text(title)
            Leaf(label: "left")
            Leaf(label: "right")
        }
    }
}

struct Accent: EnvironmentKey {
    static let defaultValue = "blue"
}

extension EnvironmentValues {
    var accent: String {
        get { self[Accent.self] }
        set { self[Accent.self] = newValue }
    }
}

struct AccentReader: View {
    @Environment(\.accent) var accent
    var body: some View { Text("accent \(accent)") }
}

struct Plain: View {
    var body: some View { Text("plain") }
}

struct Themed: View {
    @State var accent = "red"
    var body: some View {
        Group {
            AccentReader()
            Plain()
        }
        .environment(\.accent, accent)
    }
}

struct Card: ViewModifier {
    var title: String
    func body(content: Content) -> some View {
        Stack(.vertical) {
            Text(title)
            content
        }
        .className("card")
    }
}

enum Mode {
    case compact, regular, detailed
}

struct Conditional: View {
    var showTitle: Bool
    var subtitle: String?
    var mode: Mode
    var body: some View {
        Group {
            if showTitle {
                Text("Title")
            } else {
                EmptyView()
            }
            if let subtitle { Text(subtitle) }
            switch mode {
            case .compact: Text("compact")
            case .regular: Badge(count: 1)
            case .detailed: Greeting(name: "detail")
            }
        }
    }
}

struct Item: Identifiable {
    var id: Int
    var view: Any
}

struct NotAView {
    var value = 1
}

@MainActor
private func nodeTypes(_ nodes: [ViewNode]) -> [String] { nodes.map(\.viewType.name) }

// MARK: - Tests

@Suite("ViewGraph")
@MainActor
struct ViewGraphTests {
    @Test("A typed tree renders with each node's concrete type")
    func rendering() {
        let graph = ViewGraph(root: Greeting(name: "Ada"))
        #expect(
            TextRenderer().render(graph) == """
                Greeting
                  Stack<TupleView<Pack{Text, Text}>> [stack vertical, spacing 4]
                    TupleView<Pack{Text, Text}>
                      Text "Hello"
                      Text "Ada"
                """
        )
        #expect(graph.root.viewType == TypeMetadata(Greeting.self))
        #expect(graph.allNodes.map(\.evaluationCount).allSatisfy { $0 == 1 })
    }

    @Test("A root given as Any makes the same typed nodes as a typed root")
    func anyRoot() {
        let typed = ViewGraph(root: Greeting(name: "Ada"))
        let erased = ViewGraph(any: Greeting(name: "Ada") as Any)
        #expect(nodeTypes(typed.allNodes) == nodeTypes(erased.allNodes))
        #expect(TextRenderer().render(typed) == TextRenderer().render(erased))
    }

    @Test("A heterogeneous [Any] of 20 view types resolves to the statically typed tree's nodes")
    func heterogeneousList() throws {
        let statically = ViewGraph(
            root: Group {
                Text("a")
                EmptyView()
                Greeting(name: "b")
                Badge(count: 2)
                Counter()
                Leaf(label: "c")
                Branch(title: "d")
                AccentReader()
                Plain()
                Themed()
                Text("e").padding(3)
                Text("f").tag(7)
                Text("g").modifier(Card(title: "h"))
                Stack(.horizontal) { Text("i") }
                Group { Text("j") }
                Optional(Text("k"))
                Conditional(showTitle: true, subtitle: "l", mode: .detailed)
                ForEach([1, 2], id: \.self) { Badge(count: $0) }
                Text("m").environment(\.accent, "green")
                Text("n").className("x")
            }
        )
        let values: [Any] = [
            Text("a"), EmptyView(), Greeting(name: "b"), Badge(count: 2), Counter(), Leaf(label: "c"),
            Branch(title: "d"), AccentReader(), Plain(), Themed(), Text("e").padding(3), Text("f").tag(7),
            Text("g").modifier(Card(title: "h")), Stack(.horizontal) { Text("i") }, Group { Text("j") },
            Optional(Text("k")) as Any, Conditional(showTitle: true, subtitle: "l", mode: .detailed),
            ForEach([1, 2], id: \.self) { Badge(count: $0) }, Text("m").environment(\.accent, "green"),
            Text("n").className("x"),
        ]
        let dynamically = ViewGraph(
            root: Group {
                ForEach(values.indices, id: \.self) { index in DynamicView(values[index]) }
            }
        )
        let staticChildren = try #require(statically.root.children.first).children
        let dynamicChildren = try #require(dynamically.root.children.first).children
        #expect(staticChildren.count == 20)
        #expect(Set(staticChildren.map(\.viewType)).count == 20)
        #expect(nodeTypes(staticChildren) == nodeTypes(dynamicChildren))
        #expect(
            nodeTypes(staticChildren.flatMap(\.subtree)) == nodeTypes(dynamicChildren.flatMap(\.subtree))
        )
    }

    @Test("Values that are not views become error nodes naming their type")
    func invalidValues() throws {
        let graph = ViewGraph(
            root: Group {
                ForEach([0, 1, 2], id: \.self) { index in
                    DynamicView([Text("ok") as Any, NotAView(), 42][index])
                }
            }
        )
        let children = try #require(graph.root.children.first).children
        #expect(
            nodeTypes(children) == [
                TypeMetadata(Text.self).name, TypeMetadata(InvalidView.self).name,
                TypeMetadata(InvalidView.self).name,
            ]
        )
        #expect(children[1].renderAttributes.role == .error("\(String(reflecting: NotAView.self)) is not a view"))
        #expect(children[2].renderAttributes.role == .error("Swift.Int is not a view"))
        let root = ViewGraph(any: NotAView())
        #expect(root.root.viewType == TypeMetadata(InvalidView.self))
    }

    @Test("A state change at a leaf evaluates only that leaf")
    func leafState() throws {
        let graph = ViewGraph(root: Branch(title: "tree"))
        #expect(graph.lastEvaluated.count == graph.allNodes.count)
        let leaves = graph.allNodes.filter { $0.viewType == TypeMetadata(Leaf.self) }
        #expect(leaves.count == 2)
        let left = try #require(leaves.first?.viewValue as? Leaf)
        left.taps = 5
        #expect(graph.update() == [TypeMetadata(Leaf.self).name, TypeMetadata(Text.self).name])
        #expect(TextRenderer().render(graph).contains("Text \"left: 5\""))
        #expect(TextRenderer().render(graph).contains("Text \"right: 0\""))
        #expect(leaves[1].evaluationCount == 1)
        #expect(graph.root.evaluationCount == 1)
        #expect(graph.update().isEmpty)
    }

    @Test("A parent evaluated again skips children whose value did not change")
    func unchangedChildren() throws {
        let graph = ViewGraph(root: Counter())
        let counter = try #require(graph.root.viewValue as? Counter)
        counter.count = 3
        // Counter's body runs; its stack and tuple hold a new Badge value; Badge, its padding
        // and its text run; the unchanged Text("Count") does not.
        #expect(
            graph.update().map { TextRenderer.unqualifiedName($0) } == [
                "Counter", "Stack<TupleView<Pack{Text, Badge}>>", "TupleView<Pack{Text, Badge}>", "Badge",
                "ModifiedContent<Text, PaddingModifier>", "Text",
            ]
        )
        let countText = graph.allNodes.first { ($0.viewValue as? Text)?.content == "Count" }
        #expect(countText?.evaluationCount == 1)
        #expect(TextRenderer().render(graph).contains("Text \"3\""))
        // The same value again: Counter's body runs, and its stack, equal by layout, does not.
        counter.count = 3
        #expect(graph.update() == [TypeMetadata(Counter.self).name])
    }

    @Test("An environment change evaluates the views that read the value, not their siblings")
    func environment() throws {
        let graph = ViewGraph(root: Themed())
        #expect(TextRenderer().render(graph).contains("\"accent red\""))
        let themed = try #require(graph.root.viewValue as? Themed)
        let plain = try #require(graph.allNodes.first { $0.viewType == TypeMetadata(Plain.self) })
        themed.accent = "green"
        // Themed and its environment modifier run; the group and tuple, unchanged, pass the
        // new environment down; AccentReader read the value and runs; Plain did not.
        #expect(
            graph.update().map { TextRenderer.unqualifiedName($0) } == [
                "Themed",
                "ModifiedContent<Group<TupleView<Pack{AccentReader, Plain}>>, EnvironmentWritingModifier<String>>",
                "AccentReader", "Text",
            ]
        )
        #expect(plain.evaluationCount == 1)
        #expect(TextRenderer().render(graph).contains("\"accent green\""))
        let outside = ViewGraph(root: AccentReader())
        #expect(TextRenderer().render(outside).contains("\"accent blue\""))
    }

    @Test("An environment set again to equal values reaches no child; a later change still reaches its readers")
    func environmentSetAgain() throws {
        let graph = ViewGraph(root: Themed())
        let themed = try #require(graph.root.viewValue as? Themed)
        let reader = try #require(graph.allNodes.first { $0.viewType == TypeMetadata(AccentReader.self) })
        // Set to the same value twice: the modifier makes a new environment each time, equal.
        for _ in 0..<2 {
            themed.accent = "red"
            #expect(graph.update().map { TextRenderer.unqualifiedName($0) }.first == "Themed")
            #expect(reader.evaluationCount == 1)
        }
        themed.accent = "violet"
        #expect(graph.update().map { TextRenderer.unqualifiedName($0) }.contains("AccentReader"))
        #expect(TextRenderer().render(graph).contains("\"accent violet\""))
        themed.accent = "red"
        _ = graph.update()
        #expect(TextRenderer().render(graph).contains("\"accent red\""))
    }

    @Test("Builders support if/else, if let, switch and optional content")
    func builders() {
        let full = ViewGraph(root: Conditional(showTitle: true, subtitle: "sub", mode: .compact))
        let text = TextRenderer().render(full)
        #expect(text.contains("\"Title\"") && text.contains("\"sub\"") && text.contains("\"compact\""))
        let sparse = ViewGraph(root: Conditional(showTitle: false, subtitle: nil, mode: .detailed))
        let sparseText = TextRenderer().render(sparse)
        #expect(!sparseText.contains("\"Title\"") && sparseText.contains("EmptyView"))
        #expect(sparseText.contains("Greeting"))
    }

    @Test("A custom modifier wraps its content; primitive modifiers show as attributes")
    func modifiers() {
        let graph = ViewGraph(root: Text("body").modifier(Card(title: "Card")).padding(5).tag("t"))
        let text = TextRenderer().render(graph)
        #expect(text.contains("[padding 5]"))
        #expect(text.contains("[tag t]"))
        #expect(text.contains("[class card]"))
        #expect(text.contains("\"Card\"") && text.contains("\"body\""))
    }
}

/// A view whose body contains itself without end.
struct Endless: View {
    var level = 0
    var body: some View { Endless(level: level + 1) }
}

/// A view that declares `Never` as its body without being a primitive of the graph.
struct Bodiless: View {
    typealias Body = Never
}

@Suite("ViewGraph robustness")
@MainActor
struct ViewGraphRobustnessTests {
    @Test("A view that nests without end stops at the maximum depth with an error node")
    func endless() throws {
        let graph = ViewGraph(root: Endless())
        let deepest = try #require(graph.allNodes.last)
        #expect(deepest.viewType == TypeMetadata(InvalidView.self))
        #expect(graph.allNodes.count == ViewGraph.maximumDepth + 2)
        guard case .error(let reason) = deepest.renderAttributes.role else {
            Issue.record("no error")
            return
        }
        #expect(reason.contains("nests deeper than \(ViewGraph.maximumDepth) levels"))
    }

    @Test("A view with a Never body that the graph does not know becomes an error node")
    func bodiless() {
        let graph = ViewGraph(root: Bodiless())
        #expect(graph.root.children.map(\.viewType) == [TypeMetadata(InvalidView.self)])
        #expect(TextRenderer().render(graph).contains("has no body"))
    }

    @Test("State written from many tasks, each on the main actor where the graph lives, is seen by the next update")
    func stateFromTasks() async throws {
        let graph = ViewGraph(root: Counter())
        let counter = try #require(graph.root.viewValue as? Counter)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<8 {
                group.addTask { @MainActor in
                    for step in 0..<1_000 { counter.count = task * 10_000 + step }
                }
            }
        }
        let evaluated = graph.update()
        #expect(evaluated.first == TypeMetadata(Counter.self).name)
        #expect(graph.update().isEmpty)
        let shown = TextRenderer().render(graph)
        #expect((0..<8).contains { shown.contains("Text \"\($0 * 10_000 + 999)\"") })
    }
}
