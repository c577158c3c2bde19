// ReserveStack.swift
//
// A narrow primitive: run work on a thread with a large, fixed stack and wait for it. The
// library's name parser and resolver, and the runtime's own name and metadata code, recurse
// once per level of a type's nesting; work on deeply nested input runs here, so that how deep
// an accepted input may be does not depend on the caller's stack (a secondary thread's 512 KiB,
// a debug build's large frames). The nesting itself is bounded by RuntimeMetadataLimits.

internal import CMetadata

/// Runs work on a large stack.
enum ReserveStack {
    /// The stack size: 64 MiB of address space, of which only what the work touches is backed.
    static var size: Int { 64 << 20 }

    /// Runs `body` on a thread with a stack of ``size`` bytes, waiting for it; runs it in place
    /// when no thread can be made.
    /// - Parameter body: The work.
    /// - Returns: What `body` returns.
    static func run<R>(_ body: () -> R) -> R {
        withoutActuallyEscaping(body) { body in
            var result: R? = nil
            var work: () -> Void = { result = body() }
            let status = unsafe withUnsafeMutablePointer(to: &work) { pointer in
                unsafe cmd_runOnStack(
                    size,
                    { context in
                        unsafe context.unsafelyUnwrapped.assumingMemoryBound(to: (() -> Void).self).pointee()
                    },
                    pointer
                )
            }
            if status != 0 { work() }
            return result!
        }
    }
}
