// ImageMapping.h
//
// What the two readers of images that are not loaded here share (private to CMetadata,
// implemented in ImageMapping.c): the
// file reader (ImageFiles.c), which copies an ELF file's loadable segments, and the process
// reader (ProcessImages.c), which copies them from another process's memory. Both place the
// copy in the same arena, relocate it through the image's own dynamic relocations, and
// register it, so that the record walkers read either as they read a loaded image. Structures
// mirror `Elf64_Ehdr`, `Elf64_Phdr`, `Elf64_Dyn`, `Elf64_Rela` and `Elf64_Sym` of <elf.h>.

#ifndef CMD_IMAGE_MAPPING_H
#define CMD_IMAGE_MAPPING_H

#if defined(__ELF__)

#include <elf.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

#include "CMDImageFile.h"

#define CMD_HIDDEN __attribute__((visibility("hidden")))

/// The largest value accepted for an address, offset or size: the x86-64 user address space.
#define CMD_LARGEST_VALUE ((uint64_t)1 << 47)
/// The largest span of loadable segments read: relative pointers reach ±2 GiB.
#define CMD_LARGEST_SPAN ((uint64_t)1 << 32)
/// The largest area for stand-in descriptors.
#define CMD_STAND_IN_LIMIT ((size_t)1 << 28)

/// A loadable segment, as mapped.
typedef struct Segment {
    uint64_t address;
    uint64_t memorySize;
    uint64_t fileOffset;
    uint64_t fileSize;
    /// `p_flags`: `PF_R`, `PF_W`, `PF_X`.
    uint32_t flags;
} Segment;

/// The relocation kinds applied, by machine.
typedef struct RelocationKinds {
    uint32_t relative, globalData, absolute64;
} RelocationKinds;

/// Slots that name a symbol the image does not define.
typedef struct Externals {
    uintptr_t *slots;
    const char **names;
    /// What each slot held where the image was read from: 0 for a file; for a process, the
    /// address its loader resolved the symbol to, there.
    uintptr_t *values;
    size_t count, capacity;
} Externals;

/// What an image's headers say, parsed once: the loadable segments, the dynamic segment, `.got`
/// and the Swift sections. Tables sized by the image's header counts live on the heap.
typedef struct ELFLayout {
    Elf64_Ehdr header;
    RelocationKinds kinds;
    Segment *segments;
    size_t segmentCount;
    /// The page-aligned lowest address and the end of the highest loadable segment.
    uint64_t low, high;
    uint64_t dynamicAddress, dynamicSize;
    uint64_t gotAddress, gotSize;
    uint64_t sectionAddresses[CMDImageFileSectionCount], sectionSizes[CMDImageFileSectionCount];
    /// A fixed-address executable (`ET_EXEC`) or one with a program interpreter (`PT_INTERP`).
    bool isExecutable;
} ELFLayout;

/// Where a mapping's bytes came from, for the registry.
typedef struct MappingOrigin {
    /// The file as it was read (a file read again unchanged gets the same mapping); zeros for
    /// a process's image, which is never reused.
    struct stat status;
    struct timespec readStarted;
    /// Whether the image was copied from a process's memory.
    bool fromProcess;
    /// The range every slot of the image may point into: the image's own mapping for a file,
    /// every image read from the same process for a process's (zeros until set).
    uintptr_t groupStart, groupEnd;
} MappingOrigin;

/// Records a failure in `result`; returns `false`.
CMD_HIDDEN bool cmdmap_fail(CMDImageFile *result, CMDImageFileStatus status, uint64_t offset, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

/// Whether `[address, address + length)` lies in a loadable segment's memory.
CMD_HIDDEN bool cmdmap_inSegments(const Segment *segments, size_t count, uint64_t address, uint64_t length);

/// The relocation kinds of an ELF machine; `false` for a machine that is not read.
CMD_HIDDEN bool cmdmap_relocationKinds(uint16_t machine, RelocationKinds *kinds);

/// Makes sure the current arena has `length` free bytes, starting a new one when it has not, so
/// that the next placements of that many bytes are contiguous. Call with the read lock held.
/// - Returns: Whether the space is there.
CMD_HIDDEN bool cmdmap_arenaReserve(size_t length);

/// Copies the bytes of each segment into place (`bias` + its address).
typedef bool (*SegmentCopier)(void *context, const Segment *segment, void *destination, CMDImageFile *result);

/// Places a parsed image in the arena, copies its segments with `copy`, applies its relocations
/// and registers the mapping (see `cmd_readImageFile`). For a process's image, `remoteBias` is
/// its load bias there: the slots hold addresses of that process, which relocation replaces by
/// their places in the copy (or, for another image's symbol, records as external with the
/// address there). Call with the read lock held.
/// - Returns: Whether the image was mapped; `result` is filled either way.
CMD_HIDDEN bool cmdmap_mapLayout(const char *path, const ELFLayout *layout, SegmentCopier copy, void *context,
                                 uintptr_t remoteBias, const MappingOrigin *origin, CMDImageFile *result);

/// Points every slot of a read image that may point anywhere in `[start, end)` there, as for
/// images read from one process. Only the registry's entries with these handles change.
CMD_HIDDEN void cmdmap_setGroup(const int32_t *handles, size_t count, uintptr_t start, uintptr_t end);

/// Clears an external slot's name after the slot was pointed at another image's copy, so that
/// no stand-in replaces it.
CMD_HIDDEN void cmdmap_resolveExternal(int32_t handle, size_t index, uintptr_t value);

/// The address an external slot held where its image was read from (0 for a file).
CMD_HIDDEN uintptr_t cmdmap_externalValue(int32_t handle, size_t index);

/// Serializes reads of images: each takes the next place in the arena.
CMD_HIDDEN void cmdmap_lock(void);
CMD_HIDDEN void cmdmap_unlock(void);

/// Whether a file read earlier under the same path is unchanged since (its device, inode,
/// size and times, its last change settled before that read): `image` receives that read's
/// result, which a read of the file reuses.
CMD_HIDDEN bool cmdmap_unchangedImage(const struct stat *status, const char *path, CMDImageFile *image);

/// Parses an ELF file's headers, checking each against its size (ImageFiles.c); on success
/// `layout->segments` must be freed.
CMD_HIDDEN bool cmdmap_parseFile(int descriptor, uint64_t fileSize, ELFLayout *layout, CMDImageFile *result);

#endif  // __ELF__

#endif  // CMD_IMAGE_MAPPING_H
