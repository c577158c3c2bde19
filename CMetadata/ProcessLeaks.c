// ProcessLeaks.c
//
// Linux implementation of CMDProcessLeaks.h: the heap's graph (HeapGraph.h, filled by
// ProcessHeap.c's walk), side tables told from Swift objects' counts (swiftlang/swift
// include/swift/SwiftShims/swift/shims/RefCount.h: `UseSlowRC` and `SideTableMark` with the
// table's address shifted right by `SideTableUnusedLowBits`, 3; the table,
// `HeapObjectSideTableEntry`, starts with its object's address), the roots read from
// `/proc/PID/maps`'s readable, writable mappings (less the pages `/proc/PID/pagemap` shows a
// private mapping never wrote) and each held thread's registers
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
#include <fcntl.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <unistd.h>

#include "CMDProcessImages.h"
#include "HeapGraph.h"
#include "ProcessMemory.h"

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

/// Flags the side tables the graph's candidates name, each verified by its first word pointing
/// back at its object, and gives each owner's table index in `tables` (-1 for none).
static void flagSideTables(HeapGraph *graph, ptrdiff_t *tables) {
    for (size_t index = 0; index < graph->sideTableCount; index++) {
        const GraphSideTable *candidate = &graph->sideTables[index];
        GraphBlock *owner = &graph->blocks[candidate->owner];
        if (owner->flags & GraphBlockFree) continue;
        ptrdiff_t table = cmdgraph_blockHolding(graph, candidate->table);
        if (table < 0 || graph->blocks[table].address != candidate->table || graph->blocks[table].size < 24 ||
            graph->blocks[table].firstWord != owner->address || (graph->blocks[table].flags & GraphBlockFree)) {
            continue;
        }
        graph->blocks[table].flags |= GraphBlockSideTable;
        if (tables) tables[index] = table;
    }
}

/// Whether a block's header reads as a live Swift object's, read from the process: an aligned
/// first word, and counts of an object neither deinitializing nor immortal (ProcessHeap.c's
/// `isAlive`). A side table's counts (`SideTableRefCountBits`, `alignas(sizeof(void*) * 2)`)
/// are at its offset 16.
static bool looksLikeObject(pid_t pid, const GraphBlock *block, const GraphBlock *sideTable) {
    uint64_t words[2];
    int32_t error = 0;
    if (block->size < 16 || cmd_readProcessMemory(pid, block->address, words, 16, &error) != 16) return false;
    if (words[0] == 0 || words[0] % 8 != 0) return false;
    uint64_t counts = words[1];
    if (counts & RC_SLOW) {
        uint64_t sideCounts = 0;
        return (counts & RC_SIDE_TABLE_MARK) && sideTable &&
               cmd_readProcessMemory(pid, sideTable->address + 16, &sideCounts, 8, &error) == 8 &&
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

/// The pagemap entries' bits (proc(5), /proc/PID/pagemap): the page is present, or swapped.
#define PAGE_PRESENT ((uint64_t)1 << 63)
#define PAGE_SWAPPED ((uint64_t)1 << 62)

/// Marks from `[start, end)` of a mapping. In a private mapping, a page neither present nor
/// swapped was never written by the process (an anonymous one reads as zeros, a file's as the
/// file), so it holds no address the process stored, and is not read; `pagemap` (-1 when it
/// cannot be read) says which pages those are. A shared mapping is read whole.
static bool markMappingRange(pid_t pid, HeapGraph *graph, uint64_t *piece, int pagemap, const Mapping *mapping,
                             uintptr_t start, uintptr_t end, CMDLeakScan *result) {
    const uintptr_t page = 4096;
    if (pagemap < 0 || mapping->shared || start % page != 0 || end % page != 0) {
        return markRange(pid, graph, piece, start, end, result);
    }
    uint64_t entries[512];
    uintptr_t runStart = 0;
    bool inRun = false;
    for (uintptr_t at = start; at < end;) {
        size_t count = (size_t)((end - at) / page);
        if (count > 512) count = 512;
        ssize_t read = pread(pagemap, entries, count * 8, (off_t)(at / page * 8));
        if (read != (ssize_t)(count * 8)) {
            // Read what the pagemap could not tell about.
            if (inRun && !markRange(pid, graph, piece, runStart, at, result)) return false;
            return markRange(pid, graph, piece, at, end, result);
        }
        for (size_t index = 0; index < count; index++, at += page) {
            bool written = (entries[index] & (PAGE_PRESENT | PAGE_SWAPPED)) != 0;
            if (written && !inRun) {
                runStart = at;
                inRun = true;
            } else if (!written && inRun) {
                if (!markRange(pid, graph, piece, runStart, at, result)) return false;
                inRun = false;
            }
        }
    }
    return !inRun || markRange(pid, graph, piece, runStart, end, result);
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
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/pagemap", pid);
    int pagemap = open(path, O_RDONLY | O_CLOEXEC);
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
                marked = markMappingRange(pid, graph, piece, pagemap, mapping, at, mapping->end, result);
                break;
            }
            if (runStart > at) marked = markMappingRange(pid, graph, piece, pagemap, mapping, at, runStart, result);
            at = runEnd;
        }
    }
    if (pagemap >= 0) close(pagemap);
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
    ptrdiff_t *tables = malloc((graph->sideTableCount ? graph->sideTableCount : 1) * sizeof(ptrdiff_t));
    result->blocks = calloc(leaked, sizeof(CMDLeakedBlock));
    if (!slots || !tables || !result->blocks) {
        free(slots);
        free(tables);
        return leakFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
    }
    // Each leaked owner's side table.
    for (size_t index = 0; index < graph->sideTableCount; index++) tables[index] = -1;
    flagSideTables(graph, tables);
    for (size_t index = 0; index < graph->blockCount; index++) slots[index] = UINT32_MAX;
    for (size_t index = 0; index < graph->sideTableCount; index++) {
        if (tables[index] >= 0) slots[graph->sideTables[index].owner] = (uint32_t)index;
    }
    // Runs in address order, each run's blocks in address order; `slots` then maps a block to its
    // leaked index.
    for (size_t run = 0; run < graph->runCount; run++) {
        const GraphRun *each = &graph->runs[run];
        for (size_t index = each->firstBlock; index < each->firstBlock + each->blockCount; index++) {
            GraphBlock *block = &graph->blocks[index];
            if (block->flags & (GraphBlockFree | GraphBlockMarked)) continue;
            const GraphBlock *table = slots[index] != UINT32_MAX ? &graph->blocks[tables[slots[index]]] : NULL;
            slots[index] = (uint32_t)result->blockCount;
            result->blocks[result->blockCount++] = (CMDLeakedBlock){
                .address = block->address,
                .size = block->size,
                .firstWord = block->firstWord,
                .looksLikeObject = looksLikeObject(pid, block, table),
                .sideTable = table ? table->address : 0,
                .sideTableSize = table ? table->size : 0,
            };
        }
    }
    free(tables);
    size_t capacity = 0;
    for (size_t run = 0; run < graph->runCount; run++) {
        const GraphRun *each = &graph->runs[run];
        for (size_t index = each->firstBlock; index < each->firstBlock + each->blockCount; index++) {
            const GraphBlock *block = &graph->blocks[index];
            if (block->flags & (GraphBlockFree | GraphBlockMarked)) continue;
            CMDLeakedBlock *out = &result->blocks[slots[index]];
            out->firstEdge = result->edgeCount;
            if (block->flags & GraphBlockSideTable) continue;
            uint64_t end = cmdgraph_edgeEnd(graph, index);
            for (uint64_t edge = block->firstEdge; edge < end; edge++) {
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
    flagSideTables(&graph, NULL);
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
