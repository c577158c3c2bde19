// HeapGroups.h
//
// The census's rows as the heap walk fills them (private to CMetadata, implemented in
// HeapGroups.c): each distinct first word decided once by the Swift layer's verdict, and each
// class's instances counted as the walk meets them, keeping per block only what its row needs
// (a count, bytes, and an address where the verdict asks for them).

#ifndef CMD_HEAP_GROUPS_H
#define CMD_HEAP_GROUPS_H

#include "CMDProcessHeap.h"

#define CMD_HIDDEN_HEAP __attribute__((visibility("hidden")))

/// A set of addresses (open addressing).
typedef struct AddressSet {
    uintptr_t *slots;
    size_t capacity, count;
} AddressSet;

/// Adds an address; `false` when out of memory.
CMD_HIDDEN_HEAP bool cmdheap_setInsert(AddressSet *set, uintptr_t address);

/// Whether the set holds an address.
CMD_HIDDEN_HEAP bool cmdheap_setContains(const AddressSet *set, uintptr_t address);

/// The verdict on a first word that is no class.
#define CMD_NOT_A_CLASS (-1)
/// A verdict could not be had (out of memory, or the verdict's own failure).
#define CMD_VERDICT_FAILED (-2)

/// A class's group, as it fills.
typedef struct FillingGroup {
    CMDHeapGroup group;
    uintptr_t minimumSize, maximumSize;
    bool keepAddresses;
    size_t addressCapacity;
    /// Whether blocks were taken back (found free after the walk counted them).
    bool takenBack;
} FillingGroup;

/// The verdicts and the groups of a scan.
typedef struct HeapGroups {
    CMDHeapClassify classify;
    void *context;
    /// First word -> verdict: a group's index, or `CMD_NOT_A_CLASS`.
    uintptr_t *keys;
    int32_t *verdicts;
    size_t capacity, count;
    FillingGroup *groups;
    size_t groupCount, groupCapacity;
} HeapGroups;

/// The slot of an address in an open-addressing table of `capacity` slots (a power of two).
static inline size_t cmdheap_addressHash(uintptr_t address, size_t capacity) {
    return (size_t)((address >> 4) * 0x9E3779B97F4A7C15ull) & (capacity - 1);
}

/// The verdict already had on a first word, without deciding it: `false` when there is none.
static inline bool cmdheap_knownVerdict(const HeapGroups *groups, uintptr_t metadata, int32_t *verdict) {
    if (!groups->capacity) return false;
    size_t at = cmdheap_addressHash(metadata, groups->capacity);
    while (groups->keys[at]) {
        if (groups->keys[at] == metadata) {
            *verdict = groups->verdicts[at];
            return true;
        }
        at = (at + 1) & (groups->capacity - 1);
    }
    return false;
}

/// The verdict on a first word: a group's index, `CMD_NOT_A_CLASS` or `CMD_VERDICT_FAILED`.
CMD_HIDDEN_HEAP int32_t cmdheap_verdict(HeapGroups *groups, uintptr_t metadata);

/// Counts a block in its class's group when its usable size fits; `false` when out of memory.
CMD_HIDDEN_HEAP bool cmdheap_count(HeapGroups *groups, int32_t group, uintptr_t address, uintptr_t size);

/// Takes back a block the walk counted that a free list holds, if the walk counted it.
CMD_HIDDEN_HEAP void cmdheap_takeBack(HeapGroups *groups, int32_t group, uintptr_t size);

/// Empties every group's counts and addresses for another read, keeping the verdicts.
CMD_HIDDEN_HEAP void cmdheap_resetCounts(HeapGroups *groups);

/// Hands the groups with instances to `result` (dropping from kept addresses those of
/// `freeChunks`, the chunks free lists hold);
/// `false` when out of memory. The groups are emptied.
CMD_HIDDEN_HEAP bool cmdheap_finish(HeapGroups *groups, const AddressSet *freeChunks, CMDHeapScan *result);

/// Frees the verdicts and groups.
CMD_HIDDEN_HEAP void cmdheap_freeGroups(HeapGroups *groups);

#endif  // CMD_HEAP_GROUPS_H
