// CMDMetadataSections.h
//
// Enumeration of the loaded images that carry Swift metadata, and of their metadata
// sections.

#ifndef CMD_METADATA_SECTIONS_H
#define CMD_METADATA_SECTIONS_H

#include "CMDDefines.h"

CMD_ASSUME_NONNULL_BEGIN

/// A range of bytes in a loaded image.
///
/// Mirrors `swift::MetadataSectionRange` in swiftlang/swift
/// `stdlib/public/SwiftShims/swift/shims/MetadataSections.h`.
typedef struct CMDSectionRange {
    /// The first byte, or 0 when the image has no such section.
    uintptr_t start;
    /// The length in bytes.
    size_t length;
} CMDSectionRange;

/// One loaded image with Swift metadata and the sections a reflection library reads.
typedef struct CMDImage {
    /// An address inside the image (its load base on ELF, its Mach-O header on Apple platforms).
    const void *_Nullable baseAddress;
    /// The image's path as the dynamic loader reports it, owned by the loader; `NULL` on ELF,
    /// where `cmd_imagePath` finds it on request.
    const char *_Nullable path;
    /// `swift5_protocols`: relative indirectable pointers to protocol descriptors.
    CMDSectionRange protocols;
    /// `swift5_protocol_conformances`: relative pointers to conformance descriptors.
    CMDSectionRange protocolConformances;
    /// `swift5_type_metadata`: type metadata records (relative pointers to type descriptors).
    CMDSectionRange typeMetadata;
    /// `swift5_fieldmd`: field descriptors, packed one after another.
    CMDSectionRange fieldMetadata;
    /// `swift5_typeref`: mangled type names.
    CMDSectionRange typeReferences;
    /// `swift5_reflstr`: field names.
    CMDSectionRange reflectionStrings;
} CMDImage;

/// Copies the loaded Swift images, in the runtime's registration order, into a buffer.
///
/// On ELF this asks the runtime through `swift_enumerateAllMetadataSections`
/// (swiftlang/swift `stdlib/public/runtime/ImageInspectionCommon.cpp`) and reads each
/// `MetadataSections` only after checking its `version`. On Apple platforms it asks dyld.
/// - Parameters:
///   - buffer: Receives up to `capacity` images; may be `NULL` when `capacity` is 0.
///   - capacity: The number of images the buffer holds.
/// - Returns: The number of images loaded, which may exceed `capacity`.
CMD_EXTERN size_t cmd_copyImages(CMDImage *_Nullable buffer, size_t capacity);

/// The path of the image loaded at an address, as `dladdr` reports it.
/// - Parameter baseAddress: An address inside the image, such as `CMDImage.baseAddress`.
/// - Returns: The path, owned by the loader, or `NULL`.
CMD_EXTERN const char *_Nullable cmd_imagePath(const void *_Nullable baseAddress);

/// The load base of the image that holds an address (`dladdr`'s `dli_fbase`), from which an
/// address inside the image has the same offset in every process.
/// - Parameter address: An address inside a loaded image.
/// - Returns: The image's base, or `NULL` when the address is in none.
CMD_EXTERN const void *_Nullable cmd_imageBase(const void *_Nullable address);

/// Whether an address lies in the main program of this process, the executable the process
/// started, rather than in a library.
/// - Parameter address: Any address.
/// - Returns: Whether the main program's loadable segments hold it.
CMD_EXTERN bool cmd_isMainExecutable(const void *_Nullable address);

/// Returns the number of loaded images that carry Swift metadata, cheaply.
/// - Returns: The count the runtime reports.
CMD_EXTERN size_t cmd_imageCount(void);

/// The size of the field descriptor at an offset of a `swift5_fieldmd` section: the one walk
/// of that section, for loaded and read images alike, as the runtime's reflection readers walk
/// it (`FieldDescriptorIterator`, swiftlang/swift include/swift/RemoteInspection/Records.h):
/// 16 bytes of header, then `NumFields` records of `FieldRecordSize` bytes each.
/// - Parameters:
///   - section: The section's first byte.
///   - length: The section's length.
///   - offset: The descriptor's offset in the section.
/// - Returns: The descriptor's size, or 0 when its header or records do not fit in the rest of
///   the section, which ends the walk.
CMD_EXTERN size_t cmd_fieldDescriptorSize(const void *section, size_t length, size_t offset);

CMD_ASSUME_NONNULL_END

#endif  // CMD_METADATA_SECTIONS_H
