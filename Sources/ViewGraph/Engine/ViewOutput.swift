// ViewOutput.swift
//
// View outputs in the manner of Engine's ViewOutputKey and ViewOutputAlias: a descendant
// hands views up to an ancestor. A writer registers its source, typed, with the collector of
// its key: the one the nearest ``ViewOutputKeyReader`` put in the environment, or the graph's
// own for the key. When a source changes, the collector marks the node that shows the
// outputs for evaluation, and the graph's update evaluates it in the same pass.

import RuntimeMetadata

/// A key under which descendants hand views up to an ancestor.
///
/// ```swift
/// struct ToolbarItems: ViewOutputKey {
///     typealias Content = Text
/// }
///
/// ViewOutputKeyReader(ToolbarItems.self) {
///     Editor().viewOutput(ToolbarItems.self) { Text("Save") }
/// } content: { items in
///     Stack(.horizontal) { items }
/// }
/// ```
@MainActor @preconcurrency
public protocol ViewOutputKey {
    /// The type of view descendants hand up.
    associatedtype Content: View
    /// The views handed up.
    typealias Value = ViewOutputList<Content>

    /// Combines the outputs of descendants, in tree order.
    /// - Parameters:
    ///   - value: The outputs so far.
    ///   - nextValue: The next descendant's outputs.
    static func reduce(value: inout Value, nextValue: () -> Value)
}

extension ViewOutputKey {
    /// Appends the next outputs.
    /// - Parameters:
    ///   - value: The outputs so far.
    ///   - nextValue: The next descendant's outputs.
    public static func reduce(value: inout Value, nextValue: () -> Value) {
        value.elements.append(contentsOf: nextValue().elements)
    }
}

/// The views handed up under a ``ViewOutputKey``; a view that shows all of them.
public struct ViewOutputList<Content: View>: View, PrimitiveView, @MainActor RandomAccessCollection {
    /// The views, in tree order.
    public var elements: [Content]

    /// A list of views.
    /// - Parameter elements: The views.
    public init(_ elements: [Content] = []) {
        self.elements = elements
    }

    /// The first position.
    public var startIndex: Int { elements.startIndex }
    /// The position after the last view.
    public var endIndex: Int { elements.endIndex }
    /// The view at a position.
    /// - Parameter position: The position.
    public subscript(position: Int) -> Content { elements[position] }

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) {
        for element in elements { children.append(element) }
    }
}

/// Shows what descendants of its source hand up under a key.
public struct ViewOutputKeyReader<Key: ViewOutputKey, Source: View, Content: View>: View {
    @State private var collector = OutputCollectorReference()
    let source: Source
    let content: (Key.Value) -> Content

    /// Reads the outputs of `source`'s descendants.
    /// - Parameters:
    ///   - key: The key.
    ///   - source: The views whose descendants hand views up.
    ///   - content: Shows the outputs.
    public init(
        _ key: Key.Type,
        @ViewBuilder source: () -> Source,
        @ViewBuilder content: @escaping (Key.Value) -> Content
    ) {
        self.source = source()
        self.content = content
    }

    /// The source, then the outputs' content.
    public var body: some View {
        Group {
            source.modifier(OutputCollectorModifier<Key>(collector: collector))
            ViewOutputContent<Key, Content>(collector: collector, content: content)
        }
    }
}

/// Shows the outputs of a collector.
struct ViewOutputContent<Key: ViewOutputKey, Content: View>: View, PrimitiveView {
    let collector: OutputCollectorReference
    let content: (Key.Value) -> Content

    typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) {
        guard let node = children.node else { return }
        let storage = collector.storage(for: node.graph)
        storage.addReader(node.index)
        children.append(content(storage.value(Key.self)))
    }
}

/// A handle to a collector, created with the reader and kept in its state.
///
/// The handle owns its collector, so that the collector goes with the reader's state. (Graphs
/// kept collectors by the handle's `ObjectIdentifier`, never removed: a reader made where a
/// removed one's handle had been allocated found the removed reader's collector.)
final class OutputCollectorReference: Sendable {
    /// The collector, made on first use by the graph that asks.
    @MainActor private var collector: OutputCollector?

    /// The collector, made on first use, on the main actor.
    /// - Parameter graph: The graph of the reader.
    /// - Returns: The collector.
    @MainActor
    func storage(for graph: ViewGraph) -> OutputCollector {
        if let collector, collector.graphSerial == graph.serial { return collector }
        let made = OutputCollector(graph: graph)
        collector = made
        return made
    }
}

/// The outputs registered under one key for one reader.
@MainActor
final class OutputCollector {
    unowned let graph: ViewGraph
    /// The outputs by writer node; a removed writer's output goes with it.
    private var outputs: [NodeIndex: Any] = [:]
    /// The nodes that show the outputs; marked for evaluation when an output changes.
    private var readers: Set<NodeIndex> = []

    /// Adds a node that shows the outputs.
    func addReader(_ node: NodeIndex) {
        readers.insert(node)
    }

    /// The number of ``graph``, compared without touching the graph, which may be gone.
    let graphSerial: UInt64

    init(graph: ViewGraph) {
        self.graph = graph
        self.graphSerial = graph.serial
    }

    /// Registers a writer's output; marks the reader for evaluation when it changed.
    func register(_ value: Any, from writer: NodeIndex) {
        if let previous = outputs[writer], TypeMetadata.layoutEquals(previous, value) { return }
        outputs[writer] = value
        graph.watchWriter(writer, collector: self)
        markReader()
    }

    /// Forgets a removed writer's output, and marks the reader.
    func writerRemoved(_ writer: NodeIndex) {
        guard outputs.removeValue(forKey: writer) != nil else { return }
        markReader()
    }

    private func markReader() {
        readers = readers.filter(graph.isLive)
        for reader in readers where graph.record(reader).evaluationCount > 0 {
            graph.invalidate(reader)
        }
    }

    /// The writers in the order the readers were last given their outputs.
    private var deliveredOrder: [NodeIndex] = []

    /// The living writers in tree order.
    private var writersInTreeOrder: [NodeIndex] {
        outputs.keys.filter(graph.isLive).map { (writer: $0, order: graph.treeOrder(of: $0)) }
            .sorted { $0.order.lexicographicallyPrecedes($1.order) }.map(\.writer)
    }

    /// Marks the readers when the writers' tree order is not the one last delivered: after a
    /// reorder, a move or an insert that moved writers without changing their outputs.
    func checkOrder() {
        if writersInTreeOrder != deliveredOrder { markReader() }
    }

    /// The outputs of living writers, reduced in tree order.
    func value<Key: ViewOutputKey>(_ key: Key.Type) -> Key.Value {
        var value = Key.Value()
        deliveredOrder = writersInTreeOrder
        for output in deliveredOrder.compactMap({ outputs[$0] }) {
            guard let content = output as? Key.Content else { continue }
            Key.reduce(value: &value) { ViewOutputList([content]) }
        }
        return value
    }
}

/// Gives a reader's subtree the reader's collector for a key.
struct OutputCollectorModifier<Key: ViewOutputKey>: PrimitiveModifier {
    let collector: OutputCollectorReference

    func transformEnvironment(_ environment: inout EnvironmentValues) {
        environment.outputCollectors[ObjectIdentifier(Key.self)] = collector
    }
}

extension EnvironmentValues {
    /// The collectors of the readers above, by key.
    var outputCollectors: [ObjectIdentifier: OutputCollectorReference] {
        get { self[OutputCollectorsKey.self] }
        set { self[OutputCollectorsKey.self] = newValue }
    }
}

private struct OutputCollectorsKey: EnvironmentKey {
    static var defaultValue: [ObjectIdentifier: OutputCollectorReference] { [:] }
}

/// Hands a view up under a key.
public struct ViewOutputModifier<Key: ViewOutputKey>: ViewModifier {
    /// The view handed up.
    public var source: Key.Content

    /// The content, followed by the writer, which shows nothing.
    /// - Parameter content: The modified view.
    /// - Returns: The content and the writer.
    public func body(content: Content) -> TupleView<ModifierContent, ViewOutputWriter<Key>> {
        TupleView(content, ViewOutputWriter<Key>(source: source))
    }
}

/// Registers a source with the collector of its key; shows nothing.
public struct ViewOutputWriter<Key: ViewOutputKey>: View, PrimitiveView {
    let source: Key.Content

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) {
        guard let node = children.node else { return }
        let key = ObjectIdentifier(Key.self)
        let reference = children.read(\.outputCollectors[key])
        let collector = reference?.storage(for: node.graph) ?? node.graph.collector(forKey: key)
        collector.register(source, from: node.index)
    }
}

extension View {
    /// Hands a view up to the nearest ``ViewOutputKeyReader`` of the key, or to the key's
    /// ``ViewOutputAlias``.
    /// - Parameters:
    ///   - key: The key.
    ///   - source: The view handed up.
    /// - Returns: The view.
    public func viewOutput<Key: ViewOutputKey, Source: View>(
        _ key: Key.Type,
        @ViewBuilder source: () -> Source
    ) -> ModifiedContent<Self, ViewOutputModifier<Key>> where Key.Content == Source {
        modifier(ViewOutputModifier<Key>(source: source()))
    }

    /// Defines what a ``ViewOutputAlias`` shows in the nearest ``ViewOutputAliasReader`` above.
    /// - Parameters:
    ///   - alias: The alias.
    ///   - source: The view the alias shows.
    /// - Returns: The view.
    public func viewOutputAlias<Alias: ViewOutputAlias, Source: View>(
        _ alias: Alias.Type,
        @ViewBuilder source: () -> Source
    ) -> ModifiedContent<Self, ViewOutputModifier<AliasOutputKey<Alias>>> where Alias.Content == Source {
        modifier(ViewOutputModifier<AliasOutputKey<Alias>>(source: source()))
    }
}

/// A view that shows what a view in the same ``ViewOutputAliasReader`` defines with
/// ``View/viewOutputAlias(_:source:)``; the last definition in tree order wins.
///
/// ```swift
/// struct ScreenTitle: ViewOutputAlias { typealias Content = Text }
///
/// ViewOutputAliasReader(ScreenTitle.self) {
///     Stack(.vertical) {
///         ScreenTitle()
///         Detail().viewOutputAlias(ScreenTitle.self) { Text("Detail") }
///     }
/// }
/// ```
///
/// As in Engine, the reader is the alias's scope: two readers on screen each show their own
/// definitions, and an alias outside any reader shows its ``defaultBody``.
public protocol ViewOutputAlias: View {
    /// The type of view a descendant defines.
    associatedtype Content: View
    /// What the alias shows before a descendant defines it.
    associatedtype DefaultBody: View = EmptyView
    /// What the alias shows before a descendant defines it.
    @ViewBuilder var defaultBody: DefaultBody { get }
}

extension ViewOutputAlias where DefaultBody == EmptyView {
    /// Nothing.
    public var defaultBody: EmptyView { EmptyView() }
}

extension ViewOutputAlias {
    /// The last definition in the alias's reader, or ``defaultBody``.
    public var body: ViewOutputAliasBody<Self> { ViewOutputAliasBody(alias: self) }
}

/// The scope of a ``ViewOutputAlias``: the aliases in its content show the definitions made in
/// its content.
public struct ViewOutputAliasReader<Alias: ViewOutputAlias, Content: View>: View {
    @State private var collector = OutputCollectorReference()
    let content: Content

    /// Scopes an alias to some content.
    /// - Parameters:
    ///   - alias: The alias.
    ///   - content: The views that define and show the alias.
    public init(_ alias: Alias.Type, @ViewBuilder content: () -> Content) {
        self.content = content()
    }

    /// The content, with the reader's collector for the alias.
    public var body: some View {
        content.modifier(OutputCollectorModifier<AliasOutputKey<Alias>>(collector: collector))
    }
}

/// The output key of a ``ViewOutputAlias``.
public enum AliasOutputKey<Alias: ViewOutputAlias>: ViewOutputKey {
    /// The alias's content.
    public typealias Content = Alias.Content
}

/// The body of a ``ViewOutputAlias``.
public struct ViewOutputAliasBody<Alias: ViewOutputAlias>: View, PrimitiveView {
    /// The alias.
    public var alias: Alias

    /// Primitive views have no body.
    public typealias Body = Never

    @MainActor func makeChildren(_ children: inout Children) {
        guard let node = children.node,
            let reference = children.read(\.outputCollectors[ObjectIdentifier(AliasOutputKey<Alias>.self)])
        else {
            // Outside any reader: nothing defines the alias.
            children.append(alias.defaultBody)
            return
        }
        let collector = reference.storage(for: node.graph)
        collector.addReader(node.index)
        if let last = collector.value(AliasOutputKey<Alias>.self).elements.last {
            children.append(last)
        } else {
            children.append(alias.defaultBody)
        }
    }
}
