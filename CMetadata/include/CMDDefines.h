// CMDDefines.h
//
// Macros shared by CMetadata's headers and implementation files.

#ifndef CMD_DEFINES_H
#define CMD_DEFINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__cplusplus)
#define CMD_EXTERN extern "C"
#else
#define CMD_EXTERN extern
#endif

/// The Swift calling convention, which the runtime declares as `SWIFT_CC(swift)`
/// (swiftlang/swift `include/swift/Runtime/Config.h`).
#define CMD_SWIFT_CC __attribute__((swiftcall))

/// Renames a C declaration when Swift imports it.
#define CMD_SWIFT_NAME(name) __attribute__((swift_name(#name)))

#define CMD_ASSUME_NONNULL_BEGIN _Pragma("clang assume_nonnull begin")
#define CMD_ASSUME_NONNULL_END _Pragma("clang assume_nonnull end")

#endif  // CMD_DEFINES_H
