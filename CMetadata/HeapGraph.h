// HeapGraph.h
//
// The graph of another process's heap that the search for leaks marks (private to CMetadata,
// implemented in HeapGraph.c, filled by the heap walk of ProcessHeap.c): every block in use,
// and for each the words in it that may point into a block in use, kept as they were read and
// resolved to blocks as the marking reaches them.
//
// Memory: a block takes `sizeof(GraphBlock)` (32 bytes), an edge 8 bytes, and the tables that
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

// An object's counts, RefCount.h, 64-bit, as the census and the graph read them: IsDeiniting
// (bit 32), UseSlowRC (bit 63) with SideTableMark (bit 62) and the side table's address shifted
// right by 3 in the low bits; UnownedRefCount in bits 1-31. A side table's own counts are at its
// offset 16 (HeapObjectSideTableEntry: `SideTableRefCountBits` is 16-aligned).
#define RC_DEINITING ((uint64_t)1 << 32)
#define RC_SLOW ((uint64_t)1 << 63)
#define RC_SIDE_TABLE_MARK ((uint64_t)1 << 62)

/// A block's flags.
enum {
    /// A free list holds it: the walk read it as in use (`PREV_INUSE`), but it is no node.
    GraphBlockFree = 1,
    /// A root reaches it.
    GraphBlockMarked = 2,
    /// It is a Swift object's side table: reached as any block, its words are no edges.
    GraphBlockSideTable = 4,
};

/// A block in use.
typedef struct GraphBlock {
    /// What `malloc` returned.
    uintptr_t address;
    /// Its edges: the graph's `edges` from `firstEdge` to the next block's `firstEdge` (blocks and
    /// their edges are added in the same order), or to the end for the last block.
    uint64_t firstEdge;
    /// The usable size, and the flags.
    uint64_t size : 56;
    uint64_t flags : 8;
    /// The first word: an object's metadata, a side table's object.
    uint64_t firstWord;
} GraphBlock;

/// A block whose counts name a side table: its index, and the table's address.
typedef struct GraphSideTable {
    size_t owner;
    uintptr_t table;
} GraphSideTable;

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
    /// The run the last lookup found (`cmdgraph_blockHolding`).
    size_t runCount, runCapacity, lastRun;
    /// The ranges a word must fall in to be kept (the heaps, and the anonymous mappings whose
    /// chunks may be blocks), sorted, and the one the last kept word fell in.
    uintptr_t *rangeStarts, *rangeEnds;
    size_t rangeCount, lastRange;
    /// The blocks whose second word reads as counts that name a side table (RefCount.h:
    /// `UseSlowRC` and `SideTableMark`, the table's address shifted right by 3), and the table.
    GraphSideTable *sideTables;
    size_t sideTableCount, sideTableCapacity;
    /// The ranges' bounds, for a one-compare rejection of most words.
    uint64_t rangeLow, rangeSpan;
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

/// Grows an array to hold `needed` more elements of `size` bytes; `false` when out of memory.
CMD_HIDDEN_GRAPH bool cmdgraph_reserve(HeapGraph *graph, void **items, size_t *capacity, size_t count, size_t size,
                                       size_t needed);

#define COUNTS_NAME_SIDE_TABLE (RC_SLOW | RC_SIDE_TABLE_MARK)

/// Adds a block in use, with its first two words (zero past its end); its edges follow with
/// `cmdgraph_addWords`. Inline: the walk calls it once per block.
static inline bool cmdgraph_addBlock(HeapGraph *graph, uintptr_t address, uintptr_t size, const uint64_t *words) {
    if (graph->blockCount == graph->blockCapacity &&
        !cmdgraph_reserve(graph, (void **)&graph->blocks, &graph->blockCapacity, graph->blockCount,
                          sizeof(GraphBlock), 1)) {
        return false;
    }
    if ((words[1] & COUNTS_NAME_SIDE_TABLE) == COUNTS_NAME_SIDE_TABLE && size >= 16) {
        if (!cmdgraph_reserve(graph, (void **)&graph->sideTables, &graph->sideTableCapacity,
                              graph->sideTableCount, sizeof(GraphSideTable), 1)) {
            return false;
        }
        graph->sideTables[graph->sideTableCount++] = (GraphSideTable){
            .owner = graph->blockCount,
            .table = (uintptr_t)((words[1] & ~COUNTS_NAME_SIDE_TABLE) << 3),
        };
    }
    graph->blocks[graph->blockCount++] = (GraphBlock){
        .address = address,
        .firstEdge = graph->edgeCount,
        .size = size,
        .flags = 0,
        .firstWord = size >= 8 ? words[0] : 0,
    };
    return true;
}

/// Whether a masked word lies in one of the ranges.
static inline bool cmdgraph_isInRanges(HeapGraph *graph, uint64_t word) {
    size_t last = graph->lastRange;
    if (word >= graph->rangeStarts[last] && word < graph->rangeEnds[last]) return true;
    if (graph->rangeCount == 0 || word < graph->rangeStarts[0] || word >= graph->rangeEnds[graph->rangeCount - 1]) {
        return false;
    }
    size_t low = 0, high = graph->rangeCount;
    while (high - low > 1) {
        size_t middle = (low + high) / 2;
        if (graph->rangeStarts[middle] <= word) low = middle;
        else high = middle;
    }
    if (word < graph->rangeEnds[low]) {
        graph->lastRange = low;
        return true;
    }
    return false;
}

/// Adds the words of the last block added that point into the ranges, `count` words. Inline:
/// the walk calls it for every word of the heap.
static inline bool cmdgraph_addWords(HeapGraph *graph, const uint64_t *words, size_t count) {
    if (graph->blockCount == 0 || graph->rangeCount == 0) return true;
    // Room for every word, so that the loop checks none.
    if (graph->edgeCount + count > graph->edgeCapacity &&
        !cmdgraph_reserve(graph, (void **)&graph->edges, &graph->edgeCapacity, graph->edgeCount,
                          sizeof(uint64_t), count)) {
        return false;
    }
    const uint64_t low = graph->rangeLow, span = graph->rangeSpan;
    uint64_t *edges = graph->edges;
    size_t edgeCount = graph->edgeCount;
    for (size_t index = 0; index < count; index++) {
        uint64_t word = words[index] & ~CMD_SPARE_BITS_MASK;
        // Most words (zero, small integers, floating point, text) fall outside every range.
        if (word - low >= span || !cmdgraph_isInRanges(graph, word)) continue;
        edges[edgeCount++] = word;
    }
    graph->edgeCount = edgeCount;
    return true;
}

/// The end of a block's edges.
static inline uint64_t cmdgraph_edgeEnd(const HeapGraph *graph, size_t block) {
    return block + 1 < graph->blockCount ? graph->blocks[block + 1].firstEdge : graph->edgeCount;
}

/// Removes the last block added, with its edges.
CMD_HIDDEN_GRAPH void cmdgraph_dropLastBlock(HeapGraph *graph);

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
