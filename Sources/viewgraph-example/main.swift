// main.swift
//
// Builds a page from a JSON model whose items are heterogeneous: each item becomes a view
// value of its own type, and the page receives them as `[Any]`. The graph resolves each to its
// typed node through RuntimeMetadata (no AnyView); an item of an unknown kind is not a view
// and shows as an error. The page is written as static HTML.
//
// Usage: viewgraph-example [--tree] [MODEL.json] [OUTPUT.html]
//
// Prints what it built (nodes, items, error nodes) and the file it wrote; `--tree` prints the
// whole node tree first, as TextRenderer spells it.

import Foundation
import ViewGraph
import ViewGraphExamples

/// The model, as the JSON file describes it.
struct PageModel: Decodable {
    struct Item: Decodable {
        var kind: String
        var text: String?
        var label: String?
        var value: String?
        var baseline: String?
        var tags: [String]?
        var author: String?
        var items: [ChecklistEntry]?
    }

    struct ChecklistEntry: Decodable {
        var text: String
        var done: Bool
    }

    var title: String
    var subtitle: String
    var items: [Item]
}

struct Heading: View {
    var text: String
    var body: some View { Text(text).className("heading") }
}

struct Paragraph: View {
    var text: String
    var body: some View { Text(text) }
}

struct Metric: View {
    var label: String
    var value: String
    var baseline: String
    var body: some View {
        Stack(.horizontal, spacing: 12) {
            Text(label).className("label")
            Text(value).className("value")
            Text(baseline).className("baseline")
        }
        .padding(6)
        .className("metric")
    }
}

struct Tags: View {
    var tags: [String]
    var body: some View {
        Stack(.horizontal, spacing: 6) {
            ForEach(tags, id: \.self) { Text($0).padding(4).className("tag") }
        }
    }
}

struct Quote: View {
    var text: String
    var author: String
    var body: some View {
        Stack(.vertical, spacing: 2) {
            Text("“\(text)”")
            Text("— \(author)").className("author")
        }
        .padding(8)
        .className("quote")
    }
}

struct Checklist: View {
    var entries: [PageModel.ChecklistEntry]
    var body: some View {
        Stack(.vertical, spacing: 2) {
            ForEach(entries.indices, id: \.self) { index in
                Text((entries[index].done ? "☑ " : "☐ ") + entries[index].text)
            }
        }
    }
}

/// An item of a kind the page does not know: a plain value, not a view.
struct UnknownItem {
    var kind: String
}

/// The page: a header, then every item, each given as `Any`.
struct Page: View {
    var title: String
    var subtitle: String
    var items: [Any]

    var body: some View {
        Stack(.vertical, spacing: 16) {
            Stack(.vertical, spacing: 4) {
                Text(title).className("title")
                Text(subtitle).className("subtitle")
            }
            Stack(.vertical, spacing: 10) {
                ForEach(items.indices, id: \.self) { index in DynamicView(items[index]) }
            }
        }
    }
}

/// Makes each item's value: a view of the item's own type, or a non-view for unknown kinds.
func value(of item: PageModel.Item) -> Any {
    switch item.kind {
    case "heading": Heading(text: item.text ?? "")
    case "paragraph": Paragraph(text: item.text ?? "")
    case "metric": Metric(label: item.label ?? "", value: item.value ?? "", baseline: item.baseline ?? "")
    case "tags": Tags(tags: item.tags ?? [])
    case "quote": Quote(text: item.text ?? "", author: item.author ?? "")
    case "checklist": Checklist(entries: item.items ?? [])
    default: UnknownItem(kind: item.kind)
    }
}

let stylesheet = """
    .page { max-width: 720px; }
    .section { border-top: 1px solid #ddd; padding-top: 12px; }
    .title { font-size: 28px; font-weight: bold; margin: 0; }
    .subtitle { color: #555; margin: 0; }
    .heading { font-size: 20px; font-weight: bold; }
    .metric { background: #eef4ff; border-radius: 6px; }
    .value { font-weight: bold; }
    .baseline { color: #777; }
    .tag { background: #ddd; border-radius: 10px; }
    .quote { border-left: 4px solid #999; background: #f6f6f6; }
    .author { color: #555; font-style: italic; }
    .routes { font-family: monospace; }
    .route-children { margin-left: 24px; border-left: 1px solid #ccc; padding-left: 8px; }
    .component { border: 1px solid #ddd; border-radius: 6px; padding: 8px; }
    .component-title { font-weight: bold; }
    .component-subtitle, .component-footnote { color: #555; }
    .component-image { color: #777; font-style: italic; }
    .component-status { color: #2a7a2a; }
    .caption { color: #555; font-style: italic; }
    p { margin: 0; }
    """

let options = CommandLine.arguments.dropFirst()
let printsTree = options.contains("--tree")
let arguments = options.filter { $0 != "--tree" }
if let unknown = arguments.first(where: { $0.hasPrefix("--") }) {
    FileHandle.standardError.write(
        Data("error: unknown option '\(unknown)'\nusage: viewgraph-example [--tree] [MODEL.json] [OUTPUT.html]\n".utf8)
    )
    exit(2)
}
let modelPath = arguments.first ?? "Sources/viewgraph-example/page.json"
let outputPath = arguments.dropFirst().first ?? "index.html"

do {
    let data = try Data(contentsOf: URL(fileURLWithPath: modelPath))
    let model = try JSONDecoder().decode(PageModel.self, from: data)
    let page = Page(title: model.title, subtitle: model.subtitle, items: model.items.map(value(of:)))
    let html = await MainActor.run {
        // The seeds' scenarios below the items: ScreenUI's routes, derived from the screens'
        // field types, with the router at a screen reached by route names; Fiori's components;
        // Subviews' card.
        var router = Router(root: AppRoot())
        try? router.navigate(to: "feed/tournament/match/player")
        let scenarios = ScenariosPage(routed: router.current, routes: Route.tree(of: AppRoot.self))
        // One padded page: the items, then the scenarios in a section of their own.
        let graph = ViewGraph(
            root: Stack(.vertical, spacing: 24) {
                page
                scenarios.className("section")
            }
            .padding(16)
            .className("page")
        )
        if printsTree { print(TextRenderer().render(graph)) }
        let errors = graph.allNodes.compactMap { node -> String? in
            guard case .error(let reason) = node.renderAttributes.role else { return nil }
            return reason
        }
        print("built \(graph.nodeCount) nodes from \(model.items.count) items, each item a node of its own type")
        for reason in errors { print("error node: \(reason)") }
        return HTMLRenderer(title: model.title, stylesheet: stylesheet).render(graph)
    }
    try html.write(toFile: outputPath, atomically: true, encoding: .utf8)
    print("wrote \(outputPath)")
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
