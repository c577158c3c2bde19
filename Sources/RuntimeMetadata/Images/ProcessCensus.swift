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

    /// The reads of the heap the census took: more than one when the heap changed under a read
    /// (a process that was not held allocates and frees meanwhile), and the last was read whole.
    public let readCount: Int

    /// Always 0: a census reads the whole heap or fails (``RemoteProcess/census()``).
    @available(*, deprecated, message: "a census is whole or an error; see readCount")
    public var inconsistentHeapCount: Int { 0 }

    /// The instances' addresses, by type name.
    let addressesByType: [String: [UInt]]

    /// The addresses of a type's instances, in ascending order: of the type of that exact name,
    /// or, for a name without generic arguments, of every specialization of that generic class
    /// (`App.Box` lists `App.Box<Swift.Int>`'s and `App.Box<Swift.String>`'s). A census keeps
    /// the addresses of the types it was asked to (``RemoteProcess/census(keepingAddressesOf:)``;
    /// ``RemoteProcess/census()`` keeps every type's).
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
    static func matches(_ name: String, _ asked: String) -> Bool {
        name == asked || (!asked.contains("<") && name.hasPrefix(asked + "<"))
    }
}
