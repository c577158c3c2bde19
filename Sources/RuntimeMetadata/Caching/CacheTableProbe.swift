// CacheTableProbe.swift
//
// For benchmarks only (SPI): one ConcurrentTable, the table every cache of the package is an
// instance of, filled to a given size, so that a benchmark can show that a warm lookup costs the
// same with 100 entries and with 1,000,000 (DocC article "Caching").

/// A ``ConcurrentTable`` filled to a size, for benchmarks of its warm lookups.
///
/// The table is filled one insert at a time, so it grows through its generations as a cache
/// does. Keys are spaced like the addresses of type metadata (16 bytes apart), which is what the
/// package's caches are keyed by.
@_spi(Benchmarks)
public struct CacheTableProbe: Sendable {
    /// An entry of the probe's table: its key only.
    @usableFromInline
    final class Entry: CacheEntry {
        @usableFromInline
        let tableKey: UInt

        init(_ key: UInt) { tableKey = key }
    }

    @usableFromInline
    let table: ConcurrentTable<Entry>

    /// The number of entries.
    public let count: Int

    /// A table holding the keys of indices `0..<count`.
    /// - Parameter count: The number of entries.
    public init(filledTo count: Int) {
        table = ConcurrentTable()
        self.count = count
        for index in 0..<count { _ = table.insert(Entry(Self.key(index))) }
    }

    /// The key of an index: an address-like word, 16-byte aligned.
    /// - Parameter index: The index.
    /// - Returns: The key.
    @inlinable
    @inline(__always)
    public static func key(_ index: Int) -> UInt { 0x5555_0000_0000 &+ UInt(bitPattern: index) &* 16 }

    /// Whether the table holds the key of an index: one warm lookup, as a cache makes it.
    /// - Parameter index: The index; indices at or past `count` are misses.
    /// - Returns: Whether the key was found.
    @inlinable
    @inline(__always)
    public func contains(_ index: Int) -> Bool { table.entry(for: Self.key(index)) != nil }

    /// The bytes of the table's slot generations (the current one and those it grew from).
    public var slotBytes: Int { table.footprint.slotBytes }
}
