// ProcessReadProblem.swift

/// Why another process could not be read (``RuntimeMetadataError/processUnreadable(pid:problem:reason:)``).
public enum ProcessReadProblem: Hashable, Sendable {
    /// No process has the pid.
    case noSuchProcess
    /// The system refused to show the process's memory: it belongs to another user, or a
    /// ptrace policy (Yama's `ptrace_scope`) forbids it, or this process lacks `CAP_SYS_PTRACE`.
    case permissionDenied
    /// The process has no image with Swift metadata.
    case notSwift
    /// The process exited during the read, or its pid came to name another process.
    case exited
    /// The process's heap is not glibc malloc's, which a census reads: another allocator's
    /// (jemalloc, mimalloc, tcmalloc) or a sanitizer's.
    case unsupportedAllocator
    /// Anything else: the reason says what.
    case failed
    /// The process has exited and its parent has not reaped it: a zombie has no memory to read.
    case zombie
    /// The pid names a kernel thread, which has no user memory.
    case kernelThread
    /// The process replaced its program (`execve`) during the read: what was read is not of one
    /// program.
    case execed
    /// Another process (a debugger, `strace`, another census with `--stop`) traces it already, so
    /// it cannot be held; the reason names the tracer.
    case alreadyTraced
}
