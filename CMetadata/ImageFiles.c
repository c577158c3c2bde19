// ImageFiles.c
//
// ELF implementation of CMDImageFile.h: places an image file's loadable segments the way the
// dynamic loader would (glibc elf/dl-map-segments.h: one reservation, each PT_LOAD at its
// offset from the first), copying their bytes rather than mapping the file, applies the relocations that fill pointer slots (the ELF x86-64 and
// AArch64 psABIs' RELATIVE, GLOB_DAT and 64-bit absolute kinds, and the generic DT_RELR packed
// form), and never runs or hands anything to the loader. Every structure read from the file is
// checked against the file's size and the segments first. Structures mirror `Elf64_Ehdr`,
// `Elf64_Phdr`, `Elf64_Shdr`, `Elf64_Dyn`, `Elf64_Rela` and `Elf64_Sym` of <elf.h>.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

/// Reads `length` bytes at `offset` of the file, or fails with a truncation at the end wanted.
static bool readAt(int descriptor, uint64_t fileSize, uint64_t offset, void *buffer, size_t length,
                   const char *what, CMDImageFile *result) {
    if (offset > fileSize || length > fileSize - offset) {
        return cmdmap_fail(result, CMDImageFileStatusTruncated, offset, "truncated: %s at offset 0x%llx ends past the file's end",
                    what, (unsigned long long)offset);
    }
    size_t done = 0;
    while (done < length) {
        ssize_t got = pread(descriptor, (char *)buffer + done, length - done, (off_t)(offset + done));
        if (got <= 0) {
            return cmdmap_fail(result, CMDImageFileStatusUnreadable, offset + done, "%s cannot be read: %s", what,
                        got == 0 ? "unexpected end of file" : strerror(errno));
        }
        done += (size_t)got;
    }
    return true;
}

/// The names of the sections of `CMDImageFileSection`, in its order.
static const char *const sectionNames[CMDImageFileSectionCount] = {
    "swift5_protocols", "swift5_protocol_conformances", "swift5_type_metadata", "swift5_fieldmd",
    "swift5_type_metadata_2", "swift5_typeref", "swift5_reflstr",
};

/// Parses the ELF header, the program headers and the section headers, checking each against
/// the file's size; on success `layout->segments` must be freed.
bool cmdmap_parseFile(int descriptor, uint64_t fileSize, ELFLayout *layout, CMDImageFile *result) {
    memset(layout, 0, sizeof(*layout));
    Elf64_Ehdr header;
    if (fileSize < 4) return cmdmap_fail(result, CMDImageFileStatusNotELF, 0, "not an ELF file: it is %llu bytes", (unsigned long long)fileSize);
    if (!readAt(descriptor, fileSize, 0, &header, 4, "the ELF identification", result)) return false;
    if (memcmp(header.e_ident, ELFMAG, SELFMAG) != 0) {
        return cmdmap_fail(result, CMDImageFileStatusNotELF, 0, "not an ELF file: no ELF magic number");
    }
    if (!readAt(descriptor, fileSize, 0, &header, sizeof(header), "the ELF header", result)) return false;
    if (header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB) {
        return cmdmap_fail(result, CMDImageFileStatusUnsupported, 4, "not a 64-bit little-endian ELF file");
    }
    if (!cmdmap_relocationKinds(header.e_machine, &layout->kinds)) {
        return cmdmap_fail(result, CMDImageFileStatusUnsupported, 0x12, "machine %u is not x86-64 or AArch64",
                    header.e_machine);
    }
    if (header.e_type != ET_EXEC && header.e_type != ET_DYN) {
        return cmdmap_fail(result, CMDImageFileStatusUnsupported, 0x10,
                    "ELF type %u is neither an executable nor a shared object", header.e_type);
    }
    if (header.e_phoff > CMD_LARGEST_VALUE) {
        return cmdmap_fail(result, CMDImageFileStatusMalformed, 0x20, "malformed ELF header: e_phoff is 0x%llx, beyond any image",
                    (unsigned long long)header.e_phoff);
    }
    if (header.e_shoff > CMD_LARGEST_VALUE) {
        return cmdmap_fail(result, CMDImageFileStatusMalformed, 0x28, "malformed ELF header: e_shoff is 0x%llx, beyond any image",
                    (unsigned long long)header.e_shoff);
    }
    if (header.e_phentsize != sizeof(Elf64_Phdr) || header.e_phnum == 0) {
        return cmdmap_fail(result, CMDImageFileStatusMalformed, 0x20, "e_phoff, e_phentsize or e_phnum is invalid");
    }
    if (header.e_shentsize != sizeof(Elf64_Shdr) || header.e_shnum == 0 || header.e_shoff > CMD_LARGEST_VALUE ||
        header.e_shstrndx >= header.e_shnum) {
        return cmdmap_fail(result, CMDImageFileStatusMalformed, 0x28,
                    "the section headers are missing or invalid (e_shoff, e_shentsize, e_shnum, e_shstrndx)");
    }
    layout->header = header;
    layout->isExecutable = header.e_type == ET_EXEC;

    // Program headers: the loadable segments and the dynamic segment. Both tables are sized by
    // e_phnum (up to 65,535 entries, 3.6 MB): on the heap.
    size_t programsSize = (size_t)header.e_phnum * sizeof(Elf64_Phdr);
    Elf64_Phdr *programs = malloc(programsSize);
    Segment *segments = malloc((size_t)header.e_phnum * sizeof(Segment));
    if (!programs || !segments) {
        free(programs);
        free(segments);
        return cmdmap_fail(result, CMDImageFileStatusMapFailed, 0, "out of memory");
    }
    if (!readAt(descriptor, fileSize, header.e_phoff, programs, programsSize, "the program headers", result)) {
        free(programs);
        free(segments);
        return false;
    }
    size_t segmentCount = 0;
    uint64_t low = UINT64_MAX, high = 0;
    const uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
    bool valid = true;
    for (size_t index = 0; index < header.e_phnum && valid; index++) {
        const Elf64_Phdr *program = &programs[index];
        uint64_t at = header.e_phoff + index * sizeof(Elf64_Phdr);
        if (program->p_type == PT_DYNAMIC) {
            layout->dynamicAddress = program->p_vaddr;
            layout->dynamicSize = program->p_filesz;
        }
        if (program->p_type == PT_INTERP) layout->isExecutable = true;
        if (program->p_type != PT_LOAD) continue;
        if (program->p_vaddr > CMD_LARGEST_VALUE || program->p_memsz > CMD_LARGEST_VALUE ||
            program->p_offset > CMD_LARGEST_VALUE || program->p_filesz > program->p_memsz) {
            valid = cmdmap_fail(result, CMDImageFileStatusMalformed, at,
                         "program header %zu: p_vaddr, p_offset, p_filesz or p_memsz is invalid", index);
        } else if (program->p_offset + program->p_filesz > fileSize) {
            valid = cmdmap_fail(result, CMDImageFileStatusTruncated, program->p_offset + program->p_filesz,
                         "truncated: loadable segment %zu ends at offset 0x%llx, past the file's end", index,
                         (unsigned long long)(program->p_offset + program->p_filesz));
        } else {
            segments[segmentCount++] =
                (Segment){program->p_vaddr, program->p_memsz, program->p_offset, program->p_filesz, program->p_flags};
            uint64_t start = program->p_vaddr & ~(page - 1);
            if (start < low) low = start;
            if (program->p_vaddr + program->p_memsz > high) high = program->p_vaddr + program->p_memsz;
        }
    }
    free(programs);
    layout->segments = segments;
    layout->segmentCount = segmentCount;
    layout->low = low;
    layout->high = high;
    if (!valid) {
        free(segments);
        return false;
    }
    if (segmentCount == 0) {
        free(segments);
        return cmdmap_fail(result, CMDImageFileStatusMalformed, 0x20, "the file has no loadable segment");
    }
    if (high - low > CMD_LARGEST_SPAN) {
        free(segments);
        return cmdmap_fail(result, CMDImageFileStatusMalformed, 0x20, "the loadable segments span more than 4 GiB");
    }

    // Section headers: the Swift sections, and `.got`.
    Elf64_Shdr *sections = malloc((size_t)header.e_shnum * sizeof(Elf64_Shdr));
    if (!sections) {
        free(segments);
        return cmdmap_fail(result, CMDImageFileStatusMapFailed, 0, "out of memory");
    }
    if (!readAt(descriptor, fileSize, header.e_shoff, sections, (size_t)header.e_shnum * sizeof(Elf64_Shdr),
                "the section headers", result)) {
        free(sections);
        free(segments);
        return false;
    }
    const Elf64_Shdr *names = &sections[header.e_shstrndx];
    if (names->sh_size > (1 << 24) || names->sh_offset > fileSize) {
        free(sections);
        free(segments);
        return cmdmap_fail(result, CMDImageFileStatusMalformed, header.e_shoff + header.e_shstrndx * sizeof(Elf64_Shdr),
                    "the section name table's header is invalid");
    }
    char *nameTable = malloc(names->sh_size + 1);
    if (!nameTable || !readAt(descriptor, fileSize, names->sh_offset, nameTable, names->sh_size,
                              "the section name table", result)) {
        free(nameTable);
        free(sections);
        free(segments);
        return nameTable ? false : cmdmap_fail(result, CMDImageFileStatusMapFailed, 0, "out of memory");
    }
    nameTable[names->sh_size] = 0;
    bool anySwift = false;
    for (size_t index = 0; index < header.e_shnum && valid; index++) {
        const Elf64_Shdr *section = &sections[index];
        if (section->sh_name >= names->sh_size) continue;
        const char *name = nameTable + section->sh_name;
        uint64_t at = header.e_shoff + index * sizeof(Elf64_Shdr);
        if (strcmp(name, ".got") == 0 && cmdmap_inSegments(segments, segmentCount, section->sh_addr, section->sh_size)) {
            layout->gotAddress = section->sh_addr;
            layout->gotSize = section->sh_size;
        }
        for (size_t kind = 0; kind < CMDImageFileSectionCount; kind++) {
            if (strcmp(name, sectionNames[kind]) != 0) continue;
            if (section->sh_addr > CMD_LARGEST_VALUE || section->sh_size > CMD_LARGEST_VALUE ||
                !cmdmap_inSegments(segments, segmentCount, section->sh_addr, section->sh_size)) {
                valid = cmdmap_fail(result, CMDImageFileStatusMalformed, at,
                             "section %s (header %zu) lies outside the loadable segments", name, index);
                break;
            }
            layout->sectionAddresses[kind] = section->sh_addr;
            layout->sectionSizes[kind] = section->sh_size;
            anySwift = true;
        }
        if (strncmp(name, "swift5_", 7) == 0) anySwift = true;
    }
    free(nameTable);
    free(sections);
    if (valid && !anySwift) valid = cmdmap_fail(result, CMDImageFileStatusNotSwift, 0, "the file has no swift5_ sections");
    if (!valid) free(segments);
    return valid;
}

/// What a file's segments are copied from.
typedef struct FileSource {
    int descriptor;
    uint64_t fileSize;
} FileSource;

/// Copies a segment's bytes from its file: the file's part (the rest stays zero, as `.bss`).
static bool copyFromFile(void *context, const Segment *segment, void *destination, CMDImageFile *result) {
    const FileSource *source = context;
    if (segment->fileSize == 0) return true;
    return readAt(source->descriptor, source->fileSize, segment->fileOffset, destination, (size_t)segment->fileSize,
                  "a loadable segment", result);
}

bool cmd_readImageFile(const char *path, CMDImageFile *result) {
    memset(result, 0, sizeof(*result));
    result->handle = -1;
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) {
        return cmdmap_fail(result, CMDImageFileStatusUnreadable, 0, "cannot open the file: %s", strerror(errno));
    }
    struct stat status;
    if (fstat(descriptor, &status) != 0 || !S_ISREG(status.st_mode)) {
        close(descriptor);
        return cmdmap_fail(result, CMDImageFileStatusUnreadable, 0, "not a regular file");
    }
    struct timespec readStarted;
    clock_gettime(CLOCK_REALTIME, &readStarted);
    cmdmap_lock();
    bool mapped;
    if (cmdmap_unchangedImage(&status, path, result)) {
        result->reused = true;
        mapped = true;
    } else {
        ELFLayout layout;
        mapped = cmdmap_parseFile(descriptor, (uint64_t)status.st_size, &layout, result);
        if (mapped) {
            FileSource source = {descriptor, (uint64_t)status.st_size};
            MappingOrigin origin = {.status = status, .readStarted = readStarted};
            mapped = cmdmap_mapLayout(path, &layout, copyFromFile, &source, 0, &origin, result);
            free(layout.segments);
        }
    }
    cmdmap_unlock();
    close(descriptor);
    return mapped;
}

bool cmd_imageFileSection(const char *path, CMDImageFileSection kind, uint64_t *address, uint64_t *size) {
    *address = 0;
    *size = 0;
    if ((size_t)kind >= CMDImageFileSectionCount) return false;
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) return false;
    struct stat status;
    CMDImageFile scratch;
    ELFLayout layout;
    bool found = false;
    if (fstat(descriptor, &status) == 0 && S_ISREG(status.st_mode) &&
        cmdmap_parseFile(descriptor, (uint64_t)status.st_size, &layout, &scratch)) {
        *address = layout.sectionAddresses[kind];
        *size = layout.sectionSizes[kind];
        found = *size > 0;
        free(layout.segments);
    }
    close(descriptor);
    return found;
}

#else

bool cmd_readImageFile(const char *path, CMDImageFile *result) {
    (void)path;
    memset(result, 0, sizeof(*result));
    result->handle = -1;
    result->status = CMDImageFileStatusUnsupported;
    snprintf(result->message, sizeof(result->message), "reading Mach-O files is not supported");
    return false;
}
bool cmd_imageFileSection(const char *path, CMDImageFileSection kind, uint64_t *address, uint64_t *size) {
    (void)path, (void)kind;
    *address = 0;
    *size = 0;
    return false;
}

#endif

size_t cmd_fieldDescriptorSize(const void *section, size_t length, size_t offset) {
    // FieldDescriptorIterator::getCurrentRecordSize (swiftlang/swift
    // include/swift/RemoteInspection/Records.h): the 16-byte FieldDescriptor header, then
    // NumFields records of FieldRecordSize bytes; a descriptor that does not fit ends the walk.
    if (offset > length || length - offset < 16) return 0;
    const unsigned char *header = (const unsigned char *)section + offset;
    uint16_t recordSize;
    uint32_t records;
    memcpy(&recordSize, header + 10, sizeof(recordSize));
    memcpy(&records, header + 12, sizeof(records));
    uint64_t size = 16 + (uint64_t)recordSize * records;
    return size <= length - offset ? (size_t)size : 0;
}
