// ProcessControl.c
//
// Linux implementation of CMDProcessControl.h (ptrace(2): PTRACE_SEIZE, PTRACE_INTERRUPT,
// PTRACE_DETACH; the threads listed in /proc/PID/task, proc(5)).

#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "CMDProcessControl.h"

#if defined(__linux__)

#include <sys/ptrace.h>
#include <sys/wait.h>

/// Whether a thread is already held.
static bool isHeld(const CMDStoppedProcess *stopped, int32_t thread) {
    for (size_t index = 0; index < stopped->threadCount; index++) {
        if (stopped->threads[index] == thread) return true;
    }
    return false;
}

/// Waits until a seized thread reports its stop, for up to five seconds.
static int waitForStop(pid_t thread) {
    for (int attempt = 0; attempt < 5000; attempt++) {
        int status = 0;
        pid_t waited = waitpid(thread, &status, __WALL | WNOHANG);
        if (waited == thread) return WIFSTOPPED(status) ? 0 : ESRCH;
        if (waited < 0) return errno;
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    return ETIMEDOUT;
}

/// Seizes and stops the threads of `/proc/PID/task` not held yet.
/// - Returns: The number of threads newly held, or -1 with `*error` set.
static int holdNewThreads(CMDStoppedProcess *stopped, int32_t *error) {
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/task", stopped->pid);
    DIR *directory = opendir(path);
    if (!directory) {
        *error = errno == ENOENT ? ESRCH : errno;
        return -1;
    }
    int held = 0;
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL) {
        int32_t thread = (int32_t)atoi(entry->d_name);
        if (thread <= 0 || isHeld(stopped, thread)) continue;
        if (ptrace(PTRACE_SEIZE, thread, NULL, NULL) != 0) {
            if (errno == ESRCH) continue;  // The thread ended.
            *error = errno;
            closedir(directory);
            return -1;
        }
        int32_t *threads = realloc(stopped->threads, (stopped->threadCount + 1) * sizeof(int32_t));
        if (!threads) {
            ptrace(PTRACE_DETACH, thread, NULL, NULL);
            *error = ENOMEM;
            closedir(directory);
            return -1;
        }
        stopped->threads = threads;
        stopped->threads[stopped->threadCount++] = thread;
        int waitError = ptrace(PTRACE_INTERRUPT, thread, NULL, NULL) == 0 ? waitForStop(thread) : errno;
        if (waitError == ESRCH) continue;
        if (waitError != 0) {
            *error = waitError;
            closedir(directory);
            return -1;
        }
        held++;
    }
    closedir(directory);
    return held;
}

bool cmd_stopProcess(int32_t pid, CMDStoppedProcess *stopped, int32_t *error) {
    memset(stopped, 0, sizeof(*stopped));
    stopped->pid = pid;
    *error = 0;
    // A thread not held yet may start another; once a pass finds none new, none runs.
    for (int pass = 0; pass < 64; pass++) {
        int held = holdNewThreads(stopped, error);
        if (held < 0) {
            cmd_resumeProcess(stopped);
            return false;
        }
        if (held == 0 && pass > 0) return true;
    }
    *error = EAGAIN;
    cmd_resumeProcess(stopped);
    return false;
}

void cmd_resumeProcess(CMDStoppedProcess *stopped) {
    for (size_t index = 0; index < stopped->threadCount; index++) {
        ptrace(PTRACE_DETACH, stopped->threads[index], NULL, NULL);
    }
    free(stopped->threads);
    stopped->threads = NULL;
    stopped->threadCount = 0;
}

#else

bool cmd_stopProcess(int32_t pid, CMDStoppedProcess *stopped, int32_t *error) {
    memset(stopped, 0, sizeof(*stopped));
    stopped->pid = pid;
    *error = ENOSYS;
    return false;
}

void cmd_resumeProcess(CMDStoppedProcess *stopped) { (void)stopped; }

#endif
