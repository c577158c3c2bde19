// DepthTests.swift
//
// No crash at any depth: a chain of 100,000 nested views is evaluated, updated, rendered and
// torn down with the graph's own work lists, in a child process so that a stack overflow
// fails the test instead of the test run. Under a sanitizer the depths are a tenth
// (TestScale).

import RuntimeMetadata
import TestSupport
import Testing
import ViewGraph

/// One level of a chain known only as `Any`: each level is a node of its own.
struct Chain: View {
    var remaining: Int
    var body: some View {
        DynamicView(remaining > 0 ? Chain(remaining: remaining - 1) as Any : Bottom() as Any)
    }
}

/// The end of a chain, with state to change from the bottom.
struct Bottom: View {
    @State var label = "bottom"
    var body: some View { Text(label) }
}

/// A wrapper view whose content is another wrapper, through a modifier and a group.
struct Wrapper: View {
    var remaining: Int
    var body: some View {
        Group {
            if remaining > 0 { DynamicView(Wrapper(remaining: remaining - 1)) } else { Text("core") }
        }
        .padding(1)
    }
}

/// Values kept until the child process exits: destroying a value nested 100,000 levels
/// deep is the runtime's recursion, not the graph's.
@MainActor var keptValues: [Any] = []

@MainActor
func buildDeepChain() {
    let depth = TestScale.scaled(100_000)
    let graph = ViewGraph(root: Chain(remaining: depth))
    let nodes = graph.allNodes
    #expect(nodes.count == depth + 3)
    let bottomNode = nodes[nodes.count - 2]
    #expect(bottomNode.viewType == TypeMetadata(Bottom.self))
    #expect(bottomNode.depth == depth + 1)
    // A state change at the bottom evaluates only the bottom.
    let bottom = bottomNode.viewValue as? Bottom
    bottom?.label = "changed"
    #expect(graph.update() == [TypeMetadata(Bottom.self).name, TypeMetadata(Text.self).name])
    let text = TextRenderer().render(graph)
    #expect(text.hasSuffix("[depth \(depth + 2)] Text \"changed\""))
    let html = HTMLRenderer(title: "deep").render(graph)
    #expect(html.contains("<p>changed</p>"))
    keptValues.append(graph)
}

@MainActor
func buildDeepDynamicValue() {
    var value: Any = Text("leaf")
    for _ in 0..<TestScale.scaled(100_000) { value = DynamicView(value) }
    keptValues.append(value)
    // Nested dynamic views make no nodes of their own: one node, the leaf.
    let graph = ViewGraph(any: value)
    #expect(graph.nodeCount == 1)
    #expect(graph.root.viewType == TypeMetadata(Text.self))
    let root = ViewGraph(root: Group { DynamicView(value) })
    #expect(root.nodeCount == 2)
    keptValues.append(graph)
    keptValues.append(root)
}

@MainActor
func buildDeepWrappers() {
    let depth = TestScale.scaled(30_000)
    let graph = ViewGraph(root: Wrapper(remaining: depth))
    // Wrapper, its modifier, its group, the optional or branch, per level.
    #expect(graph.nodeCount > depth * 4)
    #expect(TextRenderer().render(graph).hasSuffix("Text \"core\""))
    // Replacing the whole chain removes it with the graph's own work list.
    keptValues.append(graph)
}

@MainActor
func tearDownDeepChain() {
    struct Switch: View {
        @State var deep = true
        var body: some View {
            if deep { Chain(remaining: TestScale.scaled(100_000)) } else { Text("shallow") }
        }
    }
    let graph = ViewGraph(root: Switch())
    #expect(graph.nodeCount > TestScale.scaled(100_000))
    let view = graph.root.viewValue as? Switch
    view?.deep = false
    graph.update()
    #expect(graph.nodeCount == 3)
    #expect(TextRenderer().render(graph).hasSuffix("Text \"shallow\""))
}

@Suite("ViewGraph depth")
struct DepthTests {
    @Test("A chain of 100,000 views known as Any builds, updates and renders without exhausting the stack")
    func deepChain() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run { buildDeepChain() }
        }
    }

    @Test("100,000 nested DynamicViews resolve to the one view inside")
    func deepDynamicValue() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run { buildDeepDynamicValue() }
        }
    }

    @Test("30,000 nested wrappers with modifiers, groups and branches build and render")
    func deepWrappers() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run { buildDeepWrappers() }
        }
    }

    @Test("A chain of 100,000 views is removed by an update without recursion")
    func tearDown() async {
        await #expect(processExitsWith: .success) {
            await MainActor.run { tearDownDeepChain() }
        }
    }

    @Test("A configured depth limit stops a view that contains itself with an error node")
    @MainActor
    func configuredLimit() throws {
        struct Endless: View {
            var body: some View { Endless() }
        }
        let graph = ViewGraph(root: Endless(), configuration: .init(maximumDepth: 1_000))
        #expect(graph.nodeCount == 1_002)
        let deepest = try #require(graph.allNodes.last)
        guard case .error(let reason) = deepest.renderAttributes.role else {
            Issue.record("no error node")
            return
        }
        #expect(reason.contains("nests deeper than 1000 levels"))
    }

    @Test("At the depth limit, the error node names the view that recurses, not the child that crossed")
    @MainActor
    func recursingViewNamed() throws {
        // A → B → A, each body a container with a leaf first: the child crossing the limit is
        // a Text or a VStack, but the user needs to hear of PingView.
        let graph = ViewGraph(root: OuterPage(), configuration: .init(maximumDepth: 40))
        let reasons = graph.allNodes.compactMap { node -> String? in
            guard case .error(let reason) = node.renderAttributes.role else { return nil }
            return reason
        }
        #expect(reasons.count == 1)
        #expect(reasons.first?.hasPrefix("\(TypeMetadata(PingView.self).name) nests deeper than 40 levels") == true)
        // A view whose body is itself names itself.
        let endless = ViewGraph(root: SelfBody(), configuration: .init(maximumDepth: 10))
        let reason = endless.allNodes.compactMap { node -> String? in
            guard case .error(let reason) = node.renderAttributes.role else { return nil }
            return reason
        }
        #expect(reason == ["\(TypeMetadata(SelfBody.self).name) nests deeper than 10 levels"])
    }
}

/// A page whose content starts the recursion below a container of the same type as the
/// recursion's own.
struct OuterPage: View {
    var body: some View {
        Stack(.vertical) {
            Text("page"); PingView()
        }
    }
}

/// One half of a mutual recursion: PingView → PongView → PingView.
struct PingView: View {
    var body: some View {
        Stack(.vertical) {
            Text("ping"); PongView()
        }
    }
}

/// The other half.
struct PongView: View {
    var body: some View {
        Stack(.vertical) {
            Text("pong"); PingView()
        }
    }
}

/// A view whose body is itself.
struct SelfBody: View {
    var body: some View { SelfBody() }
}
