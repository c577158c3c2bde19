// CMDStack.h
//
// Work on a thread with a stack of a given size. The Swift runtime's name and metadata code
// recurses once per level of a type's nesting; RuntimeMetadata runs work on deeply nested input
// here, so that it does not depend on the caller's stack (ABI/Pointers/ReserveStack.swift).

#ifndef CMD_STACK_H
#define CMD_STACK_H

#include "CMDDefines.h"

CMD_ASSUME_NONNULL_BEGIN

/// Runs `body(context)` on a new thread with a stack of `stackSize` bytes and waits for it.
/// - Parameters:
///   - stackSize: The stack size in bytes.
///   - body: The work.
///   - context: Passed to `body`.
/// - Returns: 0 when `body` ran; otherwise the `pthread` error, and `body` did not run.
CMD_EXTERN int cmd_runOnStack(size_t stackSize, void (*body)(void *_Nullable), void *_Nullable context);

CMD_ASSUME_NONNULL_END

#endif  // CMD_STACK_H
