// ProcessMemory.h
//
// What the readers of another process share (private to CMetadata, implemented in
// ProcessMemory.c): its mappings from `/proc/PID/maps` (proc(5)) and its bytes by
// `process_vm_readv(2)`.

#ifndef CMD_PROCESS_MEMORY_H
#define CMD_PROCESS_MEMORY_H

#if defined(__linux__)

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CMD_HIDDEN_PROCESS __attribute__((visibility("hidden")))

/// One line of `/proc/PID/maps`.
typedef struct Mapping {
    uintptr_t start, end;
    uint64_t offset;
    unsigned int major, minor;
    uint64_t inode;
    /// `r`, `w`, `x`, and `p` or `s` (`shared`).
    bool readable, writable, executable, shared;
    /// Inside the maps text, NUL-terminated, without a ` (deleted)` suffix; empty for an
    /// anonymous mapping, `[heap]`, `[stack]` and the like for the kernel's.
    char *path;
    bool deleted;
} Mapping;

/// Reads the whole of `/proc/PID/maps`; `NULL` with `*error` set on failure (`ESRCH` for a
/// process that shows no mappings, as one that has exited does).
CMD_HIDDEN_PROCESS char *cmdproc_readMaps(pid_t pid, int *error);

/// Parses the maps text in place; `NULL` when out of memory.
CMD_HIDDEN_PROCESS Mapping *cmdproc_parseMaps(char *text, size_t *count);

/// Copies `length` bytes, page by page past a page that cannot be read, which stays zero.
/// - Returns: 0, or the error that ends the read (`ESRCH`, `EPERM`), not a fault.
CMD_HIDDEN_PROCESS int cmdproc_readTolerant(pid_t pid, uintptr_t address, void *buffer, size_t length);

#endif  // __linux__

#endif  // CMD_PROCESS_MEMORY_H
