// ImageAddresses.c
//
// Implements the address queries of CMDMetadataSections.h with `dladdr`, which ELF and Mach-O
// loaders both provide.

#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>

#if defined(__ELF__)
#include <link.h>
#elif defined(__APPLE__) && defined(__MACH__)
#include <mach-o/dyld.h>
#endif

#include "CMDImageFile.h"
#include "CMDMetadataSections.h"

const char *cmd_imagePath(const void *baseAddress) {
    const char *read = cmd_readImagePath(baseAddress);
    if (read) return read;
    Dl_info info;
    if (baseAddress && dladdr(baseAddress, &info) != 0) {
        return info.dli_fname;
    }
    return NULL;
}

const void *cmd_imageBase(const void *address) {
    const void *readBase = cmd_readImageBase(address);
    if (readBase) return readBase;
    Dl_info info;
    if (address && dladdr(address, &info) != 0) {
        return info.dli_fbase;
    }
    return NULL;
}

#if defined(__ELF__)
typedef struct {
    uintptr_t address;
    bool found;
} CMDMainSearch;

/// The first object `dl_iterate_phdr` reports is the main program (glibc elf/dl-iteratephdr.c).
static int cmd_inFirstObject(struct dl_phdr_info *info, size_t size, void *context) {
    (void)size;
    CMDMainSearch *search = context;
    for (ElfW(Half) index = 0; index < info->dlpi_phnum; index++) {
        const ElfW(Phdr) *program = &info->dlpi_phdr[index];
        if (program->p_type != PT_LOAD) continue;
        uintptr_t start = (uintptr_t)info->dlpi_addr + (uintptr_t)program->p_vaddr;
        if (search->address >= start && search->address - start < (uintptr_t)program->p_memsz) search->found = true;
    }
    return 1;
}
#endif

bool cmd_isMainExecutable(const void *address) {
#if defined(__ELF__)
    CMDMainSearch search = {(uintptr_t)address, false};
    dl_iterate_phdr(cmd_inFirstObject, &search);
    return search.found;
#elif defined(__APPLE__) && defined(__MACH__)
    // dyld lists the main executable first (mach-o/dyld.h).
    Dl_info info;
    return address && dladdr(address, &info) != 0 && info.dli_fbase == (const void *)_dyld_get_image_header(0);
#else
    (void)address;
    return false;
#endif
}
