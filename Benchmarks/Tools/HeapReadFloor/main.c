// HeapReadFloor: the floor of a census (Benchmarks/Scripts/census.py). It reads the bytes a
// census of a process reads, and nothing else: the stretches of heap the census walks (given
// on the command line, as `RemoteProcess.heapReadRanges` lists them), the mappings of the
// process's Swift images, and libc's writable data (where the census finds the main arena),
// each with process_vm_readv in windows of 128 KiB into one page-aligned buffer that is reused:
// the fastest here (2 MiB windows read 2-3x slower, evicting the cache they copy through, and a
// buffer aligned otherwise than the heap about 3x slower).
//
//   HeapReadFloor PID IMAGE-PATH... -- START-END...   (hexadecimal)
//
// Prints the bytes read; exits 1 when a read fails.

#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/uio.h>

#define WINDOW ((size_t)1 << 17)

static unsigned char *buffer;
static unsigned long long total;

static int readRange(pid_t pid, unsigned long start, unsigned long end) {
    for (unsigned long at = start; at < end;) {
        size_t length = end - at < WINDOW ? end - at : WINDOW;
        struct iovec local = {buffer, length};
        struct iovec remote = {(void *)at, length};
        ssize_t got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
        if (got <= 0) {
            fprintf(stderr, "HeapReadFloor: reading 0x%lx-0x%lx failed\n", at, at + length);
            return 1;
        }
        total += (unsigned long long)got;
        at += (unsigned long)got;
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: HeapReadFloor PID IMAGE-PATH... -- START-END...\n");
        return 2;
    }
    pid_t pid = (pid_t)atoi(argv[1]);
    // Page-aligned, as the heap is: a copy between alike-aligned addresses is about 3x faster.
    buffer = aligned_alloc(4096, WINDOW);
    int separator = argc;
    for (int index = 2; index < argc; index++) {
        if (strcmp(argv[index], "--") == 0) {
            separator = index;
            break;
        }
    }
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/maps", pid);
    FILE *maps = fopen(path, "r");
    if (!buffer || !maps) return 1;
    char line[4096];
    while (fgets(line, sizeof(line), maps)) {
        unsigned long start, end;
        char permissions[8];
        int pathStart = 0;
        if (sscanf(line, "%lx-%lx %7s %*x %*x:%*x %*u %n", &start, &end, permissions, &pathStart) < 3) continue;
        char *name = line + pathStart;
        name[strcspn(name, "\n")] = 0;
        if (permissions[0] != 'r' || name[0] != '/') continue;
        const char *base = strrchr(name, '/') + 1;
        int wanted = permissions[1] == 'w' && strncmp(base, "libc", 4) == 0 && (base[4] == '.' || base[4] == '-');
        for (int index = 2; index < separator && !wanted; index++) wanted = strcmp(argv[index], name) == 0;
        if (wanted && readRange(pid, start, end) != 0) return 1;
    }
    fclose(maps);
    for (int index = separator + 1; index < argc; index++) {
        unsigned long start, end;
        if (sscanf(argv[index], "%lx-%lx", &start, &end) != 2 || readRange(pid, start, end) != 0) return 1;
    }
    printf("%llu\n", total);
    return 0;
}
