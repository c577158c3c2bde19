// ProcessLeaks.swift

/// The live Swift objects of another process that nothing reachable refers to: its leaks, and
/// the retain cycles among them (``RemoteProcess/leaks()``).
///
/// ```swift
/// let process = try RemoteProcess.read(pid)
/// let leaks = try process.leaks()
/// for row in leaks.rows {
///     print(row.typeName, row.count, row.bytes)
/// }
/// for cycle in leaks.cycles {
///     print(cycle.members.map(\.typeName).joined(separator: " -> "))
/// }
/// ```
///
/// The search is conservative, as LeakSanitizer's is: a word that may be a reference is one, so
/// a reachable object is never reported, and a leak may be missed (the DocC article
/// "Understanding the ABI layer", "Leaks: what a held process no longer reaches").
public struct ProcessLeaks: Sendable {
    /// The leaked instances of one class, or the leaked closure contexts or boxes that no leaked
    /// class instance reaches.
    public struct Row: Hashable, Sendable {
        /// The class's name as `String(reflecting:)` prints it in the process, or
        /// `(closure context)` or `(box)`.
        public let typeName: String
        /// The number of leaked instances.
        public let count: Int
        /// The memory they hold: their blocks' usable sizes, their side tables', and those of
        /// the leaked closure contexts, boxes and other blocks that they reach first.
        public let bytes: Int
    }

    /// A leaked Swift heap object in a cycle.
    public struct Member: Hashable, Sendable {
        /// The class's name as ``Row/typeName`` spells it, or `(closure context)` or `(box)`.
        public let typeName: String
        /// The object's address in the process.
        public let address: UInt
    }

    /// A strongly connected component of the leaked objects with at least two members or a
    /// reference to itself: objects that keep one another alive.
    public struct Cycle: Hashable, Sendable {
        /// The Swift objects of the cycle, by address. A block that is no Swift object (memory
        /// `malloc` gave a pointer's `allocate`) may link them and is not listed.
        public let members: [Member]
    }

    /// The process's pid.
    public let processID: Int32

    /// One row per type, by bytes descending, then by type name in code-point order, as the
    /// census sorts its rows.
    public let rows: [Row]

    /// The cycles, by their first member's type name, then its address.
    public let cycles: [Cycle]

    /// How long the process was held: from its first thread stopped to its last resumed.
    public let held: Duration

    /// The heap blocks in use.
    public let liveBlockCount: Int

    /// The words in blocks in use that point into the heap's memory: the graph's edges.
    public let edgeCount: Int

    /// The bytes of heap read.
    public let heapBytesRead: Int

    /// The bytes of roots read: mappings and registers.
    public let rootBytesRead: Int

    /// The memory the reference graph reserved in this process: 32 bytes per block in use, 8 per
    /// edge (each array grown by doubling), and 4 per 512 bytes of heap for the tables that find
    /// a block by address.
    public let graphBytes: Int

    /// The threads whose registers were read.
    public let threadCount: Int
}
