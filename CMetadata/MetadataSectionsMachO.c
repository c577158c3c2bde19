// MetadataSectionsMachO.c
//
// Apple implementation of CMDMetadataSections.h, written from swiftlang/swift
// `stdlib/public/runtime/ImageInspectionMachO.cpp`: Mach-O images carry no
// `MetadataSections` list, so each image dyld has loaded is asked for its `__TEXT`
// sections by name. Compiles to nothing on Linux; untested (no Apple machine here).

#if defined(__APPLE__) && defined(__MACH__)

#include <mach-o/dyld.h>
#include <mach-o/getsect.h>

#include <string.h>

#include "CMDImageProbe.h"
#include "CMDMetadataSections.h"

#if __LP64__
typedef struct mach_header_64 CMDMachHeader;
#else
typedef struct mach_header CMDMachHeader;
#endif

static CMDSectionRange cmd_section(const CMDMachHeader *header, const char *name) {
    unsigned long size = 0;
    uint8_t *start = getsectiondata(header, "__TEXT", name, &size);
    CMDSectionRange range = {(uintptr_t)start, start ? (size_t)size : 0};
    return range;
}

static bool cmd_fillImage(uint32_t index, CMDImage *image) {
    const CMDMachHeader *header = (const CMDMachHeader *)_dyld_get_image_header(index);
    if (!header) {
        return false;
    }
    image->baseAddress = header;
    image->path = _dyld_get_image_name(index);
    image->protocols = cmd_section(header, "__swift5_protos");
    image->protocolConformances = cmd_section(header, "__swift5_proto");
    image->typeMetadata = cmd_section(header, "__swift5_types");
    image->fieldMetadata = cmd_section(header, "__swift5_fieldmd");
    image->typeReferences = cmd_section(header, "__swift5_typeref");
    image->reflectionStrings = cmd_section(header, "__swift5_reflstr");
    return image->protocols.length || image->protocolConformances.length || image->typeMetadata.length
        || image->fieldMetadata.length;
}

size_t cmd_copyImages(CMDImage *buffer, size_t capacity) {
    size_t count = 0;
    uint32_t images = _dyld_image_count();
    for (uint32_t index = 0; index < images; index++) {
        CMDImage image;
        if (!cmd_fillImage(index, &image)) {
            continue;
        }
        if (buffer && count < capacity) {
            buffer[count] = image;
        }
        count += 1;
    }
    return count;
}

size_t cmd_imageCount(void) {
    return cmd_copyImages(NULL, 0);
}

// CMDImageProbe.h: the probe reads the ELF registration (`swift_enumerateAllMetadataSections`);
// on Apple platforms it reports that it cannot run.
const char *cmd_probeSectionName(size_t index) {
    (void)index;
    return NULL;
}

void cmd_probeImage(
    const char *path,
    int timeoutMilliseconds,
    const void *scanType,
    const void *const *scanProtocols,
    size_t scanProtocolCount,
    CMDImageProbe *result
) {
    (void)path;
    (void)timeoutMilliseconds;
    (void)scanType;
    (void)scanProtocols;
    (void)scanProtocolCount;
    memset(result, 0, sizeof *result);
    result->status = CMDProbeStatusFailed;
    strncpy(result->message, "probing a library is supported on ELF platforms", sizeof result->message - 1);
}

#endif  // defined(__APPLE__) && defined(__MACH__)
