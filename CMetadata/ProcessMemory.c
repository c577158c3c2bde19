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

bool cmd_processStartTime(int32_t pid, uint64_t *startTime, int32_t *error) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/stat", pid);
    int descriptor = open(path, O_RDONLY | O_CLOEXEC);
    if (descriptor < 0) {
        *error = errno;
        return false;
    }
    char text[1024];
    ssize_t got = read(descriptor, text, sizeof(text) - 1);
    int readError = errno;
    close(descriptor);
    if (got <= 0) {
        *error = got < 0 ? readError : ESRCH;
        return false;
    }
    text[got] = 0;
    // The command name may hold spaces and parentheses: fields resume after the last ')'.
    char *cursor = strrchr(text, ')');
    if (!cursor) {
        *error = EINVAL;
        return false;
    }
    cursor++;
    // Field 3 (state) follows; field 22 is the start time.
    for (int field = 3; field < 22; field++) {
        cursor = strchr(cursor + 1, ' ');
        if (!cursor) {
            *error = EINVAL;
            return false;
        }
    }
    *startTime = strtoull(cursor + 1, NULL, 10);
    *error = 0;
    return true;
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

bool cmd_processStartTime(int32_t pid, uint64_t *startTime, int32_t *error) {
    (void)pid;
    *startTime = 0;
    *error = ENOSYS;
    return false;
}

#endif
