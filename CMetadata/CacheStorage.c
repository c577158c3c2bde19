// CacheStorage.c
//
// The storage declared in CMDCacheStorage.h.

#include "CMDCacheStorage.h"

#include <stdlib.h>

// On cache lines of their own (16 roots fill two): every warm lookup reads a root, so a
// frequently written variable of the program placed beside them would make each lookup miss.
_Alignas(64) CMDTableRoot cmd_cacheRoots[CMD_CACHE_ROOT_COUNT];
_Static_assert(sizeof(cmd_cacheRoots) % 64 == 0, "the roots fill whole cache lines");
_Atomic(intptr_t) cmd_observedImageCount;

void *cmd_tableRootAllocate(void) {
    CMDTableRoot *root = calloc(1, sizeof(*root));
    if (!root) abort();
    return root;
}

// RuntimeMetadata's `TableGenerations.headerBytes` reads the words from here.
_Static_assert(sizeof(CMDTableSlots) == 32, "a generation's slots start half a cache line in");

void *_Nullable cmd_tableAllocate(uintptr_t capacity, uintptr_t stride) {
    // Aligned to 64 bytes, so that a root's low six bits can hold the size. A published table's
    // generations are never freed; the allocation's start is kept for `cmd_tableFree`.
    size_t words = (size_t)capacity * (size_t)stride;
    if (stride != 0 && words / stride != capacity) return NULL;
    size_t bytes = sizeof(CMDTableSlots) + words * sizeof(_Atomic(uintptr_t)) + CMD_TABLE_ROOT_SIZE_BITS;
    char *allocation = calloc(1, bytes);
    if (!allocation) return NULL;
    CMDTableSlots *slots =
        (CMDTableSlots *)(((uintptr_t)allocation + CMD_TABLE_ROOT_SIZE_BITS) & ~CMD_TABLE_ROOT_SIZE_BITS);
    slots->mask = capacity - 1;
    slots->allocation = allocation;
    return slots;
}

void cmd_tableFree(void *root) {
    uintptr_t word = atomic_load_explicit((CMDTableRoot *)root, memory_order_acquire);
    CMDTableSlots *slots = (CMDTableSlots *)(word & ~CMD_TABLE_ROOT_SIZE_BITS);
    while (slots) {
        CMDTableSlots *replaced = slots->replaced;
        free(slots->allocation);
        slots = replaced;
    }
    free(root);
}
