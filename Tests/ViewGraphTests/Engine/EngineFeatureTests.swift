// EngineFeatureTests.swift
//
// Each Engine-style feature: what renders, and which bodies an update evaluates.

import Foundation
import RuntimeMetadata
import Testing
import ViewGraph

// MARK: - ViewStyle

struct RatingConfiguration {
    var stars: Int
}

struct PlainRatingStyle: ViewStyle {
    func makeBody(configuration: RatingConfiguration) -> some View {
        Text("\(configuration.stars) stars")
    }
}

struct StarRatingStyle: ViewStyle {
    var symbol = "*"
    func makeBody(configuration: RatingConfiguration) -> some View {
        Stack(.horizontal) {
            ForEach(0..<configuration.stars, id: \.self) { _ in Text(symbol) }
        }
    }
}

struct RatingView: ViewStyledView {
    var configuration: RatingConfiguration
    static var defaultStyle: PlainRatingStyle { PlainRatingStyle() }
}

struct StyledScreen: View {
    @State var symbol = "*"
    var body: some View {
        Group {
            RatingView(configuration: .init(stars: 2))
            Text("footer")
        }
        .style(StarRatingStyle(symbol: symbol))
    }
}

// MARK: - StyleContext

struct SidebarContext: StyleContext {}

struct ContextualLabel: View {
    var body: some View {
        Text("label")
            .modifier(
                StyleContextConditionalModifier(predicate: ScrollViewStyleContext.self) { PaddingModifier(amount: 4) }
            )
            .modifier(StyleContextConditionalModifier(predicate: NoStyleContext.self) { ClassModifier(name: "none") })
            .modifier(
                StyleContextConditionalModifier(predicate: SidebarContext.self) { ClassModifier(name: "sidebar") }
            )
    }
}

// MARK: - ViewAlias

struct ScreenTitle: ViewAlias {}

struct DefaultedTitle: ViewAlias {
    var defaultBody: some View { Text("Untitled") }
}

struct Header: View {
    var body: some View {
        Stack(.horizontal) {
            ScreenTitle()
            Text("|")
            DefaultedTitle()
        }
    }
}

struct AliasedScreen: View {
    @State var title = "Inbox"
    var body: some View {
        Header().viewAlias(ScreenTitle.self) { Text(title) }
    }
}

// MARK: - ViewOutput

struct ToolbarItems: ViewOutputKey {
    typealias Content = Text
}

struct Editor: View {
    @State var saveTitle = "Save"
    var body: some View {
        Stack(.vertical) {
            Text("document").viewOutput(ToolbarItems.self) { Text(saveTitle) }
            Text("status").viewOutput(ToolbarItems.self) { Text("Share") }
        }
    }
}

struct EditorScreen: View {
    var body: some View {
        ViewOutputKeyReader(ToolbarItems.self) {
            Editor()
        } content: { items in
            Stack(.horizontal) { items }.className("toolbar")
        }
    }
}

struct NavigationTitle: ViewOutputAlias {
    typealias Content = Text
}

struct TitledScreen: View {
    var title = "Detail"
    var body: some View {
        ViewOutputAliasReader(NavigationTitle.self) {
            Stack(.vertical) {
                NavigationTitle()
                Text("body").viewOutputAlias(NavigationTitle.self) { Text(title) }
            }
        }
    }
}

// MARK: - VariadicView

struct Numbered<Source: View>: View {
    var source: Source
    var body: some View {
        VariadicViewAdapter {
            source
        } content: { children in
            Stack(.vertical) {
                ForEach(children) { child in child.tag(child.index) }
            }
        }
    }
}

// MARK: - StaticCondition

struct AlwaysOn: StaticCondition {
    static var value: Bool { true }
}

struct AlwaysOff: StaticCondition {
    static var value: Bool { false }
}

// MARK: - VersionedView

struct Gallery: VersionedView {
    var v3Body: some View { Text("grid") }
    var v1Body: some View { Text("list") }
}

@MainActor
private func render(_ graph: ViewGraph) -> String { TextRenderer().render(graph) }

@MainActor
private func names(_ evaluated: [String]) -> [String] { evaluated.map(TextRenderer.unqualifiedName) }

@MainActor
private func node<V>(_ type: V.Type, in graph: ViewGraph) -> ViewNode? {
    graph.allNodes.first { $0.viewType == TypeMetadata(type) }
}

@Suite("Engine features")
@MainActor
struct EngineFeatureTests {
    @Test("ViewStyle: the default style, a style from .style(_:), and a style change")
    func viewStyle() throws {
        let plain = ViewGraph(root: RatingView(configuration: .init(stars: 3)))
        #expect(render(plain).contains("Text \"3 stars\""))

        let graph = ViewGraph(root: StyledScreen())
        let styled = try #require(node(ViewStyledBody<RatingView>.self, in: graph))
        // The style's typed body, not an AnyView: Stack<ForEach<Range<Int>, Int, Text>>.
        #expect(styled.children.map(\.viewType) == [TypeMetadata(Stack<ForEach<Range<Int>, Int, Text>>.self)])
        #expect(render(graph).components(separatedBy: "Text \"*\"").count == 3)
        let footer = try #require(graph.allNodes.first { ($0.viewValue as? Text)?.content == "footer" })

        let screen = try #require(graph.root.viewValue as? StyledScreen)
        screen.symbol = "+"
        let evaluated = names(graph.update())
        #expect(
            evaluated.prefix(2) == [
                "StyledScreen",
                "ModifiedContent<Group<TupleView<Pack{RatingView, Text}>>, StyleModifier<StarRatingStyle>>",
            ]
        )
        #expect(evaluated.contains("ViewStyledBody<RatingView>"))
        #expect(!evaluated.contains("RatingView"))
        #expect(footer.evaluationCount == 1)
        #expect(render(graph).components(separatedBy: "Text \"+\"").count == 3)
    }

    @Test("StyleContext, as Engine's README shows it: a scroll view sets its context, stacks set none")
    func styleContext() {
        // Outside any container: the "none" predicate matches, the scroll-view one does not.
        let alone = render(ViewGraph(root: ContextualLabel()))
        #expect(alone.contains("[class none]") && !alone.contains("[padding"))
        // A stack sets no context: the same as outside.
        let stacked = render(ViewGraph(root: Stack(.vertical) { ContextualLabel() }))
        #expect(stacked.contains("[class none]") && !stacked.contains("[padding"))
        // Inside a scroll view, through a stack: the scroll-view predicate matches, "none" does not.
        let scrolled = render(ViewGraph(root: ScrollView { Stack(.vertical) { ContextualLabel() } }))
        #expect(scrolled.contains("[padding 4]") && !scrolled.contains("[class none]"))
        // A list sets its own context: the innermost context decides.
        let listed = render(ViewGraph(root: ScrollView { List { ContextualLabel() } }))
        #expect(!listed.contains("[padding") && !listed.contains("[class none]"))
        let sidebar = render(ViewGraph(root: Stack(.vertical) { ContextualLabel() }.styleContext(SidebarContext.self)))
        #expect(sidebar.contains("[class sidebar]") && !sidebar.contains("[padding"))
        #expect(NoStyleContext.evaluate(StyleContextInputs()))
    }

    @Test("ViewAlias: an ancestor defines what the alias shows, as a typed node")
    func viewAlias() throws {
        let graph = ViewGraph(root: AliasedScreen())
        let title = try #require(node(ViewAliasBody<ScreenTitle>.self, in: graph))
        #expect(title.children.map(\.viewType) == [TypeMetadata(Text.self)])
        #expect(render(graph).contains("Text \"Inbox\""))
        #expect(render(graph).contains("Text \"Untitled\""))
        let bare = ViewGraph(root: Header())
        #expect(
            try #require(node(ViewAliasBody<ScreenTitle>.self, in: bare)).children.map(\.viewType) == [
                TypeMetadata(EmptyView.self)
            ]
        )

        let header = try #require(node(Header.self, in: graph))
        let screen = try #require(graph.root.viewValue as? AliasedScreen)
        screen.title = "Sent"
        let evaluated = names(graph.update())
        #expect(evaluated.contains("ViewAliasBody<ScreenTitle>"))
        #expect(!evaluated.contains("Header"))
        #expect(!evaluated.contains("ViewAliasBody<DefaultedTitle>"))
        #expect(header.evaluationCount == 1)
        #expect(render(graph).contains("Text \"Sent\""))
    }

    @Test("ViewOutputKey: descendants hand views up; a change re-runs only the writer and the reader's content")
    func viewOutputKey() throws {
        let graph = ViewGraph(root: EditorScreen())
        let text = render(graph)
        let toolbar = try #require(text.components(separatedBy: "[class toolbar]").last)
        #expect(toolbar.contains("Text \"Save\"") && toolbar.contains("Text \"Share\""))
        #expect(try #require(toolbar.range(of: "Save")).lowerBound < toolbar.range(of: "Share")!.lowerBound)

        let editor = try #require(graph.root.subtree.first { $0.viewType == TypeMetadata(Editor.self) })
        let document = try #require(graph.allNodes.first { ($0.viewValue as? Text)?.content == "document" })
        let editorView = try #require(editor.viewValue as? Editor)
        editorView.saveTitle = "Save All"
        let evaluated = names(graph.update())
        #expect(evaluated.first == "Editor")
        #expect(evaluated.contains("ViewOutputWriter<ToolbarItems>"))
        #expect(
            evaluated.contains(
                "ViewOutputContent<ToolbarItems, ModifiedContent<Stack<ViewOutputList<Text>>, ClassModifier>>"
            )
        )
        #expect(!evaluated.contains("EditorScreen"))
        #expect(document.evaluationCount == 1)
        #expect(render(graph).contains("Text \"Save All\""))
    }

    @Test("ViewOutputAlias: a definition in the same reader shows in the alias; outside any reader, the default")
    func viewOutputAlias() throws {
        let graph = ViewGraph(root: TitledScreen())
        let alias = try #require(node(ViewOutputAliasBody<NavigationTitle>.self, in: graph))
        #expect(alias.children.map(\.viewType) == [TypeMetadata(Text.self)])
        #expect(render(graph).contains("Text \"Detail\""))
        let empty = ViewGraph(root: NavigationTitle())
        #expect(empty.root.children.first?.children.map(\.viewType) == [TypeMetadata(EmptyView.self)])
        // Without a reader, a definition reaches no alias.
        let unscoped = ViewGraph(
            root: Group {
                NavigationTitle()
                Text("body").viewOutputAlias(NavigationTitle.self) { Text("lost") }
            }
        )
        #expect(!render(unscoped).contains("lost"))
    }

    @Test("ViewOutputAlias is scoped to its reader: two pages show their own titles")
    func viewOutputAliasScope() {
        let graph = ViewGraph(
            root: Stack(.horizontal) {
                TitledScreen(title: "Inbox")
                TitledScreen(title: "Sent")
            }
        )
        let titles = graph.allNodes.filter { $0.viewType == TypeMetadata(ViewOutputAliasBody<NavigationTitle>.self) }
            .compactMap { node -> String? in
                guard case .text(let text) = node.children.first?.renderAttributes.role else { return nil }
                return text
            }
        #expect(titles == ["Inbox", "Sent"])
    }

    @Test("ViewOutputAlias: the last definition in tree order wins, and a removed definition goes with its writer")
    func viewOutputAliasOrder() throws {
        struct Pages: View {
            @State var showSecond = true
            var body: some View {
                ViewOutputAliasReader(NavigationTitle.self) {
                    Group {
                        NavigationTitle()
                        Text("a").viewOutputAlias(NavigationTitle.self) { Text("first") }
                        if showSecond { Text("b").viewOutputAlias(NavigationTitle.self) { Text("second") } }
                    }
                }
            }
        }
        let graph = ViewGraph(root: Pages())
        func title() -> String? {
            let alias = graph.allNodes.first { $0.viewType == TypeMetadata(ViewOutputAliasBody<NavigationTitle>.self) }
            guard case .text(let text) = alias?.children.first?.renderAttributes.role else { return nil }
            return text
        }
        #expect(title() == "second")
        let pages = try #require(graph.root.viewValue as? Pages)
        pages.showSecond = false
        graph.update()
        #expect(title() == "first")
        pages.showSecond = true
        graph.update()
        #expect(title() == "second")
    }

    @Test("VariadicViewAdapter: a source's children as a collection, each its own typed node")
    func variadicView() throws {
        let graph = ViewGraph(
            root: Numbered(
                source: Group {
                    Text("a")
                    ForEach(["b", "c"], id: \.self) { Text($0).padding(1) }
                    Optional<Text>.none
                    Group { Badge(count: 4) }
                    EmptyView()
                }
            )
        )
        let forEach = try #require(
            node(ForEach<VariadicView, AnyHashable, ModifiedContent<Subview, TagModifier<Int>>>.self, in: graph)
        )
        #expect(forEach.children.count == 4)
        let leaves = forEach.children.map { $0.children.first?.children.first?.viewType }
        #expect(
            leaves == [
                TypeMetadata(Text.self), TypeMetadata(ModifiedContent<Text, PaddingModifier>.self),
                TypeMetadata(ModifiedContent<Text, PaddingModifier>.self), TypeMetadata(Badge.self),
            ]
        )
        let text = render(graph)
        #expect(text.contains("[tag 0]") && text.contains("[tag 3]") && !text.contains("[tag 4]"))
    }

    @Test("StaticConditionalContent and StaticConditionalModifier choose by a static condition")
    func staticConditions() {
        let on = ViewGraph(
            root: StaticConditionalContent(AlwaysOn.self) {
                Text("new")
            } otherwise: {
                Badge(count: 1)
            }
        )
        #expect(on.root.children.map(\.viewType) == [TypeMetadata(Text.self)])
        let off = ViewGraph(
            root: StaticConditionalContent(AlwaysOff.self) {
                Text("new")
            } otherwise: {
                Badge(count: 1)
            }
        )
        #expect(off.root.children.map(\.viewType) == [TypeMetadata(Badge.self)])
        let modified = render(
            ViewGraph(
                root: Text("x").modifier(
                    StaticConditionalModifier(AlwaysOff.self) {
                        PaddingModifier(amount: 9)
                    } otherwise: {
                        ClassModifier(name: "legacy")
                    }
                )
            )
        )
        #expect(modified.contains("[class legacy]") && !modified.contains("[padding"))
    }

    @Test("VersionedView shows the body of the graph's configured version")
    func versionedView() {
        let expected = [1: "list", 2: "list", 3: "grid", 4: "grid", 5: "grid", 9: "grid"]
        for (version, body) in expected {
            let graph = ViewGraph(root: Gallery(), configuration: .init(version: version))
            #expect(render(graph).contains("Text \"\(body)\""), "version \(version)")
        }
    }
}
