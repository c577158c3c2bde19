// CMDImageProbe.h
//
// Loads a library in a child process and reports the Swift metadata sections that the
// runtime registers for it, so that a caller can check what the runtime will read before the
// library is loaded into its own process (where the runtime trusts every record once
// registered, and a bad one crashes the next conformance scan).

#ifndef CMD_IMAGE_PROBE_H
#define CMD_IMAGE_PROBE_H

#include "CMDDefines.h"
#include "CMDMetadataSections.h"

CMD_ASSUME_NONNULL_BEGIN

/// The number of sections a probe reports, in the order of `cmd_probeSectionName`.
#define CMD_PROBE_SECTION_COUNT 6

/// How a probe ended.
typedef enum CMDProbeStatus {
    /// The child loaded the library and reported its sections.
    CMDProbeStatusReported = 0,
    /// The loader refused the library; `message` holds `dlerror()`.
    CMDProbeStatusLoadFailed = 1,
    /// The library loaded, but the runtime registered no Swift image for it.
    CMDProbeStatusNotRegistered = 2,
    /// The child died before it reported the sections; `signal` says how.
    CMDProbeStatusCrashed = 3,
    /// The child did not finish within the time allowed, and was killed.
    CMDProbeStatusTimedOut = 4,
    /// No child could be made, or its report could not be read; `message` says why.
    CMDProbeStatusFailed = 5,
} CMDProbeStatus;

/// What a probe found.
typedef struct CMDImageProbe {
    /// How the probe ended.
    CMDProbeStatus status;
    /// The signal that ended the child, or 0 when it exited.
    int signal;
    /// Whether the child completed its conformance scan after reporting the sections.
    bool scanCompleted;
    /// The registered sections, in the order of `cmd_probeSectionName`: each `start` is the
    /// section's virtual address in the file (its loaded address less the load bias,
    /// `link_map::l_addr`), as the program headers' `p_vaddr` count.
    CMDSectionRange sections[CMD_PROBE_SECTION_COUNT];
    /// A message for `CMDProbeStatusLoadFailed` and `CMDProbeStatusFailed`, NUL-terminated.
    char message[512];
} CMDImageProbe;

/// The name of a reported section, such as `swift5_protocol_conformances`.
/// - Parameter index: The section's position, below `CMD_PROBE_SECTION_COUNT`.
/// - Returns: The name, or `NULL` past the end.
CMD_EXTERN const char *_Nullable cmd_probeSectionName(size_t index);

/// Forks a child that loads `path` with `dlopen(path, RTLD_NOW | RTLD_LOCAL)`, finds the
/// `MetadataSections` the runtime registered for it (`swift_enumerateAllMetadataSections`),
/// writes their ranges to a pipe, then asks the runtime whether `scanType` conforms to each
/// of `scanProtocols` (a miss makes the runtime read every conformance record of every image),
/// and exits. The child runs only C and the runtime's own code: no Swift code of this process
/// runs after the fork, so no lock that another thread held at the fork is taken by this
/// library's code. The calling process never loads the library.
///
/// The runtime's own locks and the loader's are another matter: a thread of the caller that
/// holds one at the fork leaves it held in the child, which then waits out the timeout. That
/// cannot be fixed from a library: a clean child needs an executable that runs this code, and
/// the only one a library has is its host's (`/proc/self/exe`), whose `main` must not run again.
///
/// The child's end is watched beside the pipe (a pidfd, or a look every 50 ms), so a
/// descendant of the child that holds the pipe open cannot stall the wait, and a report
/// already received is returned even when the deadline passes during the scan that follows it.
/// - Parameters:
///   - path: The library.
///   - timeoutMilliseconds: How long to wait for the child before killing it.
///   - scanType: The metadata of a type that conforms to none of `scanProtocols`.
///   - scanProtocols: Protocol descriptors.
///   - scanProtocolCount: Their number.
///   - result: Receives the outcome.
CMD_EXTERN void cmd_probeImage(
    const char *path,
    int timeoutMilliseconds,
    const void *scanType,
    const void *_Nonnull const *_Nullable scanProtocols,
    size_t scanProtocolCount,
    CMDImageProbe *result
);

CMD_ASSUME_NONNULL_END

#endif  // CMD_IMAGE_PROBE_H
