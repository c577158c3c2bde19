// ProcessLeaks.c
//
// Linux implementation of CMDProcessLeaks.h: the heap's graph (HeapGraph.h, filled by
// ProcessHeap.c's walk), side tables told from Swift objects' counts (swiftlang/swift
// include/swift/SwiftShims/swift/shims/RefCount.h: `UseSlowRC` and `SideTableMark` with the
// table's address shifted right by `SideTableUnusedLowBits`, 3; the table,
// `HeapObjectSideTableEntry`, starts with its object's address), the roots read from
// `/proc/PID/maps`'s readable, writable mappings and each held thread's registers
// (ptrace(2) `PTRACE_GETREGSET`: `NT_PRSTATUS`, and `NT_X86_XSTATE` or `NT_PRFPREG`), and the
// marking from them.

#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CMDProcessLeaks.h"

#if defined(__linux__) && defined(__x86_64__) || defined(__linux__) && defined(__aarch64__)

#include <elf.h>
#include <sys/ptrace.h>
#include <sys/uio.h>

#include "CMDProcessImages.h"
#include "HeapGraph.h"
#include "ProcessMemory.h"

// RefCount.h, 64-bit (as ProcessHeap.c reads them).
#define RC_DEINITING ((uint64_t)1 << 32)
#define RC_SLOW ((uint64_t)1 << 63)
#define RC_SIDE_TABLE_MARK ((uint64_t)1 << 62)
/// The bytes of a thread's extended register state read at most (`NT_X86_XSTATE`: 2,696 with
/// AVX-512, about 11 KiB with AMX).
#define REGISTER_STATE_BYTES ((size_t)64 << 10)
/// The bytes of roots read at a time.
#define ROOT_PIECE ((size_t)1 << 20)

static bool leakFail(CMDLeakScan *result, CMDProcessStatus status, int error, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static bool leakFail(CMDLeakScan *result, CMDProcessStatus status, int error, const char *format, ...) {
    result->status = status;
    result->systemError = error;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(result->message, sizeof(result->message), format, arguments);
    va_end(arguments);
    return false;
}

/// The side table a block's counts name, verified by its first word pointing back: its index,
/// or -1.
static ptrdiff_t sideTableOf(HeapGraph *graph, const GraphBlock *block) {
    if (block->size < 16 || (block->words[1] & (RC_SLOW | RC_SIDE_TABLE_MARK)) != (RC_SLOW | RC_SIDE_TABLE_MARK)) {
        return -1;
    }
    uintptr_t side = (uintptr_t)((block->words[1] & (RC_SIDE_TABLE_MARK - 1)) << 3);
    ptrdiff_t table = cmdgraph_blockHolding(graph, side);
    if (table < 0 || graph->blocks[table].address != side || graph->blocks[table].size < 16 ||
        graph->blocks[table].words[0] != block->address) {
        return -1;
    }
    return table;
}

/// Whether a block's words read as a live Swift object's header: an aligned first word, and
/// counts of an object neither deinitializing nor immortal (ProcessHeap.c's `isAlive`). A side
/// table's counts (`SideTableRefCountBits`, `alignas(sizeof(void*) * 2)`) are at its offset 16.
static bool looksLikeObject(pid_t pid, HeapGraph *graph, const GraphBlock *block) {
    if (block->size < 16 || block->words[0] == 0 || block->words[0] % 8 != 0) return false;
    uint64_t counts = block->words[1];
    if (counts & RC_SLOW) {
        ptrdiff_t table = sideTableOf(graph, block);
        uint64_t sideCounts = 0;
        int32_t error = 0;
        return table >= 0 && graph->blocks[table].size >= 24 &&
               cmd_readProcessMemory(pid, graph->blocks[table].address + 16, &sideCounts, 8, &error) == 8 &&
               !(sideCounts & RC_DEINITING);
    }
    if (counts & RC_DEINITING) return false;
    if ((counts & 0xFFFFFFFFull) == 0xFFFFFFFFull) return false;
    return ((counts >> 1) & 0x7FFFFFFFull) != 0;
}

/// Whether `[start, end)` overlaps a run of the graph (a heap, or chunks of their own mapping):
/// the first such run's bounds in `*runStart`, `*runEnd`.
static bool firstRunWithin(const HeapGraph *graph, uintptr_t start, uintptr_t end, uintptr_t *runStart,
                           uintptr_t *runEnd) {
    for (size_t index = 0; index < graph->runCount; index++) {
        const GraphRun *run = &graph->runs[index];
        if (run->end > start && run->start < end) {
            *runStart = run->start > start ? run->start : start;
            *runEnd = run->end < end ? run->end : end;
            return true;
        }
    }
    return false;
}

/// Reads `[start, end)` of the process as roots and marks from its words. A page that cannot be
/// read fails the search: without it, what it refers to could be reported.
static bool markRange(pid_t pid, HeapGraph *graph, uint64_t *piece, uintptr_t start, uintptr_t end,
                      CMDLeakScan *result) {
    for (uintptr_t at = start; at < end;) {
        size_t length = end - at > ROOT_PIECE ? ROOT_PIECE : (size_t)(end - at);
        int32_t error = 0;
        size_t read = cmd_readProcessMemory(pid, at, piece, length, &error);
        if (read != length) {
            if (error == ESRCH) return leakFail(result, CMDProcessStatusExited, ESRCH, "process %d exited", pid);
            return leakFail(result, CMDProcessStatusFailed, error ? error : EFAULT,
                            "reading the roots at 0x%lx of process %d: %s; without them, what they refer to could be "
                            "reported",
                            (unsigned long)(at + read), pid, strerror(error ? error : EFAULT));
        }
        result->rootBytesRead += length;
        if (!cmdgraph_markFrom(graph, piece, length / 8)) {
            return leakFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
        }
        at += length;
    }
    return true;
}

/// Marks from every readable, writable mapping but the heaps and the chunks of their own
/// mappings: thread stacks whole, static TLS, the dynamic loader's allocations, the images'
/// data and bss.
static bool markMappings(pid_t pid, HeapGraph *graph, CMDLeakScan *result) {
    int error = 0;
    char *maps = cmdproc_readMaps(pid, &error);
    if (!maps) {
        return leakFail(result, error == ESRCH || error == ENOENT ? CMDProcessStatusExited : CMDProcessStatusFailed,
                        error, "reading /proc/%d/maps: %s", pid, strerror(error));
    }
    size_t count = 0;
    Mapping *mappings = cmdproc_parseMaps(maps, &count);
    uint64_t *piece = malloc(ROOT_PIECE);
    bool marked = mappings && piece;
    if (!marked) leakFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
    for (size_t index = 0; marked && index < count; index++) {
        const Mapping *mapping = &mappings[index];
        if (!mapping->readable || !mapping->writable) continue;
        // The mapping less the heaps and chunks within it.
        uintptr_t at = mapping->start;
        while (marked && at < mapping->end) {
            uintptr_t runStart, runEnd;
            if (!firstRunWithin(graph, at, mapping->end, &runStart, &runEnd)) {
                marked = markRange(pid, graph, piece, at, mapping->end, result);
                break;
            }
            if (runStart > at) marked = markRange(pid, graph, piece, at, runStart, result);
            at = runEnd;
        }
    }
    free(piece);
    free(mappings);
    free(maps);
    return marked;
}

/// Marks from a held thread's registers: the general ones, and the vector ones.
static bool markRegisters(int32_t thread, HeapGraph *graph, uint64_t *state, CMDLeakScan *result) {
    struct iovec vector = {state, REGISTER_STATE_BYTES};
    if (ptrace(PTRACE_GETREGSET, thread, (void *)NT_PRSTATUS, &vector) != 0) {
        if (errno == ESRCH) return true;  // The thread ended before the hold.
        return leakFail(result, CMDProcessStatusFailed, errno, "reading the registers of thread %d: %s", thread,
                        strerror(errno));
    }
    result->rootBytesRead += vector.iov_len;
    if (!cmdgraph_markFrom(graph, state, vector.iov_len / 8)) {
        return leakFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
    }
    vector = (struct iovec){state, REGISTER_STATE_BYTES};
#if defined(__x86_64__)
    bool read = ptrace(PTRACE_GETREGSET, thread, (void *)NT_X86_XSTATE, &vector) == 0;
    if (!read) {
        vector = (struct iovec){state, REGISTER_STATE_BYTES};
        read = ptrace(PTRACE_GETREGSET, thread, (void *)NT_PRFPREG, &vector) == 0;
    }
#else
    bool read = ptrace(PTRACE_GETREGSET, thread, (void *)NT_PRFPREG, &vector) == 0;
#endif
    if (!read) {
        return leakFail(result, CMDProcessStatusFailed, errno, "reading the vector registers of thread %d: %s", thread,
                        strerror(errno));
    }
    result->rootBytesRead += vector.iov_len;
    if (!cmdgraph_markFrom(graph, state, vector.iov_len / 8)) {
        return leakFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
    }
    return true;
}

/// Hands the blocks no root reached to `result`, by address, with their edges among
/// themselves.
static bool collectLeaks(pid_t pid, HeapGraph *graph, CMDLeakScan *result) {
    size_t leaked = 0;
    for (size_t index = 0; index < graph->blockCount; index++) {
        if (!(graph->blocks[index].flags & (GraphBlockFree | GraphBlockMarked))) leaked++;
    }
    if (leaked == 0) return true;
    uint32_t *slots = malloc(graph->blockCount * sizeof(uint32_t));
    result->blocks = calloc(leaked, sizeof(CMDLeakedBlock));
    if (!slots || !result->blocks) {
        free(slots);
        return leakFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
    }
    // Runs in address order, each run's blocks in address order.
    for (size_t run = 0; run < graph->runCount; run++) {
        const GraphRun *each = &graph->runs[run];
        for (size_t index = each->firstBlock; index < each->firstBlock + each->blockCount; index++) {
            GraphBlock *block = &graph->blocks[index];
            if (block->flags & (GraphBlockFree | GraphBlockMarked)) continue;
            slots[index] = (uint32_t)result->blockCount;
            ptrdiff_t table = sideTableOf(graph, block);
            result->blocks[result->blockCount++] = (CMDLeakedBlock){
                .address = block->address,
                .size = block->size,
                .words = {block->size >= 8 ? block->words[0] : 0, block->size >= 16 ? block->words[1] : 0},
                .looksLikeObject = looksLikeObject(pid, graph, block),
                .sideTable = table >= 0 ? graph->blocks[table].address : 0,
                .sideTableSize = table >= 0 ? graph->blocks[table].size : 0,
            };
        }
    }
    size_t capacity = 0;
    for (size_t run = 0; run < graph->runCount; run++) {
        const GraphRun *each = &graph->runs[run];
        for (size_t index = each->firstBlock; index < each->firstBlock + each->blockCount; index++) {
            const GraphBlock *block = &graph->blocks[index];
            if (block->flags & (GraphBlockFree | GraphBlockMarked)) continue;
            CMDLeakedBlock *out = &result->blocks[slots[index]];
            out->firstEdge = result->edgeCount;
            if (block->flags & GraphBlockSideTable) continue;
            for (uint64_t edge = block->firstEdge; edge < block->firstEdge + block->edgeCount; edge++) {
                ptrdiff_t target = cmdgraph_blockHolding(graph, (uintptr_t)graph->edges[edge]);
                if (target < 0 || (graph->blocks[target].flags & (GraphBlockFree | GraphBlockMarked))) continue;
                if (result->edgeCount == capacity) {
                    capacity = capacity ? capacity * 2 : 1024;
                    size_t *edges = realloc(result->edges, capacity * sizeof(size_t));
                    if (!edges) {
                        free(slots);
                        return leakFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
                    }
                    result->edges = edges;
                }
                result->edges[result->edgeCount++] = slots[target];
                out->edgeCount++;
            }
        }
    }
    free(slots);
    return true;
}

bool cmd_findProcessLeaks(const CMDStoppedProcess *stopped, CMDLeakScan *result) {
    memset(result, 0, sizeof(*result));
    int32_t pid = stopped->pid;
    HeapGraph graph;
    memset(&graph, 0, sizeof(graph));
    CMDHeapScan heap;
    if (!cmdheap_readGraph(pid, &graph, &heap)) {
        result->status = heap.status;
        result->systemError = heap.systemError;
        memcpy(result->message, heap.message, sizeof(result->message));
        cmdgraph_free(&graph);
        return false;
    }
    result->heapBytesRead = heap.bytesRead;
    result->startTime = heap.startTime;
    result->liveBlocks = 0;
    for (size_t index = 0; index < graph.blockCount; index++) {
        if (!(graph.blocks[index].flags & GraphBlockFree)) result->liveBlocks++;
    }
    result->liveEdges = graph.edgeCount;
    // Side tables: reached as any block, followed by none.
    for (size_t index = 0; index < graph.blockCount; index++) {
        if (graph.blocks[index].flags & GraphBlockFree) continue;
        ptrdiff_t table = sideTableOf(&graph, &graph.blocks[index]);
        if (table >= 0) graph.blocks[table].flags |= GraphBlockSideTable;
    }
    bool found = markMappings((pid_t)pid, &graph, result);
    uint64_t *state = found ? malloc(REGISTER_STATE_BYTES) : NULL;
    if (found && !state) found = leakFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
    for (size_t index = 0; found && index < stopped->threadCount; index++) {
        found = markRegisters(stopped->threads[index], &graph, state, result);
        if (found) result->threadCount++;
    }
    free(state);
    if (found) found = collectLeaks((pid_t)pid, &graph, result);
    result->graphBytes = graph.bytes;
    cmdgraph_free(&graph);
    if (found) {
        result->status = CMDProcessStatusRead;
    } else {
        cmd_releaseLeakScan(result);
    }
    return found;
}

void cmd_releaseLeakScan(CMDLeakScan *result) {
    free(result->blocks);
    free(result->edges);
    result->blocks = NULL;
    result->edges = NULL;
    result->blockCount = 0;
    result->edgeCount = 0;
}

#else

bool cmd_findProcessLeaks(const CMDStoppedProcess *stopped, CMDLeakScan *result) {
    memset(result, 0, sizeof(*result));
    result->status = CMDProcessStatusFailed;
    snprintf(result->message, sizeof(result->message), "a search for leaks in process %d is supported on Linux only",
             stopped->pid);
    return false;
}

void cmd_releaseLeakScan(CMDLeakScan *result) { (void)result; }

#endif
