// CMDCacheStorage.h
//
// The roots and slot arrays of RuntimeMetadata's growable lock-free tables
// (Sources/RuntimeMetadata/Caching/ConcurrentTable.swift; the DocC article "Caching").
//
// The readers' side lives in Swift (RuntimeMetadata's `TableGenerations`), with the
// `Synchronization` module's atomics: a root is an atomic word, a generation's words start
// `sizeof(CMDTableSlots)` bytes in. Here are the static roots, which the warm lookups inlined
// into clients find without a call, the generations' header, their allocation, and the
// accessors of the writers' side, under a table's write lock.

#ifndef CMD_CACHE_STORAGE_H
#define CMD_CACHE_STORAGE_H

#include "CMDDefines.h"

#include <stdatomic.h>
#include <stdint.h>

CMD_ASSUME_NONNULL_BEGIN

/// One generation of a table's slots: a power-of-two number of slots of `stride` words each
/// (RuntimeMetadata's table views choose the stride: one word holding an entry's address, or a
/// key word and a value word). A slot whose first word is 0 is empty; a writer fills a slot's
/// other words first and its first word last, with release ordering. A generation is never
/// freed: a reader may still probe it after a writer has published a larger one. So that it
/// stays reachable, as a leak checker (LeakSanitizer) requires of memory a program keeps, the
/// larger generation links the one it replaced.
typedef struct CMDTableSlots {
    /// The number of slots minus one.
    uintptr_t mask;
    /// The number of occupied slots; read and written only under the table's write lock.
    uintptr_t count;
    /// The generation this one replaced, or null; written before this one is published, and
    /// never read.
    void *_Nullable replaced;
    /// Where the generation's allocation starts (the generation is aligned within it), for
    /// `cmd_tableFree`. With it the slots start 32 bytes into the generation, so that no
    /// two-word slot crosses a cache line.
    void *allocation;
    /// The slots' words.
    _Atomic(uintptr_t) words[];
} CMDTableSlots;

/// A root: an atomic word, 0 while the table is empty, else the address of the current
/// generation (aligned to 64 bytes) with the base-2 logarithm of its slot count in the low six
/// bits, so that a reader learns both from one load. Swift reads and publishes roots
/// (`TableGenerations.current`, `publish`).
typedef _Atomic(uintptr_t) CMDTableRoot;

/// The number of statically rooted tables (RuntimeMetadata's `CacheTable`).
#define CMD_CACHE_ROOT_COUNT 16

/// The static tables' roots, in static storage rather than in Swift globals: a client module,
/// into which the warm lookups are inlined, reaches a Swift global of RuntimeMetadata through a
/// call of its addressor, which cost 0.25 ns on a field list, 0.75 ns on a negative conformance
/// answer and 1.1 ns on a layout equality check (the DocC article "Caching"); it reaches these
/// through the GOT.
CMD_EXTERN CMDTableRoot cmd_cacheRoots[CMD_CACHE_ROOT_COUNT];

/// The address of a static table's root.
/// - Parameter table: The table, below `CMD_CACHE_ROOT_COUNT`.
/// - Returns: The root.
static inline void *cmd_cacheRoot(size_t table) { return (void *)&cmd_cacheRoots[table]; }

/// Allocates a root for a table that lives in an object (a per-protocol index), empty.
/// - Returns: The root; it is never freed.
CMD_EXTERN void *cmd_tableRootAllocate(void);

/// The bits of a root that hold the generation's logarithmic size.
#define CMD_TABLE_ROOT_SIZE_BITS ((uintptr_t)63)

/// The mask of a generation.
static inline uintptr_t cmd_tableMask(const void *slots) { return ((const CMDTableSlots *)slots)->mask; }

/// The occupied slots of a generation (under the write lock only).
static inline uintptr_t cmd_tableCount(const void *slots) { return ((const CMDTableSlots *)slots)->count; }

/// Sets the occupied slots of a generation (under the write lock only).
static inline void cmd_tableSetCount(void *slots, uintptr_t count) { ((CMDTableSlots *)slots)->count = count; }

/// Links the generation a new one replaces, before the new one is published.
/// - Parameters:
///   - slots: The new generation.
///   - replaced: The generation it replaces.
static inline void cmd_tableSetReplaced(void *slots, void *replaced) { ((CMDTableSlots *)slots)->replaced = replaced; }

/// Allocates an empty generation of `capacity` slots of `stride` words.
/// - Parameters:
///   - capacity: A power of two.
///   - stride: The words per slot.
/// - Returns: The generation, zeroed and aligned to 64 bytes, or null when memory is exhausted.
CMD_EXTERN void *_Nullable cmd_tableAllocate(uintptr_t capacity, uintptr_t stride);

/// Frees a root from `cmd_tableRootAllocate` and every generation published in it, the
/// replaced ones included: for a table that no reader has seen (one built by a thread that
/// lost the race to publish it). The entries its slots refer to are the caller's to release.
/// - Parameter root: The root.
CMD_EXTERN void cmd_tableFree(void *root);

/// The bytes of a generation's header, before its slots.
static inline uintptr_t cmd_tableHeaderBytes(void) { return sizeof(CMDTableSlots); }

/// The largest number of loaded Swift images seen so far: a negative answer cached with this
/// many images still holds. Here rather than in a Swift global for the same reason as the
/// roots.
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
