// CMDProcessLeaks.h
//
// The blocks of another process's glibc malloc heap that nothing reachable refers to, found by
// conservative marking as LeakSanitizer marks (the DocC article "Understanding the ABI layer",
// "Leaks: what a held process no longer reaches"): the heap read once into a graph of its
// blocks in use and the words in them that point into the heap, the roots read from every
// other readable, writable mapping and every held thread's registers, and the blocks marked
// from the roots. Which of the blocks left are Swift objects, and their cycles, the Swift layer
// decides.

#ifndef CMD_PROCESS_LEAKS_H
#define CMD_PROCESS_LEAKS_H

#include "CMDDefines.h"
#include "CMDProcessControl.h"
#include "CMDProcessHeap.h"

CMD_ASSUME_NONNULL_BEGIN

/// A block in use that no root reaches.
typedef struct CMDLeakedBlock {
    /// What `malloc` returned, and the block's usable size.
    uintptr_t address, size;
    /// Its first word (an object's metadata), zero for a block smaller than a word.
    uint64_t firstWord;
    /// Whether its second word reads as the counts of a live Swift object, its first is an
    /// aligned address in a readable mapping, and the block is large enough for a header.
    bool looksLikeObject;
    /// The side table its counts point at (RefCount.h), and its usable size; 0 without one.
    uintptr_t sideTable, sideTableSize;
    /// Its edges to other leaked blocks: `edgeCount` indices into `CMDLeakScan.edges` from
    /// `firstEdge`, each the index of a leaked block, in the order of the words that hold them.
    size_t firstEdge, edgeCount;
} CMDLeakedBlock;

/// What a search for leaks found.
typedef struct CMDLeakScan {
    /// How the search ended; `message` says why it failed.
    CMDProcessStatus status;
    int32_t systemError;
    char message[256];
    /// The leaked blocks, by address; freed by `cmd_releaseLeakScan`.
    CMDLeakedBlock *_Nullable blocks;
    size_t blockCount;
    /// The leaked blocks' edges among themselves (indices into `blocks`).
    size_t *_Nullable edges;
    size_t edgeCount;
    /// The blocks in use, and the words in them that point into the heap's memory (a heap, or an
    /// anonymous mapping that may hold chunks): the graph's edges, resolved as the marking meets
    /// them.
    uint64_t liveBlocks, liveEdges;
    /// The bytes of heap read, and of roots (mappings and registers) read.
    uint64_t heapBytesRead, rootBytesRead;
    /// The largest memory the graph took: its blocks, edges and lookup tables.
    uint64_t graphBytes;
    /// The threads whose registers were read.
    uint32_t threadCount;
    /// The process's start time.
    uint64_t startTime;
} CMDLeakScan;

/// Finds the blocks of a held process's heap that no root reaches.
///
/// The heap is walked as `cmd_scanProcessHeap` walks it. A word is an edge when, with the spare
/// bits of a Swift reference masked (`SWIFT_ABI_DEFAULT_64BIT_SPARE_BITS_MASK`, SwiftShims
/// System.h), it points at any byte of a block in use. A block that a Swift object's counts
/// name as its side table, and whose first word points back at the object, is reached as any
/// block is but has no edges: its object word is not one. The roots are every readable,
/// writable mapping except the heaps and the chunks of their own mappings, and the general and
/// vector registers of every held thread.
/// - Parameters:
///   - stopped: The process, every thread held by `cmd_stopProcess`.
///   - result: Receives the leaked blocks, or the reason for the failure.
/// - Returns: Whether the search ran whole.
CMD_EXTERN bool cmd_findProcessLeaks(const CMDStoppedProcess *stopped, CMDLeakScan *result);

/// Frees the blocks and edges of a search.
CMD_EXTERN void cmd_releaseLeakScan(CMDLeakScan *result);

CMD_ASSUME_NONNULL_END

#endif  // CMD_PROCESS_LEAKS_H
