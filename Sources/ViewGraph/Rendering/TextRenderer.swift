// TextRenderer.swift

/// Prints a resolved tree, one node per line, with each node's concrete type.
///
/// ```
/// Stack<TupleView<Text, Text>> [stack vertical]
///   TupleView<Text, Text>
///     Text "Hello"
///     Text "Ada"
/// ```
public struct TextRenderer: Sendable {
    /// Whether type names are printed fully qualified, as `String(reflecting:)` prints them.
    public var qualifiedNames: Bool

    /// Creates a renderer.
    /// - Parameter qualifiedNames: Whether to print module-qualified type names.
    public init(qualifiedNames: Bool = false) {
        self.qualifiedNames = qualifiedNames
    }

    /// The deepest indentation, in levels: a line deeper than this is indented this far and
    /// starts with its depth, `[depth 70]`, so that the text of a tree nested thousands of
    /// levels deep grows with the number of nodes, not with its square.
    public static let maximumIndentation = 64

    /// Renders a graph.
    /// - Parameter graph: The graph.
    /// - Returns: The text, one line per node.
    @MainActor
    public func render(_ graph: ViewGraph) -> String {
        var lines: [String] = []
        // The renderer keeps its own stack, so a tree of any depth renders.
        var stack: [(node: ViewNode, depth: Int)] = [(graph.root, 0)]
        while let (node, depth) = stack.popLast() {
            lines.append(line(for: node, depth: depth))
            for child in node.children.reversed() { stack.append((child, depth + 1)) }
        }
        return lines.joined(separator: "\n")
    }

    @MainActor
    private func line(for node: ViewNode, depth: Int) -> String {
        var line = String(repeating: "  ", count: min(depth, Self.maximumIndentation))
        if depth > Self.maximumIndentation { line += "[depth \(depth)] " }
        line += typeName(node)
        let attributes = node.renderAttributes
        switch attributes.role {
        case .container: break
        case .text(let text): line += " \"\(text)\""
        case .stack(let axis, let spacing): line += " [stack \(axis.rawValue), spacing \(spacing)]"
        case .error(let reason): line += " [error: \(reason)]"
        case .button: line += " [button \(node.id)]"
        }
        if let padding = attributes.padding { line += " [padding \(padding)]" }
        if let tag = attributes.tag { line += " [tag \(tag)]" }
        if !attributes.classNames.isEmpty { line += " [class \(attributes.classNames.joined(separator: " "))]" }
        return line
    }

    /// The deepest nesting of a type name the renderer spells: a view type nested deeper (a
    /// generic view built by recursion, `W<W<…>>`) is printed to this depth, what lies deeper
    /// written `…`, so that a tree of such views renders in text linear in its size.
    public static let maximumNameNesting = 32

    @MainActor
    private func typeName(_ node: ViewNode) -> String {
        let name = node.viewType.name(maximumNesting: Self.maximumNameNesting)
        guard !qualifiedNames else { return name }
        return Self.unqualifiedName(name)
    }

    /// Drops the module and parent prefixes from every component of a qualified type name:
    /// `Swift.Optional<ViewGraph.Text>` becomes `Optional<Text>`.
    /// - Parameter name: A name as `String(reflecting:)` prints it.
    /// - Returns: The name without qualification.
    public static func unqualifiedName(_ name: String) -> String {
        // Private and extension contexts print as "(unknown context at $…)" and
        // "(extension in Module):"; neither helps a reader of the tree.
        var name = name
        for marker in ["(unknown context at $", "(extension in "] {
            while let start = name.firstRange(of: marker), let end = name[start.upperBound...].firstIndex(of: ")") {
                var upper = name.index(after: end)
                if upper < name.endIndex, name[upper] == ":" { upper = name.index(after: upper) }
                name.removeSubrange(start.lowerBound..<upper)
            }
        }
        var result = ""
        var word = ""
        func flush(_ separator: Character?) {
            if let dot = word.lastIndex(of: ".") { word = String(word[word.index(after: dot)...]) }
            result += word
            word = ""
            if let separator { result.append(separator) }
        }
        for character in name {
            if character.isLetter || character.isNumber || character == "_" || character == "." {
                word.append(character)
            } else {
                flush(character)
            }
        }
        flush(nil)
        return result
    }
}
