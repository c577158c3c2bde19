// EngineSemanticsTests.swift
//
// Engine's rules, one test each, as its README and sources state them: aliases that refer to
// themselves defer upward, styles stack and compose, a styled view's body is its final
// styling, outputs follow tree order and their writers, variadic children flatten custom views
// and aliases, and versioned modifiers.

import RuntimeMetadata
import Testing
import ViewGraph

// MARK: - Aliases

struct Slot: ViewAlias {
    var defaultBody: some View { Text("default") }
}

/// A definition whose source is the alias itself.
struct SelfDefined: View {
    var body: some View {
        Slot().viewAlias(Slot.self) { Slot() }
    }
}

/// An inner definition that contains the alias: inside it, the alias is the outer definition.
struct Layered: View {
    var body: some View {
        Group {
            Slot()
                .viewAlias(Slot.self) {
                    Stack(.horizontal) {
                        Text("inner")
                        Slot()
                    }
                }
        }
        .viewAlias(Slot.self) { Text("outer") }
    }
}

// MARK: - Styles

struct Badge2Configuration {
    var count: Int
}

struct PlainBadge2Style: ViewStyle {
    func makeBody(configuration: Badge2Configuration) -> some View { Text("plain \(configuration.count)") }
}

struct LoudBadge2Style: ViewStyle {
    func makeBody(configuration: Badge2Configuration) -> some View { Text("LOUD \(configuration.count)") }
}

/// A style that wraps whatever style comes next: it builds the styled view again.
struct BorderedBadge2Style: ViewStyle {
    func makeBody(configuration: Badge2Configuration) -> some View {
        Badge2View(configuration: configuration).className("border")
    }
}

struct Badge2View: ViewStyledView {
    var configuration: Badge2Configuration
    static var defaultStyle: PlainBadge2Style { PlainBadge2Style() }
}

/// A styled view with a body of its own: its final styling, around every style's output.
struct FramedBadge: ViewStyledView {
    var configuration: Badge2Configuration
    static var defaultStyle: PlainBadge2Style { PlainBadge2Style() }
    var body: some View {
        FramedBadge(configuration: configuration).padding(3)
    }
}

/// A default style that builds its own styled view again.
struct LoopingStyle: ViewStyle {
    func makeBody(configuration: Badge2Configuration) -> some View { LoopingBadge(configuration: configuration) }
}

struct LoopingBadge: ViewStyledView {
    var configuration: Badge2Configuration
    static var defaultStyle: LoopingStyle { LoopingStyle() }
}

// MARK: - Outputs

struct Toolbar: ViewOutputKey {
    typealias Content = Text
}

struct ToolbarEditor: View {
    @State var showFirst = false
    @State var showLast = true
    var body: some View {
        ViewOutputKeyReader(Toolbar.self) {
            Group {
                if showFirst { Text("a").viewOutput(Toolbar.self) { Text("first") } }
                Text("b").viewOutput(Toolbar.self) { Text("middle") }
                if showLast { Text("c").viewOutput(Toolbar.self) { Text("last") } }
            }
        } content: { items in
            Stack(.horizontal) { items }
        }
    }
}

// MARK: - Variadic

struct TwoTexts: View {
    var body: some View {
        Text("one")
        Text("two")
    }
}

struct Three: ViewAlias {}

struct Counted<Source: View>: View {
    var source: Source
    var body: some View {
        VariadicViewAdapter {
            source
        } content: { children in
            Text("\(children.count)")
        }
    }
}

// MARK: - Versioned modifier

struct Emphasis: VersionedViewModifier {
    func v3Body(content: Content) -> some View { content.className("v3") }
    func v1Body(content: Content) -> some View { content.className("v1") }
}

struct Untouched: VersionedViewModifier {
    func v5Body(content: Content) -> some View { content.className("v5") }
}

// MARK: - Helpers

@MainActor
private func lines(_ graph: ViewGraph) -> String { TextRenderer().render(graph) }

@Suite("Engine semantics")
@MainActor
struct EngineSemanticsTests {
    @Test("An alias defined as itself defers upward: no definition above, so its default body")
    func aliasSelfDefinition() {
        let graph = ViewGraph(root: SelfDefined())
        #expect(texts(graph) == ["default"])
        #expect(graph.nodeCount < 20)
    }

    @Test("Inside a definition that contains the alias, the alias is the next definition up")
    func aliasInsideItsSource() {
        #expect(texts(ViewGraph(root: Layered())) == ["inner", "outer"])
    }

    @Test("The style closest to the view is applied; one that does not build the view ignores the rest")
    func styleOrder() {
        let graph = ViewGraph(
            root: Badge2View(configuration: .init(count: 1)).style(LoudBadge2Style()).style(PlainBadge2Style())
        )
        #expect(texts(graph) == ["LOUD 1"])
    }

    @Test("A style that builds the styled view again wraps the next style out, then the default style")
    func styleComposition() {
        let composed = ViewGraph(
            root: Badge2View(configuration: .init(count: 2)).style(BorderedBadge2Style()).style(LoudBadge2Style())
        )
        #expect(texts(composed) == ["LOUD 2"])
        #expect(lines(composed).contains("[class border]"))
        let overDefault = ViewGraph(root: Badge2View(configuration: .init(count: 3)).style(BorderedBadge2Style()))
        #expect(texts(overDefault) == ["plain 3"])
        #expect(lines(overDefault).contains("[class border]"))
        // Twice bordered, then the default.
        let twice = ViewGraph(
            root: Badge2View(configuration: .init(count: 4)).style(BorderedBadge2Style()).style(BorderedBadge2Style())
        )
        #expect(lines(twice).components(separatedBy: "[class border]").count == 3)
        #expect(texts(twice) == ["plain 4"])
    }

    @Test("A default style that builds its styled view again stops with an error node")
    func loopingDefaultStyle() throws {
        let graph = ViewGraph(root: LoopingBadge(configuration: .init(count: 1)))
        let error = try #require(graph.allNodes.last)
        guard case .error(let reason) = error.renderAttributes.role else {
            Issue.record("no error node")
            return
        }
        #expect(reason.contains("default style"))
        #expect(graph.nodeCount < 20)
    }

    @Test("A styled view's own body is its final styling, applied once around the chosen style")
    func finalStyling() {
        let plain = ViewGraph(root: FramedBadge(configuration: .init(count: 5)))
        #expect(texts(plain) == ["plain 5"])
        #expect(lines(plain).components(separatedBy: "[padding 3]").count == 2)
        let loud = ViewGraph(root: FramedBadge(configuration: .init(count: 6)).style(LoudBadge2Style()))
        #expect(texts(loud) == ["LOUD 6"])
        #expect(lines(loud).components(separatedBy: "[padding 3]").count == 2)
    }

    @Test("Outputs are reduced in tree order, and a removed writer's output goes")
    func outputOrder() throws {
        let graph = ViewGraph(root: ToolbarEditor())
        func toolbar() -> [String] {
            let stack = graph.allNodes.first { $0.viewType == TypeMetadata(Stack<ViewOutputList<Text>>.self) }
            return stack?.subtree.compactMap {
                guard case .text(let text) = $0.renderAttributes.role else { return nil }
                return text
            } ?? []
        }
        #expect(toolbar() == ["middle", "last"])
        let editor = try #require(graph.root.viewValue as? ToolbarEditor)
        // A writer inserted before the others is reduced first.
        editor.showFirst = true
        graph.update()
        #expect(toolbar() == ["first", "middle", "last"])
        // A removed writer's output leaves the reader.
        editor.showLast = false
        graph.update()
        #expect(toolbar() == ["first", "middle"])
    }

    @Test("Variadic children flatten custom views, aliases, groups and ForEach, as _VariadicView does")
    func variadicFlattening() {
        func count<Source: View>(_ source: Source) -> String? {
            texts(ViewGraph(root: Counted(source: source))).first
        }
        #expect(count(TwoTexts()) == "2")
        #expect(
            count(
                Three().viewAlias(Three.self) {
                    Text("a"); Text("b"); Text("c")
                }
            ) == "3"
        )
        // An alias defined above the adapter, and a modifier applied to each of a group's views.
        let defined = ViewGraph(
            root: Counted(source: Three()).viewAlias(Three.self) {
                Text("a"); Text("b"); Text("c")
            }
        )
        #expect(texts(defined).first == "3")
        #expect(
            count(
                Group {
                    Text("a"); Text("b")
                }.padding(2)
            ) == "2"
        )
        #expect(
            count(
                Group {
                    TwoTexts(); ForEach(0..<3) { Text("\($0)") }; EmptyView()
                }
            ) == "5"
        )
        // One view stays itself: a custom view with a single view in its body is one child.
        #expect(count(Badge2View(configuration: .init(count: 1))) == "1")
        // A custom view with state is one child: its body needs its node's state.
        #expect(
            count(
                Group {
                    StatefulRow(title: "x"); TwoTexts()
                }
            ) == "3"
        )
    }

    @Test("VersionedViewModifier applies the body of the graph's version, falling back to lower versions")
    func versionedModifier() {
        func classes(version: Int) -> String {
            lines(
                ViewGraph(
                    root: Text("x").modifier(Emphasis()).modifier(Untouched()),
                    configuration: .init(version: version)
                )
            )
        }
        #expect(classes(version: 1).contains("[class v1]") && !classes(version: 1).contains("[class v5]"))
        #expect(classes(version: 2).contains("[class v1]"))
        #expect(classes(version: 3).contains("[class v3]") && !classes(version: 3).contains("[class v1]"))
        #expect(classes(version: 4).contains("[class v3]"))
        #expect(classes(version: 5).contains("[class v3]") && classes(version: 5).contains("[class v5]"))
    }
}
