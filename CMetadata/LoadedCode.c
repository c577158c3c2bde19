// LoadedCode.c
//
// Implements CMDLoadedCode.h. On ELF the executable ranges come from `dl_iterate_phdr` (each
// object's `PT_LOAD` program headers with `PF_X`, at `dlpi_addr` + `p_vaddr`; glibc
// elf/dl-iteratephdr.c); on Apple platforms from each dyld image's `__TEXT` segment
// (`getsegmentdata`, mach-o/getsect.h), written from the same walk as
// MetadataSectionsMachO.c and untested here.

#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>

#include "CMDLoadedCode.h"
#include "CMDMetadataSections.h"

#if defined(__ELF__)
#include <link.h>
#elif defined(__APPLE__) && defined(__MACH__)
#include <mach-o/dyld.h>
#include <mach-o/getsect.h>
#endif

/// One build of the allow-list: sorted, disjoint ranges, never changed once published. Earlier
/// builds stay reachable through `previous` (a reader may still search one), and are few: one
/// per Swift image load that a refused or new pointer observed.
typedef struct CMDCodeRanges {
    const struct CMDCodeRanges *_Nullable previous;
    /// The number of Swift images the runtime had registered before this build walked the loader.
    size_t swiftImages;
    size_t count;
    uintptr_t ranges[];  // start, end, start, end, ...
} CMDCodeRanges;

static _Atomic(const CMDCodeRanges *) published;
static pthread_mutex_t buildLock = PTHREAD_MUTEX_INITIALIZER;

typedef struct {
    uintptr_t *ranges;
    size_t count, capacity;
    bool failed;
} CMDRangeList;

static void addRange(CMDRangeList *list, uintptr_t start, uintptr_t end) {
    if (list->failed || end <= start) return;
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 64;
        uintptr_t *grown = realloc(list->ranges, capacity * 2 * sizeof(uintptr_t));
        if (!grown) {
            list->failed = true;
            return;
        }
        list->ranges = grown;
        list->capacity = capacity;
    }
    list->ranges[2 * list->count] = start;
    list->ranges[2 * list->count + 1] = end;
    list->count++;
}

#if defined(__ELF__)
static int addObject(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *program = &info->dlpi_phdr[index];
        if (program->p_type != PT_LOAD || !(program->p_flags & PF_X)) continue;
        uintptr_t start = (uintptr_t)info->dlpi_addr + (uintptr_t)program->p_vaddr;
        addRange(context, start, start + (uintptr_t)program->p_memsz);
    }
    return 0;
}
#endif

static void collectRanges(CMDRangeList *list) {
#if defined(__ELF__)
    dl_iterate_phdr(addObject, list);
#elif defined(__APPLE__) && defined(__MACH__)
    uint32_t images = _dyld_image_count();
    for (uint32_t index = 0; index < images; index++) {
        const struct mach_header_64 *header = (const struct mach_header_64 *)_dyld_get_image_header(index);
        if (!header) continue;
        unsigned long size = 0;
        uint8_t *text = getsegmentdata(header, "__TEXT", &size);
        if (text) addRange(list, (uintptr_t)text, (uintptr_t)text + size);
    }
#else
    (void)list;
#endif
}

static int compareRanges(const void *left, const void *right) {
    uintptr_t a = *(const uintptr_t *)left, b = *(const uintptr_t *)right;
    return a < b ? -1 : a > b;
}

/// Builds and publishes a new snapshot unless one was published for `swiftImages` already.
static const CMDCodeRanges *_Nullable rebuild(size_t swiftImages) {
    pthread_mutex_lock(&buildLock);
    const CMDCodeRanges *current = atomic_load_explicit(&published, memory_order_acquire);
    if (current && current->swiftImages == swiftImages) {
        pthread_mutex_unlock(&buildLock);
        return current;
    }
    CMDRangeList list = {0};
    collectRanges(&list);
    CMDCodeRanges *ranges = list.failed ? NULL : malloc(sizeof(CMDCodeRanges) + list.count * 2 * sizeof(uintptr_t));
    if (ranges) {
        qsort(list.ranges, list.count, 2 * sizeof(uintptr_t), compareRanges);
        ranges->previous = current;
        ranges->swiftImages = swiftImages;
        ranges->count = list.count;
        for (size_t index = 0; index < 2 * list.count; index++) ranges->ranges[index] = list.ranges[index];
        atomic_store_explicit(&published, ranges, memory_order_release);
        current = ranges;
    }
    free(list.ranges);
    pthread_mutex_unlock(&buildLock);
    return current;
}

static bool contains(const CMDCodeRanges *_Nullable ranges, uintptr_t address) {
    if (!ranges) return false;
    size_t low = 0, high = ranges->count;
    // The last range whose start is at most the address.
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (ranges->ranges[2 * middle] <= address) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return low > 0 && address < ranges->ranges[2 * (low - 1) + 1];
}

bool cmd_isLoadedCode(const void *address) {
    if (!address) return false;
    const CMDCodeRanges *ranges = atomic_load_explicit(&published, memory_order_acquire);
    if (contains(ranges, (uintptr_t)address)) return true;
    // Not in the snapshot: a Swift image loaded since it was built may hold it.
    size_t swiftImages = cmd_imageCount();
    if (ranges && ranges->swiftImages == swiftImages) return false;
    return contains(rebuild(swiftImages), (uintptr_t)address);
}
