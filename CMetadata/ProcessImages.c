// ProcessImages.c
//
// Linux implementation of CMDProcessImages.h: the mappings of `/proc/PID/maps` (proc(5)), the
// bytes by `process_vm_readv(2)`, each Swift image placed and relocated by the file reader's
// code (ImageMapping.h) with the process's load bias, and its slots that name another image's
// symbol pointed at that image's copy. The `MetadataSections` structure a Swift image registers
// (swiftlang/swift stdlib/public/SwiftShims/swift/shims/MetadataSections.h, filled by
// stdlib/public/runtime/SwiftRT-ELF-WASM.cpp) gives its sections, since section headers are
// not loaded. Nothing is written to the process, and nothing of it runs here.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "CMDProcessImages.h"

#if defined(__linux__) && defined(__ELF__)

#include "ImageMapping.h"
#include "ProcessMemory.h"

/// The most program headers read from an image.
#define CMD_MAXIMUM_PROGRAM_HEADERS 256
/// The most images a process read keeps.
#define CMD_MAXIMUM_PROCESS_IMAGES 512
/// The offsets of `MetadataSections` (version 5): the image's base, then the ranges of
/// swift5_protocols, swift5_protocol_conformances, swift5_type_metadata, swift5_typeref,
/// swift5_reflstr and swift5_fieldmd, each `{start, length}`.
#define CMD_SECTIONS_BASE 8
#define CMD_SECTIONS_RANGES 32
#define CMD_SECTIONS_CHECKED 6
/// The most bytes of a writable segment searched for the `MetadataSections` structure.
#define CMD_SECTIONS_SEARCH_LIMIT ((size_t)64 << 20)

static bool processFail(CMDProcessRead *result, CMDProcessStatus status, int error, const char *format, ...)
    __attribute__((format(printf, 4, 5)));

static bool processFail(CMDProcessRead *result, CMDProcessStatus status, int error, const char *format, ...) {
    result->status = status;
    result->systemError = error;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(result->message, sizeof(result->message), format, arguments);
    va_end(arguments);
    return false;
}

/// What a process's segments are copied from.
typedef struct ProcessSource {
    pid_t pid;
    uintptr_t remoteBias;
    int error;
} ProcessSource;

/// Copies the part of a segment its file holds from the process, as the file reader copies a
/// file's: records lie there (ImageRecordCheck requires it), and the zero-filled rest, however
/// large a segment's header makes it, is left zero.
static bool copyFromProcess(void *context, const Segment *segment, void *destination, CMDImageFile *result) {
    ProcessSource *source = context;
    // The whole of the segment's memory, `.bss` included: the runtime keeps there what it
    // computes once, such as a class's `StoredClassMetadataBounds` when its superclass is
    // resilient, without which a generic subclass's arguments cannot be found.
    if (segment->memorySize == 0) return true;
    int error = cmdproc_readTolerant(source->pid, source->remoteBias + (uintptr_t)segment->address, destination,
                                     (size_t)segment->memorySize);
    if (error != 0) {
        source->error = error;
        return cmdmap_fail(result, CMDImageFileStatusUnreadable, 0, "cannot read the process's memory: %s",
                           strerror(error));
    }
    return true;
}

/// One image found in the maps, before it is copied.
typedef struct Candidate {
    const Mapping *mapping;
    ELFLayout layout;
    uintptr_t remoteBias;
    /// The file address of the `MetadataSections` structure's ranges, read from the process.
    uint64_t ranges[CMD_SECTIONS_CHECKED][2];
} Candidate;

/// Reads an image's ELF header and program headers from the process.
/// - Returns: Whether the mapping starts an ELF image this reader reads; `*error` is set for a
///   process that cannot be read at all.
static bool readLayout(pid_t pid, const Mapping *mapping, Candidate *candidate, int *error) {
    memset(candidate, 0, sizeof(*candidate));
    Elf64_Ehdr header;
    int32_t readError = 0;
    if (cmd_readProcessMemory(pid, mapping->start, &header, sizeof(header), &readError) != sizeof(header)) {
        if (readError == ESRCH || readError == EPERM) *error = readError;
        return false;
    }
    if (memcmp(header.e_ident, ELFMAG, SELFMAG) != 0 || header.e_ident[EI_CLASS] != ELFCLASS64 ||
        header.e_ident[EI_DATA] != ELFDATA2LSB || (header.e_type != ET_EXEC && header.e_type != ET_DYN) ||
        header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phnum == 0 ||
        header.e_phnum > CMD_MAXIMUM_PROGRAM_HEADERS || header.e_phoff > CMD_LARGEST_VALUE) {
        return false;
    }
    ELFLayout *layout = &candidate->layout;
    if (!cmdmap_relocationKinds(header.e_machine, &layout->kinds)) return false;
    size_t programsSize = (size_t)header.e_phnum * sizeof(Elf64_Phdr);
    Elf64_Phdr *programs = malloc(programsSize);
    Segment *segments = malloc((size_t)header.e_phnum * sizeof(Segment));
    if (!programs || !segments ||
        cmd_readProcessMemory(pid, mapping->start + (uintptr_t)header.e_phoff, programs, programsSize, &readError) !=
            programsSize) {
        free(programs);
        free(segments);
        return false;
    }
    layout->header = header;
    layout->isExecutable = header.e_type == ET_EXEC;
    const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    uint64_t low = UINT64_MAX, high = 0;
    size_t count = 0;
    bool valid = true;
    for (size_t index = 0; index < header.e_phnum; index++) {
        const Elf64_Phdr *program = &programs[index];
        if (program->p_type == PT_DYNAMIC) {
            layout->dynamicAddress = program->p_vaddr;
            layout->dynamicSize = program->p_filesz;
        }
        if (program->p_type == PT_INTERP) layout->isExecutable = true;
        if (program->p_type != PT_LOAD) continue;
        if (program->p_vaddr > CMD_LARGEST_VALUE || program->p_memsz > CMD_LARGEST_VALUE ||
            program->p_filesz > program->p_memsz) {
            valid = false;
            break;
        }
        segments[count++] =
            (Segment){program->p_vaddr, program->p_memsz, program->p_offset, program->p_filesz, program->p_flags};
        uint64_t start = program->p_vaddr & ~(page - 1);
        if (start < low) low = start;
        if (program->p_vaddr + program->p_memsz > high) high = program->p_vaddr + program->p_memsz;
    }
    free(programs);
    if (!valid || count == 0 || high - low > CMD_LARGEST_SPAN || mapping->start < low) {
        free(segments);
        return false;
    }
    layout->segments = segments;
    layout->segmentCount = count;
    layout->low = low;
    layout->high = high;
    // The mapping at file offset 0 holds the lowest segment, page-aligned.
    candidate->remoteBias = mapping->start - (uintptr_t)low;
    candidate->mapping = mapping;
    return true;
}

/// Finds the `MetadataSections` structure in an image's writable segments, read from the
/// process: a version, the image's base (inside the image), and ranges inside the image.
/// - Returns: Whether the image is a Swift image; `*error` is set for a process that cannot
///   be read at all.
static bool findSections(pid_t pid, Candidate *candidate, int *error) {
    const ELFLayout *layout = &candidate->layout;
    uintptr_t low = candidate->remoteBias + (uintptr_t)layout->low;
    uintptr_t high = candidate->remoteBias + (uintptr_t)layout->high;
    for (size_t index = 0; index < layout->segmentCount; index++) {
        const Segment *segment = &layout->segments[index];
        // The structure is in `.bss` or `.data`, a few megabytes at most even in the standard
        // library: a writable segment larger than the limit is not searched whole.
        if ((segment->flags & PF_W) == 0 || segment->memorySize < 272) continue;
        size_t size = segment->memorySize < CMD_SECTIONS_SEARCH_LIMIT ? (size_t)segment->memorySize
                                                                      : CMD_SECTIONS_SEARCH_LIMIT;
        uint64_t *words = calloc(size / 8 + 1, 8);
        if (!words) continue;
        int readError = cmdproc_readTolerant(pid, candidate->remoteBias + (uintptr_t)segment->address, words, size);
        if (readError != 0) {
            free(words);
            *error = readError;
            return false;
        }
        // Word-aligned candidates: the segment's address is at least word-aligned.
        size_t count = size / 8;
        for (size_t at = 0; at + 34 <= count; at++) {
            uint64_t version = words[at];
            uint64_t base = words[at + CMD_SECTIONS_BASE / 8];
            if (version == 0 || version > 64 || base < low || base >= high) continue;
            bool inside = true;
            uint64_t ranges[CMD_SECTIONS_CHECKED][2];
            for (size_t range = 0; range < CMD_SECTIONS_CHECKED && inside; range++) {
                uint64_t start = words[at + CMD_SECTIONS_RANGES / 8 + range * 2];
                uint64_t length = words[at + CMD_SECTIONS_RANGES / 8 + range * 2 + 1];
                inside = start >= low && start <= high && length <= high - start;
                ranges[range][0] = start - candidate->remoteBias;
                ranges[range][1] = length;
            }
            if (!inside) continue;
            memcpy(candidate->ranges, ranges, sizeof(ranges));
            free(words);
            return true;
        }
        free(words);
    }
    return false;
}

/// The file's section headers, for `swift5_type_metadata_2` and a fixed-address executable's
/// `.got`, when the file at the path is the one the process mapped.
static void addFileSections(const Mapping *mapping, ELFLayout *layout, bool *replaced) {
    *replaced = false;
    if (mapping->deleted) return;
    int descriptor = open(mapping->path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) {
        *replaced = true;
        return;
    }
    struct stat status;
    if (fstat(descriptor, &status) != 0 || !S_ISREG(status.st_mode) || status.st_ino != mapping->inode ||
        major(status.st_dev) != mapping->major || minor(status.st_dev) != mapping->minor) {
        *replaced = true;
        close(descriptor);
        return;
    }
    ELFLayout fileLayout;
    CMDImageFile scratch;
    if (cmdmap_parseFile(descriptor, (uint64_t)status.st_size, &fileLayout, &scratch)) {
        layout->sectionAddresses[CMDImageFileSectionNoncopyableTypeMetadata] =
            fileLayout.sectionAddresses[CMDImageFileSectionNoncopyableTypeMetadata];
        layout->sectionSizes[CMDImageFileSectionNoncopyableTypeMetadata] =
            fileLayout.sectionSizes[CMDImageFileSectionNoncopyableTypeMetadata];
        layout->gotAddress = fileLayout.gotAddress;
        layout->gotSize = fileLayout.gotSize;
        free(fileLayout.segments);
    }
    close(descriptor);
}

/// The process's error as a status.
static bool failFor(CMDProcessRead *result, int32_t pid, int error, const char *what) {
    if (error == ENOENT || error == ESRCH) {
        return processFail(result, CMDProcessStatusExited, error, "process %d exited during the read", pid);
    }
    if (error == EACCES || error == EPERM) {
        return processFail(result, CMDProcessStatusPermissionDenied, error, "%s of process %d: %s", what, pid,
                           strerror(error));
    }
    return processFail(result, CMDProcessStatusFailed, error, "%s of process %d: %s", what, pid, strerror(error));
}

/// Copies the candidates that are Swift images and translates their slots.
static bool copyImages(int32_t pid, Candidate *candidates, size_t count, CMDProcessRead *result) {
    const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    size_t total = 0;
    for (size_t index = 0; index < count; index++) {
        const ELFLayout *layout = &candidates[index].layout;
        total += (size_t)(((layout->high - layout->low + page - 1) & ~(page - 1)) + CMD_STAND_IN_LIMIT);
    }
    result->images = calloc(count, sizeof(CMDProcessImage));
    int32_t *handles = calloc(count, sizeof(int32_t));
    if (!result->images || !handles) {
        free(handles);
        return processFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
    }
    cmdmap_lock();
    // Every image of the process in one stretch of the arena: a slot of one may point into another.
    if (!cmdmap_arenaReserve(total)) {
        cmdmap_unlock();
        free(handles);
        return processFail(result, CMDProcessStatusFailed, errno, "cannot reserve address space: %s", strerror(errno));
    }
    uintptr_t groupStart = 0, groupEnd = 0;
    bool copied = true;
    for (size_t index = 0; index < count && copied; index++) {
        Candidate *candidate = &candidates[index];
        ELFLayout *layout = &candidate->layout;
        static const CMDImageFileSection kinds[CMD_SECTIONS_CHECKED] = {
            CMDImageFileSectionProtocols, CMDImageFileSectionProtocolConformances, CMDImageFileSectionTypeMetadata,
            CMDImageFileSectionTypeReferences, CMDImageFileSectionReflectionStrings, CMDImageFileSectionFieldMetadata,
        };
        for (size_t range = 0; range < CMD_SECTIONS_CHECKED; range++) {
            layout->sectionAddresses[kinds[range]] = candidate->ranges[range][0];
            layout->sectionSizes[kinds[range]] = candidate->ranges[range][1];
        }
        CMDProcessImage *image = &result->images[result->imageCount];
        addFileSections(candidate->mapping, layout, &image->fileReplaced);
        image->fileDeleted = candidate->mapping->deleted;
        image->remoteBias = candidate->remoteBias;
        image->remoteStart = candidate->remoteBias + (uintptr_t)layout->low;
        image->remoteEnd = candidate->remoteBias + (uintptr_t)layout->high;
        ProcessSource source = {pid, candidate->remoteBias, 0};
        MappingOrigin origin = {.fromProcess = true};
        clock_gettime(CLOCK_REALTIME, &origin.readStarted);
        if (!cmdmap_mapLayout(candidate->mapping->path, layout, copyFromProcess, &source, candidate->remoteBias,
                              &origin, &image->image)) {
            if (source.error != 0) {
                copied = failFor(result, pid, source.error, "reading the memory");
            } else {
                copied = processFail(result, CMDProcessStatusFailed, 0, "cannot copy %s: %s", candidate->mapping->path,
                                     image->image.message);
            }
            break;
        }
        if (groupStart == 0) groupStart = image->image.start;
        groupEnd = image->image.end;
        handles[result->imageCount++] = image->image.handle;
    }
    cmdmap_unlock();
    if (!copied) {
        free(handles);
        return false;
    }
    cmdmap_setGroup(handles, result->imageCount, groupStart, groupEnd);
    // A slot naming another image's symbol holds that symbol's address in the process: the
    // same place in that image's copy.
    for (size_t index = 0; index < result->imageCount; index++) {
        const CMDImageFile *image = &result->images[index].image;
        for (size_t external = 0; external < image->externalCount; external++) {
            uintptr_t value = cmdmap_externalValue(image->handle, external);
            for (size_t other = 0; other < result->imageCount && value != 0; other++) {
                const Candidate *target = &candidates[other];
                uintptr_t low = target->remoteBias + (uintptr_t)target->layout.low;
                uintptr_t high = target->remoteBias + (uintptr_t)target->layout.high;
                if (value < low || value >= high) continue;
                cmdmap_resolveExternal(image->handle, external,
                                       value - target->remoteBias + result->images[other].image.base);
                break;
            }
        }
    }
    free(handles);
    return true;
}

bool cmd_readProcessImages(int32_t pid, void (*afterListing)(void *), void *context, CMDProcessRead *result) {
    memset(result, 0, sizeof(*result));
    if (pid <= 0) return processFail(result, CMDProcessStatusNoSuchProcess, ESRCH, "no process has pid %d", pid);
    int32_t error = 0;
    if (!cmd_processFacts(pid, &result->facts, &error)) {
        if (error == ENOENT || error == ESRCH) {
            return processFail(result, CMDProcessStatusNoSuchProcess, error, "no process has pid %d", pid);
        }
        return failFor(result, pid, error, "reading /proc/PID/stat");
    }
    result->startTime = result->facts.startTime;
    if (result->facts.isKernelThread) {
        return processFail(result, CMDProcessStatusKernelThread, 0,
                           "pid %d is a kernel thread, not a user process: it has no images", pid);
    }
    if (result->facts.state == 'Z' || result->facts.state == 'X') {
        return processFail(result, CMDProcessStatusZombie, ESRCH,
                           "process %d is a zombie: it has exited, its parent has not reaped it, and it has no memory",
                           pid);
    }
    int mapsError = 0;
    char *maps = cmdproc_readMaps((pid_t)pid, &mapsError);
    if (!maps) return failFor(result, pid, mapsError, "reading /proc/PID/maps");
    size_t mappingCount = 0;
    Mapping *mappings = cmdproc_parseMaps(maps, &mappingCount);
    Candidate *candidates = calloc(CMD_MAXIMUM_PROCESS_IMAGES, sizeof(Candidate));
    if (!mappings || !candidates) {
        free(maps);
        free(mappings);
        free(candidates);
        return processFail(result, CMDProcessStatusFailed, ENOMEM, "out of memory");
    }
    size_t candidateCount = 0;
    int readError = 0;
    for (size_t index = 0; index < mappingCount && candidateCount < CMD_MAXIMUM_PROCESS_IMAGES && !readError; index++) {
        const Mapping *mapping = &mappings[index];
        if (mapping->offset != 0 || mapping->inode == 0 || mapping->path[0] != '/') continue;
        Candidate *candidate = &candidates[candidateCount];
        if (!readLayout((pid_t)pid, mapping, candidate, &readError)) continue;
        if (findSections((pid_t)pid, candidate, &readError)) {
            candidateCount++;
        } else {
            free(candidate->layout.segments);
        }
    }
    bool read;
    if (readError != 0) {
        read = failFor(result, pid, readError, "reading the memory");
    } else if (candidateCount == 0) {
        read = processFail(result, CMDProcessStatusNotSwift, 0,
                           "process %d has no image with Swift metadata: it is not a Swift process", pid);
    } else {
        if (afterListing) afterListing(context);
        read = copyImages(pid, candidates, candidateCount, result);
    }
    for (size_t index = 0; index < candidateCount; index++) free(candidates[index].layout.segments);
    free(candidates);
    free(mappings);
    free(maps);
    // A pid reused during the read belongs to another process, with another start time; a
    // process that `exec`ed has another program; a zombie, no memory.
    CMDProcessFacts after;
    CMDProcessStatus gone = cmd_processFacts(pid, &after, &error) ? cmd_processChange(&result->facts, &after)
                                                                   : CMDProcessStatusExited;
    if (gone != CMDProcessStatusRead) {
        if (result->images) cmd_releaseProcessRead(result);
        read = processFail(result, gone, gone == CMDProcessStatusExeced ? 0 : ESRCH,
                           gone == CMDProcessStatusExeced ? "process %d replaced its program (exec) during the read"
                           : gone == CMDProcessStatusZombie
                               ? "process %d exited during the read: it is a zombie, which its parent has not reaped"
                               : "process %d exited during the read",
                           pid);
    }
    if (!read && result->images) cmd_releaseProcessRead(result);
    if (read) result->status = CMDProcessStatusRead;
    return read;
}

void cmd_releaseProcessRead(CMDProcessRead *result) {
    free(result->images);
    result->images = NULL;
    result->imageCount = 0;
}

#else

bool cmd_readProcessImages(int32_t pid, void (*afterListing)(void *), void *context, CMDProcessRead *result) {
    (void)afterListing, (void)context;
    memset(result, 0, sizeof(*result));
    result->status = CMDProcessStatusFailed;
    snprintf(result->message, sizeof(result->message), "reading process %d is supported on Linux only", pid);
    return false;
}

void cmd_releaseProcessRead(CMDProcessRead *result) { (void)result; }

#endif
