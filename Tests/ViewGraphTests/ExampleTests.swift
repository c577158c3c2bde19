// ExampleTests.swift
//
// The viewgraph-example executable, run as a process on the model shipped beside it.

import Foundation
import TestSupport
import Testing

/// The package's root directory.
private let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Runs the example and returns its status, output and error.
private func runExample(_ arguments: [String]) throws -> ProcessResult {
    try runBuiltExecutable("viewgraph-example", arguments)
}

@Suite("viewgraph-example")
struct ExampleTests {
    @Test("The example turns the JSON model's heterogeneous items into typed nodes and a page")
    func page() throws {
        let model = packageRoot.appendingPathComponent("Sources/viewgraph-example/page.json").path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("viewgraph-\(UUID()).html")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try runExample(["--tree", model, output.path])
        #expect(result.status == 0, "\(result.error)")
        // Every item became the node of its own type; the unknown kind became an error node.
        let lines = result.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for type in ["Heading", "Paragraph", "Metric", "Tags", "Quote", "Checklist"] {
            #expect(lines.contains(type), "\(type)")
        }
        #expect(result.output.contains("InvalidView [error: viewgraph_example.UnknownItem is not a view]"))
        #expect(!result.output.contains("AnyView"))
        let html = try String(contentsOf: output, encoding: .utf8)
        #expect(html.contains("<title>Release notes</title>"))
        #expect(html.contains("“Fast &lt;and&gt; escaped &amp; safe”"))
        #expect(html.contains("flex-direction: row"))
        #expect(html.contains("<p class=\"vg-error\">viewgraph_example.UnknownItem is not a view</p>"))
        // The seeds' scenarios: the route tree and the routed screen, the components, the card.
        // The route tree nests: each route's routes in a group of their own, which the page indents.
        #expect(html.contains("<div class=\"route-children\">\n") && html.contains("<p>match (push) -&gt; Match</p>"))
        #expect(html.contains("<p>Player: Grace</p>"))
        #expect(html.contains("<div class=\"component-image\">\n") && html.contains("<p>[image ada.png]</p>"))
        // The component shown with a model that does not conform, after the caption that says so.
        #expect(html.contains("<div class=\"caption\">"))
        #expect(html.contains("does not conform to PersonDetailItemModel"))
        #expect(html.contains("<p>Ada Lovelace</p>") && html.contains("<p>London</p>"))
    }

    @Test("Without --tree the example prints what it built and wrote, a few lines")
    func summary() throws {
        let model = packageRoot.appendingPathComponent("Sources/viewgraph-example/page.json").path
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("viewgraph-\(UUID()).html")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try runExample([model, output.path])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n")
        #expect(lines.count <= 5, "\(result.output)")
        #expect(lines.first?.hasPrefix("built ") == true && lines.first?.contains("nodes from") == true)
        #expect(lines.contains("error node: viewgraph_example.UnknownItem is not a view"))
        #expect(lines.last.map(String.init) == "wrote \(output.path)")
        #expect(FileManager.default.fileExists(atPath: output.path))
        let unknown = try runExample(["--frobnicate"])
        #expect(unknown.status == 2 && unknown.error.hasPrefix("error: unknown option '--frobnicate'"))
    }

    @Test("A missing model is an error with exit status 1")
    func missingModel() throws {
        let result = try runExample(["/nonexistent/model.json", "/tmp/never-written.html"])
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("error:"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.html"))
    }
}
