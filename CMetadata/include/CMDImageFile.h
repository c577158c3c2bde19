// CMDImageFile.h
//
// Reading an image file's Swift metadata without loading it: the file's loadable segments are
// copied to their relative addresses inside a reserved region, and its relocations applied to
// the copy, so that the relative pointers of its records resolve as they do in a loaded
// image. No code of the file runs and the dynamic loader never sees it (the DocC article
// "Understanding the ABI layer", "Images read from files").

#ifndef CMD_IMAGE_FILE_H
#define CMD_IMAGE_FILE_H

#include "CMDDefines.h"
#include "CMDMetadataSections.h"

CMD_ASSUME_NONNULL_BEGIN

/// How reading an image file ended.
typedef enum CMDImageFileStatus {
    /// Mapped; the sections and externals are valid.
    CMDImageFileStatusMapped = 0,
    /// The file cannot be opened or read (`message` has the system's reason).
    CMDImageFileStatusUnreadable = 1,
    /// The file is not an ELF file.
    CMDImageFileStatusNotELF = 2,
    /// An ELF file of a class, byte order, machine or type that is not read.
    CMDImageFileStatusUnsupported = 3,
    /// The file ends before a structure its headers describe (`offset` is where).
    CMDImageFileStatusTruncated = 4,
    /// A header or table is inconsistent (`message` names it, `offset` is its file offset).
    CMDImageFileStatusMalformed = 5,
    /// The file has no Swift metadata sections.
    CMDImageFileStatusNotSwift = 6,
    /// The system refused the mapping.
    CMDImageFileStatusMapFailed = 7,
} CMDImageFileStatus;

/// The sections of a read image, in the order of `CMDImageFile.sections`.
typedef enum CMDImageFileSection {
    CMDImageFileSectionProtocols = 0,
    CMDImageFileSectionProtocolConformances = 1,
    CMDImageFileSectionTypeMetadata = 2,
    CMDImageFileSectionFieldMetadata = 3,
    CMDImageFileSectionNoncopyableTypeMetadata = 4,
    CMDImageFileSectionTypeReferences = 5,
    CMDImageFileSectionReflectionStrings = 6,
    CMDImageFileSectionCount = 7,
} CMDImageFileSection;

/// An image file mapped for reading.
typedef struct CMDImageFile {
    /// How the read ended.
    CMDImageFileStatus status;
    /// The registry index of the mapping (valid when mapped), for `cmd_imageFileExternal`.
    int32_t handle;
    /// The address of the file's virtual address 0: a file address plus this is its mapped
    /// address, as a loaded image's load base.
    uintptr_t base;
    /// The mapped range: the loadable segments, then the area for stand-in descriptors.
    uintptr_t start;
    uintptr_t end;
    /// The area reserved for stand-in descriptors of external symbols, zero-filled and writable.
    uintptr_t standInArea;
    size_t standInCapacity;
    /// The number of slots that name a symbol the file does not define.
    size_t externalCount;
    /// The Swift sections, mapped (`CMDImageFileSection` order); a missing one has start 0.
    CMDSectionRange sections[7];
    /// Whether this is the mapping of an earlier read of the same, unchanged file (its
    /// stand-ins are written already).
    bool reused;
    /// Whether the file is an executable: a fixed-address one (`ET_EXEC`) or one with a program
    /// interpreter (`PT_INTERP`), as every position-independent executable has.
    bool isExecutable;
    /// For a failure: the file offset it concerns (or 0).
    uint64_t offset;
    /// For a failure: what is wrong, NUL-terminated, naming the structure or section.
    char message[192];
} CMDImageFile;

/// Maps an ELF file's loadable segments for reading, without loading it.
///
/// The segments' bytes are copied (not mapped from the file, so that a file truncated or
/// rewritten while it is held cannot fault a read) to `base` + their virtual addresses, in an
/// arena of zero-filled, read-only pages that extends at least 2 GiB and 1 MiB beyond every
/// image placed in it, so that every 32-bit relative pointer stored in the file, followed, lands in readable
/// memory. Files are read one at a time.
/// Relocations (`DT_RELA`, `DT_RELR`) are applied to the private copy: relative ones and those
/// naming a symbol the file defines point into the mapping; a slot naming a symbol the file
/// does not define is left 0 and listed as external. A non-position-independent executable's
/// `.got` words that hold addresses of the file are rebased. The mapping stays for the life of
/// the process and is registered, so that `cmd_imageBase` and `cmd_imagePath` answer for
/// addresses inside it. Reading a file again that has not changed since (the same device,
/// inode, size, modification and status-change times, the last change settled more than a
/// second before the first read) returns the same mapping, with `reused` set. No table sized by the file's header counts is put on the stack.
/// - Parameters:
///   - path: The file.
///   - result: Receives the mapping or the reason for the failure.
/// - Returns: Whether the file was mapped.
CMD_EXTERN bool cmd_readImageFile(const char *path, CMDImageFile *result);

/// One slot of a read image that names a symbol the file does not define.
/// - Parameters:
///   - handle: `CMDImageFile.handle`.
///   - index: Below `CMDImageFile.externalCount`.
///   - slot: Receives the slot's mapped address.
///   - name: Receives the symbol's NUL-terminated name, inside the mapping.
/// - Returns: Whether the handle and index are valid.
CMD_EXTERN bool cmd_imageFileExternal(int32_t handle, size_t index, uintptr_t *slot, const char *_Nullable *_Nonnull name);

/// Writes an address into a slot of a read image, for a stand-in descriptor.
/// - Parameters:
///   - handle: `CMDImageFile.handle`.
///   - slot: A slot `cmd_imageFileExternal` reported for the handle.
///   - value: The address to store.
/// - Returns: Whether the slot belongs to the image and was written.
CMD_EXTERN bool cmd_setImageFileSlot(int32_t handle, uintptr_t slot, uintptr_t value);

/// Whether any image file has been read in this process: until one has, no address needs
/// the checks of `cmd_readImageContaining`.
/// - Returns: `true` once a file has been mapped.
CMD_EXTERN bool cmd_anyImageFileRead(void);

/// The mapped range of the read image that contains an address.
/// - Parameters:
///   - address: Any address.
///   - start: Receives the range's first address.
///   - end: Receives the range's end.
/// - Returns: Whether a read image contains the address.
CMD_EXTERN bool cmd_readImageContaining(const void *_Nullable address, uintptr_t *start, uintptr_t *end);

/// Whether a field descriptor may be read: always for an address outside read images; inside
/// one, only when a walk of its `swift5_fieldmd` section, descriptor after descriptor, finds a
/// descriptor at that address, so that a forged pointer or record count cannot lead a reader
/// past the section or through the same records many times.
/// - Parameter address: A field descriptor's address.
/// - Returns: Whether to read it.
CMD_EXTERN bool cmd_isReadableFieldDescriptor(const void *_Nullable address);

/// Whether an address lies in a read image's stand-in area: a descriptor written for a symbol
/// the file names but does not define.
/// - Parameter address: Any address.
/// - Returns: Whether it is a stand-in's.
CMD_EXTERN bool cmd_isStandInDescriptor(const void *_Nullable address);

/// The path of the read image that contains an address, as it was given to `cmd_readImageFile`.
/// - Parameter address: Any address.
/// - Returns: The path, owned by the registry, or `NULL`.
CMD_EXTERN const char *_Nullable cmd_readImagePath(const void *_Nullable address);

/// The address of file address 0 of the read image that contains an address.
/// - Parameter address: Any address.
/// - Returns: `CMDImageFile.base`, or `NULL`.
CMD_EXTERN const void *_Nullable cmd_readImageBase(const void *_Nullable address);

/// Where an address range lies in a read image's loadable segments, for the checks of its
/// records (ABI/ImageRecordCheck.swift).
/// - Parameters:
///   - address: The range's first byte.
///   - length: Its length.
///   - writable: Receives whether its segment is writable (`PF_W`), as relocated slots are.
///   - fileBacked: Receives whether the file holds its bytes (not the zero-filled rest of a
///     segment's memory).
/// - Returns: Whether one loadable segment of a read image holds the whole range.
CMD_EXTERN bool cmd_readImageSegment(const void *_Nullable address, size_t length, bool *writable, bool *fileBacked);

/// A Swift section's file address and size, from an ELF file's section headers, parsed by the
/// same reader as `cmd_readImageFile` and nothing mapped: for the `swift5_type_metadata_2`
/// section of a loaded image, which the runtime does not register.
/// - Parameters:
///   - path: The file.
///   - kind: The section.
///   - address: Receives its virtual address in the file (`sh_addr`), or 0.
///   - size: Receives its size, or 0.
/// - Returns: Whether the file was read and has the section.
CMD_EXTERN bool cmd_imageFileSection(const char *path, CMDImageFileSection kind, uint64_t *address, uint64_t *size);

CMD_ASSUME_NONNULL_END

#endif  // CMD_IMAGE_FILE_H
