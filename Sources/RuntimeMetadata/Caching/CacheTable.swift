// CacheTable.swift
//
// The process-wide tables of RuntimeMetadata's caches (the DocC article "Caching").

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
}
