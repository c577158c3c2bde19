// HeapWindows.h
//
// Another process's heap read in windows (private to CMetadata, implemented in HeapWindows.c):
// fixed windows of 128 KiB from a heap's start, each read whole with `process_vm_readv` into a
// page-aligned buffer, read ahead on a second thread into a ring of buffers while the walk reads
// the current one, so that a census costs about its read, not its read and its walk. A thread
// that waits for the other spins a moment first (a window takes microseconds, less than a sleep
// and a wakeup), then sleeps until the slot changes, so that a busy machine's other work is not
// starved by spinning.

#ifndef CMD_HEAP_WINDOWS_H
#define CMD_HEAP_WINDOWS_H

#if defined(__linux__)

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define CMD_HIDDEN_WINDOWS __attribute__((visibility("hidden")))

/// The bytes of a window. 128 KiB stays in the processor's cache while the walk reads it; 256 KiB
/// and more read 2-3x slower here (process_vm_readv copies through a cache it then evicts).
#define CMD_WINDOW_SIZE ((size_t)1 << 17)
/// The alignment of a window's start and of its buffer: a copy between addresses aligned alike
/// runs about 3x faster than one between addresses that are not.
#define CMD_WINDOW_ALIGNMENT ((uintptr_t)4096)
/// The most bytes one request may span (they may straddle two windows).
#define CMD_WINDOW_MAXIMUM_REQUEST 64

/// The windows read ahead of the walk: four stay in the cache the walk reads them from (here
/// four held a process about as long as its read took, 0.97-1.04x, and eight 1.17-1.25x).
#define CMD_WINDOW_SLOTS 4

/// One window of the ring: `[start, end)`, read with `error` (0 when it was read whole), full
/// when `state` is 1 (the reader fills it, the walk empties it).
typedef struct WindowSlot {
    uint8_t *bytes;
    uintptr_t start, end;
    int error;
    _Atomic int state;
} WindowSlot;

/// The reader of one process's heaps.
typedef struct HeapWindows {
    pid_t pid;
    /// The heap being read: windows start at `gridStart` + k * CMD_WINDOW_SIZE, up to `end`.
    uintptr_t gridStart, end;
    /// The ring the reader thread fills in window order, and the next window it reads and the
    /// walk takes (counted from the heap's first).
    WindowSlot slots[CMD_WINDOW_SLOTS];
    size_t nextTaken;
    /// The window the walk reads (a slot's bytes), `[currentStart, currentEnd)`.
    const uint8_t *current;
    uintptr_t currentStart, currentEnd;
    /// The slot the walk holds, or -1.
    int held;
    /// The reader thread of the current heap, and its stop.
    pthread_t thread;
    bool threaded;
    _Atomic bool stop;
    /// Where a thread that waited long sleeps until a slot changes: `sleepers` counts them.
    pthread_mutex_t lock;
    pthread_cond_t changed;
    _Atomic int sleepers;
    /// A request that straddles two windows, copied.
    uint8_t scratch[CMD_WINDOW_MAXIMUM_REQUEST];
    /// The bytes read into windows.
    _Atomic uint64_t bytesRead;
    bool opened;
} HeapWindows;

/// Prepares a reader. `false` when out of memory.
CMD_HIDDEN_WINDOWS bool cmdwin_open(HeapWindows *windows, pid_t pid);

/// Stops the reader's thread and frees its buffers.
CMD_HIDDEN_WINDOWS void cmdwin_close(HeapWindows *windows);

/// Starts reading a heap `[start, end)`, windows from the page that holds `start`, on a thread of
/// its own (or, when none can be started, each window when it is needed).
CMD_HIDDEN_WINDOWS void cmdwin_setRegion(HeapWindows *windows, uintptr_t start, uintptr_t end);

/// The process's bytes `[address, address + length)` of the heap (`length` at most
/// `CMD_WINDOW_MAXIMUM_REQUEST`), valid until the next request; NULL with `*error` set (the
/// read's error, or `EFAULT` for bytes past the heap's end).
CMD_HIDDEN_WINDOWS const uint8_t *cmdwin_bytes(HeapWindows *windows, uintptr_t address, size_t length, int *error);

/// The process's bytes from `address` to the end of the window that holds it, at most `length`
/// of them, in place (never copied): `*available` bytes, valid until the next request; NULL with
/// `*error` set. The walk reads a block's words in as few spans as its windows.
CMD_HIDDEN_WINDOWS const uint8_t *cmdwin_span(HeapWindows *windows, uintptr_t address, size_t length, size_t *available,
                                              int *error);

#endif  // __linux__

#endif  // CMD_HEAP_WINDOWS_H
