// HeapGraph.h
//
// The graph of another process's heap that the search for leaks marks (private to CMetadata,
// implemented in HeapGraph.c, filled by the heap walk of ProcessHeap.c): every block in use,
// and for each the words in it that may point into a block in use, kept as they were read and
// resolved to blocks as the marking reaches them.
//
// Memory: a block takes `sizeof(GraphBlock)` (48 bytes), an edge 8 bytes, and the tables that
// find the block holding an address 4 bytes per 512 bytes of heap.

#ifndef CMD_HEAP_GRAPH_H
#define CMD_HEAP_GRAPH_H

#if defined(__linux__)

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "CMDProcessHeap.h"

#define CMD_HIDDEN_GRAPH __attribute__((visibility("hidden")))

/// The bits of a Swift reference that are not its address: tags of enums kept in its spare
/// bits, and the discriminator of a string's object (SwiftShims System.h:
/// `SWIFT_ABI_X86_64_SWIFT_SPARE_BITS_MASK`, which is `SWIFT_ABI_DEFAULT_64BIT_SPARE_BITS_MASK`;
/// arm64's mask is within it, and masking more only adds edges).
#define CMD_SPARE_BITS_MASK 0xFF00000000000007ull

/// A block's flags.
enum {
    /// A free list holds it: the walk read it as in use (`PREV_INUSE`), but it is no node.
    GraphBlockFree = 1,
    /// A root reaches it.
    GraphBlockMarked = 2,
    /// It is a Swift object's side table: reached as any block, its words are no edges.
    GraphBlockSideTable = 4,
    /// Its words read as a live Swift object's header (ProcessHeap.c's check).
    GraphBlockObject = 8,
};

/// A block in use.
typedef struct GraphBlock {
    /// What `malloc` returned, and the usable size.
    uintptr_t address, size;
    /// The first two words.
    uint64_t words[2];
    /// Its edges: `edgeCount` entries of the graph's `edges` from `firstEdge`.
    uint64_t firstEdge;
    uint32_t edgeCount;
    uint32_t flags;
} GraphBlock;

/// A run of blocks the walk recorded in address order: one heap, or one mapping's chunks.
typedef struct GraphRun {
    uintptr_t start, end;
    size_t firstBlock, blockCount;
    /// For each 512 bytes of `[start, end)`, the index of the first block that ends past it.
    uint32_t *table;
    size_t tableCount;
} GraphRun;

/// The granule of a run's table.
#define CMD_GRAPH_GRANULE_SHIFT 9

/// The heap's graph.
typedef struct HeapGraph {
    GraphBlock *blocks;
    size_t blockCount, blockCapacity;
    /// The words, masked, that may point into a block in use: resolved as the marking reaches
    /// them (`cmdgraph_blockHolding`).
    uint64_t *edges;
    size_t edgeCount, edgeCapacity;
    GraphRun *runs;
    size_t runCount, runCapacity;
    /// The ranges a word must fall in to be kept (the heaps, and the anonymous mappings whose
    /// chunks may be blocks), sorted, and the one the last kept word fell in.
    uintptr_t *rangeStarts, *rangeEnds;
    size_t rangeCount, lastRange;
    /// The blocks marked and not yet followed.
    size_t *stack;
    size_t stackCount, stackCapacity;
    /// The largest memory taken.
    uint64_t bytes;
    bool outOfMemory;
} HeapGraph;

/// Sets the ranges words are kept from, `count` pairs `[starts[i], ends[i])` in any order.
CMD_HIDDEN_GRAPH bool cmdgraph_setRanges(HeapGraph *graph, const uintptr_t *starts, const uintptr_t *ends, size_t count);

/// Starts a run at `start`; the blocks added until the next run or the end belong to it.
CMD_HIDDEN_GRAPH bool cmdgraph_beginRun(HeapGraph *graph, uintptr_t start);

/// Ends the current run at `end`.
CMD_HIDDEN_GRAPH void cmdgraph_endRun(HeapGraph *graph, uintptr_t end);

/// Adds a block in use, its first two words and flags; its edges follow with `cmdgraph_addWords`.
CMD_HIDDEN_GRAPH bool cmdgraph_addBlock(HeapGraph *graph, uintptr_t address, uintptr_t size, const uint64_t *words,
                                        uint32_t flags);

/// Adds the words of the last block added that point into the ranges, `count` words.
CMD_HIDDEN_GRAPH bool cmdgraph_addWords(HeapGraph *graph, const uint64_t *words, size_t count);

/// Empties the graph for another read of the heap.
CMD_HIDDEN_GRAPH void cmdgraph_reset(HeapGraph *graph);

/// Puts the runs in address order (each run's blocks are already), dropping those that hold no
/// memory, and builds their tables.
CMD_HIDDEN_GRAPH bool cmdgraph_index(HeapGraph *graph);

/// The index of the block in use holding an address (any byte of it), or -1.
CMD_HIDDEN_GRAPH ptrdiff_t cmdgraph_blockHolding(HeapGraph *graph, uintptr_t address);

/// Marks the blocks in use (not free) that the words point into, masked as edges are, and
/// follows their edges until every block they reach is marked; a side table's words are not
/// followed.
CMD_HIDDEN_GRAPH bool cmdgraph_markFrom(HeapGraph *graph, const uint64_t *words, size_t count);

/// Reads the heap of a process into a graph, walked as `cmd_scanProcessHeap` walks it, indexed,
/// with the blocks free lists hold flagged `GraphBlockFree` (ProcessHeap.c). `result` receives
/// the bytes read and the process's start time, or the reason for a failure.
CMD_HIDDEN_GRAPH bool cmdheap_readGraph(int32_t pid, HeapGraph *graph, CMDHeapScan *result);

/// Frees the graph.
CMD_HIDDEN_GRAPH void cmdgraph_free(HeapGraph *graph);

#endif  // __linux__

#endif  // CMD_HEAP_GRAPH_H
