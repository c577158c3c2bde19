// CMDCacheStorage.h
//
// The roots and slot arrays of RuntimeMetadata's growable lock-free tables
// (Sources/RuntimeMetadata/Caching/ConcurrentTable.swift; the DocC article "Caching").
//
// Swift initializes a global lazily: every access to a global whose initial value is not a
// constant first calls `swift_once`, and the warm paths, which read one root and one slot,
// would spend a sixth of their time there. C can express what Swift cannot here: atomic roots
// in zero-initialized storage, ready before any code runs, and slot arrays of atomic words
// behind one pointer. The accessors are `static inline`, so the Swift caller compiles them in
// place.

#ifndef CMD_CACHE_STORAGE_H
#define CMD_CACHE_STORAGE_H

#include "CMDDefines.h"

#include <stdatomic.h>
#include <stdint.h>

CMD_ASSUME_NONNULL_BEGIN

/// The number of statically rooted tables (RuntimeMetadata's `CacheTable`).
#define CMD_CACHE_ROOT_COUNT 16

/// One generation of a table's slots: a power-of-two array of words, each 0 (empty) or the
/// address of a retained, never-released entry. A generation is never freed: a reader may still
/// probe it after a writer has published a larger one.
typedef struct CMDTableSlots {
    /// The number of slots minus one.
    uintptr_t mask;
    /// The number of occupied slots; read and written only under the table's write lock.
    uintptr_t count;
    /// The slots.
    _Atomic(uintptr_t) slots[];
} CMDTableSlots;

/// A root: an atomic pointer to the current generation of a table's slots, null while the
/// table is empty. Swift sees roots and generations as opaque pointers.
typedef _Atomic(CMDTableSlots *_Nullable) CMDTableRoot;

/// The static tables' roots.
CMD_EXTERN CMDTableRoot cmd_cacheRoots[CMD_CACHE_ROOT_COUNT];

/// The address of a static table's root.
/// - Parameter table: The table, below `CMD_CACHE_ROOT_COUNT`.
/// - Returns: The root.
static inline void *cmd_cacheRoot(size_t table) { return (void *)&cmd_cacheRoots[table]; }

/// Allocates a root for a table that lives in an object (a per-protocol index), empty.
/// - Returns: The root; it is never freed.
CMD_EXTERN void *cmd_tableRootAllocate(void);

/// Reads a root with acquire ordering.
/// - Parameter root: The root.
/// - Returns: The current generation, or null.
static inline void *_Nullable cmd_tableLoad(void *root) {
    return atomic_load_explicit((CMDTableRoot *)root, memory_order_acquire);
}

/// Publishes a generation with release ordering, so that its filled slots are visible first.
/// - Parameters:
///   - root: The root.
///   - slots: The new generation.
static inline void cmd_tablePublish(void *root, void *slots) {
    atomic_store_explicit((CMDTableRoot *)root, (CMDTableSlots *)slots, memory_order_release);
}

/// The mask of a generation.
static inline uintptr_t cmd_tableMask(const void *slots) { return ((const CMDTableSlots *)slots)->mask; }

/// The occupied slots of a generation (under the write lock only).
static inline uintptr_t cmd_tableCount(const void *slots) { return ((const CMDTableSlots *)slots)->count; }

/// Sets the occupied slots of a generation (under the write lock only).
static inline void cmd_tableSetCount(void *slots, uintptr_t count) { ((CMDTableSlots *)slots)->count = count; }

/// Reads a slot with acquire ordering: an entry read here was fully built before it was stored.
/// - Parameters:
///   - slots: The generation.
///   - index: The slot; only the bits of the mask are used.
/// - Returns: The entry's address, or 0.
static inline uintptr_t cmd_slotLoad(void *slots, uintptr_t index) {
    CMDTableSlots *table = slots;
    return atomic_load_explicit(&table->slots[index & table->mask], memory_order_acquire);
}

/// Stores an entry in a slot with release ordering (under the write lock only).
static inline void cmd_slotStore(void *slots, uintptr_t index, uintptr_t entry) {
    CMDTableSlots *table = slots;
    atomic_store_explicit(&table->slots[index & table->mask], entry, memory_order_release);
}

/// Allocates an empty generation of `capacity` slots.
/// - Parameter capacity: A power of two.
/// - Returns: The generation, zeroed, or null when memory is exhausted.
CMD_EXTERN void *_Nullable cmd_tableAllocate(uintptr_t capacity);

/// The largest number of loaded Swift images seen so far: a negative answer cached with this
/// many images still holds. Here rather than in a Swift global for the same reason as the
/// roots, and because the warm checks, inlined into other modules, would reach a Swift
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
