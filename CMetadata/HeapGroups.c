// HeapGroups.c
//
// Implementation of HeapGroups.h and of the group functions of CMDProcessHeap.h.

#include <stdlib.h>
#include <string.h>

#include "CMDProcessHeap.h"

#if defined(__linux__) && defined(__x86_64__) || defined(__linux__) && defined(__aarch64__)

#include "HeapGroups.h"

/// The slot of an address in an open-addressing table of `capacity` slots (a power of two).
static size_t addressHash(uintptr_t address, size_t capacity) {
    return (size_t)((address >> 4) * 0x9E3779B97F4A7C15ull) & (capacity - 1);
}

bool cmdheap_groupBlocks(const Block *blocks, size_t blockCount, CMDHeapScan *result) {
    size_t capacity = 1024;
    while (capacity < blockCount * 2) capacity *= 2;
    // Open addressing: metadata word -> group index + 1.
    uintptr_t *keys = calloc(capacity, sizeof(uintptr_t));
    size_t *indices = calloc(capacity, sizeof(size_t));
    size_t *groupOf = malloc((blockCount + 1) * sizeof(size_t));
    CMDHeapGroup *groups = malloc((blockCount + 1) * sizeof(CMDHeapGroup));
    uintptr_t *addresses = malloc((blockCount + 1) * sizeof(uintptr_t));
    uintptr_t *sizes = malloc((blockCount + 1) * sizeof(uintptr_t));
    if (!keys || !indices || !groupOf || !groups || !addresses || !sizes) {
        free(keys), free(indices), free(groupOf), free(groups), free(addresses), free(sizes);
        return false;
    }
    size_t groupCount = 0;
    for (size_t index = 0; index < blockCount; index++) {
        uintptr_t metadata = blocks[index].metadata;
        size_t at = addressHash(metadata, capacity);
        while (keys[at] && keys[at] != metadata) at = (at + 1) & (capacity - 1);
        if (!keys[at]) {
            keys[at] = metadata;
            indices[at] = groupCount;
            groups[groupCount++] = (CMDHeapGroup){metadata, 0, 0};
        }
        groupOf[index] = indices[at];
        groups[indices[at]].count++;
    }
    size_t next = 0;
    for (size_t group = 0; group < groupCount; group++) {
        groups[group].start = next;
        next += groups[group].count;
        groups[group].count = 0;
    }
    for (size_t index = 0; index < blockCount; index++) {
        CMDHeapGroup *group = &groups[groupOf[index]];
        size_t position = group->start + group->count++;
        addresses[position] = blocks[index].address;
        sizes[position] = blocks[index].size;
    }
    free(keys), free(indices), free(groupOf);
    result->addresses = addresses;
    result->sizes = sizes;
    result->blockCount = blockCount;
    result->groups = groups;
    result->groupCount = groupCount;
    return true;
}

size_t cmd_filterHeapGroup(CMDHeapScan *scan, size_t group, uintptr_t minimum, uintptr_t maximum, uint64_t *bytes) {
    *bytes = 0;
    if (group >= scan->groupCount || !scan->addresses || !scan->sizes) return 0;
    CMDHeapGroup *entry = &scan->groups[group];
    size_t kept = 0;
    for (size_t index = 0; index < entry->count; index++) {
        size_t from = entry->start + index;
        uintptr_t size = scan->sizes[from];
        if (size < minimum || size > maximum) continue;
        scan->addresses[entry->start + kept] = scan->addresses[from];
        scan->sizes[entry->start + kept] = size;
        *bytes += size;
        kept++;
    }
    entry->count = kept;
    return kept;
}

void cmd_releaseHeapScan(CMDHeapScan *result) {
    free(result->addresses);
    free(result->sizes);
    free(result->groups);
    result->addresses = NULL;
    result->sizes = NULL;
    result->groups = NULL;
    result->blockCount = 0;
    result->groupCount = 0;
}

#else

void cmd_releaseHeapScan(CMDHeapScan *result) { (void)result; }

size_t cmd_filterHeapGroup(CMDHeapScan *scan, size_t group, uintptr_t minimum, uintptr_t maximum, uint64_t *bytes) {
    (void)scan, (void)group, (void)minimum, (void)maximum;
    *bytes = 0;
    return 0;
}

#endif
