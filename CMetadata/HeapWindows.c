// HeapWindows.c
//
// Linux implementation of HeapWindows.h.

#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "CMDProcessImages.h"

#if defined(__linux__)

#include "HeapWindows.h"

/// Reads `[start, end)` of the process whole; 0 or the error.
static int readWhole(pid_t pid, uintptr_t start, uintptr_t end, uint8_t *buffer) {
    int32_t error = 0;
    size_t length = (size_t)(end - start);
    if (cmd_readProcessMemory(pid, start, buffer, length, &error) == length) return 0;
    return error ? error : EFAULT;
}

/// Waits until a slot's state is `wanted`, or, for the reader, until it is stopped: spinning a
/// moment, then sleeping. `false` when stopped.
static bool waitFor(HeapWindows *windows, WindowSlot *slot, int wanted, bool stoppable) {
    for (int spins = 0; spins < 2000; spins++) {
        if (atomic_load(&slot->state) == wanted) return true;
        if (stoppable && atomic_load(&windows->stop)) return false;
#if defined(__x86_64__)
        __builtin_ia32_pause();
#endif
    }
    pthread_mutex_lock(&windows->lock);
    atomic_fetch_add(&windows->sleepers, 1);
    bool reached;
    while (!(reached = atomic_load(&slot->state) == wanted) && !(stoppable && atomic_load(&windows->stop))) {
        pthread_cond_wait(&windows->changed, &windows->lock);
    }
    atomic_fetch_sub(&windows->sleepers, 1);
    pthread_mutex_unlock(&windows->lock);
    return reached;
}

/// Sets a slot's state (or, with `slot` NULL, only wakes), waking a thread that sleeps.
static void setState(HeapWindows *windows, WindowSlot *slot, int state) {
    if (slot) atomic_store(&slot->state, state);
    if (atomic_load(&windows->sleepers) > 0) {
        pthread_mutex_lock(&windows->lock);
        pthread_cond_broadcast(&windows->changed);
        pthread_mutex_unlock(&windows->lock);
    }
}

/// The window of the grid with an index: its start and end (start >= end past the heap).
static void windowAt(const HeapWindows *windows, size_t index, uintptr_t *start, uintptr_t *end) {
    *start = windows->gridStart + index * CMD_WINDOW_SIZE;
    *end = *start >= windows->end ? *start : windows->end - *start < CMD_WINDOW_SIZE ? windows->end : *start + CMD_WINDOW_SIZE;
}

/// The reader thread: fills the ring with the heap's windows in order, until the heap ends or it
/// is stopped.
static void *readAhead(void *context) {
    HeapWindows *windows = context;
    for (size_t index = 0;; index++) {
        uintptr_t start, end;
        windowAt(windows, index, &start, &end);
        if (start >= end) break;
        WindowSlot *slot = &windows->slots[index % CMD_WINDOW_SLOTS];
        if (!waitFor(windows, slot, 0, true) || atomic_load(&windows->stop)) return NULL;
        slot->start = start;
        slot->end = end;
        slot->error = readWhole(windows->pid, start, end, slot->bytes);
        atomic_fetch_add_explicit(&windows->bytesRead, end - start, memory_order_relaxed);
        setState(windows, slot, 1);
        if (slot->error) break;
    }
    return NULL;
}

bool cmdwin_open(HeapWindows *windows, pid_t pid) {
    memset(windows, 0, sizeof(*windows));
    windows->pid = pid;
    windows->held = -1;
    for (int index = 0; index < CMD_WINDOW_SLOTS; index++) {
        windows->slots[index].bytes = aligned_alloc(CMD_WINDOW_ALIGNMENT, CMD_WINDOW_SIZE);
        if (!windows->slots[index].bytes) {
            for (int other = 0; other < index; other++) free(windows->slots[other].bytes);
            return false;
        }
    }
    pthread_mutex_init(&windows->lock, NULL);
    pthread_cond_init(&windows->changed, NULL);
    windows->opened = true;
    return true;
}

/// Stops the reader thread of the current heap and empties the ring.
static void stopReader(HeapWindows *windows) {
    if (windows->threaded) {
        atomic_store(&windows->stop, true);
        setState(windows, NULL, 0);
        pthread_join(windows->thread, NULL);
        windows->threaded = false;
    }
    atomic_store_explicit(&windows->stop, false, memory_order_relaxed);
    for (int index = 0; index < CMD_WINDOW_SLOTS; index++) atomic_store(&windows->slots[index].state, 0);
    windows->held = -1;
    windows->current = NULL;
    windows->currentStart = windows->currentEnd = 0;
}

void cmdwin_close(HeapWindows *windows) {
    if (!windows->opened) return;
    stopReader(windows);
    for (int index = 0; index < CMD_WINDOW_SLOTS; index++) free(windows->slots[index].bytes);
    pthread_mutex_destroy(&windows->lock);
    pthread_cond_destroy(&windows->changed);
    windows->opened = false;
}

void cmdwin_setRegion(HeapWindows *windows, uintptr_t start, uintptr_t end) {
    stopReader(windows);
    windows->gridStart = start & ~(CMD_WINDOW_ALIGNMENT - 1);
    windows->end = end;
    windows->nextTaken = 0;
    windows->threaded = pthread_create(&windows->thread, NULL, readAhead, windows) == 0;
}

/// Makes the window that holds `address` current: takes the ring's windows in order up to it
/// (or, without a reader thread, reads it). 0 or the error.
static int load(HeapWindows *windows, uintptr_t address) {
    size_t wanted = (size_t)((address - windows->gridStart) / CMD_WINDOW_SIZE);
    if (wanted < windows->nextTaken) return EFAULT;  // The walk never goes back.
    if (!windows->threaded) {
        WindowSlot *slot = &windows->slots[0];
        windowAt(windows, wanted, &slot->start, &slot->end);
        int error = readWhole(windows->pid, slot->start, slot->end, slot->bytes);
        if (error) return error;
        atomic_fetch_add_explicit(&windows->bytesRead, slot->end - slot->start, memory_order_relaxed);
        windows->nextTaken = wanted + 1;
        windows->current = slot->bytes;
        windows->currentStart = slot->start;
        windows->currentEnd = slot->end;
        return 0;
    }
    while (true) {
        if (windows->held >= 0) {
            setState(windows, &windows->slots[windows->held], 0);
            windows->held = -1;
        }
        int index = (int)(windows->nextTaken % CMD_WINDOW_SLOTS);
        WindowSlot *slot = &windows->slots[index];
        waitFor(windows, slot, 1, false);
        windows->held = index;
        windows->nextTaken++;
        if (slot->error) return slot->error;
        if (windows->nextTaken - 1 == wanted) {
            windows->current = slot->bytes;
            windows->currentStart = slot->start;
            windows->currentEnd = slot->end;
            return 0;
        }
    }
}

const uint8_t *cmdwin_span(HeapWindows *windows, uintptr_t address, size_t length, size_t *available, int *error) {
    if (address < windows->gridStart || address >= windows->end || length == 0) {
        *error = EFAULT;
        return NULL;
    }
    if (address < windows->currentStart || address >= windows->currentEnd) {
        if ((*error = load(windows, address)) != 0) return NULL;
    }
    size_t inWindow = (size_t)(windows->currentEnd - address);
    *available = length < inWindow ? length : inWindow;
    return windows->current + (address - windows->currentStart);
}

const uint8_t *cmdwin_bytes(HeapWindows *windows, uintptr_t address, size_t length, int *error) {
    if (address >= windows->currentStart && address < windows->currentEnd &&
        length <= windows->currentEnd - address) {
        return windows->current + (address - windows->currentStart);
    }
    if (address < windows->gridStart || address > windows->end || length > windows->end - address ||
        length > CMD_WINDOW_MAXIMUM_REQUEST) {
        *error = EFAULT;
        return NULL;
    }
    if (address < windows->currentStart || address >= windows->currentEnd) {
        if ((*error = load(windows, address)) != 0) return NULL;
        if (length <= windows->currentEnd - address) return windows->current + (address - windows->currentStart);
    }
    // The request straddles the current window's end: its two parts, copied.
    size_t first = (size_t)(windows->currentEnd - address);
    memcpy(windows->scratch, windows->current + (address - windows->currentStart), first);
    if ((*error = load(windows, windows->currentEnd)) != 0) return NULL;
    memcpy(windows->scratch + first, windows->current, length - first);
    return windows->scratch;
}

#endif
