// CMDCacheStorage.h
//
// Statically zeroed bucket storage for RuntimeMetadata's lock-free caches.
//
// Swift initializes a global lazily: every access to a global whose initial value is not a
// constant first calls `swift_once`, and a table of 4096 atomic buckets is not a constant the
// compiler can emit (SwiftPM's Synchronization `Atomic` globals are, one at a time; an
// `InlineArray` of them is not). The warm paths read one bucket and one entry, and `swift_once`
// was a sixth of their time. C can express what Swift cannot here: an array of atomic pointers
// in zero-initialized storage, ready before any code runs. The accessors are `static inline`,
// so the Swift caller compiles them in place.

#ifndef CMD_CACHE_STORAGE_H
#define CMD_CACHE_STORAGE_H

#include "CMDDefines.h"

#include <stdatomic.h>
#include <stdint.h>

CMD_ASSUME_NONNULL_BEGIN

/// The number of buckets of all tables together. Each table takes a power-of-two share,
/// sized to what it holds (RuntimeMetadata's `CacheTable`): a bucket's first write faults its
/// page in and zeroes it, and a small table spread over many pages made a first query pay for
/// a dozen such faults.
#define CMD_CACHE_BUCKET_COUNT 9728

/// The buckets, table after table; each holds a retained object reference or null. Page-aligned,
/// so that a table placed at a multiple of 512 buckets starts a page.
CMD_EXTERN _Atomic(void *_Nullable) cmd_cacheBuckets[CMD_CACHE_BUCKET_COUNT] __attribute__((aligned(4096)));

/// Reads a bucket with acquire ordering.
/// - Parameter slot: the table's first bucket plus the bucket, below `CMD_CACHE_BUCKET_COUNT`.
/// - Returns: The object published in the bucket, or null.
static inline void *_Nullable cmd_cacheLoad(size_t slot) {
    return atomic_load_explicit(&cmd_cacheBuckets[slot], memory_order_acquire);
}

/// Publishes an object in an empty bucket.
/// - Parameters:
///   - slot: The bucket, as for `cmd_cacheLoad`.
///   - desired: The object, already retained for the bucket.
/// - Returns: Null when `desired` was published; otherwise the object published first, and
///   `desired` was not stored.
static inline void *_Nullable cmd_cachePublish(size_t slot, void *desired) {
    void *expected = NULL;
    if (atomic_compare_exchange_strong_explicit(&cmd_cacheBuckets[slot], &expected, desired, memory_order_acq_rel,
                                                memory_order_acquire)) {
        return NULL;
    }
    return expected;
}

/// The largest number of loaded Swift images seen so far: a negative answer cached with this
/// many images still holds. Here rather than in a Swift global for the same reason as the
/// buckets, and because the warm checks, inlined into other modules, would reach a Swift
/// global of this module through a call to its addressor.
CMD_EXTERN _Atomic(intptr_t) cmd_observedImageCount;

/// Reads the image count with acquire ordering.
/// - Returns: The largest count published so far.
static inline intptr_t cmd_observedImageCountLoad(void) {
    return atomic_load_explicit(&cmd_observedImageCount, memory_order_acquire);
}

/// Raises the image count to `count` unless a larger one was published.
/// - Parameter count: A count the runtime reported.
static inline void cmd_observedImageCountRaise(intptr_t count) {
    intptr_t seen = atomic_load_explicit(&cmd_observedImageCount, memory_order_acquire);
    while (count > seen && !atomic_compare_exchange_weak_explicit(&cmd_observedImageCount, &seen, count,
                                                                  memory_order_acq_rel, memory_order_acquire)) {
    }
}

CMD_ASSUME_NONNULL_END

#endif  // CMD_CACHE_STORAGE_H
