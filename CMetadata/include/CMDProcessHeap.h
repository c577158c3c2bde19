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

/// The blocks of a scan that share a first word: objects of one class, if it is one.
typedef struct CMDHeapGroup {
    /// The blocks' first word: a Swift object's metadata.
    uintptr_t metadata;
    /// The group's blocks: `CMDHeapScan.addresses[start..<start + count]`, with their usable
    /// sizes at the same positions of `CMDHeapScan.sizes`.
    size_t start, count;
} CMDHeapGroup;

/// What a scan of a heap found.
typedef struct CMDHeapScan {
    /// How the scan ended.
    CMDProcessStatus status;
    /// The system's error number behind a failure, or 0.
    int32_t systemError;
    /// For a failure: what happened, NUL-terminated.
    char message[256];
    /// The blocks in use whose first word is an aligned non-zero address and whose second
    /// reads as the counts of an object that is alive (not deinitializing), grouped by first
    /// word: each block once, its address (what `malloc` returned) and usable size at the same
    /// position. Freed by `cmd_releaseHeapScan`.
    uintptr_t *_Nullable addresses;
    uintptr_t *_Nullable sizes;
    size_t blockCount;
    CMDHeapGroup *_Nullable groups;
    size_t groupCount;
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

/// Frees the block lists of a scan.
CMD_EXTERN void cmd_releaseHeapScan(CMDHeapScan *result);

/// Keeps, in place and in order, the blocks of a group whose usable size lies in
/// `[minimum, maximum]`; the group's count becomes theirs.
/// - Parameters:
///   - scan: A scan.
///   - group: An index below `scan->groupCount`.
///   - minimum: The least size kept.
///   - maximum: The largest size kept.
///   - bytes: Receives the sum of the kept blocks' sizes.
/// - Returns: The number kept.
CMD_EXTERN size_t cmd_filterHeapGroup(CMDHeapScan *scan, size_t group, uintptr_t minimum, uintptr_t maximum,
                                      uint64_t *bytes);

/// Reads the mappings that a scan reads, with `process_vm_readv` alone and nothing else: the
/// floor of a census's time.
/// - Parameters:
///   - pid: The process.
///   - bytes: Receives the number of bytes read.
/// - Returns: Whether they were read.
CMD_EXTERN bool cmd_readProcessHeapOnly(int32_t pid, uint64_t *bytes);

CMD_ASSUME_NONNULL_END

#endif  // CMD_PROCESS_HEAP_H
