// CacheTable.swift
//
// The process-wide tables of RuntimeMetadata's caches (the DocC article "Caching"), and their
// roots.
//
// The roots are static C storage (`cmd_cacheRoots`, CMetadata/include/CMDCacheStorage.h): a
// client module, into which the warm lookups are inlined, reaches it through the GOT, where it
// would reach a Swift global of this module through a call of the global's addressor, which
// measured 0.25 ns more on a field list, 0.75 ns on a negative conformance answer and 1.1 ns on
// a layout equality check. Hence the public import, which the DocC article "Caching" explains.

public import CMetadata

/// The process-wide tables, each with its root in CMetadata's static storage.
@usableFromInline
enum CacheTable: Int, CaseIterable {
    case typeRecords
    case conformanceAnswers
    case namedTypes
    case typeNameIndexes
    case conformanceIndexes
    case images
    case protocolIndexes
    case typeConformances
    case comparators
    case conformanceRecordsByType

    /// The address of the table's root.
    @inlinable
    @inline(__always)
    var root: UnsafeMutableRawPointer { unsafe cmd_cacheRoot(rawValue) }
}
