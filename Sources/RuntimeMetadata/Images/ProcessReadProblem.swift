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
}
