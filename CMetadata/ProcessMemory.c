// ProcessMemory.c
//
// Linux implementation of ProcessMemory.h, and of the process reads CMDProcessImages.h
// declares: another process's mappings from `/proc/PID/maps` (proc(5)), its start time from
// `/proc/PID/stat`, and its bytes by `process_vm_readv(2)`.

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include "CMDProcessImages.h"

#if defined(__linux__) && defined(__ELF__)

#include "ProcessMemory.h"

/// The most bytes of `/proc/PID/maps` read.
#define CMD_MAXIMUM_MAPS_SIZE ((size_t)64 << 20)

size_t cmd_readProcessMemory(int32_t pid, uintptr_t address, void *buffer, size_t length, int32_t *error) {
    *error = 0;
    size_t done = 0;
    while (done < length) {
        struct iovec local = {(char *)buffer + done, length - done};
        struct iovec remote = {(void *)(address + done), length - done};
        ssize_t got = process_vm_readv((pid_t)pid, &local, 1, &remote, 1, 0);
        if (got <= 0) {
            *error = got < 0 ? errno : EFAULT;
            break;
        }
        done += (size_t)got;
    }
    return done;
}

int cmdproc_readTolerant(pid_t pid, uintptr_t address, void *buffer, size_t length) {
    const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
    size_t done = 0;
    while (done < length) {
        int32_t error = 0;
        done += cmd_readProcessMemory(pid, address + done, (char *)buffer + done, length - done, &error);
        if (done >= length) break;
        if (error != EFAULT && error != EIO) return error;
        // Skip to the next page.
        uintptr_t next = ((address + done) / page + 1) * page;
        done = next - address;
    }
    return 0;
}

/// Reads a small file of `/proc` whole, NUL-terminated; the length, or -1 with `*error` set.
static ssize_t readProcFile(const char *path, char *text, size_t size, int32_t *error) {
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) {
        *error = errno;
        return -1;
    }
    ssize_t got = read(descriptor, text, size - 1);
    int readError = errno;
    close(descriptor);
    if (got < 0) {
        *error = readError;
        return -1;
    }
    text[got] = 0;
    return got;
}

bool cmd_processFacts(int32_t pid, CMDProcessFacts *facts, int32_t *error) {
    memset(facts, 0, sizeof(*facts));
    *error = 0;
    char path[64], text[2048];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    ssize_t got = readProcFile(path, text, sizeof(text), error);
    if (got <= 0) {
        if (got == 0) *error = ESRCH;
        return false;
    }
    // The command name may hold spaces and parentheses: fields resume after the last ')'.
    char *cursor = strrchr(text, ')');
    if (!cursor || cursor[1] != ' ') {
        *error = EINVAL;
        return false;
    }
    facts->state = cursor[2];
    // Fields 3 to 52, by number (proc(5)): 9 flags, 22 starttime, 26 startcode, 47 start_brk.
    cursor += 1;
    for (int field = 3; field <= 47 && cursor; field++) {
        const char *value = cursor + 1;
        if (field == 9) {
            unsigned long long flags = strtoull(value, NULL, 10);
            facts->isKernelThread = (flags & 0x00200000) != 0;  // PF_KTHREAD
            facts->isExiting = (flags & 0x00000004) != 0;        // PF_EXITING
        }
        if (field == 22) facts->startTime = strtoull(value, NULL, 10);
        if (field == 26) facts->startCode = strtoull(value, NULL, 10);
        if (field == 47) facts->startBrk = strtoull(value, NULL, 10);
        cursor = strchr(cursor + 1, ' ');
    }
    if (facts->startTime == 0 && !facts->isKernelThread) {
        *error = EINVAL;
        return false;
    }
    snprintf(path, sizeof(path), "/proc/%d/status", pid);
    int32_t statusError = 0;
    if (readProcFile(path, text, sizeof(text), &statusError) > 0) {
        const char *tracer = strstr(text, "\nTracerPid:");
        if (tracer) facts->tracerPid = (int32_t)strtol(tracer + 11, NULL, 10);
    }
    if (facts->tracerPid > 0) {
        // `TracerPid` is the tracing thread: its process is its thread group (`Tgid`).
        snprintf(path, sizeof(path), "/proc/%d/status", facts->tracerPid);
        if (readProcFile(path, text, sizeof(text), &statusError) > 0) {
            const char *group = strstr(text, "\nTgid:");
            if (group && strtol(group + 6, NULL, 10) > 0) facts->tracerPid = (int32_t)strtol(group + 6, NULL, 10);
        }
        snprintf(path, sizeof(path), "/proc/%d/comm", facts->tracerPid);
        if (readProcFile(path, facts->tracerName, sizeof(facts->tracerName), &statusError) > 0) {
            facts->tracerName[strcspn(facts->tracerName, "\n")] = 0;
        }
    }
    snprintf(path, sizeof(path), "/proc/%d/exe", pid);
    struct stat executable;
    if (stat(path, &executable) == 0) {
        facts->executableDevice = (uint64_t)executable.st_dev;
        facts->executableInode = (uint64_t)executable.st_ino;
    }
    return true;
}

CMDProcessStatus cmd_processChange(const CMDProcessFacts *before, const CMDProcessFacts *after) {
    if (after->startTime != before->startTime) return CMDProcessStatusExited;
    if (after->state == 'Z' || after->state == 'X') return CMDProcessStatusZombie;
    if (after->isExiting) return CMDProcessStatusExited;
    return cmd_isSameProgram(before, after) ? CMDProcessStatusRead : CMDProcessStatusExeced;
}

bool cmd_isSameProgram(const CMDProcessFacts *before, const CMDProcessFacts *after) {
    return before->startTime == after->startTime && before->startCode == after->startCode &&
           before->startBrk == after->startBrk && before->executableDevice == after->executableDevice &&
           before->executableInode == after->executableInode;
}

char *cmdproc_readMaps(pid_t pid, int *error) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/maps", pid);
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) {
        *error = errno;
        return NULL;
    }
    size_t capacity = 1 << 16, length = 0;
    char *text = malloc(capacity);
    while (text) {
        if (length + 1 >= capacity) {
            if (capacity >= CMD_MAXIMUM_MAPS_SIZE) break;
            char *larger = realloc(text, capacity * 2);
            if (!larger) {
                free(text);
                text = NULL;
                break;
            }
            text = larger;
            capacity *= 2;
        }
        ssize_t got = read(descriptor, text + length, capacity - length - 1);
        if (got < 0) {
            *error = errno;
            free(text);
            text = NULL;
            break;
        }
        if (got == 0) break;
        length += (size_t)got;
    }
    close(descriptor);
    if (!text) {
        if (*error == 0) *error = ENOMEM;
        return NULL;
    }
    text[length] = 0;
    if (length == 0) {
        // A process that has exited (a zombie) shows no mappings.
        free(text);
        *error = ESRCH;
        return NULL;
    }
    return text;
}

Mapping *cmdproc_parseMaps(char *text, size_t *count) {
    size_t capacity = 256;
    Mapping *mappings = malloc(capacity * sizeof(Mapping));
    *count = 0;
    char *line = text;
    while (mappings && line && *line) {
        char *next = strchr(line, '\n');
        if (next) *next++ = 0;
        Mapping mapping = {0};
        char permissions[8];
        int pathStart = 0;
        unsigned long long start, end, offset, inode;
        if (sscanf(line, "%llx-%llx %7s %llx %x:%x %llu %n", &start, &end, permissions, &offset, &mapping.major,
                   &mapping.minor, &inode, &pathStart) >= 7) {
            mapping.start = (uintptr_t)start;
            mapping.end = (uintptr_t)end;
            mapping.readable = permissions[0] == 'r';
            mapping.writable = permissions[1] == 'w';
            mapping.executable = permissions[2] == 'x';
            mapping.shared = permissions[3] == 's';
            mapping.offset = offset;
            mapping.inode = inode;
            mapping.path = pathStart > 0 ? line + pathStart : line + strlen(line);
            size_t pathLength = strlen(mapping.path);
            static const char deletedSuffix[] = " (deleted)";
            size_t suffixLength = sizeof(deletedSuffix) - 1;
            if (pathLength > suffixLength && strcmp(mapping.path + pathLength - suffixLength, deletedSuffix) == 0) {
                mapping.path[pathLength - suffixLength] = 0;
                mapping.deleted = true;
            }
            if (*count == capacity) {
                capacity *= 2;
                Mapping *larger = realloc(mappings, capacity * sizeof(Mapping));
                if (!larger) {
                    free(mappings);
                    return NULL;
                }
                mappings = larger;
            }
            mappings[(*count)++] = mapping;
        }
        line = next;
    }
    return mappings;
}

#else

size_t cmd_readProcessMemory(int32_t pid, uintptr_t address, void *buffer, size_t length, int32_t *error) {
    (void)pid, (void)address, (void)buffer, (void)length;
    *error = ENOSYS;
    return 0;
}

bool cmd_processFacts(int32_t pid, CMDProcessFacts *facts, int32_t *error) {
    (void)pid;
    memset(facts, 0, sizeof(*facts));
    *error = ENOSYS;
    return false;
}

bool cmd_isSameProgram(const CMDProcessFacts *before, const CMDProcessFacts *after) {
    return before->startTime == after->startTime;
}

CMDProcessStatus cmd_processChange(const CMDProcessFacts *before, const CMDProcessFacts *after) {
    return before->startTime == after->startTime ? CMDProcessStatusRead : CMDProcessStatusExited;
}

#endif
