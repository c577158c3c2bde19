// HTMLRenderer.swift

/// Turns a resolved tree into a static HTML page: stacks become flex containers, text becomes
/// escaped text, padding, tags and class names become styles and attributes, every node that
/// handles actions carries its identity in `data-node`, and nodes that only group others add
/// no element.
///
/// ```swift
/// let html = HTMLRenderer(title: "Inbox").render(ViewGraph(root: Inbox()))
/// ```
public struct HTMLRenderer: Sendable {
    /// The page title.
    public var title: String
    /// CSS added to the page's `<style>` element.
    public var stylesheet: String

    /// Creates a renderer.
    /// - Parameters:
    ///   - title: The page title.
    ///   - stylesheet: CSS for the page.
    public init(title: String, stylesheet: String = "") {
        self.title = title
        self.stylesheet = stylesheet
    }

    /// Renders a graph as a complete page.
    /// - Parameter graph: The graph.
    /// - Returns: The HTML document.
    @MainActor
    public func render(_ graph: ViewGraph) -> String {
        var body = ""
        render(graph.root, depth: 2, into: &body)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
              <meta charset="utf-8">
              <title>\(Self.escape(title))</title>
              <style>
            body { font-family: sans-serif; margin: 24px; }
            .vg-error { color: #b00020; font-family: monospace; }
            \(stylesheet)
              </style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    /// Renders a node and its descendants as HTML elements.
    /// - Parameter node: The node.
    /// - Returns: The HTML fragment.
    @MainActor
    public func renderFragment(_ node: ViewNode) -> String {
        var html = ""
        render(node, depth: 0, into: &html)
        return html
    }

    /// One step of the renderer's walk: a node to open, or an element to close.
    private enum Step {
        case open(ViewNode, depth: Int)
        case close(String, depth: Int)
    }

    /// Renders a subtree with its own stack, so that a tree of any depth renders. Indentation
    /// stops growing at ``TextRenderer/maximumIndentation`` levels.
    @MainActor
    private func render(_ root: ViewNode, depth rootDepth: Int, into html: inout String) {
        var steps: [Step] = [.open(root, depth: rootDepth)]
        while let step = steps.popLast() {
            switch step {
            case .close(let element, let depth):
                html += "\(Self.indent(depth))</\(element)>\n"
            case .open(let node, let depth):
                let children = node.children
                guard let element = open(node, depth: depth, into: &html) else {
                    // A node that adds no element renders its children in its place.
                    for child in children.reversed() { steps.append(.open(child, depth: depth)) }
                    continue
                }
                if element.isEmpty { continue }
                steps.append(.close(element, depth: depth))
                for child in children.reversed() { steps.append(.open(child, depth: depth + 1)) }
            }
        }
    }

    private static func indent(_ depth: Int) -> String {
        String(repeating: "  ", count: min(depth, TextRenderer.maximumIndentation))
    }

    /// Writes a node's opening tag, or its whole element when it has no children to show.
    /// - Returns: The element to close after the children; `""` when the node is complete;
    ///   `nil` when the node adds no element.
    @MainActor
    private func open(_ node: ViewNode, depth: Int, into html: inout String) -> String? {
        let attributes = node.renderAttributes
        let indent = Self.indent(depth)
        var styles: [String] = []
        var classes = attributes.classNames
        if let padding = attributes.padding { styles.append("padding: \(padding)px") }
        var extra = ""
        if let tag = attributes.tag { extra += " data-tag=\"\(Self.escape(tag))\"" }
        // Every node that handles actions carries its identity, for a page that sends an
        // action back (`ViewGraph.send(_:to:)`): a button, a view with `onTapGesture` or
        // `onAction`.
        if node.handlesActions { extra += " data-node=\"\(node.id)\"" }
        let element: String
        switch attributes.role {
        case .container:
            guard !(styles.isEmpty && classes.isEmpty && extra.isEmpty) else { return nil }
            element = "div"
        case .text(let text):
            html += "\(indent)<p\(Self.attributes(classes, styles))\(extra)>\(Self.escape(text))</p>\n"
            return ""
        case .stack(let axis, let spacing):
            styles.insert("display: flex", at: 0)
            styles.insert("flex-direction: \(axis == .vertical ? "column" : "row")", at: 1)
            styles.insert("gap: \(spacing)px", at: 2)
            element = "div"
        case .button:
            element = "button"
        case .error(let reason):
            classes.append("vg-error")
            html += "\(indent)<p\(Self.attributes(classes, styles))\(extra)>\(Self.escape(reason))</p>\n"
            return ""
        }
        html += "\(indent)<\(element)\(Self.attributes(classes, styles))\(extra)>\n"
        return element
    }

    private static func attributes(_ classes: [String], _ styles: [String]) -> String {
        var result = ""
        if !classes.isEmpty { result += " class=\"\(escape(classes.joined(separator: " ")))\"" }
        if !styles.isEmpty { result += " style=\"\(escape(styles.joined(separator: "; ")))\"" }
        return result
    }

    /// Escapes text for HTML content and attribute values.
    /// - Parameter text: The text.
    /// - Returns: The text with `&`, `<`, `>`, `"` and `'` escaped.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
