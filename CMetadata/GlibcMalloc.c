// GlibcMalloc.c
//
// Linux implementation of GlibcMalloc.h: an arena of glibc malloc recognised in another
// process's memory, its main arena found in libc's data, and the allocators that are not
// glibc's told by their mappings.

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(__linux__)

#include "CMDProcessImages.h"
#include "GlibcMalloc.h"

/// The mapping holding an address, or NULL (`mappings` in address order, as `/proc/PID/maps`
/// lists them).
const Mapping *cmdheap_mappingContaining(const Mapping *mappings, size_t count, uintptr_t address) {
    size_t low = 0, high = count;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (mappings[middle].end <= address) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return low < count && mappings[low].start <= address ? &mappings[low] : NULL;
}

/// Whether an address lies in memory a heap may use: a readable, writable mapping.
static bool isHeapMemory(const Mapping *mappings, size_t count, uint64_t address) {
    const Mapping *mapping = cmdheap_mappingContaining(mappings, count, (uintptr_t)address);
    return mapping && mapping->readable && mapping->writable;
}

bool cmdheap_isArena(const uint64_t *words, uintptr_t address, const Mapping *mappings, size_t count) {
    // Each bin is empty, both its links pointing at the bin itself (`bin_at`: the bin's address
    // less the offset of `fd` in a chunk), or links to chunks: 16-byte aligned, in heap memory.
    // However many bins hold chunks: a busy heap's arena has most of them full.
    for (int bin = 0; bin < ARENA_BIN_COUNT; bin++) {
        uint64_t forward = words[(ARENA_BINS / 8) + bin * 2];
        uint64_t backward = words[(ARENA_BINS / 8) + bin * 2 + 1];
        uint64_t self = address + ARENA_BINS + (uintptr_t)bin * 16 - 16;
        if (forward == self && backward == self) continue;
        if (forward % 16 != 0 || backward % 16 != 0 || !isHeapMemory(mappings, count, forward) ||
            !isHeapMemory(mappings, count, backward)) {
            return false;
        }
    }
    // The top chunk: the unsorted bin before the first allocation (`initial_top`), else a chunk
    // in heap memory. The ring's next arena, and the memory the arena holds, in pages.
    uint64_t top = words[ARENA_TOP / 8];
    bool initialTop = top == address + ARENA_BINS - 16;
    if (!initialTop && (top % 16 != 0 || !isHeapMemory(mappings, count, top))) return false;
    uint64_t next = words[ARENA_NEXT / 8];
    uint64_t systemMemory = words[ARENA_SYSTEM_MEMORY / 8];
    return next != 0 && next % 8 == 0 && systemMemory % 4096 == 0 && (systemMemory == 0) == initialTop;
}

/// Whether following `next` words from an arena's `next` leads back to the arena.
static bool isInRing(pid_t pid, uintptr_t arena, uint64_t next) {
    for (int hops = 0; hops < MAXIMUM_ARENAS && next != 0 && next % 8 == 0; hops++) {
        if (next == arena) return true;
        int32_t error = 0;
        uint64_t following = 0;
        if (cmd_readProcessMemory(pid, (uintptr_t)next + ARENA_NEXT, &following, 8, &error) != 8) return false;
        next = following;
    }
    return false;
}

/// The name of a file's last path component.
static const char *baseName(const char *path) {
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/// Finds `main_arena` in libc's writable data.
bool cmdheap_findMainArena(pid_t pid, const Mapping *mappings, size_t count, uintptr_t *arena, uint64_t *words) {
    for (size_t index = 0; index < count; index++) {
        const Mapping *mapping = &mappings[index];
        const char *name = baseName(mapping->path);
        bool isLibc = strncmp(name, "libc.so", 7) == 0 || strncmp(name, "libc-", 5) == 0;
        if (!mapping->writable || mapping->inode == 0 || !isLibc) {
            continue;
        }
        size_t size = mapping->end - mapping->start;
        if (size < ARENA_SIZE || size > ((size_t)16 << 20)) continue;
        uint64_t *data = malloc(size);
        if (!data) return false;
        int32_t error = 0;
        if (cmd_readProcessMemory(pid, mapping->start, data, size, &error) != size) {
            free(data);
            continue;
        }
        for (size_t at = 0; at + ARENA_SIZE <= size; at += 8) {
            // The structure 16 bytes before or after an arena looks like one too, its bins shifted
            // by one: the arena is the one its `next` ring leads back to.
            if (cmdheap_isArena(data + at / 8, mapping->start + at, mappings, count) && isInRing(pid, mapping->start + at, data[at / 8 + ARENA_NEXT / 8])) {
                *arena = mapping->start + at;
                memcpy(words, (const uint8_t *)data + at, ARENA_SIZE);
                free(data);
                return true;
            }
        }
        free(data);
    }
    return false;
}

/// Another allocator or a sanitizer that serves the process, by its mappings; NULL for none.
const char *cmdheap_otherAllocator(const Mapping *mappings, size_t count, char *text, size_t textSize) {
    static const char *const libraries[] = {"jemalloc", "mimalloc", "tcmalloc", "hoard", "snmalloc", "scudo"};
    for (size_t index = 0; index < count; index++) {
        const Mapping *mapping = &mappings[index];
        // The shadow memory of AddressSanitizer (from 0x7fff8000) and ThreadSanitizer (from
        // 0x100000000000) on x86-64 Linux: anonymous mappings of hundreds of megabytes or more.
        bool anonymous = mapping->inode == 0 && mapping->path[0] == 0;
        if (anonymous && mapping->start <= 0x7fff8000 && mapping->end > 0x7fff8000 &&
            mapping->end - mapping->start >= ((uintptr_t)256 << 20)) {
            return "AddressSanitizer's allocator (its shadow memory is mapped at 0x7fff8000)";
        }
        if (anonymous && mapping->start <= 0x100000000000 && mapping->end > 0x100000000000 &&
            mapping->end - mapping->start >= ((uintptr_t)1 << 40)) {
            return "ThreadSanitizer's allocator (its shadow memory is mapped at 0x100000000000)";
        }
        const char *name = baseName(mapping->path);
        for (size_t library = 0; library < sizeof(libraries) / sizeof(libraries[0]); library++) {
            if (strstr(name, libraries[library])) {
                snprintf(text, textSize, "%s (%s is mapped)", libraries[library], name);
                return text;
            }
        }
    }
    return NULL;
}

#endif
