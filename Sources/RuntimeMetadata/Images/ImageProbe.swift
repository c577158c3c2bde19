// ImageProbe.swift
//
// What the runtime will read of a library, found without loading the library here: once a
// Swift image is registered, the runtime trusts its records, a cast that misses reads every
// conformance record of every image, and the process cannot unregister it. The runtime finds
// an ELF image's records through the `MetadataSections` that the image's own `swiftrt.o`
// constructor registers (`swift_addNewDSOImage`, swiftlang/swift
// stdlib/public/runtime/SwiftRT-ELF-WASM.cpp), from linker symbols, never from section
// headers; so the probe loads the library in a child process and asks that process's runtime.

/// The Swift metadata sections the runtime registers for a library, found by loading it in a
/// child process, so that a caller can check the records the runtime will read before it
/// loads the library itself.
///
/// ```swift
/// let probe = try Image.probe("/path/to/libPlugin.so")
/// for section in probe.sections {
///     print(section.name, section.address, section.size)
/// }
/// if probe.scanCompleted { try Image.load("/path/to/libPlugin.so") }
/// ```
///
/// The child loads the library with `dlopen(path, RTLD_NOW | RTLD_LOCAL)` (its constructors
/// run there), reports the registered sections, then makes the runtime read every conformance
/// record of every image, as a cast that misses does, and exits. This process never loads the
/// library. Only C and the runtime's own code run in the child after the fork, so a lock that
/// another thread held at the fork is not taken by this library's code; the runtime's own locks
/// and the loader's can still be, and a child that does not finish in time is killed and
/// reported. A library cannot avoid that by spawning instead of forking: a clean child needs
/// an executable that runs this code, and the only one it has is its host's, whose `main` must
/// not run again. Probe before starting threads that load types, or allow for `imageLoadFailed`
/// after the timeout. A descendant of the child that keeps the pipe open (a library's
/// initializer may fork) does not stall the probe: the child's own end is watched.
public struct ImageProbe: Sendable, Hashable {
    /// A metadata section as the runtime registered it.
    public struct Section: Sendable, Hashable {
        /// The section's name, such as `swift5_protocol_conformances`.
        public let name: String
        /// The section's virtual address in the file: its address in the child less the load
        /// bias, as the program headers' `p_vaddr` count addresses.
        public let address: UInt
        /// The section's size in bytes.
        public let size: Int
    }

    /// The sections the runtime registered, whatever the file's section headers say:
    /// `swift5_protocols`, `swift5_protocol_conformances`, `swift5_type_metadata`,
    /// `swift5_fieldmd`, `swift5_typeref` and `swift5_reflstr`.
    public let sections: [Section]

    /// Whether the runtime read every conformance record in the child without dying: `false`
    /// when the child died in the scan (``scanSignal`` says how) or did not finish it in time.
    public let scanCompleted: Bool

    /// The signal that ended the child during its scan, if one did.
    public let scanSignal: Int32?

    /// The registered section of a name.
    /// - Parameter name: The section's name.
    /// - Returns: The section, or `nil` when the probe did not report one of that name.
    public func section(named name: String) -> Section? {
        sections.first { $0.name == name }
    }
}

extension Image {
    /// Loads a library in a child process and reports the metadata sections the runtime
    /// registers for it, without loading it into this process.
    /// - Parameters:
    ///   - path: The library's path.
    ///   - timeout: How long to wait for the child before killing it, saturated to between
    ///     1 ms and `Int32.max` ms (about 24.8 days). A report the child sent before the
    ///     deadline is returned even if its scan is then cut short (`scanCompleted` is `false`).
    /// - Returns: The registered sections and the outcome of the child's conformance scan.
    /// - Throws: ``RuntimeMetadataError/imageLoadFailed(path:reason:)`` when the loader refuses
    ///   the library, the child dies before it reports, does not finish in time, or cannot be
    ///   made; ``RuntimeMetadataError/notASwiftImage(path:)`` when the library loads but
    ///   registers no Swift metadata.
    public static func probe(_ path: String, timeout: Duration = .seconds(30)) throws(RuntimeMetadataError)
        -> ImageProbe
    {
        let outcome = LoadedImages.probe(
            path: path,
            timeoutMilliseconds: milliseconds(timeout),
            scanType: TypeMetadata(ProbeScanType.self).reference,
            scanProtocols: ProbeScanType.protocols
        )
        switch outcome.status {
        case .reported:
            return ImageProbe(
                sections: outcome.sections.map {
                    ImageProbe.Section(name: $0.name, address: $0.address, size: $0.size)
                },
                scanCompleted: outcome.scanCompleted,
                scanSignal: outcome.scanCompleted || outcome.signal == 0 ? nil : outcome.signal
            )
        case .notRegistered:
            throw .notASwiftImage(path: path)
        case .loadFailed:
            throw .imageLoadFailed(path: path, reason: outcome.message)
        case .crashed:
            throw .imageLoadFailed(
                path: path,
                reason: "a child process loading it died of signal \(outcome.signal) before the runtime registered it"
            )
        case .timedOut:
            throw .imageLoadFailed(path: path, reason: "a child process loading it did not finish within \(timeout)")
        case .failed:
            throw .imageLoadFailed(path: path, reason: outcome.message)
        }
    }
}

/// A timeout in whole milliseconds, saturated to `1...Int32.max`: no duration traps.
/// - Parameter timeout: Any duration, negative or `.seconds(Int64.max)` included.
/// - Returns: The milliseconds to wait.
private func milliseconds(_ timeout: Duration) -> Int32 {
    let (seconds, attoseconds) = timeout.components
    guard seconds >= 0 else { return 1 }
    guard seconds < Int64(Int32.max) / 1_000 else { return Int32.max }
    return Int32(max(1, seconds * 1_000 + attoseconds / 1_000_000_000_000_000))
}

/// The type the probe's scan asks about: it conforms to none of ``protocols``, so each
/// question misses and the runtime reads every conformance record of every image.
private struct ProbeScanType {
    /// Protocols with many conformances, in every Swift image that declares one.
    static let protocols: [ProtocolReference] = [
        (any Equatable).self, (any Hashable).self, (any CustomStringConvertible).self,
        (any CustomDebugStringConvertible).self, (any Error).self, (any Encodable).self, (any Decodable).self,
    ].compactMap { try? ProtocolDescriptor($0).reference }
}
