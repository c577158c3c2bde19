// CacheBuckets.swift
//
// The Swift side of CMetadata's statically zeroed cache storage (CMetadata/include/CMDCacheStorage.h):
// buckets of retained, never-released object references, read without `swift_once`, locks
// or reference counting. Not a runtime struct: the storage the caches of process-lifetime
// answers about runtime structs live in.

// Public so that the warm lookups, inlined into clients, can read a bucket (the C accessors
// are `static inline`); clients do not see its names unless they import it themselves.
public import CMetadata

/// One of the statically allocated bucket arrays: a power-of-two range of the storage.
@usableFromInline
@safe
struct CacheBuckets: Sendable {
    /// The number of buckets of the whole storage.
    @inlinable
    static var storageCount: Int { Int(CMD_CACHE_BUCKET_COUNT) }

    /// The first slot of the table.
    @usableFromInline
    let base: Int
    /// The number of buckets minus one.
    @usableFromInline
    let mask: Int

    /// The table stored at `base`, of `count` buckets.
    /// - Parameters:
    ///   - base: The table's first slot.
    ///   - count: The number of buckets, a power of two; the range must fit in the storage.
    @inlinable
    @inline(__always)
    init(base: Int, count: Int) {
        precondition(
            count > 0 && count & (count - 1) == 0 && base >= 0 && base + count <= Self.storageCount,
            "cache table outside its storage"
        )
        self.base = base
        self.mask = count &- 1
    }

    /// The object in a bucket, unretained.
    /// - Parameters:
    ///   - bucket: A bucket; only its low bits are used.
    ///   - type: The object's class.
    /// - Returns: The object, or `nil` when the bucket is empty.
    @inlinable
    @inline(__always)
    func load<Object: AnyObject & Sendable>(_ bucket: Int, as type: Object.Type) -> ImmortalReference<Object>? {
        guard let raw = unsafe cmd_cacheLoad(base &+ (bucket & mask)) else { return nil }
        return unsafe ImmortalReference(unmanaged: Unmanaged<Object>.fromOpaque(raw))
    }

    /// Publishes an object in an empty bucket; the storage keeps it for the life of the process.
    /// - Parameters:
    ///   - object: The object.
    ///   - bucket: A bucket; only its low bits are used.
    /// - Returns: The object in the bucket now: `object`, or the one published first.
    func publish<Object: AnyObject & Sendable>(_ object: Object, in bucket: Int) -> Object {
        let retained = unsafe Unmanaged.passRetained(object)
        guard let current = unsafe cmd_cachePublish(base &+ (bucket & mask), retained.toOpaque()) else {
            return object
        }
        unsafe retained.release()
        return unsafe Unmanaged<Object>.fromOpaque(current).takeUnretainedValue()
    }
}

/// The largest number of loaded images seen so far, in CMetadata's static storage
/// (`cmd_observedImageCount`): read on the warm path of every negative conformance answer.
@usableFromInline
enum ObservedImageCount {
    /// The count, read with acquire ordering.
    @inlinable
    @inline(__always)
    static var current: Int { Int(cmd_observedImageCountLoad()) }

    /// Raises the count to `count` unless a larger one was published.
    /// - Parameter count: A count the runtime reported.
    static func raise(to count: Int) { cmd_observedImageCountRaise(count) }
}
