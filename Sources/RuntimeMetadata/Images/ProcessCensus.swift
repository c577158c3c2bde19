// ProcessCensus.swift

/// The live Swift class instances of another process, counted by type
/// (``RemoteProcess/census()``).
///
/// ```swift
/// let process = try RemoteProcess.read(pid)
/// let census = try process.census()
/// for row in census.rows.prefix(10) {
///     print(row.typeName, row.count, row.bytes)
/// }
/// ```
public struct ProcessCensus: Sendable {
    /// One class's instances.
    public struct Row: Hashable, Sendable {
        /// The class's name as `String(reflecting:)` prints it in the process: module-qualified,
        /// a generic class with its arguments, an anonymous context as the listings spell it.
        public let typeName: String
        /// The number of live instances.
        public let count: Int
        /// The memory they occupy: their heap blocks' usable sizes, tail allocations included.
        public let bytes: Int
    }

    /// The process's pid.
    public let processID: Int32

    /// One row per type, by bytes descending, then by type name in code-point order.
    public let rows: [Row]

    /// The bytes of heap read.
    public let heapBytesRead: Int

    /// The heaps whose chunks changed while they were read (a process that was not stopped
    /// allocates and frees meanwhile): their blocks after the change were not counted.
    public let inconsistentHeapCount: Int

    /// The instances' addresses, by type name.
    let addressesByType: [String: [UInt]]

    /// The addresses of a type's instances, in ascending order: of the type of that exact name,
    /// or, for a name without generic arguments, of every specialization of that generic class
    /// (`App.Box` lists `App.Box<Swift.Int>`'s and `App.Box<Swift.String>`'s).
    /// - Parameter typeName: A name as ``Row/typeName`` spells it.
    /// - Returns: The addresses; empty for a type without instances.
    public func addresses(ofType typeName: String) -> [UInt] {
        addressesByType.filter { Self.matches($0.key, typeName) }.flatMap(\.value).sorted()
    }

    /// The rows of the types a name selects, as ``addresses(ofType:)`` selects them.
    /// - Parameter typeName: A name.
    /// - Returns: The rows.
    public func rows(ofType typeName: String) -> [Row] {
        rows.filter { Self.matches($0.typeName, typeName) }
    }

    /// Whether a type name is the name asked for, or a specialization of it.
    private static func matches(_ name: String, _ asked: String) -> Bool {
        name == asked || (!asked.contains("<") && name.hasPrefix(asked + "<"))
    }
}
