// ImageAddresses.c
//
// Implements the address queries of CMDMetadataSections.h with `dladdr`, which ELF and Mach-O
// loaders both provide.

#define _GNU_SOURCE
#include <dlfcn.h>

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
