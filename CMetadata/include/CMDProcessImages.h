// CMDProcessImages.h
//
// Reading the Swift images of another running process from its memory, without stopping it,
// attaching to it or running anything in it: its mappings from `/proc/PID/maps`, its bytes
// with `process_vm_readv`. Each image's loadable segments are copied into this process as an
// image file's are (CMDImageFile.h), and its slots translated from that process's addresses to
// the copies, so that the same record walkers read it (the DocC article "Understanding the ABI
// layer", "Images read from a process").

#ifndef CMD_PROCESS_IMAGES_H
#define CMD_PROCESS_IMAGES_H

#include "CMDDefines.h"
#include "CMDImageFile.h"

CMD_ASSUME_NONNULL_BEGIN

/// How reading a process ended.
typedef enum CMDProcessStatus {
    /// Read; the images are valid.
    CMDProcessStatusRead = 0,
    /// No process has the pid.
    CMDProcessStatusNoSuchProcess = 1,
    /// The system refused to show the process's memory to this one.
    CMDProcessStatusPermissionDenied = 2,
    /// The process has no image with Swift metadata.
    CMDProcessStatusNotSwift = 3,
    /// The process exited during the read, or its pid now names another process.
    CMDProcessStatusExited = 4,
    /// Anything else (`message` says what).
    CMDProcessStatusFailed = 5,
    /// The process's heap is not glibc malloc's (a census only, CMDProcessHeap.h).
    CMDProcessStatusUnsupportedAllocator = 6,
    /// The process has exited and not been reaped: a zombie, which has no memory to read.
    CMDProcessStatusZombie = 7,
    /// The pid names a kernel thread, which has no user memory.
    CMDProcessStatusKernelThread = 8,
    /// The process replaced its program (`execve`) during the read.
    CMDProcessStatusExeced = 9,
} CMDProcessStatus;

/// What `/proc/PID/stat`, `/proc/PID/status` and `/proc/PID/exe` say of a process (proc(5)).
typedef struct CMDProcessFacts {
    /// The state letter: `R`, `S`, `D`, `T`, `t`, `Z`, `X`, ...
    char state;
    /// Whether it is a kernel thread (`PF_KTHREAD` in its flags).
    bool isKernelThread;
    /// Whether it is exiting (`PF_EXITING` in its flags).
    bool isExiting;
    /// The process tracing it (`TracerPid`), or 0; and that process's name (`/proc/TRACER/comm`).
    int32_t tracerPid;
    char tracerName[64];
    /// The start time (field 22), the start of the program's text (field 26) and of its heap
    /// (field 47): a program that `exec`s keeps the first and gets new others.
    uint64_t startTime, startCode, startBrk;
    /// The executable's device and inode (`/proc/PID/exe`), zeros when it cannot be seen.
    uint64_t executableDevice, executableInode;
} CMDProcessFacts;

/// Reads the facts of a process.
/// - Parameters:
///   - pid: The process.
///   - facts: Receives them.
///   - error: Receives the system's error number on failure (`ENOENT` for no such process).
/// - Returns: Whether they were read.
CMD_EXTERN bool cmd_processFacts(int32_t pid, CMDProcessFacts *facts, int32_t *error);

/// Whether two readings of a pid's facts are of one process running one program: the same
/// start time, program text, heap start and executable.
CMD_EXTERN bool cmd_isSameProgram(const CMDProcessFacts *before, const CMDProcessFacts *after);

/// How a process changed between two readings of its facts: `CMDProcessStatusRead` when it is
/// the same process running the same program; `CMDProcessStatusExited` when it exited (its pid
/// may name another process now); `CMDProcessStatusZombie`; `CMDProcessStatusExeced` when it
/// replaced its program.
CMD_EXTERN CMDProcessStatus cmd_processChange(const CMDProcessFacts *before, const CMDProcessFacts *after);

/// One Swift image of a process, copied.
typedef struct CMDProcessImage {
    /// The copy, as an image file's mapping (its `handle`, `base`, `sections`, externals).
    CMDImageFile image;
    /// The image's load bias in the process: its file address 0 there.
    uintptr_t remoteBias;
    /// The image's loadable range in the process.
    uintptr_t remoteStart, remoteEnd;
    /// Whether the image's file was deleted since the process mapped it.
    bool fileDeleted;
    /// Whether a different file is now at its path (another device or inode).
    bool fileReplaced;
} CMDProcessImage;

/// What reading a process found.
typedef struct CMDProcessRead {
    /// How the read ended.
    CMDProcessStatus status;
    /// The system's error number behind a failure, or 0.
    int32_t systemError;
    /// For a failure: what happened, NUL-terminated.
    char message[256];
    /// The Swift images, in address order; freed by `cmd_releaseProcessRead`.
    CMDProcessImage *_Nullable images;
    size_t imageCount;
    /// The process's start time (`/proc/PID/stat` field 22), which tells it from a later
    /// process of the same pid.
    uint64_t startTime;
    /// What the process was when the read began: a read that fails its checks is told from a
    /// process that `exec`ed or exited meanwhile by comparing them with the facts after.
    CMDProcessFacts facts;
} CMDProcessRead;

/// Reads the Swift images mapped in a process, from its memory.
///
/// Every file-backed mapping at file offset 0 whose bytes start with an ELF header is an
/// image; it is a Swift image when its writable segments hold the `MetadataSections` structure
/// that its `swiftrt.o` registers with the runtime (version, then the image's base, then the
/// section ranges, each inside the image). The structure gives the registered sections;
/// `swift5_type_metadata_2`, which the runtime does not register, comes from the file's section
/// headers when the file at the image's path is still the one mapped. The process's facts are
/// read before and after, so that a pid reused during the read is an exit, and a program
/// replaced meanwhile an `exec`; a kernel thread and a zombie are refused as what they are.
/// - Parameters:
///   - pid: The process.
///   - afterListing: Called once the images are found, before they are copied (the tests end
///     the process there); `NULL` for none.
///   - context: Passed to `afterListing`.
///   - result: Receives the images or the reason for the failure.
/// - Returns: Whether the process was read.
CMD_EXTERN bool cmd_readProcessImages(int32_t pid, void (*_Nullable afterListing)(void *_Nullable),
                                      void *_Nullable context, CMDProcessRead *result);

/// Frees the image list of a read (the copies stay for the life of this process).
CMD_EXTERN void cmd_releaseProcessRead(CMDProcessRead *result);

/// Copies bytes of another process's memory: as many as can be read from the start.
/// - Parameters:
///   - pid: The process.
///   - address: The first byte, in the process.
///   - buffer: Where to copy them.
///   - length: How many.
///   - error: Receives the system's error number when fewer were read, or 0.
/// - Returns: The number of bytes copied.
CMD_EXTERN size_t cmd_readProcessMemory(int32_t pid, uintptr_t address, void *buffer, size_t length, int32_t *error);

CMD_ASSUME_NONNULL_END

#endif  // CMD_PROCESS_IMAGES_H
