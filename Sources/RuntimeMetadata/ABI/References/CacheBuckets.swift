// CacheBuckets.swift
//
// The Swift side of CMetadata's statically zeroed cache storage (CMetadata/include/CMDCacheStorage.h):
// buckets of retained, never-released object references, read without `swift_once`, locks
// or reference counting. Not a runtime struct: the storage the caches of process-lifetime
// answers about runtime structs live in.

internal import CMetadata

/// One of the statically allocated bucket arrays.
@safe
struct CacheBuckets: Sendable {
    /// The number of buckets, a power of two.
    static var count: Int { Int(CMD_CACHE_BUCKET_COUNT) }

    /// The first slot of the table.
    private let base: Int

    /// The table with an index below `CMD_CACHE_TABLE_COUNT`.
    /// - Parameter table: The table's index; each table must have its own.
    @inline(__always)
    init(table: Int) {
        precondition(table >= 0 && table < Int(CMD_CACHE_TABLE_COUNT), "no such cache table")
        base = table &* Int(CMD_CACHE_BUCKET_COUNT)
    }

    /// The object in a bucket, unretained.
    /// - Parameters:
    ///   - bucket: A bucket; only its low bits are used.
    ///   - type: The object's class.
    /// - Returns: The object, or `nil` when the bucket is empty.
    @inline(__always)
    func load<Object: AnyObject & Sendable>(_ bucket: Int, as type: Object.Type) -> ImmortalReference<Object>? {
        guard let raw = unsafe cmd_cacheLoad(base &+ (bucket & (Self.count &- 1))) else { return nil }
        return unsafe ImmortalReference(unmanaged: Unmanaged<Object>.fromOpaque(raw))
    }

    /// Publishes an object in an empty bucket; the storage keeps it for the life of the process.
    /// - Parameters:
    ///   - object: The object.
    ///   - bucket: A bucket; only its low bits are used.
    /// - Returns: The object in the bucket now: `object`, or the one published first.
    func publish<Object: AnyObject & Sendable>(_ object: Object, in bucket: Int) -> Object {
        let retained = unsafe Unmanaged.passRetained(object)
        guard let current = unsafe cmd_cachePublish(base &+ (bucket & (Self.count &- 1)), retained.toOpaque()) else {
            return object
        }
        unsafe retained.release()
        return unsafe Unmanaged<Object>.fromOpaque(current).takeUnretainedValue()
    }
}
