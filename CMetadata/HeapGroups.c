// HeapGroups.c
//
// Implementation of HeapGroups.h and of `cmd_releaseHeapScan` (CMDProcessHeap.h).

#include <stdlib.h>
#include <string.h>

#include "CMDProcessHeap.h"

#if defined(__linux__) && defined(__x86_64__) || defined(__linux__) && defined(__aarch64__)

#include "HeapGroups.h"

/// Moves the keys of an open-addressing table (zero marks an empty slot), with their values
/// when `values` is given, into a larger zeroed one. Both capacities are powers of two.
static void rehash(const uintptr_t *oldKeys, const int32_t *_Nullable oldValues, size_t oldCapacity, uintptr_t *keys,
                   int32_t *_Nullable values, size_t capacity) {
    for (size_t index = 0; index < oldCapacity; index++) {
        uintptr_t key = oldKeys[index];
        if (!key) continue;
        size_t at = cmdheap_addressHash(key, capacity);
        while (keys[at]) at = (at + 1) & (capacity - 1);
        keys[at] = key;
        if (values && oldValues) values[at] = oldValues[index];
    }
}

bool cmdheap_setInsert(AddressSet *set, uintptr_t address) {
    if ((set->count + 1) * 2 > set->capacity) {
        size_t capacity = set->capacity ? set->capacity * 2 : 1024;
        uintptr_t *slots = calloc(capacity, sizeof(uintptr_t));
        if (!slots) return false;
        rehash(set->slots, NULL, set->capacity, slots, NULL, capacity);
        free(set->slots);
        set->slots = slots;
        set->capacity = capacity;
    }
    size_t at = cmdheap_addressHash(address, set->capacity);
    while (set->slots[at]) {
        if (set->slots[at] == address) return true;
        at = (at + 1) & (set->capacity - 1);
    }
    set->slots[at] = address;
    set->count++;
    return true;
}

bool cmdheap_setContains(const AddressSet *set, uintptr_t address) {
    if (!set->capacity) return false;
    size_t at = cmdheap_addressHash(address, set->capacity);
    while (set->slots[at]) {
        if (set->slots[at] == address) return true;
        at = (at + 1) & (set->capacity - 1);
    }
    return false;
}

/// Doubles the verdict table.
static bool growVerdicts(HeapGroups *groups) {
    size_t capacity = groups->capacity ? groups->capacity * 2 : 1024;
    uintptr_t *keys = calloc(capacity, sizeof(uintptr_t));
    int32_t *verdicts = malloc(capacity * sizeof(int32_t));
    if (!keys || !verdicts) {
        free(keys), free(verdicts);
        return false;
    }
    rehash(groups->keys, groups->verdicts, groups->capacity, keys, verdicts, capacity);
    free(groups->keys), free(groups->verdicts);
    groups->keys = keys;
    groups->verdicts = verdicts;
    groups->capacity = capacity;
    return true;
}

int32_t cmdheap_verdict(HeapGroups *groups, uintptr_t metadata) {
    if ((groups->count + 1) * 2 > groups->capacity && !growVerdicts(groups)) return CMD_VERDICT_FAILED;
    size_t at = cmdheap_addressHash(metadata, groups->capacity);
    while (groups->keys[at]) {
        if (groups->keys[at] == metadata) return groups->verdicts[at];
        at = (at + 1) & (groups->capacity - 1);
    }
    CMDHeapClassVerdict verdict = {0};
    if (!groups->classify(groups->context, metadata, &verdict)) return CMD_VERDICT_FAILED;
    int32_t value = CMD_NOT_A_CLASS;
    if (verdict.isClass) {
        if (groups->groupCount == groups->groupCapacity) {
            size_t capacity = groups->groupCapacity ? groups->groupCapacity * 2 : 64;
            FillingGroup *larger = realloc(groups->groups, capacity * sizeof(FillingGroup));
            if (!larger) return CMD_VERDICT_FAILED;
            groups->groups = larger;
            groups->groupCapacity = capacity;
        }
        groups->groups[groups->groupCount] = (FillingGroup){
            .group = {.metadata = metadata},
            .minimumSize = verdict.minimumSize,
            .maximumSize = verdict.maximumSize,
            .keepAddresses = verdict.keepAddresses,
        };
        value = (int32_t)groups->groupCount++;
    }
    groups->keys[at] = metadata;
    groups->verdicts[at] = value;
    groups->count++;
    return value;
}

bool cmdheap_count(HeapGroups *groups, int32_t index, uintptr_t address, uintptr_t size) {
    FillingGroup *filling = &groups->groups[index];
    if (size < filling->minimumSize || size > filling->maximumSize) return true;
    CMDHeapGroup *group = &filling->group;
    group->count++;
    group->bytes += size;
    if (!filling->keepAddresses) return true;
    if (group->addressCount == filling->addressCapacity) {
        size_t capacity = filling->addressCapacity ? filling->addressCapacity * 2 : 64;
        uintptr_t *larger = realloc(group->addresses, capacity * sizeof(uintptr_t));
        if (!larger) return false;
        group->addresses = larger;
        filling->addressCapacity = capacity;
    }
    group->addresses[group->addressCount++] = address;
    return true;
}

void cmdheap_takeBack(HeapGroups *groups, int32_t index, uintptr_t size) {
    FillingGroup *filling = &groups->groups[index];
    if (size < filling->minimumSize || size > filling->maximumSize || filling->group.count == 0) return;
    filling->group.count--;
    filling->group.bytes -= size;
    filling->takenBack = true;
}

void cmdheap_resetCounts(HeapGroups *groups) {
    for (size_t index = 0; index < groups->groupCount; index++) {
        FillingGroup *filling = &groups->groups[index];
        filling->group.count = 0;
        filling->group.bytes = 0;
        filling->group.addressCount = 0;
        filling->takenBack = false;
    }
}

bool cmdheap_finish(HeapGroups *groups, const AddressSet *freeChunks, CMDHeapScan *result) {
    size_t kept = 0;
    for (size_t index = 0; index < groups->groupCount; index++) {
        if (groups->groups[index].group.count > 0) kept++;
    }
    CMDHeapGroup *out = kept ? malloc(kept * sizeof(CMDHeapGroup)) : NULL;
    if (kept && !out) return false;
    size_t at = 0;
    for (size_t index = 0; index < groups->groupCount; index++) {
        FillingGroup *filling = &groups->groups[index];
        CMDHeapGroup *group = &filling->group;
        if (group->count == 0) continue;
        if (filling->takenBack && group->addresses) {
            // A block the walk counted that a free list holds: its chunk is 16 bytes before it.
            size_t remaining = 0;
            for (size_t address = 0; address < group->addressCount; address++) {
                if (!cmdheap_setContains(freeChunks, group->addresses[address] - 16)) {
                    group->addresses[remaining++] = group->addresses[address];
                }
            }
            group->addressCount = remaining;
        }
        out[at++] = *group;
        group->addresses = NULL;
        group->addressCount = 0;
        filling->addressCapacity = 0;
    }
    result->groups = out;
    result->groupCount = kept;
    return true;
}

void cmdheap_freeGroups(HeapGroups *groups) {
    for (size_t index = 0; index < groups->groupCount; index++) free(groups->groups[index].group.addresses);
    free(groups->groups);
    free(groups->keys);
    free(groups->verdicts);
    memset(groups, 0, sizeof(*groups));
}

void cmd_releaseHeapScan(CMDHeapScan *result) {
    for (size_t index = 0; index < result->groupCount; index++) free(result->groups[index].addresses);
    free(result->groups);
    result->groups = NULL;
    result->groupCount = 0;
}

#else

void cmd_releaseHeapScan(CMDHeapScan *result) { (void)result; }

#endif
