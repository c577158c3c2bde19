// ImageMapping.c
//
// The ELF implementation of ImageMapping.h: the arena read images are placed in, the
// relocation of a placed image through its own dynamic relocations (the ELF x86-64 and AArch64
// psABIs' RELATIVE, GLOB_DAT and 64-bit absolute kinds, and the generic DT_RELR packed form),
// and the registry of read images that the queries of CMDImageFile.h answer from. The file
// reader (ImageFiles.c) and the process reader (ProcessImages.c) both place their images here.

#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "CMDImageFile.h"

#if defined(__ELF__)

#include <sys/mman.h>

#include "ImageMapping.h"

/// The zero-filled margin at each end of an arena of read images: farther than any 32-bit
/// relative pointer reaches, plus room for the fields read at an offset from its target.
#define CMD_GUARD_SIZE (((uintptr_t)1 << 31) + ((uintptr_t)1 << 20))
/// The most image files one process maps.
#define CMD_MAXIMUM_FILES 1024

/// One mapped file, kept for the life of the process.
typedef struct CMDMappedFile {
    uintptr_t start;
    /// The end of the segments: the image proper, without the stand-in area.
    uintptr_t imageEnd;
    uintptr_t end;
    uintptr_t base;
    char *path;
    uintptr_t *externalSlots;
    const char **externalNames;
    uintptr_t *externalValues;
    size_t externalCount;
    /// The field descriptors a walk of `swift5_fieldmd` finds, in address order.
    uintptr_t *fieldDescriptors;
    size_t fieldDescriptorCount;
    /// The file as it was read, to give the same mapping to a read of the unchanged file.
    dev_t device;
    ino_t inode;
    off_t size;
    struct timespec modified, changed;
    /// When the read began (`CLOCK_REALTIME`, the clock of file times).
    struct timespec readStarted;
    /// What the read returned.
    CMDImageFile image;
    /// The loadable segments, at file addresses (`base` + address is mapped).
    Segment *segments;
    size_t segmentCount;
    /// Whether the image was copied from a process (never reused), and the range its slots may
    /// point into (`groupEnd` 0: its own mapping).
    bool fromProcess;
    uintptr_t groupStart, groupEnd;
} CMDMappedFile;

static CMDMappedFile mappedFiles[CMD_MAXIMUM_FILES];
/// The number of published entries: entries below it are complete and never change.
static _Atomic size_t mappedFileCount;
static pthread_mutex_t mappedFileLock = PTHREAD_MUTEX_INITIALIZER;
/// Serializes the reading of images: each takes the next place in the arena.
static pthread_mutex_t readLock = PTHREAD_MUTEX_INITIALIZER;

void cmdmap_lock(void) { pthread_mutex_lock(&readLock); }
void cmdmap_unlock(void) { pthread_mutex_unlock(&readLock); }

/// Read images are placed one after another in an arena of zero-filled, read-only pages whose
/// first and last `CMD_GUARD_SIZE` bytes hold no image: every relative pointer of an image
/// lands in the arena (zeros, or another image's bytes), so that following one never faults,
/// while the address space a process gives up stays a few arenas, not 4 GiB per file.
#define CMD_ARENA_SIZE ((size_t)1 << 34)

static uintptr_t arenaNext;
static uintptr_t arenaEnd;

/// A place for `length` bytes in the current arena, or a new arena's; 0 when none can be reserved.
static uintptr_t arenaPlace(size_t length) {
    if (arenaNext != 0 && length <= arenaEnd - arenaNext) return arenaNext;
    size_t size = CMD_ARENA_SIZE;
    if (length > size - 2 * CMD_GUARD_SIZE) size = length + 2 * CMD_GUARD_SIZE;
    void *arena = mmap(NULL, size, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (arena == MAP_FAILED) return 0;
    arenaNext = (uintptr_t)arena + CMD_GUARD_SIZE;
    arenaEnd = (uintptr_t)arena + size - CMD_GUARD_SIZE;
    return arenaNext;
}

bool cmdmap_arenaReserve(size_t length) {
    if (arenaNext != 0 && length <= arenaEnd - arenaNext) return true;
    arenaNext = 0;
    return arenaPlace(length) != 0;
}

/// Returns a failed image's place to zero-filled, read-only pages.
static void arenaClear(uintptr_t start, size_t length) {
    mmap((void *)start, length, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
}

bool cmdmap_fail(CMDImageFile *result, CMDImageFileStatus status, uint64_t offset, const char *format, ...) {
    result->status = status;
    result->offset = offset;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(result->message, sizeof(result->message), format, arguments);
    va_end(arguments);
    return false;
}

bool cmdmap_inSegments(const Segment *segments, size_t count, uint64_t address, uint64_t length) {
    for (size_t index = 0; index < count; index++) {
        const Segment *segment = &segments[index];
        if (address >= segment->address && length <= segment->memorySize &&
            address - segment->address <= segment->memorySize - length) {
            return true;
        }
    }
    return false;
}

static bool addExternal(Externals *externals, uintptr_t slot, const char *name, uintptr_t value) {
    if (externals->count == externals->capacity) {
        size_t capacity = externals->capacity ? externals->capacity * 2 : 64;
        uintptr_t *slots = realloc(externals->slots, capacity * sizeof(uintptr_t));
        if (!slots) return false;
        externals->slots = slots;
        const char **names = realloc(externals->names, capacity * sizeof(char *));
        if (!names) return false;
        externals->names = names;
        uintptr_t *values = realloc(externals->values, capacity * sizeof(uintptr_t));
        if (!values) return false;
        externals->values = values;
        externals->capacity = capacity;
    }
    externals->slots[externals->count] = slot;
    externals->names[externals->count] = name;
    externals->values[externals->count] = value;
    externals->count++;
    return true;
}

static void freeExternals(Externals *externals) {
    free(externals->slots);
    free(externals->names);
    free(externals->values);
}

/// The symbol table and string table of `PT_DYNAMIC`, mapped.
typedef struct Symbols {
    const Elf64_Sym *table;
    size_t count;
    const char *strings;
    size_t stringsSize;
} Symbols;

/// Applies one `Elf64_Rela`. `fromProcess`: the slot holds what the process's loader wrote.
static bool applyRelocation(const Elf64_Rela *relocation, uintptr_t bias, const Segment *segments, size_t count,
                            const RelocationKinds *kinds, const Symbols *symbols, Externals *externals,
                            bool fromProcess) {
    uint32_t type = (uint32_t)ELF64_R_TYPE(relocation->r_info);
    uint32_t symbolIndex = (uint32_t)ELF64_R_SYM(relocation->r_info);
    if (type != kinds->relative && type != kinds->globalData && type != kinds->absolute64) return true;
    if (!cmdmap_inSegments(segments, count, relocation->r_offset, 8)) return true;  // Not a slot of the image.
    uintptr_t *slot = (uintptr_t *)(bias + relocation->r_offset);
    if (type == kinds->relative) {
        *slot = bias + (uintptr_t)relocation->r_addend;
        return true;
    }
    uintptr_t resolved = fromProcess ? *slot : 0;
    *slot = 0;
    if (symbolIndex == 0 || symbolIndex >= symbols->count) return true;
    const Elf64_Sym *symbol = &symbols->table[symbolIndex];
    if (symbol->st_shndx != SHN_UNDEF) {
        if (symbol->st_value <= CMD_LARGEST_VALUE && cmdmap_inSegments(segments, count, symbol->st_value, 0)) {
            *slot = bias + (uintptr_t)symbol->st_value + (uintptr_t)relocation->r_addend;
        }
        return true;
    }
    if (symbol->st_name >= symbols->stringsSize) return true;
    const char *name = symbols->strings + symbol->st_name;
    if (!memchr(name, 0, symbols->stringsSize - symbol->st_name)) return true;
    return addExternal(externals, (uintptr_t)slot, name, resolved);
}

/// The field descriptors of a mapped `swift5_fieldmd`, found by the one walk of the section
/// (`cmd_fieldDescriptorSize`).
static uintptr_t *walkFieldDescriptors(CMDSectionRange section, size_t *count) {
    *count = 0;
    if (section.start == 0 || section.length < 16) return NULL;
    size_t capacity = section.length / 16;
    uintptr_t *starts = malloc(capacity * sizeof(uintptr_t));
    if (!starts) return NULL;
    size_t offset = 0, size;
    while (*count < capacity && (size = cmd_fieldDescriptorSize((const void *)section.start, section.length, offset))) {
        starts[(*count)++] = section.start + offset;
        offset += size;
    }
    return starts;
}

/// Publishes a mapping in the registry.
static int32_t registerMapping(const char *path, uintptr_t start, uintptr_t imageEnd, uintptr_t end,
                               uintptr_t base, Externals *externals, const MappingOrigin *origin,
                               const CMDImageFile *image, const Segment *layoutSegments, size_t segmentCount) {
    CMDSectionRange fieldMetadata = image->sections[CMDImageFileSectionFieldMetadata];
    pthread_mutex_lock(&mappedFileLock);
    size_t index = atomic_load_explicit(&mappedFileCount, memory_order_relaxed);
    int32_t handle = -1;
    char *copy = strdup(path);
    Segment *segments = malloc(segmentCount * sizeof(Segment));
    if (index < CMD_MAXIMUM_FILES && copy && segments) {
        memcpy(segments, layoutSegments, segmentCount * sizeof(Segment));
        size_t fieldDescriptorCount = 0;
        uintptr_t *fieldDescriptors = walkFieldDescriptors(fieldMetadata, &fieldDescriptorCount);
        const struct stat *status = &origin->status;
        mappedFiles[index] = (CMDMappedFile){start, imageEnd, end, base, copy, externals->slots, externals->names,
                                             externals->values, externals->count, fieldDescriptors,
                                             fieldDescriptorCount, status->st_dev, status->st_ino, status->st_size,
                                             status->st_mtim, status->st_ctim, origin->readStarted, *image, segments,
                                             segmentCount, origin->fromProcess, origin->groupStart, origin->groupEnd};
        mappedFiles[index].image.handle = (int32_t)index;
        atomic_store_explicit(&mappedFileCount, index + 1, memory_order_release);
        handle = (int32_t)index;
    } else {
        free(copy);
        free(segments);
    }
    pthread_mutex_unlock(&mappedFileLock);
    return handle;
}

bool cmdmap_relocationKinds(uint16_t machine, RelocationKinds *kinds) {
    if (machine == EM_X86_64) {
        *kinds = (RelocationKinds){R_X86_64_RELATIVE, R_X86_64_GLOB_DAT, R_X86_64_64};
    } else if (machine == EM_AARCH64) {
        *kinds = (RelocationKinds){R_AARCH64_RELATIVE, R_AARCH64_GLOB_DAT, R_AARCH64_ABS64};
    } else {
        return false;
    }
    return true;
}

/// A dynamic entry's address as a file address: a process's loader may have rebased it in place.
static uint64_t fileAddress(uint64_t value, uintptr_t remoteBias, const ELFLayout *layout) {
    if (remoteBias != 0 && value >= remoteBias + layout->low && value < remoteBias + layout->high) {
        return value - remoteBias;
    }
    return value;
}

/// Copies the loadable segments of a parsed image into the arena, applies its relocations and
/// registers the mapping. The segments are copied, not mapped from the file: a file truncated
/// or rewritten while an image holds it cannot fault a later read (a private file mapping
/// raises SIGBUS on a page past the file's new end), and nothing of the copy is executable.
bool cmdmap_mapLayout(const char *path, const ELFLayout *layout, SegmentCopier copy, void *context,
                      uintptr_t remoteBias, const MappingOrigin *origin, CMDImageFile *result) {
    const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    // The reservation: guard, segments, stand-in area, guard. The stand-in area's writable
    // part is sized once the externals are counted.
    uint64_t span = (layout->high - layout->low + page - 1) & ~(page - 1);
    size_t total = (size_t)(span + CMD_STAND_IN_LIMIT);
    uintptr_t reservation = arenaPlace(total);
    if (reservation == 0) {
        return cmdmap_fail(result, CMDImageFileStatusMapFailed, 0, "cannot reserve address space: %s", strerror(errno));
    }
    uintptr_t start = reservation;
    uintptr_t bias = start - (uintptr_t)layout->low;
    if (mprotect((void *)start, (size_t)span, PROT_READ | PROT_WRITE) != 0) {
        arenaClear(reservation, total);
        return cmdmap_fail(result, CMDImageFileStatusMapFailed, 0, "cannot map the segments: %s", strerror(errno));
    }
    for (size_t index = 0; index < layout->segmentCount; index++) {
        const Segment *segment = &layout->segments[index];
        if (!copy(context, segment, (void *)(bias + segment->address), result)) {
            arenaClear(reservation, total);
            return false;
        }
    }
    // A process's slots hold its own addresses: `delta` moves one of its image to the copy.
    uintptr_t delta = bias - remoteBias;

    // Relocations, from the dynamic segment as the loader reads them.
    Externals externals = {0};
    Symbols symbols = {0};
    if (layout->dynamicAddress != 0 && layout->dynamicSize >= sizeof(Elf64_Dyn) &&
        cmdmap_inSegments(layout->segments, layout->segmentCount, layout->dynamicAddress, layout->dynamicSize)) {
        const Elf64_Dyn *dynamic = (const Elf64_Dyn *)(bias + layout->dynamicAddress);
        size_t entries = (size_t)(layout->dynamicSize / sizeof(Elf64_Dyn));
        uint64_t rela = 0, relaSize = 0, relr = 0, relrSize = 0;
        uint64_t symbolTable = 0, stringTable = 0, stringSize = 0;
        for (size_t index = 0; index < entries && dynamic[index].d_tag != DT_NULL; index++) {
            uint64_t value = fileAddress(dynamic[index].d_un.d_val, remoteBias, layout);
            switch (dynamic[index].d_tag) {
            case DT_RELA: rela = value; break;
            case DT_RELASZ: relaSize = value; break;
#ifdef DT_RELR
            case DT_RELR: relr = value; break;
            case DT_RELRSZ: relrSize = value; break;
#endif
            case DT_SYMTAB: symbolTable = value; break;
            case DT_STRTAB: stringTable = value; break;
            case DT_STRSZ: stringSize = value; break;
            default: break;
            }
        }
        if (symbolTable && stringTable && cmdmap_inSegments(layout->segments, layout->segmentCount, stringTable, stringSize) &&
            cmdmap_inSegments(layout->segments, layout->segmentCount, symbolTable, sizeof(Elf64_Sym))) {
            symbols.table = (const Elf64_Sym *)(bias + symbolTable);
            symbols.strings = (const char *)(bias + stringTable);
            symbols.stringsSize = (size_t)stringSize;
            // The table's length is not recorded; it ends where its segment's file bytes do,
            // and relocations name indices below that.
            for (size_t index = 0; index < layout->segmentCount; index++) {
                const Segment *segment = &layout->segments[index];
                if (symbolTable >= segment->address && symbolTable < segment->address + segment->memorySize) {
                    symbols.count = (size_t)((segment->address + segment->memorySize - symbolTable) / sizeof(Elf64_Sym));
                }
            }
        }
        if (rela && relaSize && cmdmap_inSegments(layout->segments, layout->segmentCount, rela, relaSize)) {
            const Elf64_Rela *relocations = (const Elf64_Rela *)(bias + rela);
            for (size_t index = 0; index < relaSize / sizeof(Elf64_Rela); index++) {
                if (!applyRelocation(&relocations[index], bias, layout->segments, layout->segmentCount, &layout->kinds,
                                     &symbols, &externals, origin->fromProcess)) {
                    break;
                }
            }
        }
        if (relr && relrSize && cmdmap_inSegments(layout->segments, layout->segmentCount, relr, relrSize)) {
            // DT_RELR: an even entry is an address to relocate; an odd one a bitmap of the 63
            // words after the last address (generic ABI, "Relative relocation table").
            const uint64_t *entries = (const uint64_t *)(bias + relr);
            uint64_t where = 0;
            for (size_t index = 0; index < relrSize / 8; index++) {
                uint64_t entry = entries[index];
                if ((entry & 1) == 0) {
                    where = entry;
                    if (cmdmap_inSegments(layout->segments, layout->segmentCount, where, 8)) *(uintptr_t *)(bias + where) += delta;
                    where += 8;
                } else {
                    for (uint64_t bit = 1; bit < 64; bit++) {
                        uint64_t at = where + (bit - 1) * 8;
                        if ((entry >> bit) & 1 && cmdmap_inSegments(layout->segments, layout->segmentCount, at, 8)) {
                            *(uintptr_t *)(bias + at) += delta;
                        }
                    }
                    where += 63 * 8;
                }
            }
        }
    }
    if (layout->header.e_type == ET_EXEC && layout->gotSize >= 8) {
        // A fixed-address executable's GOT holds link-time addresses without relocations.
        uintptr_t *words = (uintptr_t *)(bias + layout->gotAddress);
        for (size_t index = 0; index < layout->gotSize / 8; index++) {
            if (words[index] >= layout->low && words[index] < layout->high) words[index] += delta;
        }
    }
    for (size_t kind = 0; kind < CMDImageFileSectionCount; kind++) {
        if (layout->sectionSizes[kind] == 0) continue;
        result->sections[kind] =
            (CMDSectionRange){bias + (uintptr_t)layout->sectionAddresses[kind], (size_t)layout->sectionSizes[kind]};
    }
    // A stand-in takes a few hundred bytes at most (its names and its parents').
    size_t standInCapacity = externals.count * 1024 + 65536;
    if (standInCapacity > CMD_STAND_IN_LIMIT) standInCapacity = CMD_STAND_IN_LIMIT;
    standInCapacity = (standInCapacity + page - 1) & ~(page - 1);
    if (mprotect((void *)(start + span), standInCapacity, PROT_READ | PROT_WRITE) != 0) {
        freeExternals(&externals);
        arenaClear(reservation, total);
        return cmdmap_fail(result, CMDImageFileStatusMapFailed, 0, "cannot map the stand-in area: %s", strerror(errno));
    }
    uintptr_t end = start + (uintptr_t)span + standInCapacity;
    result->status = CMDImageFileStatusMapped;
    result->base = bias;
    result->start = start;
    result->end = end;
    result->standInArea = start + (uintptr_t)span;
    result->standInCapacity = standInCapacity;
    result->externalCount = externals.count;
    result->isExecutable = layout->isExecutable;
    int32_t handle = registerMapping(path, start, start + (uintptr_t)span, end, bias, &externals, origin, result,
                                     layout->segments, layout->segmentCount);
    if (handle < 0) {
        freeExternals(&externals);
        arenaClear(reservation, total);
        memset(result->sections, 0, sizeof(result->sections));
        return cmdmap_fail(result, CMDImageFileStatusMapFailed, 0, "more than %d image files are read", CMD_MAXIMUM_FILES);
    }
    arenaNext = end;
    result->handle = handle;
    return true;
}

/// How long before a read a file's last change must lie for its times to tell a later change:
/// the kernel stamps file times from a coarse clock (a tick of a few milliseconds), so two
/// writes within one tick leave the same times. One second is many ticks.
#define CMD_SETTLED_SECONDS 1

/// The published mapping of a file that has not changed since it was read under the same path:
/// the same path (an image is named by the path it was read from, so a hard link or another
/// path to the same file is another image), device, inode, size, modification and
/// status-change times, and a status change at least `CMD_SETTLED_SECONDS` before that read
/// began, so that a write within the same clock tick as the read's copy cannot hide behind
/// equal times.
static const CMDMappedFile *_Nullable unchangedMapping(const struct stat *status, const char *path) {
    size_t count = atomic_load_explicit(&mappedFileCount, memory_order_acquire);
    for (size_t index = 0; index < count; index++) {
        const CMDMappedFile *file = &mappedFiles[index];
        if (file->fromProcess || file->path == NULL || strcmp(file->path, path) != 0) continue;
        if (file->device == status->st_dev && file->inode == status->st_ino && file->size == status->st_size &&
            file->modified.tv_sec == status->st_mtim.tv_sec && file->modified.tv_nsec == status->st_mtim.tv_nsec &&
            file->changed.tv_sec == status->st_ctim.tv_sec && file->changed.tv_nsec == status->st_ctim.tv_nsec &&
            file->changed.tv_sec + CMD_SETTLED_SECONDS < file->readStarted.tv_sec) {
            return file;
        }
    }
    return NULL;
}

bool cmdmap_unchangedImage(const struct stat *status, const char *path, CMDImageFile *image) {
    const CMDMappedFile *earlier = unchangedMapping(status, path);
    if (earlier) *image = earlier->image;
    return earlier != NULL;
}

static const CMDMappedFile *_Nullable mappedFile(int32_t handle) {
    size_t count = atomic_load_explicit(&mappedFileCount, memory_order_acquire);
    if (handle < 0 || (size_t)handle >= count) return NULL;
    return &mappedFiles[handle];
}

bool cmd_imageFileExternal(int32_t handle, size_t index, uintptr_t *slot, const char **name) {
    const CMDMappedFile *file = mappedFile(handle);
    // A slot pointed at another image read from the same process has no name left.
    if (!file || index >= file->externalCount || !file->externalNames[index]) return false;
    *slot = file->externalSlots[index];
    *name = file->externalNames[index];
    return true;
}

bool cmd_setImageFileSlot(int32_t handle, uintptr_t slot, uintptr_t value) {
    const CMDMappedFile *file = mappedFile(handle);
    if (!file || slot < file->start || slot + 8 > file->end || slot % 8 != 0) return false;
    *(uintptr_t *)slot = value;
    return true;
}

bool cmd_anyImageFileRead(void) { return atomic_load_explicit(&mappedFileCount, memory_order_relaxed) > 0; }

/// The read image containing an address, or NULL; with `standIns`, its stand-in area counts.
static const CMDMappedFile *_Nullable fileContaining(uintptr_t address, bool standIns) {
    size_t count = atomic_load_explicit(&mappedFileCount, memory_order_acquire);
    for (size_t index = 0; index < count; index++) {
        uintptr_t end = standIns ? mappedFiles[index].end : mappedFiles[index].imageEnd;
        if (address >= mappedFiles[index].start && address < end) return &mappedFiles[index];
    }
    return NULL;
}

bool cmd_readImageContaining(const void *address, uintptr_t *start, uintptr_t *end) {
    const CMDMappedFile *file = fileContaining((uintptr_t)address, true);
    if (!file) return false;
    // An image read from a process may point into another image read from it.
    *start = file->groupEnd ? file->groupStart : file->start;
    *end = file->groupEnd ? file->groupEnd : file->end;
    return true;
}

void cmdmap_setGroup(const int32_t *handles, size_t count, uintptr_t start, uintptr_t end) {
    pthread_mutex_lock(&mappedFileLock);
    for (size_t index = 0; index < count; index++) {
        if (handles[index] < 0 || (size_t)handles[index] >= CMD_MAXIMUM_FILES) continue;
        mappedFiles[handles[index]].groupStart = start;
        mappedFiles[handles[index]].groupEnd = end;
    }
    pthread_mutex_unlock(&mappedFileLock);
}

void cmdmap_resolveExternal(int32_t handle, size_t index, uintptr_t value) {
    const CMDMappedFile *file = mappedFile(handle);
    if (!file || index >= file->externalCount) return;
    *(uintptr_t *)file->externalSlots[index] = value;
    file->externalNames[index] = NULL;
}

uintptr_t cmdmap_externalValue(int32_t handle, size_t index) {
    const CMDMappedFile *file = mappedFile(handle);
    if (!file || index >= file->externalCount || !file->externalValues) return 0;
    return file->externalValues[index];
}

bool cmd_isReadableFieldDescriptor(const void *address) {
    const CMDMappedFile *file = fileContaining((uintptr_t)address, true);
    if (!file) return true;
    size_t low = 0, high = file->fieldDescriptorCount;
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        if (file->fieldDescriptors[middle] < (uintptr_t)address) {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    return low < file->fieldDescriptorCount && file->fieldDescriptors[low] == (uintptr_t)address;
}

bool cmd_isStandInDescriptor(const void *address) {
    const CMDMappedFile *file = fileContaining((uintptr_t)address, true);
    return file && (uintptr_t)address >= file->imageEnd;
}

const char *_Nullable cmd_readImagePath(const void *address) {
    const CMDMappedFile *file = fileContaining((uintptr_t)address, false);
    return file ? file->path : NULL;
}

const void *_Nullable cmd_readImageBase(const void *address) {
    const CMDMappedFile *file = fileContaining((uintptr_t)address, false);
    return file ? (const void *)file->base : NULL;
}


bool cmd_readImageSegment(const void *address, size_t length, bool *writable, bool *fileBacked) {
    const CMDMappedFile *file = fileContaining((uintptr_t)address, false);
    if (!file) return false;
    uint64_t at = (uint64_t)((uintptr_t)address - file->base);
    for (size_t index = 0; index < file->segmentCount; index++) {
        const Segment *segment = &file->segments[index];
        if (at < segment->address || length > segment->memorySize || at - segment->address > segment->memorySize - length) {
            continue;
        }
        *writable = (segment->flags & PF_W) != 0;
        *fileBacked = length <= segment->fileSize && at - segment->address <= segment->fileSize - length;
        return true;
    }
    return false;
}

#else

bool cmd_imageFileExternal(int32_t handle, size_t index, uintptr_t *slot, const char **name) {
    (void)handle, (void)index, (void)slot, (void)name;
    return false;
}

bool cmd_setImageFileSlot(int32_t handle, uintptr_t slot, uintptr_t value) {
    (void)handle, (void)slot, (void)value;
    return false;
}

bool cmd_anyImageFileRead(void) { return false; }

bool cmd_readImageContaining(const void *address, uintptr_t *start, uintptr_t *end) {
    (void)address, (void)start, (void)end;
    return false;
}

bool cmd_isReadableFieldDescriptor(const void *address) {
    (void)address;
    return true;
}

bool cmd_isStandInDescriptor(const void *address) {
    (void)address;
    return false;
}

const char *_Nullable cmd_readImagePath(const void *address) {
    (void)address;
    return NULL;
}

const void *_Nullable cmd_readImageBase(const void *address) {
    (void)address;
    return NULL;
}

bool cmd_readImageSegment(const void *address, size_t length, bool *writable, bool *fileBacked) {
    (void)address, (void)length, (void)writable, (void)fileBacked;
    return false;
}

#endif
