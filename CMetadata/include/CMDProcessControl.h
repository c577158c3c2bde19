// CMDProcessControl.h
//
// Holding another process still while it is read: every thread seized with `PTRACE_SEIZE` and
// stopped with `PTRACE_INTERRUPT` (ptrace(2)), then detached, which resumes it. The kernel
// detaches the threads itself if this process dies first, so a process held here is never left
// stopped.

#ifndef CMD_PROCESS_CONTROL_H
#define CMD_PROCESS_CONTROL_H

#include "CMDDefines.h"

CMD_ASSUME_NONNULL_BEGIN

/// A process whose threads are held.
typedef struct CMDStoppedProcess {
    int32_t pid;
    /// The held threads; freed by `cmd_resumeProcess`.
    int32_t *_Nullable threads;
    size_t threadCount;
} CMDStoppedProcess;

/// Stops every thread of a process, threads it starts meanwhile included.
/// - Parameters:
///   - pid: The process.
///   - stopped: Receives the held threads.
///   - error: Receives the system's error number on failure (`EPERM`, `ESRCH`, `ETIMEDOUT` for a
///     thread that did not stop within five seconds).
/// - Returns: Whether every thread is stopped; on failure none is held.
CMD_EXTERN bool cmd_stopProcess(int32_t pid, CMDStoppedProcess *stopped, int32_t *error);

/// Resumes the threads `cmd_stopProcess` held.
CMD_EXTERN void cmd_resumeProcess(CMDStoppedProcess *stopped);

CMD_ASSUME_NONNULL_END

#endif  // CMD_PROCESS_CONTROL_H
