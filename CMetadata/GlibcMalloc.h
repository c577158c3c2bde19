// GlibcMalloc.h
//
// glibc malloc's layout, as the census reads it in another process (private to CMetadata,
// implemented in GlibcMalloc.c): glibc 2.26 and later, 64-bit (malloc/malloc.c and
// malloc/arena.c): `struct malloc_state` for each arena, `struct malloc_chunk` headers,
// `heap_info` at the start of each heap of a secondary arena, and `tcache_perthread_struct`.

#ifndef CMD_GLIBC_MALLOC_H
#define CMD_GLIBC_MALLOC_H

#if defined(__linux__)

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ProcessMemory.h"

// struct malloc_state (glibc 2.26-2.40): mutex, flags, have_fastchunks, fastbinsY[10], top,
// last_remainder, bins[254], binmap[4], next, next_free, attached_threads, system_mem,
// max_system_mem.
#define ARENA_FASTBINS 16
#define ARENA_FASTBIN_COUNT 10
#define ARENA_TOP 96
#define ARENA_BINS 112
#define ARENA_BIN_COUNT 127
#define ARENA_NEXT 2160
#define ARENA_SYSTEM_MEMORY 2184
#define ARENA_SIZE 2200
/// `heap_info`: ar_ptr, prev, size, mprotect_size, pagesize, pad.
#define HEAP_INFO_PREV 8
#define HEAP_INFO_SIZE_FIELD 16
#define HEAP_INFO_SIZE 48
/// `HEAP_MAX_SIZE` on 64-bit: 2 * DEFAULT_MMAP_THRESHOLD_MAX.
#define HEAP_MAX_SIZE ((uintptr_t)64 << 20)
#define PREV_INUSE 1
#define IS_MMAPPED 2
#define SIZE_BITS 7
#define MINIMUM_CHUNK 32
/// `tcache_perthread_struct`: uint16_t counts[64], then tcache_entry *entries[64].
#define TCACHE_BINS 64
#define TCACHE_CHUNK_SIZE 0x290
/// The most arenas followed.
#define MAXIMUM_ARENAS 4096

/// The mapping holding an address, or NULL.
CMD_HIDDEN_PROCESS const Mapping *cmdheap_mappingContaining(const Mapping *mappings, size_t count,
                                                                      uintptr_t address);

/// Whether `words` (copied from `address` in the process) hold a `struct malloc_state`, by its
/// structure, never by how full its bins are: each bin empty (pointing at itself) or linking
/// chunks in heap memory, its top chunk in heap memory (or the initial one of an arena that
/// never allocated, holding no memory), a next arena, and whole pages of system memory.
CMD_HIDDEN_PROCESS bool cmdheap_isArena(const uint64_t *words, uintptr_t address, const Mapping *mappings,
                                        size_t count);

/// Finds `main_arena` in libc's writable data: its address, and its `ARENA_SIZE` bytes.
CMD_HIDDEN_PROCESS bool cmdheap_findMainArena(pid_t pid, const Mapping *mappings, size_t count, uintptr_t *arena,
                                              uint64_t *words);

/// Another allocator or a sanitizer that serves the process, by its mappings; NULL for none.
CMD_HIDDEN_PROCESS const char *cmdheap_otherAllocator(const Mapping *mappings, size_t count, char *text,
                                                      size_t textSize);

#endif  // __linux__

#endif  // CMD_GLIBC_MALLOC_H
