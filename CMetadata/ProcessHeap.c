// ProcessHeap.c
//
// Linux implementation of CMDProcessHeap.h: glibc malloc's heap of another process, read with
// `process_vm_readv` and walked as glibc lays it out (glibc 2.26 and later, 64-bit; malloc/malloc.c
// and malloc/arena.c): `struct malloc_state` for each arena, `struct malloc_chunk` headers
// (`prev_size`, `size` with `PREV_INUSE`, `IS_MMAPPED` and `NON_MAIN_ARENA`), `heap_info` at the
// start of each heap of a secondary arena, `tcache_perthread_struct` for each thread's cache,
// and the safe-linking of free-list pointers (`PROTECT_PTR`, glibc 2.32). Swift objects
// (swiftlang/swift include/swift/SwiftShims/swift/shims/RefCount.h, HeapObject.h) are told by
// their second word; the Swift layer checks their metadata.

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
#include "HeapGroups.h"
#include "ProcessMemory.h"

/// The most list entries walked per list.
#define MAXIMUM_LIST 1000000
// RefCount.h, 64-bit: IsDeiniting (bit 32), UseSlowRC (bit 63) with SideTableMark (bit 62) and
// the side table's address shifted right by 3 in the low bits; UnownedRefCount in bits 1-31.
#define RC_DEINITING ((uint64_t)1 << 32)
#define RC_SLOW ((uint64_t)1 << 63)
#define RC_SIDE_TABLE_MARK ((uint64_t)1 << 62)

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

/// A stretch of the process's heap, copied.
typedef struct Region {
    uintptr_t start, end;
    /// Where chunks begin, and the arena's top chunk if it is in this region (else 0).
    uintptr_t firstChunk, top;
    uint8_t *bytes;
} Region;

/// A set of addresses (open addressing).
typedef struct AddressSet {
    uintptr_t *slots;
    size_t capacity, count;
} AddressSet;

static size_t addressHash(uintptr_t address, size_t capacity) {
    return (size_t)((address >> 4) * 0x9E3779B97F4A7C15ull) & (capacity - 1);
}

static bool setInsert(AddressSet *set, uintptr_t address) {
    if ((set->count + 1) * 2 > set->capacity) {
        size_t capacity = set->capacity ? set->capacity * 2 : 1024;
        uintptr_t *slots = calloc(capacity, sizeof(uintptr_t));
        if (!slots) return false;
        for (size_t index = 0; index < set->capacity; index++) {
            uintptr_t value = set->slots[index];
            if (!value) continue;
            size_t at = addressHash(value, capacity);
            while (slots[at]) at = (at + 1) & (capacity - 1);
            slots[at] = value;
        }
        free(set->slots);
        set->slots = slots;
        set->capacity = capacity;
    }
    size_t at = addressHash(address, set->capacity);
    while (set->slots[at]) {
        if (set->slots[at] == address) return true;
        at = (at + 1) & (set->capacity - 1);
    }
    set->slots[at] = address;
    set->count++;
    return true;
}

static bool setContains(const AddressSet *set, uintptr_t address) {
    if (!set->capacity) return false;
    size_t at = addressHash(address, set->capacity);
    while (set->slots[at]) {
        if (set->slots[at] == address) return true;
        at = (at + 1) & (set->capacity - 1);
    }
    return false;
}

/// Everything a scan holds.
typedef struct Scan {
    pid_t pid;
    Region *regions;
    size_t regionCount, regionCapacity;
    /// In-use chunks of a cache's size, whose contents may be a thread's cache.
    uintptr_t *cacheCandidates;
    size_t cacheCandidateCount, cacheCandidateCapacity;
    AddressSet freeChunks;
    Block *blocks;
    size_t blockCount, blockCapacity;
    /// The process's mappings, in address order (`/proc/PID/maps` lists them so).
    const Mapping *mappings;
    size_t mappingCount;
} Scan;

/// Whether an address lies in a readable mapping of the process, as an object's metadata must:
/// a first word that does not is no object, and costs no read of the process.
static bool isReadableAddress(const Scan *scan, uintptr_t address) {
    size_t low = 0, high = scan->mappingCount;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (scan->mappings[middle].end <= address) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return low < scan->mappingCount && scan->mappings[low].start <= address && scan->mappings[low].readable;
}

/// The copied byte at an address of the process, or NULL when no region holds `length` there.
static const uint8_t *local(const Scan *scan, uintptr_t address, size_t length) {
    for (size_t index = 0; index < scan->regionCount; index++) {
        const Region *region = &scan->regions[index];
        if (address >= region->start && address < region->end && length <= region->end - address) {
            return region->bytes + (address - region->start);
        }
    }
    return NULL;
}

/// Reads a word of the process: from a copied region, or from the process.
static bool readWord(const Scan *scan, uintptr_t address, uint64_t *value) {
    const uint8_t *bytes = local(scan, address, 8);
    if (bytes) {
        memcpy(value, bytes, 8);
        return true;
    }
    int32_t error = 0;
    return cmd_readProcessMemory(scan->pid, address, value, 8, &error) == 8;
}

/// Copies a region of the process and adds it to the scan.
static int addRegion(Scan *scan, uintptr_t start, uintptr_t end, uintptr_t firstChunk, uintptr_t top) {
    if (end <= start) return 0;
    if (scan->regionCount == scan->regionCapacity) {
        size_t capacity = scan->regionCapacity ? scan->regionCapacity * 2 : 16;
        Region *regions = realloc(scan->regions, capacity * sizeof(Region));
        if (!regions) return ENOMEM;
        scan->regions = regions;
        scan->regionCapacity = capacity;
    }
    uint8_t *bytes = malloc(end - start);
    if (!bytes) return ENOMEM;
    int error = cmdproc_readTolerant(scan->pid, start, bytes, end - start);
    if (error) {
        free(bytes);
        return error;
    }
    scan->regions[scan->regionCount++] = (Region){start, end, firstChunk, top, bytes};
    return 0;
}

static bool addBlock(Scan *scan, Block block) {
    if (scan->blockCount == scan->blockCapacity) {
        size_t capacity = scan->blockCapacity ? scan->blockCapacity * 2 : 4096;
        Block *blocks = realloc(scan->blocks, capacity * sizeof(Block));
        if (!blocks) return false;
        scan->blocks = blocks;
        scan->blockCapacity = capacity;
    }
    scan->blocks[scan->blockCount++] = block;
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

static void freeScan(Scan *scan) {
    for (size_t index = 0; index < scan->regionCount; index++) free(scan->regions[index].bytes);
    free(scan->regions);
    free(scan->cacheCandidates);
    free(scan->freeChunks.slots);
    free(scan->blocks);
}

/// Whether an object's reference counts say it is alive: not deinitializing, with an unowned
/// count (or a side table that points back at it and is not deinitializing either).
static bool isAlive(const Scan *scan, uintptr_t object, uint64_t counts) {
    if (counts & RC_SLOW) {
        if (!(counts & RC_SIDE_TABLE_MARK)) return false;  // Immortal: not a heap object.
        uintptr_t side = (uintptr_t)((counts & (RC_SIDE_TABLE_MARK - 1)) << 3);
        uint64_t owner = 0, sideCounts = 0;
        if (!readWord(scan, side, &owner) || !readWord(scan, side + 8, &sideCounts)) return false;
        return owner == object && !(sideCounts & RC_DEINITING);
    }
    if (counts & RC_DEINITING) return false;
    if ((counts & 0xFFFFFFFFull) == 0xFFFFFFFFull) return false;  // Immortal.
    return ((counts >> 1) & 0x7FFFFFFFull) != 0;
}

/// Walks one region's chunks, recording the in-use ones.
/// - Returns: Whether the walk ended where the region's chunks end (its top chunk, or the end).
static bool walkRegion(Scan *scan, const Region *region, bool *outOfMemory) {
    uintptr_t chunk = region->firstChunk;
    while (chunk + 16 <= region->end) {
        if (region->top && chunk == region->top) return true;
        uint64_t sizeWord;
        memcpy(&sizeWord, region->bytes + (chunk - region->start) + 8, 8);
        uintptr_t size = (uintptr_t)(sizeWord & ~(uint64_t)SIZE_BITS);
        if (size < MINIMUM_CHUNK) {
            // A fencepost at the end of an older heap of a secondary arena.
            return !region->top;
        }
        if (size % 16 != 0 || size > region->end - chunk) return false;
        uintptr_t next = chunk + size;
        if (next + 16 > region->end) return !region->top && next == region->end;
        uint64_t nextSize;
        memcpy(&nextSize, region->bytes + (next - region->start) + 8, 8);
        if (nextSize & PREV_INUSE) {
            if (size == TCACHE_CHUNK_SIZE && !addCacheCandidate(scan, chunk)) *outOfMemory = true;
            uint64_t header[2];
            if (size >= MINIMUM_CHUNK) {
                memcpy(header, region->bytes + (chunk - region->start) + 16, 16);
                if (header[0] != 0 && header[0] % 8 == 0 && isReadableAddress(scan, (uintptr_t)header[0]) &&
                    isAlive(scan, chunk + 16, header[1])) {
                    if (!addBlock(scan, (Block){chunk + 16, size - 8, (uintptr_t)header[0]})) {
                        *outOfMemory = true;
                    }
                }
            }
        }
        chunk = next;
    }
    return false;
}

/// Adds the chunks of a thread's cache to the free set, when the chunk holds one: each count
/// matches its list's length, each entry is a chunk of its bin's size, and every entry carries
/// the same key.
static void addCache(Scan *scan, uintptr_t chunk) {
    const uint8_t *bytes = local(scan, chunk + 16, TCACHE_CHUNK_SIZE - 16);
    if (!bytes) return;
    uint16_t counts[TCACHE_BINS];
    uint64_t entries[TCACHE_BINS];
    memcpy(counts, bytes, sizeof(counts));
    memcpy(entries, bytes + sizeof(counts), sizeof(entries));
    uint64_t key = 0;
    size_t total = 0;
    for (int bin = 0; bin < TCACHE_BINS; bin++) {
        if ((counts[bin] == 0) != (entries[bin] == 0)) return;
        total += counts[bin];
    }
    if (total == 0) return;
    uintptr_t *members = malloc(total * sizeof(uintptr_t));
    if (!members) return;
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
                return;
            }
            key = entryKey;
            members[found++] = entry - 16;
            // PROTECT_PTR: the next entry, XORed with the address of the field >> 12.
            entry = (uintptr_t)(stored ^ (entry >> 12));
        }
        if (counts[bin] && entry != 0) {
            free(members);
            return;
        }
    }
    for (size_t index = 0; index < found; index++) setInsert(&scan->freeChunks, members[index]);
    free(members);
}

/// Adds an arena's fast bins' chunks to the free set.
static void addFastBins(Scan *scan, const uint64_t *arena) {
    for (int bin = 0; bin < ARENA_FASTBIN_COUNT; bin++) {
        uintptr_t chunk = (uintptr_t)arena[ARENA_FASTBINS / 8 + bin];
        for (int steps = 0; chunk != 0 && steps < MAXIMUM_LIST; steps++) {
            uint64_t stored;
            if (chunk % 16 != 0 || !readWord(scan, chunk + 16, &stored)) break;
            // A list that comes back to a chunk already seen is a cycle (a heap changed under
            // the read, or forged): the rest was seen.
            if (setContains(&scan->freeChunks, chunk) || !setInsert(&scan->freeChunks, chunk)) break;
            chunk = (uintptr_t)(stored ^ ((chunk + 16) >> 12));
        }
    }
}

/// Reads the process's mappings and finds its main arena, or the allocator that is not glibc's.
static bool collectRegions(pid_t pid, CMDHeapScan *result, Mapping **mappingsOut, size_t *countOut, char **mapsOut,
                           uint64_t *mainArenaWords, uintptr_t *mainArena) {
    int error = 0;
    char *maps = cmdproc_readMaps(pid, &error);
    if (!maps) {
        if (error == ENOENT || error == ESRCH) {
            return heapFail(result, CMDProcessStatusExited, error, "process %d exited during the read", pid);
        }
        if (error == EACCES || error == EPERM) {
            return heapFail(result, CMDProcessStatusPermissionDenied, error, "reading /proc/PID/maps of process %d: %s",
                            pid, strerror(error));
        }
        return heapFail(result, CMDProcessStatusFailed, error, "reading /proc/%d/maps: %s", pid, strerror(error));
    }
    size_t count = 0;
    Mapping *mappings = cmdproc_parseMaps(maps, &count);
    *mapsOut = maps;
    *mappingsOut = mappings;
    *countOut = count;
    if (!mappings) return heapFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
    char text[192];
    const char *other = cmdheap_otherAllocator(mappings, count, text, sizeof(text));
    if (other) {
        return heapFail(result, CMDProcessStatusUnsupportedAllocator, 0,
                        "process %d's heap is not glibc malloc's but %s; the census reads glibc malloc only", pid,
                        other);
    }
    if (!cmdheap_findMainArena(pid, mappings, count, mainArena, mainArenaWords)) {
        return heapFail(result, CMDProcessStatusUnsupportedAllocator, 0,
                        "process %d has no glibc malloc arena in libc's data: another allocator serves it, and the "
                        "census reads glibc malloc only",
                        pid);
    }
    uintptr_t top = (uintptr_t)mainArenaWords[ARENA_TOP / 8];
    if (top == 0 || mainArenaWords[ARENA_SYSTEM_MEMORY / 8] == 0) {
        return heapFail(result, CMDProcessStatusUnsupportedAllocator, 0,
                        "process %d's glibc malloc arena is unused: another allocator serves it, and the census "
                        "reads glibc malloc only",
                        pid);
    }
    return true;
}

/// Copies every heap of the process: the main arena's `[heap]`, each secondary arena's heaps,
/// and the mappings of mmapped chunks (only their headers).
static bool copyRegions(pid_t pid, Scan *scan, CMDHeapScan *result, const Mapping *mappings, size_t count,
                        const uint64_t *mainArenaWords, uintptr_t mainArena, bool walk) {
    uintptr_t top = (uintptr_t)mainArenaWords[ARENA_TOP / 8];
    int error = 0;
    for (size_t index = 0; index < count; index++) {
        const Mapping *mapping = &mappings[index];
        if (strcmp(mapping->path, "[heap]") != 0) continue;
        bool holdsTop = top >= mapping->start && top < mapping->end;
        error = addRegion(scan, mapping->start, mapping->end, mapping->start, holdsTop ? top : 0);
        if (error) break;
        result->heapCount++;
    }
    result->arenaCount = 1;
    if (walk && !error) addFastBins(scan, mainArenaWords);
    // Secondary arenas, in the circular list from the main one.
    uintptr_t arena = (uintptr_t)mainArenaWords[ARENA_NEXT / 8];
    for (int steps = 0; !error && arena != mainArena && arena != 0 && steps < MAXIMUM_ARENAS; steps++) {
        uint64_t words[ARENA_SIZE / 8];
        int32_t readError = 0;
        if (cmd_readProcessMemory(pid, arena, words, ARENA_SIZE, &readError) != ARENA_SIZE) {
            error = readError ? readError : EFAULT;
            break;
        }
        if (!cmdheap_isArena(words, arena)) break;
        result->arenaCount++;
        uintptr_t arenaTop = (uintptr_t)words[ARENA_TOP / 8];
        uintptr_t heap = arenaTop & ~(HEAP_MAX_SIZE - 1);
        for (int heaps = 0; heap != 0 && heaps < 1024 && !error; heaps++) {
            uint64_t info[HEAP_INFO_SIZE / 8];
            if (cmd_readProcessMemory(pid, heap, info, HEAP_INFO_SIZE, &readError) != HEAP_INFO_SIZE) break;
            uintptr_t size = (uintptr_t)info[HEAP_INFO_SIZE_FIELD / 8];
            if (info[0] != arena || size == 0 || size > HEAP_MAX_SIZE) break;
            uintptr_t first = heap + HEAP_INFO_SIZE;
            if (arena == first) {
                // The arena's first heap holds the arena: chunks follow it, aligned as
                // `_int_new_arena` aligns them.
                first = arena + ARENA_SIZE;
                if ((first + 16) % 16) first += 16 - (first + 16) % 16;
            }
            bool holdsTop = arenaTop >= heap && arenaTop < heap + size;
            error = addRegion(scan, heap, heap + size, first, holdsTop ? arenaTop : 0);
            result->heapCount++;
            heap = (uintptr_t)info[HEAP_INFO_PREV / 8];
        }
        if (walk && !error) addFastBins(scan, words);
        arena = (uintptr_t)words[ARENA_NEXT / 8];
    }
    if (error) {
        if (error == ESRCH) return heapFail(result, CMDProcessStatusExited, error, "process %d exited during the read", pid);
        if (error == EPERM || error == EACCES) {
            return heapFail(result, CMDProcessStatusPermissionDenied, error, "reading the memory of process %d: %s", pid,
                            strerror(error));
        }
        return heapFail(result, CMDProcessStatusFailed, error, "reading the heap of process %d: %s", pid,
                        strerror(error));
    }
    for (size_t index = 0; index < scan->regionCount; index++) {
        result->bytesRead += scan->regions[index].end - scan->regions[index].start;
    }
    return true;
}

/// Whether an anonymous mapping belongs to a heap already copied.
static bool isCopied(const Scan *scan, uintptr_t address) {
    for (size_t index = 0; index < scan->regionCount; index++) {
        if (address >= scan->regions[index].start && address < scan->regions[index].end) return true;
    }
    return false;
}

/// Records the objects of mmapped chunks: each mapping's chunks, one after another, each with
/// `IS_MMAPPED` and a page-sized size that fits.
static bool scanMappedChunks(Scan *scan, const Mapping *mappings, size_t count, bool walk) {
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    for (size_t index = 0; index < count; index++) {
        const Mapping *mapping = &mappings[index];
        if (!mapping->readable || !mapping->writable || mapping->inode != 0 || mapping->path[0] != 0 ||
            isCopied(scan, mapping->start)) {
            continue;
        }
        uintptr_t chunk = mapping->start;
        while (chunk + 32 <= mapping->end) {
            uint64_t header[4];
            int32_t error = 0;
            if (cmd_readProcessMemory(scan->pid, chunk, header, sizeof(header), &error) != sizeof(header)) break;
            uintptr_t size = (uintptr_t)(header[1] & ~(uint64_t)SIZE_BITS);
            if (header[0] != 0 || (header[1] & SIZE_BITS) != IS_MMAPPED || size < page || size % page != 0 ||
                size > mapping->end - chunk) {
                break;
            }
            if (walk && header[2] != 0 && header[2] % 8 == 0 && isReadableAddress(scan, (uintptr_t)header[2]) &&
                isAlive(scan, chunk + 16, header[3])) {
                if (!addBlock(scan, (Block){chunk + 16, size - 16, (uintptr_t)header[2]})) {
                    return false;
                }
            }
            chunk += size;
        }
    }
    return true;
}

bool cmd_scanProcessHeap(int32_t pid, CMDHeapScan *result) {
    memset(result, 0, sizeof(*result));
    uint64_t startTime = 0;
    int32_t error = 0;
    if (pid <= 0 || !cmd_processStartTime(pid, &startTime, &error)) {
        if (pid <= 0 || error == ENOENT || error == ESRCH) {
            return heapFail(result, CMDProcessStatusNoSuchProcess, ESRCH, "no process has pid %d", pid);
        }
        return heapFail(result, CMDProcessStatusFailed, error, "reading /proc/%d/stat: %s", pid, strerror(error));
    }
    Scan scan = {.pid = (pid_t)pid};
    Mapping *mappings = NULL;
    size_t count = 0;
    char *maps = NULL;
    uint64_t mainArenaWords[ARENA_SIZE / 8];
    uintptr_t mainArena = 0;
    bool scanned = collectRegions((pid_t)pid, result, &mappings, &count, &maps, mainArenaWords, &mainArena);
    scan.mappings = mappings;
    scan.mappingCount = count;
    scanned = scanned && copyRegions((pid_t)pid, &scan, result, mappings, count, mainArenaWords, mainArena, true);
    bool outOfMemory = false;
    if (scanned) {
        for (size_t index = 0; index < scan.regionCount; index++) {
            if (!walkRegion(&scan, &scan.regions[index], &outOfMemory)) result->inconsistentHeapCount++;
        }
        for (size_t index = 0; index < scan.cacheCandidateCount; index++) addCache(&scan, scan.cacheCandidates[index]);
        result->cachedFreeBlocks = scan.freeChunks.count;
        if (!scanMappedChunks(&scan, mappings, count, true)) outOfMemory = true;
        if (outOfMemory) scanned = heapFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
    }
    if (scanned) {
        // Drop the blocks a cache or a fast bin holds: free, whatever their words say.
        size_t kept = 0;
        for (size_t index = 0; index < scan.blockCount; index++) {
            if (!setContains(&scan.freeChunks, scan.blocks[index].address - 16)) scan.blocks[kept++] = scan.blocks[index];
        }
        scan.blockCount = kept;
        uint64_t after = 0;
        if (!cmd_processStartTime(pid, &after, &error) || after != startTime) {
            scanned = heapFail(result, CMDProcessStatusExited, ESRCH, "process %d exited during the read", pid);
        }
    }
    if (scanned && !cmdheap_groupBlocks(scan.blocks, scan.blockCount, result)) {
        scanned = heapFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
    }
    if (scanned) {
        result->status = CMDProcessStatusRead;
        result->startTime = startTime;
    }
    freeScan(&scan);
    free(mappings);
    free(maps);
    return scanned;
}

bool cmd_readProcessHeapOnly(int32_t pid, uint64_t *bytes) {
    *bytes = 0;
    CMDHeapScan result;
    memset(&result, 0, sizeof(result));
    Scan scan = {.pid = (pid_t)pid};
    Mapping *mappings = NULL;
    size_t count = 0;
    char *maps = NULL;
    uint64_t mainArenaWords[ARENA_SIZE / 8];
    uintptr_t mainArena = 0;
    bool read = collectRegions((pid_t)pid, &result, &mappings, &count, &maps, mainArenaWords, &mainArena) &&
                copyRegions((pid_t)pid, &scan, &result, mappings, count, mainArenaWords, mainArena, false);
    if (read) read = scanMappedChunks(&scan, mappings, count, false);
    *bytes = result.bytesRead;
    freeScan(&scan);
    free(mappings);
    free(maps);
    return read;
}

#else

bool cmd_scanProcessHeap(int32_t pid, CMDHeapScan *result) {
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
