// MetadataSections.c
//
// ELF implementation of CMDMetadataSections.h: the runtime already keeps the list of
// loaded Swift images, each registered by the static constructor of the `swiftrt.o`
// object linked into it (swiftlang/swift `stdlib/public/runtime/SwiftRT-ELF-WASM.cpp`),
// so this file asks the runtime instead of parsing image files.

#if defined(__ELF__)

#include "CMDMetadataSections.h"

/// Mirrors `swift::MetadataSections` version 5 in swiftlang/swift
/// `stdlib/public/SwiftShims/swift/shims/MetadataSections.h`. Fields are only ever
/// appended; read a field only when `version` says the structure has it.
typedef struct CMDRuntimeMetadataSections {
    uintptr_t version;
    const void *baseAddress;
    void *unused0;
    void *unused1;
    CMDSectionRange swift5_protocols;
    CMDSectionRange swift5_protocol_conformances;
    CMDSectionRange swift5_type_metadata;
    CMDSectionRange swift5_typeref;
    CMDSectionRange swift5_reflstr;
    CMDSectionRange swift5_fieldmd;
    CMDSectionRange swift5_assocty;
    CMDSectionRange swift5_replace;
    CMDSectionRange swift5_replac2;
    CMDSectionRange swift5_builtin;
    CMDSectionRange swift5_capture;
    CMDSectionRange swift5_mpenum;
    CMDSectionRange swift5_accessible_functions;
    CMDSectionRange swift5_runtime_attributes;
    CMDSectionRange swift5_tests;
} CMDRuntimeMetadataSections;

_Static_assert(sizeof(CMDSectionRange) == 16, "MetadataSectionRange is two words");
_Static_assert(sizeof(CMDRuntimeMetadataSections) == 272, "MetadataSections version 5 is 272 bytes");

/// The oldest `MetadataSections` version with every field read here (`swift5_fieldmd`
/// and the reflection string sections arrived in version 1, per the header's history).
#define CMD_MINIMUM_SECTIONS_VERSION 1

// void swift_enumerateAllMetadataSections(
//     bool (*body)(const MetadataSections *sections, void *context), void *context);
// C, swiftlang/swift stdlib/public/runtime/ImageInspectionCommon.cpp
extern void swift_enumerateAllMetadataSections(
    bool (*body)(const CMDRuntimeMetadataSections *sections, void *context),
    void *context);

typedef struct {
    CMDImage *buffer;
    size_t capacity;
    size_t count;
} CMDCopyContext;

static bool cmd_copyImage(const CMDRuntimeMetadataSections *sections, void *rawContext) {
    CMDCopyContext *context = rawContext;
    if (sections->version < CMD_MINIMUM_SECTIONS_VERSION) {
        return true;
    }
    if (context->count < context->capacity) {
        CMDImage *image = &context->buffer[context->count];
        image->baseAddress = sections->baseAddress;
        // The path is found on request (cmd_imagePath): dladdr costs about ten microseconds
        // an image, more than the rest of a first conformance query.
        image->path = NULL;
        image->protocols = sections->swift5_protocols;
        image->protocolConformances = sections->swift5_protocol_conformances;
        image->typeMetadata = sections->swift5_type_metadata;
        image->fieldMetadata = sections->swift5_fieldmd;
        image->typeReferences = sections->swift5_typeref;
        image->reflectionStrings = sections->swift5_reflstr;
    }
    context->count += 1;
    return true;
}

size_t cmd_copyImages(CMDImage *buffer, size_t capacity) {
    CMDCopyContext context = {buffer, buffer ? capacity : 0, 0};
    swift_enumerateAllMetadataSections(cmd_copyImage, &context);
    return context.count;
}

static bool cmd_countImage(const CMDRuntimeMetadataSections *sections, void *rawContext) {
    if (sections->version >= CMD_MINIMUM_SECTIONS_VERSION) {
        *(size_t *)rawContext += 1;
    }
    return true;
}

size_t cmd_imageCount(void) {
    size_t count = 0;
    swift_enumerateAllMetadataSections(cmd_countImage, &count);
    return count;
}

#endif  // defined(__ELF__)
