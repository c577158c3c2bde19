// HeapGraph.c
//
// Implementation of HeapGraph.h: the blocks and raw edges of another process's heap, and the
// lookup of the block that holds an address.

#include "HeapGraph.h"

#if defined(__linux__)

#include <stdlib.h>
#include <string.h>

bool cmdgraph_reserve(HeapGraph *graph, void **items, size_t *capacity, size_t count, size_t size, size_t needed) {
    if (count + needed <= *capacity) return true;
    size_t grown = *capacity ? *capacity * 2 : 1024;
    while (grown < count + needed) grown *= 2;
    void *items2 = realloc(*items, grown * size);
    if (!items2) {
        graph->outOfMemory = true;
        return false;
    }
    graph->bytes += (grown - *capacity) * size;
    *items = items2;
    *capacity = grown;
    return true;
}

bool cmdgraph_setRanges(HeapGraph *graph, const uintptr_t *starts, const uintptr_t *ends, size_t count) {
    free(graph->rangeStarts);
    free(graph->rangeEnds);
    graph->rangeStarts = malloc((count ? count : 1) * sizeof(uintptr_t));
    graph->rangeEnds = malloc((count ? count : 1) * sizeof(uintptr_t));
    graph->rangeCount = 0;
    graph->lastRange = 0;
    if (!graph->rangeStarts || !graph->rangeEnds) {
        graph->outOfMemory = true;
        return false;
    }
    graph->rangeLow = 0;
    graph->rangeSpan = 0;
    // Insertion by start: the ranges are a few dozen.
    for (size_t index = 0; index < count; index++) {
        if (ends[index] <= starts[index]) continue;
        size_t at = graph->rangeCount++;
        while (at > 0 && graph->rangeStarts[at - 1] > starts[index]) {
            graph->rangeStarts[at] = graph->rangeStarts[at - 1];
            graph->rangeEnds[at] = graph->rangeEnds[at - 1];
            at--;
        }
        graph->rangeStarts[at] = starts[index];
        graph->rangeEnds[at] = ends[index];
    }
    if (graph->rangeCount > 0) {
        uint64_t high = 0;
        for (size_t index = 0; index < graph->rangeCount; index++) {
            if (graph->rangeEnds[index] > high) high = graph->rangeEnds[index];
        }
        graph->rangeLow = graph->rangeStarts[0];
        graph->rangeSpan = high - graph->rangeLow;
    }
    return true;
}

bool cmdgraph_beginRun(HeapGraph *graph, uintptr_t start) {
    if (!cmdgraph_reserve(graph, (void **)&graph->runs, &graph->runCapacity, graph->runCount, sizeof(GraphRun), 1)) return false;
    graph->runs[graph->runCount++] = (GraphRun){.start = start, .end = start, .firstBlock = graph->blockCount};
    return true;
}

void cmdgraph_endRun(HeapGraph *graph, uintptr_t end) {
    if (graph->runCount == 0) return;
    GraphRun *run = &graph->runs[graph->runCount - 1];
    run->end = end;
    run->blockCount = graph->blockCount - run->firstBlock;
}

void cmdgraph_dropLastBlock(HeapGraph *graph) {
    if (graph->blockCount == 0) return;
    graph->blockCount--;
    graph->edgeCount = graph->blocks[graph->blockCount].firstEdge;
    if (graph->sideTableCount > 0 && graph->sideTables[graph->sideTableCount - 1].owner == graph->blockCount) {
        graph->sideTableCount--;
    }
}

void cmdgraph_reset(HeapGraph *graph) {
    for (size_t index = 0; index < graph->runCount; index++) free(graph->runs[index].table);
    graph->blockCount = 0;
    graph->edgeCount = 0;
    graph->runCount = 0;
    graph->lastRun = 0;
    graph->sideTableCount = 0;
    graph->lastRange = 0;
    graph->outOfMemory = false;
}

bool cmdgraph_index(HeapGraph *graph) {
    // Drop empty runs, and order the rest by address (insertion: a few dozen).
    size_t kept = 0;
    for (size_t index = 0; index < graph->runCount; index++) {
        GraphRun run = graph->runs[index];
        if (run.end <= run.start) continue;
        size_t at = kept++;
        while (at > 0 && graph->runs[at - 1].start > run.start) {
            graph->runs[at] = graph->runs[at - 1];
            at--;
        }
        graph->runs[at] = run;
    }
    graph->runCount = kept;
    graph->lastRun = 0;
    for (size_t index = 0; index < graph->runCount; index++) {
        GraphRun *run = &graph->runs[index];
        run->tableCount = ((run->end - run->start) >> CMD_GRAPH_GRANULE_SHIFT) + 1;
        run->table = malloc(run->tableCount * sizeof(uint32_t));
        if (!run->table) {
            graph->outOfMemory = true;
            return false;
        }
        graph->bytes += run->tableCount * sizeof(uint32_t);
        // The first block of each granule's that ends past the granule's start.
        size_t block = run->firstBlock, end = run->firstBlock + run->blockCount;
        for (size_t granule = 0; granule < run->tableCount; granule++) {
            uintptr_t at = run->start + ((uintptr_t)granule << CMD_GRAPH_GRANULE_SHIFT);
            while (block < end && graph->blocks[block].address + graph->blocks[block].size <= at) block++;
            run->table[granule] = (uint32_t)(block - run->firstBlock);
        }
    }
    return true;
}

ptrdiff_t cmdgraph_blockHolding(HeapGraph *graph, uintptr_t address) {
    if (graph->runCount == 0) return -1;
    // The run of the last address looked up first: most edges point into the same heap.
    const GraphRun *run = &graph->runs[graph->lastRun];
    if (address < run->start || address >= run->end) {
        if (address < graph->runs[0].start) return -1;
        size_t low = 0, high = graph->runCount;
        while (high - low > 1) {
            size_t middle = (low + high) / 2;
            if (graph->runs[middle].start <= address) low = middle;
            else high = middle;
        }
        run = &graph->runs[low];
        if (address >= run->end) return -1;
        graph->lastRun = low;
    }
    size_t block = run->firstBlock + run->table[(address - run->start) >> CMD_GRAPH_GRANULE_SHIFT];
    size_t end = run->firstBlock + run->blockCount;
    while (block < end && graph->blocks[block].address + graph->blocks[block].size <= address) block++;
    if (block < end && graph->blocks[block].address <= address) return (ptrdiff_t)block;
    return -1;
}

/// Marks the block holding a masked word, if any, and pushes it to be followed. An edge is in
/// the ranges already; a root's word is checked first.
static inline bool mark(HeapGraph *graph, uint64_t word, bool isRoot) {
    if (isRoot && (word - graph->rangeLow >= graph->rangeSpan || !cmdgraph_isInRanges(graph, word))) return true;
    ptrdiff_t block = cmdgraph_blockHolding(graph, (uintptr_t)word);
    if (block < 0 || (graph->blocks[block].flags & (GraphBlockFree | GraphBlockMarked))) return true;
    graph->blocks[block].flags |= GraphBlockMarked;
    if (graph->stackCount == graph->stackCapacity &&
        !cmdgraph_reserve(graph, (void **)&graph->stack, &graph->stackCapacity, graph->stackCount, sizeof(size_t), 1)) {
        return false;
    }
    graph->stack[graph->stackCount++] = (size_t)block;
    return true;
}

bool cmdgraph_markFrom(HeapGraph *graph, const uint64_t *words, size_t count) {
    if (graph->rangeCount == 0) return true;
    for (size_t index = 0; index < count; index++) {
        if (!mark(graph, words[index] & ~CMD_SPARE_BITS_MASK, true)) return false;
    }
    while (graph->stackCount > 0) {
        const GraphBlock *block = &graph->blocks[graph->stack[--graph->stackCount]];
        size_t index = graph->stack[graph->stackCount];
        if (block->flags & GraphBlockSideTable) continue;
        uint64_t end = cmdgraph_edgeEnd(graph, index);
        for (uint64_t edge = block->firstEdge; edge < end; edge++) {
            if (!mark(graph, graph->edges[edge], false)) return false;
        }
    }
    return true;
}

void cmdgraph_free(HeapGraph *graph) {
    for (size_t index = 0; index < graph->runCount; index++) free(graph->runs[index].table);
    free(graph->blocks);
    free(graph->edges);
    free(graph->runs);
    free(graph->rangeStarts);
    free(graph->rangeEnds);
    free(graph->stack);
    free(graph->sideTables);
    memset(graph, 0, sizeof(*graph));
}

#endif  // __linux__
