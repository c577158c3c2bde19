// ProcessHeap.c
//
// Linux implementation of CMDProcessHeap.h: the walk of glibc malloc's heap of another process
// (GlibcMalloc.h for glibc's layout: glibc 2.26 and later, 64-bit, malloc/malloc.c and
// malloc/arena.c), read with `process_vm_readv` in windows into one reused buffer: each arena's
// heaps chunk by chunk (`struct malloc_chunk`: `prev_size`, `size` with `PREV_INUSE`,
// `IS_MMAPPED` and `NON_MAIN_ARENA`), the chunks of their own mappings, each thread's cache
// (`tcache_perthread_struct`) and the fast bins, whose links are safe-linked (`PROTECT_PTR`,
// glibc 2.32). Swift objects (swiftlang/swift include/swift/SwiftShims/swift/shims/RefCount.h,
// HeapObject.h) are told by their second word; the Swift layer decides their first
// (HeapGroups.h). The scan is whole or it fails: every read of the heap must succeed in full.

#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "CMDProcessHeap.h"

#if defined(__linux__) && defined(__x86_64__) || defined(__linux__) && defined(__aarch64__)

#include "GlibcMalloc.h"
#include "HeapGraph.h"
#include "HeapGroups.h"
#include "HeapWindows.h"
#include "ProcessMemory.h"

/// The most list entries walked per list, and heaps per arena.
#define MAXIMUM_LIST 1000000
#define MAXIMUM_HEAPS 1024

static bool heapFail(CMDHeapScan *result, CMDProcessStatus status, int error, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static bool heapFail(CMDHeapScan *result, CMDProcessStatus status, int error, const char *format, ...) {
    result->status = status;
    result->systemError = error;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(result->message, sizeof(result->message), format, arguments);
    va_end(arguments);
    return false;
}

/// How one read of the heap ended.
typedef enum Outcome {
    /// Read whole.
    OutcomeRead,
    /// The heap changed under the read, or a read came short: read it again.
    OutcomeChanged,
    /// A failure that another read does not mend (`result` says what).
    OutcomeFailed,
} Outcome;

/// A heap of an arena: its chunks from `firstChunk` to the arena's top chunk, when it holds it,
/// or to its end.
typedef struct Region {
    uintptr_t start, end, firstChunk, top;
} Region;

/// A chunk a free list holds, with its first two user words as the list's walk read them.
typedef struct FreeChunk {
    uintptr_t chunk, size;
    uint64_t words[2];
} FreeChunk;

/// Everything one read of the heap holds.
typedef struct Scan {
    pid_t pid;
    /// The process's mappings, in address order (`/proc/PID/maps` lists them so).
    const Mapping *mappings;
    size_t mappingCount;
    Region *regions;
    size_t regionCount, regionCapacity;
    /// The reader of the heaps, in windows.
    HeapWindows windows;
    /// In-use chunks of a cache's size, whose contents may be a thread's cache.
    uintptr_t *cacheCandidates;
    size_t cacheCandidateCount, cacheCandidateCapacity;
    AddressSet freeSet;
    FreeChunk *freeChunks;
    size_t freeChunkCount, freeChunkCapacity;
    HeapGroups *groups;
    /// The graph of the blocks in use, for the search for leaks, or NULL.
    HeapGraph *graph;
    uint64_t bytesRead;
    /// What ended the read, for `OutcomeChanged` and `OutcomeFailed`.
    int error;
    char why[160];
    bool outOfMemory, verdictFailed;
} Scan;

static Outcome changed(Scan *scan, int error, const char *format, ...) __attribute__((format(printf, 3, 4)));

/// Records why a read must be read again.
static Outcome changed(Scan *scan, int error, const char *format, ...) {
    scan->error = error;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(scan->why, sizeof(scan->why), format, arguments);
    va_end(arguments);
    return OutcomeChanged;
}

/// Reads `length` bytes of the process in full; on a short read, the outcome to report.
static Outcome readExactly(Scan *scan, uintptr_t address, void *buffer, size_t length) {
    int32_t error = 0;
    if (cmd_readProcessMemory(scan->pid, address, buffer, length, &error) == length) return OutcomeRead;
    if (error == 0) error = EFAULT;
    return changed(scan, error, "reading %zu bytes at 0x%lx: %s", length, (unsigned long)address, strerror(error));
}

/// Reads a word of the process that may not be mapped (a candidate's side table, a cache's
/// entry): `false` when it is not.
static bool readWord(const Scan *scan, uintptr_t address, uint64_t *value) {
    int32_t error = 0;
    return cmd_readProcessMemory(scan->pid, address, value, 8, &error) == 8;
}

/// The process's bytes `[address, address + length)` of the heap being walked; NULL with the
/// outcome in `*outcome` when they cannot be read.
static const uint8_t *bytesAt(Scan *scan, uintptr_t address, size_t length, Outcome *outcome) {
    int error = 0;
    const uint8_t *bytes = cmdwin_bytes(&scan->windows, address, length, &error);
    if (!bytes) {
        *outcome = changed(scan, error, "reading %zu bytes at 0x%lx of the heap: %s", length, (unsigned long)address,
                           strerror(error));
    }
    return bytes;
}

/// Whether an address lies in a readable mapping of the process, as an object's metadata must:
/// a first word that does not is no object, and costs no read of the process.
static bool isReadableAddress(const Scan *scan, uintptr_t address) {
    const Mapping *mapping = cmdheap_mappingContaining(scan->mappings, scan->mappingCount, address);
    return mapping && mapping->readable;
}

/// Whether an object's reference counts say it is alive: not deinitializing, with an unowned
/// count (or a side table that points back at it and is not deinitializing either).
static bool isAlive(const Scan *scan, uintptr_t object, uint64_t counts) {
    if (counts & RC_SLOW) {
        if (!(counts & RC_SIDE_TABLE_MARK)) return false;  // Immortal: not a heap object.
        uintptr_t side = (uintptr_t)((counts & (RC_SIDE_TABLE_MARK - 1)) << 3);
        uint64_t owner = 0, sideCounts = 0;
        // HeapObjectSideTableEntry: the object, then its counts, `SideTableRefCountBits`, which is
        // `alignas(sizeof(void*) * 2)`: at offset 16, after 8 bytes of padding.
        if (!readWord(scan, side, &owner) || !readWord(scan, side + 16, &sideCounts)) return false;
        return owner == object && !(sideCounts & RC_DEINITING);
    }
    if (counts & RC_DEINITING) return false;
    if ((counts & 0xFFFFFFFFull) == 0xFFFFFFFFull) return false;  // Immortal.
    return ((counts >> 1) & 0x7FFFFFFFull) != 0;
}

/// The group a block in use belongs to, from its first two words: a group's index,
/// `CMD_NOT_A_CLASS`, or `CMD_VERDICT_FAILED`.
static int32_t groupOf(Scan *scan, uintptr_t address, const uint64_t *words) {
    if (words[0] == 0 || words[0] % 8 != 0) return CMD_NOT_A_CLASS;
    // A word already decided (most blocks: the instances of a few classes) needs no search of
    // the mappings.
    int32_t known;
    if (cmdheap_knownVerdict(scan->groups, (uintptr_t)words[0], &known)) {
        return known >= 0 && isAlive(scan, address, words[1]) ? known : CMD_NOT_A_CLASS;
    }
    if (!isReadableAddress(scan, (uintptr_t)words[0]) || !isAlive(scan, address, words[1])) return CMD_NOT_A_CLASS;
    return cmdheap_verdict(scan->groups, (uintptr_t)words[0]);
}

/// Counts a block in use.
static bool countBlock(Scan *scan, uintptr_t address, uintptr_t size, const uint64_t *words) {
    int32_t group = groupOf(scan, address, words);
    if (group == CMD_VERDICT_FAILED) {
        scan->verdictFailed = true;
        return false;
    }
    if (group >= 0 && !cmdheap_count(scan->groups, group, address, size)) {
        scan->outOfMemory = true;
        return false;
    }
    return true;
}

static bool addCacheCandidate(Scan *scan, uintptr_t chunk) {
    if (scan->cacheCandidateCount == scan->cacheCandidateCapacity) {
        size_t capacity = scan->cacheCandidateCapacity ? scan->cacheCandidateCapacity * 2 : 16;
        uintptr_t *candidates = realloc(scan->cacheCandidates, capacity * sizeof(uintptr_t));
        if (!candidates) return false;
        scan->cacheCandidates = candidates;
        scan->cacheCandidateCapacity = capacity;
    }
    scan->cacheCandidates[scan->cacheCandidateCount++] = chunk;
    return true;
}

/// Adds a chunk a free list holds.
static bool addFreeChunk(Scan *scan, FreeChunk chunk) {
    if (cmdheap_setContains(&scan->freeSet, chunk.chunk)) return true;
    if (scan->freeChunkCount == scan->freeChunkCapacity) {
        size_t capacity = scan->freeChunkCapacity ? scan->freeChunkCapacity * 2 : 256;
        FreeChunk *chunks = realloc(scan->freeChunks, capacity * sizeof(FreeChunk));
        if (!chunks) return false;
        scan->freeChunks = chunks;
        scan->freeChunkCapacity = capacity;
    }
    if (!cmdheap_setInsert(&scan->freeSet, chunk.chunk)) return false;
    scan->freeChunks[scan->freeChunkCount++] = chunk;
    return true;
}

/// Empties what one read gathered, for the next.
static void resetScan(Scan *scan) {
    scan->regionCount = 0;
    atomic_store(&scan->windows.bytesRead, 0);
    scan->cacheCandidateCount = 0;
    free(scan->freeSet.slots);
    memset(&scan->freeSet, 0, sizeof(scan->freeSet));
    scan->freeChunkCount = 0;
    scan->bytesRead = 0;
    scan->error = 0;
    scan->why[0] = 0;
    if (scan->groups) cmdheap_resetCounts(scan->groups);
    if (scan->graph) cmdgraph_reset(scan->graph);
}

static void freeScan(Scan *scan) {
    free(scan->regions);
    cmdwin_close(&scan->windows);
    free(scan->cacheCandidates);
    free(scan->freeSet.slots);
    free(scan->freeChunks);
}

static bool addRegion(Scan *scan, Region region) {
    if (scan->regionCount == scan->regionCapacity) {
        size_t capacity = scan->regionCapacity ? scan->regionCapacity * 2 : 16;
        Region *regions = realloc(scan->regions, capacity * sizeof(Region));
        if (!regions) return false;
        scan->regions = regions;
        scan->regionCapacity = capacity;
    }
    scan->regions[scan->regionCount++] = region;
    return true;
}

/// Adds a chunk's block to the graph before the walk knows whether it is in use (the next
/// chunk's header says so, and the windows are read forward only): its first two words, read
/// with its header, and its words up to the next chunk's header, read through the windows. Its
/// last word, the next chunk's `prev_size`, is added when that header is read; a free chunk is
/// dropped then (`cmdgraph_dropLastBlock`).
static Outcome graphChunk(Scan *scan, uintptr_t chunk, uintptr_t next, const uint64_t *words) {
    if (!cmdgraph_addBlock(scan->graph, chunk + 16, next - chunk - 8, words) ||
        !cmdgraph_addWords(scan->graph, words, 2)) {
        scan->outOfMemory = true;
        return OutcomeFailed;
    }
    for (uintptr_t at = chunk + 32; at < next;) {
        int error = 0;
        size_t available = 0;
        // Windows start at page boundaries and chunks at 16 bytes: the span is whole words.
        const uint8_t *bytes = cmdwin_span(&scan->windows, at, (size_t)(next - at), &available, &error);
        if (!bytes) {
            return changed(scan, error, "reading %zu bytes at 0x%lx of the heap: %s", (size_t)(next - at),
                           (unsigned long)at, strerror(error));
        }
        if (!cmdgraph_addWords(scan->graph, (const uint64_t *)(const void *)bytes, available / 8)) {
            scan->outOfMemory = true;
            return OutcomeFailed;
        }
        at += available;
    }
    return OutcomeRead;
}

/// Walks one heap's chunks, counting the instances among those in use; with `count` false,
/// reads them alone (the floor). The walk must end where the heap's chunks end: at the arena's
/// top chunk, or for an older heap of a secondary arena at its fencepost or its end.
static Outcome walkRegionChunks(Scan *scan, const Region *region, bool count) {
    uintptr_t chunk = region->firstChunk;
    // The walk ends at the top chunk's header: nothing past it is read.
    uintptr_t end = region->top && region->end - region->top > 32 ? region->top + 32 : region->end;
    cmdwin_setRegion(&scan->windows, region->start, end);
    Outcome outcome = OutcomeRead;
    if (scan->graph && count && !cmdgraph_beginRun(scan->graph, region->start)) {
        scan->outOfMemory = true;
        return OutcomeFailed;
    }
    while (true) {
        if (region->top && chunk == region->top) return OutcomeRead;
        if (chunk + 16 > region->end) break;
        // The chunk's header and, when it has them, its first two user words.
        size_t headerLength = chunk + 32 <= region->end ? 32 : 16;
        const uint8_t *header = bytesAt(scan, chunk, headerLength, &outcome);
        if (!header) return outcome;
        uint64_t words[4] = {0};
        memcpy(words, header, headerLength);
        uintptr_t size = (uintptr_t)(words[1] & ~(uint64_t)SIZE_BITS);
        if (size < MINIMUM_CHUNK) {
            // A fencepost at the end of an older heap of a secondary arena.
            if (!region->top) return OutcomeRead;
            break;
        }
        if (size % 16 != 0 || size > region->end - chunk) break;
        uintptr_t next = chunk + size;
        if (next + 16 > region->end) {
            if (!region->top && next == region->end) return OutcomeRead;
            break;
        }
        bool graphed = scan->graph && count;
        if (graphed && (outcome = graphChunk(scan, chunk, next, words + 2)) != OutcomeRead) return outcome;
        const uint8_t *nextHeader = bytesAt(scan, next, 16, &outcome);
        if (!nextHeader) return outcome;
        uint64_t nextSize, lastWord;
        memcpy(&nextSize, nextHeader + 8, 8);
        memcpy(&lastWord, nextHeader, 8);
        if (graphed && !(nextSize & PREV_INUSE)) cmdgraph_dropLastBlock(scan->graph);
        if (count && (nextSize & PREV_INUSE)) {
            if (size == TCACHE_CHUNK_SIZE && !addCacheCandidate(scan, chunk)) {
                scan->outOfMemory = true;
                return OutcomeFailed;
            }
            if (scan->groups && !countBlock(scan, chunk + 16, size - 8, words + 2)) return OutcomeFailed;
            if (graphed && !cmdgraph_addWords(scan->graph, &lastWord, 1)) {
                scan->outOfMemory = true;
                return OutcomeFailed;
            }
        }
        chunk = next;
    }
    return changed(scan, 0, "the walk of the heap at 0x%lx lost its chunks at 0x%lx before its %s",
                   (unsigned long)region->start, (unsigned long)chunk, region->top ? "top chunk" : "end");
}

/// Walks one heap's chunks; the graph's run of its blocks ends with the heap.
static Outcome walkRegion(Scan *scan, const Region *region, bool count) {
    Outcome outcome = walkRegionChunks(scan, region, count);
    if (scan->graph && count) cmdgraph_endRun(scan->graph, region->end);
    return outcome;
}

/// Adds the words of a chunk of its own mapping to the graph, read a megabyte at a time.
static Outcome graphMappedChunk(Scan *scan, uintptr_t address, uintptr_t size, const uint64_t *words) {
    if (!cmdgraph_addBlock(scan->graph, address, size, words)) {
        scan->outOfMemory = true;
        return OutcomeFailed;
    }
    const size_t pieceSize = (size_t)1 << 20;
    uint64_t *piece = malloc(pieceSize);
    if (!piece) {
        scan->outOfMemory = true;
        return OutcomeFailed;
    }
    Outcome outcome = OutcomeRead;
    for (uintptr_t at = address; outcome == OutcomeRead && at + 8 <= address + size;) {
        size_t length = address + size - at >= pieceSize ? pieceSize : (size_t)((address + size - at) & ~(uintptr_t)7);
        outcome = readExactly(scan, at, piece, length);
        if (outcome != OutcomeRead) break;
        scan->bytesRead += length;
        if (!cmdgraph_addWords(scan->graph, piece, length / 8)) {
            scan->outOfMemory = true;
            outcome = OutcomeFailed;
        }
        at += length;
    }
    free(piece);
    return outcome;
}

/// Adds the chunks of a thread's cache to the free chunks, when the chunk holds one: each
/// count matches its list's length, each entry is a chunk of its bin's size, and every entry
/// carries the same key.
static Outcome addCache(Scan *scan, uintptr_t chunk) {
    uint8_t bytes[TCACHE_CHUNK_SIZE - 16];
    Outcome outcome = readExactly(scan, chunk + 16, bytes, sizeof(bytes));
    if (outcome != OutcomeRead) return outcome;
    uint16_t counts[TCACHE_BINS];
    uint64_t entries[TCACHE_BINS];
    memcpy(counts, bytes, sizeof(counts));
    memcpy(entries, bytes + sizeof(counts), sizeof(entries));
    uint64_t key = 0;
    size_t total = 0;
    for (int bin = 0; bin < TCACHE_BINS; bin++) {
        if ((counts[bin] == 0) != (entries[bin] == 0)) return OutcomeRead;
        total += counts[bin];
    }
    if (total == 0) return OutcomeRead;
    FreeChunk *members = malloc(total * sizeof(FreeChunk));
    if (!members) {
        scan->outOfMemory = true;
        return OutcomeFailed;
    }
    size_t found = 0;
    for (int bin = 0; bin < TCACHE_BINS; bin++) {
        uintptr_t entry = (uintptr_t)entries[bin];
        for (int position = 0; position < counts[bin]; position++) {
            uint64_t stored, entryKey, chunkSize;
            if (entry == 0 || entry % 16 != 0 || !readWord(scan, entry, &stored) ||
                !readWord(scan, entry + 8, &entryKey) || !readWord(scan, entry - 8, &chunkSize) ||
                (chunkSize & ~(uint64_t)SIZE_BITS) != (uint64_t)bin * 16 + MINIMUM_CHUNK || entryKey == 0 ||
                (key != 0 && entryKey != key)) {
                free(members);
                return OutcomeRead;
            }
            key = entryKey;
            members[found++] = (FreeChunk){entry - 16, (uintptr_t)(chunkSize & ~(uint64_t)SIZE_BITS),
                                           {stored, entryKey}};
            // PROTECT_PTR: the next entry, XORed with the address of the field >> 12.
            entry = (uintptr_t)(stored ^ (entry >> 12));
        }
        if (counts[bin] && entry != 0) {
            free(members);
            return OutcomeRead;
        }
    }
    for (size_t index = 0; index < found; index++) {
        if (!addFreeChunk(scan, members[index])) scan->outOfMemory = true;
    }
    free(members);
    return scan->outOfMemory ? OutcomeFailed : OutcomeRead;
}

/// Adds an arena's fast bins' chunks to the free chunks.
static Outcome addFastBins(Scan *scan, const uint64_t *arena) {
    for (int bin = 0; bin < ARENA_FASTBIN_COUNT; bin++) {
        uintptr_t chunk = (uintptr_t)arena[ARENA_FASTBINS / 8 + bin];
        for (int steps = 0; chunk != 0; steps++) {
            uint64_t words[3];
            if (steps == MAXIMUM_LIST || chunk % 16 != 0) {
                return changed(scan, 0, "a fast bin's list is broken at 0x%lx", (unsigned long)chunk);
            }
            Outcome outcome = readExactly(scan, chunk + 8, words, sizeof(words));
            if (outcome != OutcomeRead) return outcome;
            // A list that comes back to a chunk already seen is a cycle: a heap changed under
            // the read, or forged.
            if (cmdheap_setContains(&scan->freeSet, chunk)) {
                return changed(scan, 0, "a fast bin's list loops at 0x%lx", (unsigned long)chunk);
            }
            if (!addFreeChunk(scan, (FreeChunk){chunk, (uintptr_t)(words[0] & ~(uint64_t)SIZE_BITS), {words[1], words[2]}})) {
                scan->outOfMemory = true;
                return OutcomeFailed;
            }
            chunk = (uintptr_t)(words[1] ^ ((chunk + 16) >> 12));
        }
    }
    return OutcomeRead;
}

/// Finds the heaps of the main arena and of every arena in its ring, checking each arena's
/// structure and that the memory it says it holds is its heaps'.
static Outcome findRegions(Scan *scan, uintptr_t mainArena, CMDHeapScan *result, bool count) {
    uint64_t words[ARENA_SIZE / 8];
    Outcome outcome = readExactly(scan, mainArena, words, ARENA_SIZE);
    if (outcome != OutcomeRead) return outcome;
    if (!cmdheap_isArena(words, mainArena, scan->mappings, scan->mappingCount)) {
        return changed(scan, 0, "the main arena at 0x%lx fails its check", (unsigned long)mainArena);
    }
    uintptr_t top = (uintptr_t)words[ARENA_TOP / 8];
    uint64_t systemMemory = words[ARENA_SYSTEM_MEMORY / 8];
    result->arenaCount = 1;
    result->heapCount = 0;
    if (systemMemory != 0) {
        const Mapping *heap = cmdheap_mappingContaining(scan->mappings, scan->mappingCount, top);
        if (!heap || strcmp(heap->path, "[heap]") != 0) {
            return changed(scan, 0, "the main arena's top chunk 0x%lx is not in [heap]", (unsigned long)top);
        }
        if (systemMemory > heap->end - heap->start) {
            return changed(scan, 0, "the main arena holds %llu bytes, more than [heap]'s %llu",
                           (unsigned long long)systemMemory, (unsigned long long)(heap->end - heap->start));
        }
        if (!addRegion(scan, (Region){heap->start, heap->end, heap->start, top})) goto outOfMemory;
        result->heapCount++;
    }
    if (count && (outcome = addFastBins(scan, words)) != OutcomeRead) return outcome;
    // Secondary arenas, in the circular list from the main one.
    uintptr_t arena = (uintptr_t)words[ARENA_NEXT / 8];
    for (int steps = 0; arena != mainArena; steps++) {
        if (steps == MAXIMUM_ARENAS || arena == 0) {
            return changed(scan, 0, "the ring of arenas does not lead back to the main arena");
        }
        outcome = readExactly(scan, arena, words, ARENA_SIZE);
        if (outcome != OutcomeRead) return outcome;
        if (!cmdheap_isArena(words, arena, scan->mappings, scan->mappingCount)) {
            return changed(scan, 0, "the arena at 0x%lx fails its check", (unsigned long)arena);
        }
        result->arenaCount++;
        uintptr_t arenaTop = (uintptr_t)words[ARENA_TOP / 8];
        uint64_t held = 0;
        uintptr_t heap = arenaTop & ~(HEAP_MAX_SIZE - 1);
        for (int heaps = 0; heap != 0; heaps++) {
            uint64_t info[HEAP_INFO_SIZE / 8];
            if (heaps == MAXIMUM_HEAPS) return changed(scan, 0, "the arena at 0x%lx has too many heaps", (unsigned long)arena);
            if ((outcome = readExactly(scan, heap, info, HEAP_INFO_SIZE)) != OutcomeRead) return outcome;
            uintptr_t size = (uintptr_t)info[HEAP_INFO_SIZE_FIELD / 8];
            if (info[0] != arena || size < HEAP_INFO_SIZE || size > HEAP_MAX_SIZE) {
                return changed(scan, 0, "the heap at 0x%lx is not the arena 0x%lx's", (unsigned long)heap,
                               (unsigned long)arena);
            }
            uintptr_t first = heap + HEAP_INFO_SIZE;
            if (arena == first) {
                // The arena's first heap holds the arena: chunks follow it, aligned as
                // `_int_new_arena` aligns them.
                first = arena + ARENA_SIZE;
                if ((first + 16) % 16) first += 16 - (first + 16) % 16;
            }
            bool holdsTop = arenaTop >= heap && arenaTop < heap + size;
            if (!addRegion(scan, (Region){heap, heap + size, first, holdsTop ? arenaTop : 0})) goto outOfMemory;
            result->heapCount++;
            held += size;
            heap = (uintptr_t)info[HEAP_INFO_PREV / 8];
        }
        // `system_mem` is the sum of the arena's heaps' sizes (malloc/arena.c keeps it so).
        if (held != words[ARENA_SYSTEM_MEMORY / 8]) {
            return changed(scan, 0, "the arena at 0x%lx holds %llu bytes, its heaps %llu", (unsigned long)arena,
                           (unsigned long long)words[ARENA_SYSTEM_MEMORY / 8], (unsigned long long)held);
        }
        if (count && (outcome = addFastBins(scan, words)) != OutcomeRead) return outcome;
        arena = (uintptr_t)words[ARENA_NEXT / 8];
    }
    return OutcomeRead;
outOfMemory:
    scan->outOfMemory = true;
    return OutcomeFailed;
}

/// Whether an address lies in a heap found.
static bool isInRegion(const Scan *scan, uintptr_t address) {
    for (size_t index = 0; index < scan->regionCount; index++) {
        if (address >= scan->regions[index].start && address < scan->regions[index].end) return true;
    }
    return false;
}

/// Counts the instances in mmapped chunks: each anonymous writable mapping's chunks, one after
/// another, each with `IS_MMAPPED` and a page-sized size that fits.
static Outcome scanMappedChunks(Scan *scan, bool count) {
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (size_t index = 0; index < scan->mappingCount; index++) {
        const Mapping *mapping = &scan->mappings[index];
        if (!mapping->readable || !mapping->writable || mapping->inode != 0 || mapping->path[0] != 0 ||
            isInRegion(scan, mapping->start)) {
            continue;
        }
        uintptr_t chunk = mapping->start;
        if (scan->graph && count && !cmdgraph_beginRun(scan->graph, chunk)) {
            scan->outOfMemory = true;
            return OutcomeFailed;
        }
        while (chunk + 32 <= mapping->end) {
            uint64_t header[4];
            Outcome outcome = readExactly(scan, chunk, header, sizeof(header));
            if (outcome != OutcomeRead) return outcome;
            scan->bytesRead += sizeof(header);
            uintptr_t size = (uintptr_t)(header[1] & ~(uint64_t)SIZE_BITS);
            if (header[0] != 0 || (header[1] & SIZE_BITS) != IS_MMAPPED || size < page || size % page != 0 ||
                size > mapping->end - chunk) {
                break;
            }
            if (count && scan->groups && !countBlock(scan, chunk + 16, size - 16, header + 2)) return OutcomeFailed;
            if (count && scan->graph && (outcome = graphMappedChunk(scan, chunk + 16, size - 16, header + 2)) != OutcomeRead) {
                return outcome;
            }
            chunk += size;
        }
        if (scan->graph && count) cmdgraph_endRun(scan->graph, chunk);
    }
    return OutcomeRead;
}

/// Sets the ranges a word of the graph must point into: the heaps, and the anonymous writable
/// mappings that may hold chunks of their own (`scanMappedChunks`'s).
static bool setGraphRanges(Scan *scan) {
    size_t capacity = scan->regionCount + scan->mappingCount;
    uintptr_t *starts = malloc((capacity ? capacity : 1) * sizeof(uintptr_t));
    uintptr_t *ends = malloc((capacity ? capacity : 1) * sizeof(uintptr_t));
    size_t count = 0;
    if (starts && ends) {
        for (size_t index = 0; index < scan->regionCount; index++) {
            starts[count] = scan->regions[index].start;
            ends[count++] = scan->regions[index].end;
        }
        for (size_t index = 0; index < scan->mappingCount; index++) {
            const Mapping *mapping = &scan->mappings[index];
            if (!mapping->readable || !mapping->writable || mapping->inode != 0 || mapping->path[0] != 0 ||
                isInRegion(scan, mapping->start)) {
                continue;
            }
            starts[count] = mapping->start;
            ends[count++] = mapping->end;
        }
    }
    bool set = starts && ends && cmdgraph_setRanges(scan->graph, starts, ends, count);
    free(starts);
    free(ends);
    if (!set) scan->outOfMemory = true;
    return set;
}

/// One read of the heap: its arenas and heaps, each walked, the chunks of their own mappings,
/// and the blocks free lists hold taken back.
static Outcome readHeap(Scan *scan, uintptr_t mainArena, CMDHeapScan *result, bool count) {
    Outcome outcome = findRegions(scan, mainArena, result, count);
    if (outcome == OutcomeRead && scan->graph && count && !setGraphRanges(scan)) return OutcomeFailed;
    for (size_t index = 0; outcome == OutcomeRead && index < scan->regionCount; index++) {
        outcome = walkRegion(scan, &scan->regions[index], count);
    }
    if (outcome == OutcomeRead) outcome = scanMappedChunks(scan, count);
    if (!count || outcome != OutcomeRead) return outcome;
    for (size_t index = 0; outcome == OutcomeRead && index < scan->cacheCandidateCount; index++) {
        outcome = addCache(scan, scan->cacheCandidates[index]);
    }
    if (outcome != OutcomeRead || !scan->groups) return outcome;
    // A free chunk the walk took for one in use (a cache's or a fast bin's holds `PREV_INUSE`)
    // was counted when its words read as an instance's: take it back.
    for (size_t index = 0; index < scan->freeChunkCount; index++) {
        const FreeChunk *chunk = &scan->freeChunks[index];
        int32_t group = groupOf(scan, chunk->chunk + 16, chunk->words);
        if (group == CMD_VERDICT_FAILED) {
            scan->verdictFailed = true;
            return OutcomeFailed;
        }
        if (group >= 0 && chunk->size >= MINIMUM_CHUNK) cmdheap_takeBack(scan->groups, group, chunk->size - 8);
    }
    result->cachedFreeBlocks = scan->freeChunkCount;
    return OutcomeRead;
}

/// Fills `result` with why the process can no longer be read, when it cannot: it exited, is a
/// zombie, or runs another program than `before` did.
static bool isGone(int32_t pid, const CMDProcessFacts *before, CMDHeapScan *result) {
    CMDProcessFacts after;
    int32_t error = 0;
    if (!cmd_processFacts(pid, &after, &error)) {
        return !heapFail(result, CMDProcessStatusExited, ESRCH, "process %d exited during the census", pid);
    }
    switch (cmd_processChange(before, &after)) {
    case CMDProcessStatusRead: return false;
    case CMDProcessStatusZombie:
        return !heapFail(result, CMDProcessStatusZombie, ESRCH,
                         "process %d exited during the census: it is a zombie, which its parent has not reaped", pid);
    case CMDProcessStatusExeced:
        return !heapFail(result, CMDProcessStatusExeced, 0,
                         "process %d replaced its program (exec) during the census: its heap is another's", pid);
    default:
        if (after.startTime != before->startTime) {
            return !heapFail(result, CMDProcessStatusExited, ESRCH,
                             "process %d exited during the census, and its pid now names another process", pid);
        }
        return !heapFail(result, CMDProcessStatusExited, ESRCH, "process %d exited during the census", pid);
    }
}

/// Why a process cannot have its heap read at all, before any read: none has the pid, or it
/// is a kernel thread or a zombie. `false` with `result` filled then.
static bool checkProcess(int32_t pid, CMDProcessFacts *facts, CMDHeapScan *result) {
    int32_t error = 0;
    if (pid <= 0 || !cmd_processFacts(pid, facts, &error)) {
        if (pid <= 0 || error == ENOENT || error == ESRCH) {
            return heapFail(result, CMDProcessStatusNoSuchProcess, ESRCH, "no process has pid %d", pid);
        }
        return heapFail(result, CMDProcessStatusFailed, error, "reading /proc/%d/stat: %s", pid, strerror(error));
    }
    if (facts->isKernelThread) {
        return heapFail(result, CMDProcessStatusKernelThread, 0,
                        "pid %d is a kernel thread, not a user process: it has no heap", pid);
    }
    if (facts->state == 'Z' || facts->state == 'X') {
        return heapFail(result, CMDProcessStatusZombie, ESRCH,
                        "process %d is a zombie: it has exited, its parent has not reaped it, and it has no memory",
                        pid);
    }
    return true;
}

/// Reads the process's mappings, and finds its main arena or the allocator that is not glibc's.
static bool findArena(int32_t pid, CMDHeapScan *result, char **maps, Mapping **mappings, size_t *count,
                      uintptr_t *mainArena) {
    int error = 0;
    *maps = cmdproc_readMaps((pid_t)pid, &error);
    if (!*maps) {
        if (error == ENOENT || error == ESRCH) {
            return heapFail(result, CMDProcessStatusExited, error, "process %d exited during the census", pid);
        }
        if (error == EACCES || error == EPERM) {
            return heapFail(result, CMDProcessStatusPermissionDenied, error,
                            "reading /proc/PID/maps of process %d: %s", pid, strerror(error));
        }
        return heapFail(result, CMDProcessStatusFailed, error, "reading /proc/%d/maps: %s", pid, strerror(error));
    }
    *mappings = cmdproc_parseMaps(*maps, count);
    if (!*mappings) return heapFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
    char text[192];
    const char *other = cmdheap_otherAllocator(*mappings, *count, text, sizeof(text));
    if (other) {
        return heapFail(result, CMDProcessStatusUnsupportedAllocator, 0,
                        "process %d's heap is not glibc malloc's but %s; the census reads glibc malloc only", pid,
                        other);
    }
    uint64_t words[ARENA_SIZE / 8];
    if (!cmdheap_findMainArena((pid_t)pid, *mappings, *count, mainArena, words)) {
        return heapFail(result, CMDProcessStatusUnsupportedAllocator, 0,
                        "process %d has no glibc malloc arena in libc's data: another allocator serves it, and the "
                        "census reads glibc malloc only",
                        pid);
    }
    if (words[ARENA_SYSTEM_MEMORY / 8] == 0) {
        return heapFail(result, CMDProcessStatusUnsupportedAllocator, 0,
                        "process %d's glibc malloc arena is unused: another allocator serves it, and the census "
                        "reads glibc malloc only",
                        pid);
    }
    return true;
}

/// Indexes the graph, and takes out of it the blocks that free lists hold.
static bool finishGraph(Scan *scan) {
    if (!cmdgraph_index(scan->graph)) return false;
    for (size_t index = 0; index < scan->freeChunkCount; index++) {
        ptrdiff_t block = cmdgraph_blockHolding(scan->graph, scan->freeChunks[index].chunk + 16);
        if (block >= 0 && scan->graph->blocks[block].address == scan->freeChunks[index].chunk + 16) {
            scan->graph->blocks[block].flags |= GraphBlockFree;
        }
    }
    return true;
}

/// The reads of a scan or of the floor: up to `CMD_HEAP_SCAN_ATTEMPTS` while the heap changes
/// under them.
static bool scanHeap(int32_t pid, HeapGroups *groups, HeapGraph *graph, CMDHeapScan *result) {
    memset(result, 0, sizeof(*result));
    CMDProcessFacts before;
    if (!checkProcess(pid, &before, result)) return false;
    Scan scan = {.pid = (pid_t)pid, .groups = groups, .graph = graph};
    if (!cmdwin_open(&scan.windows, (pid_t)pid)) return heapFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
    bool scanned = false;
    for (uint32_t attempt = 1; attempt <= CMD_HEAP_SCAN_ATTEMPTS; attempt++) {
        char *maps = NULL;
        Mapping *mappings = NULL;
        size_t count = 0;
        uintptr_t mainArena = 0;
        resetScan(&scan);
        result->attempts = attempt;
        Outcome outcome = OutcomeFailed;
        if (findArena(pid, result, &maps, &mappings, &count, &mainArena)) {
            scan.mappings = mappings;
            scan.mappingCount = count;
            outcome = readHeap(&scan, mainArena, result, groups != NULL || graph != NULL);
        }
        free(mappings);
        free(maps);
        scan.mappings = NULL;
        if (isGone(pid, &before, result)) break;
        if (outcome == OutcomeRead) {
            scanned = true;
            break;
        }
        if (outcome == OutcomeFailed) {
            if (scan.outOfMemory) heapFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
            if (scan.verdictFailed) {
                heapFail(result, CMDProcessStatusFailed, 0, "the census of process %d failed to decide a type", pid);
            }
            break;
        }
        if (scan.error == ESRCH) {
            heapFail(result, CMDProcessStatusExited, ESRCH, "process %d exited during the census", pid);
            break;
        }
        if (scan.error == EPERM || scan.error == EACCES) {
            heapFail(result, CMDProcessStatusPermissionDenied, scan.error, "reading the memory of process %d: %s", pid,
                     strerror(scan.error));
            break;
        }
        heapFail(result, CMDProcessStatusFailed, scan.error,
                 "the heap of process %d changed under each of %d reads (the last: %s); hold the process for the "
                 "census to read one moment of it",
                 pid, CMD_HEAP_SCAN_ATTEMPTS, scan.why);
    }
    if (scanned) {
        result->bytesRead = scan.bytesRead + atomic_load(&scan.windows.bytesRead);
        result->startTime = before.startTime;
        if (groups && !cmdheap_finish(groups, &scan.freeSet, result)) {
            scanned = heapFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
        }
        if (graph && !finishGraph(&scan)) scanned = heapFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
    }
    freeScan(&scan);
    return scanned;
}

bool cmd_scanProcessHeap(int32_t pid, CMDHeapClassify classify, void *context, CMDHeapScan *result) {
    HeapGroups groups = {.classify = classify, .context = context};
    bool scanned = scanHeap(pid, &groups, NULL, result);
    if (scanned) result->status = CMDProcessStatusRead;
    cmdheap_freeGroups(&groups);
    return scanned;
}

bool cmd_readProcessHeapOnly(int32_t pid, uint64_t *bytes) {
    CMDHeapScan result;
    bool read = scanHeap(pid, NULL, NULL, &result);
    *bytes = read ? result.bytesRead : 0;
    return read;
}

bool cmdheap_readGraph(int32_t pid, HeapGraph *graph, CMDHeapScan *result) {
    bool scanned = scanHeap(pid, NULL, graph, result);
    if (scanned) result->status = CMDProcessStatusRead;
    return scanned;
}

bool cmd_listProcessHeapRanges(int32_t pid, CMDHeapRange *ranges, size_t capacity, size_t *count) {
    *count = 0;
    CMDHeapScan result;
    memset(&result, 0, sizeof(result));
    CMDProcessFacts facts;
    if (!checkProcess(pid, &facts, &result)) return false;
    char *maps = NULL;
    Mapping *mappings = NULL;
    size_t mappingCount = 0;
    uintptr_t mainArena = 0;
    Scan scan = {.pid = (pid_t)pid};
    bool found = findArena(pid, &result, &maps, &mappings, &mappingCount, &mainArena);
    if (found) {
        scan.mappings = mappings;
        scan.mappingCount = mappingCount;
        found = findRegions(&scan, mainArena, &result, false) == OutcomeRead;
    }
    for (size_t index = 0; found && index < scan.regionCount; index++) {
        const Region *region = &scan.regions[index];
        if (*count < capacity) ranges[*count] = (CMDHeapRange){region->start, region->top ? region->top + 32 : region->end};
        (*count)++;
    }
    freeScan(&scan);
    free(mappings);
    free(maps);
    return found;
}

#else

bool cmd_listProcessHeapRanges(int32_t pid, CMDHeapRange *ranges, size_t capacity, size_t *count) {
    (void)pid, (void)ranges, (void)capacity;
    *count = 0;
    return false;
}

bool cmd_scanProcessHeap(int32_t pid, CMDHeapClassify classify, void *context, CMDHeapScan *result) {
    (void)classify, (void)context;
    memset(result, 0, sizeof(*result));
    result->status = CMDProcessStatusFailed;
    snprintf(result->message, sizeof(result->message), "a census of process %d is supported on Linux only", pid);
    return false;
}

bool cmd_readProcessHeapOnly(int32_t pid, uint64_t *bytes) {
    (void)pid;
    *bytes = 0;
    return false;
}

#endif
