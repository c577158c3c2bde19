// HeapGroups.h
//
// The census's blocks grouped into rows by first word (private to CMetadata, implemented in
// HeapGroups.c).

#ifndef CMD_HEAP_GROUPS_H
#define CMD_HEAP_GROUPS_H

#include "CMDProcessHeap.h"

/// A candidate block, as the walk finds it.
typedef struct Block {
    uintptr_t address, size, metadata;
} Block;

/// Groups blocks by first word into the result's arrays: one pass to count each group, one to
/// place each block after its group's predecessors, in walk order.
/// - Returns: Whether there was memory for them.
__attribute__((visibility("hidden"))) bool cmdheap_groupBlocks(const Block *blocks, size_t count, CMDHeapScan *result);

#endif  // CMD_HEAP_GROUPS_H
