// CacheStorage.c
//
// The storage declared in CMDCacheStorage.h.

#include "CMDCacheStorage.h"

#include <stdlib.h>

CMDTableRoot cmd_cacheRoots[CMD_CACHE_ROOT_COUNT];
_Atomic(intptr_t) cmd_observedImageCount;

void *cmd_tableRootAllocate(void) {
    CMDTableRoot *root = calloc(1, sizeof(*root));
    if (!root) abort();
    return root;
}

void *_Nullable cmd_tableAllocate(uintptr_t capacity) {
    CMDTableSlots *slots = calloc(1, sizeof(CMDTableSlots) + capacity * sizeof(_Atomic(uintptr_t)));
    if (slots) slots->mask = capacity - 1;
    return slots;
}
