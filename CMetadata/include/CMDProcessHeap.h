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

/// What the Swift layer decides of a first word the walk meets: whether it is the metadata of a
/// class, the usable sizes of a block that fit its instances, and whether to keep the blocks'
/// addresses.
typedef struct CMDHeapClassVerdict {
    /// Whether blocks with this first word may be instances (of a class of the process).
    bool isClass;
    /// Whether to keep the addresses of its instances.
    bool keepAddresses;
    /// The least and largest usable size of a block that is one of its instances.
    uintptr_t minimumSize, maximumSize;
} CMDHeapClassVerdict;

/// Decides a first word; called once per distinct word, on the scanning thread, during the
/// scan. Returns `false` to end the scan with `CMDProcessStatusFailed` (`message` is the
/// verdict's failure).
typedef bool (*CMDHeapClassify)(void *_Nullable context, uintptr_t metadata, CMDHeapClassVerdict *verdict);

/// The instances of one class.
typedef struct CMDHeapGroup {
    /// The class's metadata.
    uintptr_t metadata;
    /// The number of instances, and their blocks' usable sizes summed.
    uint64_t count, bytes;
    /// Their addresses (what `malloc` returned), in walk order, when the verdict kept them:
    /// `addressCount` of them; NULL otherwise.
    uintptr_t *_Nullable addresses;
    size_t addressCount;
} CMDHeapGroup;

/// What a scan of a heap found.
typedef struct CMDHeapScan {
    /// How the scan ended.
    CMDProcessStatus status;
    /// The system's error number behind a failure, or 0.
    int32_t systemError;
    /// For a failure: what happened, NUL-terminated.
    char message[256];
    /// One group per class with instances; freed by `cmd_releaseHeapScan`.
    CMDHeapGroup *_Nullable groups;
    size_t groupCount;
    /// The bytes of heap read by the read that counted.
    uint64_t bytesRead;
    /// The arenas and heaps walked.
    uint32_t arenaCount, heapCount;
    /// The reads it took: more than one when the heap changed under a read.
    uint32_t attempts;
    /// The blocks found free in per-thread caches and fast bins.
    uint64_t cachedFreeBlocks;
    /// The process's start time, the same before and after the scan.
    uint64_t startTime;
} CMDHeapScan;

/// The most reads of a heap that changed under each read, before a scan fails.
#define CMD_HEAP_SCAN_ATTEMPTS 4

/// Scans the glibc malloc heap of a process: its main arena (found in libc's data by the shape
/// of `struct malloc_state`) and the arenas linked to it, each heap walked chunk by chunk in
/// windows read into one reused buffer, and the chunks of their own mappings (`IS_MMAPPED`). A
/// chunk is in use when the next chunk's `PREV_INUSE` says so and it is not in a thread's cache
/// (`tcache_perthread_struct`, found as a chunk of its size whose counts agree with its lists)
/// or a fast bin. A block in use whose first word is an aligned address of a readable mapping
/// and whose second reads as the counts of a live object is an instance when `classify` says
/// its first word is a class and its size fits.
///
/// The scan is whole or it fails: a read that fails or comes short, an arena that fails its
/// check, a walk that does not end at its arena's top chunk, or a process that exits, becomes
/// a zombie or `exec`s before the end. A heap that changed under the read is read again, up to
/// `CMD_HEAP_SCAN_ATTEMPTS` reads in all.
/// - Parameters:
///   - pid: The process.
///   - classify: Decides each distinct first word.
///   - context: Passed to `classify`.
///   - result: Receives the groups or the reason for the failure.
/// - Returns: Whether the heap was scanned.
CMD_EXTERN bool cmd_scanProcessHeap(int32_t pid, CMDHeapClassify classify, void *_Nullable context,
                                    CMDHeapScan *result);

/// Frees the groups of a scan.
CMD_EXTERN void cmd_releaseHeapScan(CMDHeapScan *result);

/// Reads the mappings that a scan reads, with `process_vm_readv` into one reused buffer and
/// nothing else: the floor of a census's time.
/// - Parameters:
///   - pid: The process.
///   - bytes: Receives the number of bytes read.
/// - Returns: Whether they were read.
CMD_EXTERN bool cmd_readProcessHeapOnly(int32_t pid, uint64_t *bytes);

/// A range of a process's memory.
typedef struct CMDHeapRange {
    uintptr_t start, end;
} CMDHeapRange;

/// Lists the stretches of heap a scan walks (each heap from its start to its arena's top
/// chunk, or to its end), for a floor that reads the same bytes by other means.
/// - Parameters:
///   - pid: The process.
///   - ranges: Receives up to `capacity` ranges.
///   - capacity: The room in `ranges`.
///   - count: Receives the number of ranges (more than `capacity` when they did not fit).
/// - Returns: Whether the heap was found.
CMD_EXTERN bool cmd_listProcessHeapRanges(int32_t pid, CMDHeapRange *ranges, size_t capacity, size_t *count);

CMD_ASSUME_NONNULL_END

#endif  // CMD_PROCESS_HEAP_H
