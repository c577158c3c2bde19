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

/// Whether `words` (copied from `address` in the process) hold a `struct malloc_state`: most of
/// its bins empty, each empty one pointing at itself, the others at chunks.
bool cmdheap_isArena(const uint64_t *words, uintptr_t address) {
    int empty = 0;
    for (int bin = 0; bin < ARENA_BIN_COUNT; bin++) {
        uint64_t forward = words[(ARENA_BINS / 8) + bin * 2];
        uint64_t backward = words[(ARENA_BINS / 8) + bin * 2 + 1];
        uint64_t self = address + ARENA_BINS + (uintptr_t)bin * 16 - 16;
        if (forward == self && backward == self) {
            empty++;
        } else if (forward == 0 || backward == 0 || forward % 16 != 0 || backward % 16 != 0) {
            return false;
        }
    }
    uint64_t next = words[ARENA_NEXT / 8];
    return empty >= 64 && next != 0 && next % 8 == 0;
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
        if (cmdproc_readTolerant(pid, mapping->start, data, size) != 0) {
            free(data);
            continue;
        }
        for (size_t at = 0; at + ARENA_SIZE <= size; at += 8) {
            // The structure 16 bytes before or after an arena looks like one too, its bins shifted
            // by one: the arena is the one its `next` ring leads back to.
            if (cmdheap_isArena(data + at / 8, mapping->start + at) && isInRing(pid, mapping->start + at, data[at / 8 + ARENA_NEXT / 8])) {
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
