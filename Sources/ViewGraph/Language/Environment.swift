// Environment.swift

import RuntimeMetadata

/// A key of ``EnvironmentValues``, with the value a view sees when no ancestor set one.
///
/// ```swift
/// private struct AccentKey: EnvironmentKey {
///     static let defaultValue = "blue"
/// }
/// extension EnvironmentValues {
///     var accent: String {
///         get { self[AccentKey.self] }
///         set { self[AccentKey.self] = newValue }
///     }
/// }
/// ```
public protocol EnvironmentKey {
    /// The value's type.
    associatedtype Value
    /// The value when no ancestor set one.
    static var defaultValue: Value { get }
}

/// Values that flow down the view tree: each view sees what its ancestors set.
public struct EnvironmentValues {
    /// The values set, shared by every copy until one sets a value, or `nil` when none was
    /// set: the graph tells an environment handed down unchanged by its storage alone.
    private var storage: Storage?

    /// The values of an environment, never changed once made.
    private final class Storage {
        let values: [ObjectIdentifier: Any]

        init(_ values: [ObjectIdentifier: Any]) {
            self.values = values
        }
    }

    /// An environment with every key at its default.
    public init() {}

    /// The value of a key.
    /// - Parameter key: The key.
    public subscript<Key: EnvironmentKey>(key: Key.Type) -> Key.Value {
        get {
            guard let stored = storage?.values[ObjectIdentifier(key)] else { return Key.defaultValue }
            // Stored only by the setter below, with the key's own value type.
            return stored as? Key.Value ?? Key.defaultValue
        }
        set {
            var values = storage?.values ?? [:]
            values[ObjectIdentifier(key)] = newValue
            storage = Storage(values)
        }
    }

    /// Whether two environments are copies of one: then they are equal, without comparing
    /// their values.
    func isIdentical(to other: EnvironmentValues) -> Bool { storage === other.storage }

    /// Whether two environments hold the same values: the same keys, each value equal to the
    /// other's by layout equality. (The dictionaries are compared entry by entry: compared
    /// whole, by layout, two dictionaries of equal entries in different buffers differ, and
    /// every evaluation of a view that sets a value made its whole subtree's environment look
    /// changed.)
    func hasEqualValues(to other: EnvironmentValues) -> Bool {
        if isIdentical(to: other) { return true }
        let values = storage?.values ?? [:]
        let otherValues = other.storage?.values ?? [:]
        guard values.count == otherValues.count else { return false }
        for (key, value) in values {
            guard let otherValue = otherValues[key], TypeMetadata.layoutEquals(value, otherValue) else { return false }
        }
        return true
    }
}

/// Reads a value of the environment in a view.
///
/// ```swift
/// struct Label: View {
///     @Environment(\.accent) var accent
///     var body: some View { Text(accent) }
/// }
/// ```
///
/// The graph fills the value in before it evaluates the view's body, and evaluates the body
/// again when an ancestor changes the value.
@propertyWrapper
public struct Environment<Value>: GraphProperty {
    let keyPath: KeyPath<EnvironmentValues, Value>
    var value: Value?

    /// Reads the value at a key path of ``EnvironmentValues``.
    /// - Parameter keyPath: The key path.
    public init(_ keyPath: KeyPath<EnvironmentValues, Value>) {
        self.keyPath = keyPath
    }

    /// The value, once the graph filled it in; the key's value in an empty environment before.
    public var wrappedValue: Value {
        value ?? EnvironmentValues()[keyPath: keyPath]
    }

    static var installationLasts: Bool { false }

    @MainActor mutating func install(in context: PropertyContext) {
        let current = context.environment[keyPath: keyPath]
        if context.recordsDependencies {
            context.graph.recordEnvironmentRead(keyPath, value: current, node: context.node)
        }
        value = current
    }
}

extension View {
    /// Sets an environment value for this view and its descendants.
    /// - Parameters:
    ///   - keyPath: The key path of the value.
    ///   - value: The value.
    /// - Returns: The view.
    public func environment<Value>(
        _ keyPath: WritableKeyPath<EnvironmentValues, Value>,
        _ value: Value
    ) -> ModifiedContent<Self, EnvironmentWritingModifier<Value>> {
        modifier(EnvironmentWritingModifier(keyPath: keyPath, value: value))
    }
}

/// Sets an environment value for the modified view's subtree.
public struct EnvironmentWritingModifier<Value>: PrimitiveModifier {
    /// The key path of the value.
    public var keyPath: WritableKeyPath<EnvironmentValues, Value>
    /// The value.
    public var value: Value

    /// Sets a value.
    /// - Parameters:
    ///   - keyPath: The key path of the value.
    ///   - value: The value.
    public init(keyPath: WritableKeyPath<EnvironmentValues, Value>, value: Value) {
        self.keyPath = keyPath
        self.value = value
    }

    func transformEnvironment(_ environment: inout EnvironmentValues) {
        environment[keyPath: keyPath] = value
    }
}
