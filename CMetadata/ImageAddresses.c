// ImageAddresses.c
//
// Implements the address queries of CMDMetadataSections.h with `dladdr`, which ELF and Mach-O
// loaders both provide.

#define _GNU_SOURCE
#include <dlfcn.h>

#include "CMDMetadataSections.h"

const char *cmd_imagePath(const void *baseAddress) {
    Dl_info info;
    if (baseAddress && dladdr(baseAddress, &info) != 0) {
        return info.dli_fname;
    }
    return NULL;
}

const void *cmd_imageBase(const void *address) {
    Dl_info info;
    if (address && dladdr(address, &info) != 0) {
        return info.dli_fbase;
    }
    return NULL;
}
