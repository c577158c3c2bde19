// CMDProcessHeap.h
//
// The live heap blocks of another process that may be Swift objects, read from its glibc
// malloc heap without running anything in it (the DocC article "Understanding the ABI layer",
// "A census of a process's objects"). Which of them are objects, and of which class, the Swift
// layer decides from their metadata.

#ifndef CMD_PROCESS_HEAP_H
#define CMD_PROCESS_HEAP_H

#include "CMDDefines.h"
#include "CMDProcessImages.h"

CMD_ASSUME_NONNULL_BEGIN

/// A heap block in use, whose first two words could be an object's header.
typedef struct CMDHeapBlock {
    /// The block's address in the process (what `malloc` returned).
    uintptr_t address;
    /// Its usable size (`malloc_usable_size`).
    uintptr_t size;
    /// Its first word: a Swift object's metadata.
    uintptr_t metadata;
    /// Its second word: a Swift object's reference counts.
    uintptr_t referenceCounts;
} CMDHeapBlock;

/// What a scan of a heap found.
typedef struct CMDHeapScan {
    /// How the scan ended.
    CMDProcessStatus status;
    /// The system's error number behind a failure, or 0.
    int32_t systemError;
    /// For a failure: what happened, NUL-terminated.
    char message[256];
    /// The blocks in use whose first word is an aligned non-zero address and whose second
    /// reads as the counts of an object that is alive (not deinitializing): each block once, in
    /// address order per heap. Freed by `cmd_releaseHeapScan`.
    CMDHeapBlock *_Nullable blocks;
    size_t blockCount;
    /// The bytes of heap read.
    uint64_t bytesRead;
    /// The arenas and heaps walked, and the heaps whose chunks changed during the read (a walk
    /// that did not end where the arena's top chunk begins).
    uint32_t arenaCount, heapCount, inconsistentHeapCount;
    /// The blocks found free in per-thread caches and fast bins.
    uint64_t cachedFreeBlocks;
    /// The process's start time, read before and after the scan.
    uint64_t startTime;
} CMDHeapScan;

/// Scans the glibc malloc heap of a process: its main arena (found in libc's data by the shape
/// of `struct malloc_state`) and the arenas linked to it, each heap walked chunk by chunk, and
/// the chunks of their own mappings (`IS_MMAPPED`). A chunk is in use when the next chunk's
/// `PREV_INUSE` says so and it is not in a thread's cache (`tcache_perthread_struct`, found as a
/// chunk of its size whose counts agree with its lists) or a fast bin.
/// - Parameters:
///   - pid: The process.
///   - result: Receives the blocks or the reason for the failure.
/// - Returns: Whether the heap was scanned.
CMD_EXTERN bool cmd_scanProcessHeap(int32_t pid, CMDHeapScan *result);

/// Frees the block list of a scan.
CMD_EXTERN void cmd_releaseHeapScan(CMDHeapScan *result);

/// Reads the mappings that a scan reads, with `process_vm_readv` alone and nothing else: the
/// floor of a census's time.
/// - Parameters:
///   - pid: The process.
///   - bytes: Receives the number of bytes read.
/// - Returns: Whether they were read.
CMD_EXTERN bool cmd_readProcessHeapOnly(int32_t pid, uint64_t *bytes);

CMD_ASSUME_NONNULL_END

#endif  // CMD_PROCESS_HEAP_H
