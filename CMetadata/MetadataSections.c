// MetadataSections.c
//
// ELF implementation of CMDMetadataSections.h: the runtime already keeps the list of
// loaded Swift images, each registered by the static constructor of the `swiftrt.o`
// object linked into it (swiftlang/swift `stdlib/public/runtime/SwiftRT-ELF-WASM.cpp`),
// so this file asks the runtime instead of parsing image files.

#if defined(__ELF__)

#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "CMDImageProbe.h"
#include "CMDMetadataSections.h"
#include "CMDRuntime.h"

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

// MARK: - Probing a library in a child process (CMDImageProbe.h)

static const char *const cmd_probeSectionNames[CMD_PROBE_SECTION_COUNT] = {
    "swift5_protocols", "swift5_protocol_conformances", "swift5_type_metadata",
    "swift5_fieldmd", "swift5_typeref", "swift5_reflstr",
};

const char *cmd_probeSectionName(size_t index) {
    return index < CMD_PROBE_SECTION_COUNT ? cmd_probeSectionNames[index] : NULL;
}

/// What the child writes to the pipe first; a byte `'S'` follows when its scan completes.
typedef struct {
    int32_t status;
    CMDSectionRange sections[CMD_PROBE_SECTION_COUNT];
    char message[512];
} CMDProbeReport;

typedef struct {
    const void *imageBase;
    const CMDRuntimeMetadataSections *found;
} CMDProbeSearch;

static bool cmd_findImage(const CMDRuntimeMetadataSections *sections, void *rawContext) {
    CMDProbeSearch *search = rawContext;
    Dl_info info;
    if (sections->version >= CMD_MINIMUM_SECTIONS_VERSION && dladdr(sections->baseAddress, &info) != 0 &&
        info.dli_fbase == search->imageBase) {
        search->found = sections;
        return false;
    }
    return true;
}

/// Writes all of a buffer, or gives up on an error.
static void cmd_writeAll(int fd, const void *bytes, size_t count) {
    const char *cursor = bytes;
    while (count > 0) {
        ssize_t written = write(fd, cursor, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        cursor += written;
        count -= (size_t)written;
    }
}

/// The child: loads, reports, scans, exits. Only C and the runtime's code run here.
static void cmd_probeChild(
    int fd,
    const char *path,
    const void *scanType,
    const void *const *scanProtocols,
    size_t scanProtocolCount
) {
    // A crash is the answer, not an event to report: no backtracer, no core.
    const int fatal[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT};
    for (size_t index = 0; index < sizeof fatal / sizeof fatal[0]; index++) signal(fatal[index], SIG_DFL);
    CMDProbeReport report;
    memset(&report, 0, sizeof report);
    void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    struct link_map *map = NULL;
    Dl_info own;
    if (handle == NULL) {
        report.status = CMDProbeStatusLoadFailed;
        const char *error = dlerror();
        strncpy(report.message, error ? error : "dlopen failed", sizeof report.message - 1);
    } else if (dlinfo(handle, RTLD_DI_LINKMAP, &map) != 0 || map == NULL || dladdr(map->l_ld, &own) == 0) {
        report.status = CMDProbeStatusFailed;
        strncpy(report.message, "the loader does not describe the library", sizeof report.message - 1);
    } else {
        CMDProbeSearch search = {own.dli_fbase, NULL};
        swift_enumerateAllMetadataSections(cmd_findImage, &search);
        if (search.found == NULL) {
            report.status = CMDProbeStatusNotRegistered;
        } else {
            const CMDRuntimeMetadataSections *found = search.found;
            const CMDSectionRange ranges[CMD_PROBE_SECTION_COUNT] = {
                found->swift5_protocols, found->swift5_protocol_conformances, found->swift5_type_metadata,
                found->swift5_fieldmd, found->swift5_typeref, found->swift5_reflstr,
            };
            report.status = CMDProbeStatusReported;
            for (size_t index = 0; index < CMD_PROBE_SECTION_COUNT; index++) {
                report.sections[index].start = ranges[index].start - map->l_addr;
                report.sections[index].length = ranges[index].length;
            }
        }
    }
    cmd_writeAll(fd, &report, sizeof report);
    if (report.status == CMDProbeStatusReported) {
        for (size_t index = 0; index < scanProtocolCount; index++) {
            (void)cmd_conformsToProtocol(scanType, scanProtocols[index]);
        }
        cmd_writeAll(fd, "S", 1);
    }
    _exit(0);
}

/// Milliseconds on the monotonic clock.
static int64_t cmd_milliseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

void cmd_probeImage(
    const char *path,
    int timeoutMilliseconds,
    const void *scanType,
    const void *const *scanProtocols,
    size_t scanProtocolCount,
    CMDImageProbe *result
) {
    memset(result, 0, sizeof *result);
    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        result->status = CMDProbeStatusFailed;
        snprintf(result->message, sizeof result->message, "no pipe: %s", strerror(errno));
        return;
    }
    pid_t child = fork();
    if (child < 0) {
        result->status = CMDProbeStatusFailed;
        snprintf(result->message, sizeof result->message, "no child process: %s", strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return;
    }
    if (child == 0) {
        close(fds[0]);
        cmd_probeChild(fds[1], path, scanType, scanProtocols, scanProtocolCount);
    }
    close(fds[1]);
    // The child's end: a pidfd (Linux 5.3) polled beside the pipe, or else a look every 50 ms.
    // A descendant of the child (a library's initializer may fork) can hold the pipe open after
    // the child exits, so the pipe's end of file never marks the child's.
    int childEnd = -1;
#ifdef SYS_pidfd_open
    childEnd = (int)syscall(SYS_pidfd_open, child, 0);
#endif
    unsigned char buffer[sizeof(CMDProbeReport) + 1];
    size_t received = 0;
    bool timedOut = false, reaped = false;
    int status = 0;
    int64_t deadline = cmd_milliseconds() + timeoutMilliseconds;
    while (received < sizeof buffer) {
        if (received >= sizeof(CMDProbeReport)) {
            // A complete report that is not followed by a scan needs nothing more.
            int32_t reported;
            memcpy(&reported, buffer, sizeof reported);
            if (reported != CMDProbeStatusReported) break;
        }
        int64_t left = deadline - cmd_milliseconds();
        if (left <= 0) {
            timedOut = true;
            break;
        }
        struct pollfd pollers[2] = {{fds[0], POLLIN, 0}, {childEnd, POLLIN, 0}};
        int wait = childEnd < 0 && left > 50 ? 50 : (int)left;
        int ready = poll(pollers, childEnd < 0 ? 1 : 2, wait);
        if (ready < 0 && errno == EINTR) continue;
        if (ready < 0) break;
        if (pollers[0].revents & (POLLIN | POLLHUP | POLLERR)) {
            ssize_t count = read(fds[0], buffer + received, sizeof buffer - received);
            if (count < 0 && errno == EINTR) continue;
            if (count <= 0) break;
            received += (size_t)count;
            continue;
        }
        bool ended = childEnd >= 0 ? (pollers[1].revents & POLLIN) != 0 : waitpid(child, &status, WNOHANG) == child;
        if (ended) {
            reaped = childEnd < 0;
            // The child is gone: what it wrote is in the pipe already; take it without waiting.
            fcntl(fds[0], F_SETFL, O_NONBLOCK);
            while (received < sizeof buffer) {
                ssize_t count = read(fds[0], buffer + received, sizeof buffer - received);
                if (count < 0 && errno == EINTR) continue;
                if (count <= 0) break;
                received += (size_t)count;
            }
            break;
        }
    }
    close(fds[0]);
    if (childEnd >= 0) close(childEnd);
    if (timedOut) kill(child, SIGKILL);
    if (!reaped) {
        while (waitpid(child, &status, 0) < 0 && errno == EINTR) {}
    }
    // A signal this function sent is not the child's death.
    if (WIFSIGNALED(status) && !timedOut) result->signal = WTERMSIG(status);
    if (received < sizeof(CMDProbeReport)) {
        // No report: the timeout, the child's signal, or a silent end, in that order.
        if (timedOut) {
            result->status = CMDProbeStatusTimedOut;
        } else if (result->signal != 0) {
            result->status = CMDProbeStatusCrashed;
        } else {
            result->status = CMDProbeStatusFailed;
            snprintf(result->message, sizeof result->message, "the child process ended without a report");
        }
        return;
    }
    // A report received wins over a later timeout; a scan cut short leaves `scanCompleted` false.
    CMDProbeReport report;
    memcpy(&report, buffer, sizeof report);
    result->status = (CMDProbeStatus)report.status;
    memcpy(result->sections, report.sections, sizeof report.sections);
    memcpy(result->message, report.message, sizeof result->message);
    result->message[sizeof result->message - 1] = 0;
    result->scanCompleted = received > sizeof(CMDProbeReport) && buffer[sizeof(CMDProbeReport)] == 'S';
}

#endif  // defined(__ELF__)
