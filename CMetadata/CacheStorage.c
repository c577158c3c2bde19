// CacheStorage.c
//
// The zero-initialized storage declared in CMDCacheStorage.h.

#include "CMDCacheStorage.h"

_Atomic(void *_Nullable) cmd_cacheBuckets[CMD_CACHE_BUCKET_COUNT] __attribute__((aligned(4096)));
_Atomic(intptr_t) cmd_observedImageCount;
