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
/// can still be, and a child that does not finish in time is killed and reported.
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
    ///   - timeout: How long to wait for the child before killing it.
    /// - Returns: The registered sections and the outcome of the child's conformance scan.
    /// - Throws: ``RuntimeMetadataError/imageLoadFailed(path:reason:)`` when the loader refuses
    ///   the library, the child dies before it reports, does not finish in time, or cannot be
    ///   made; ``RuntimeMetadataError/notASwiftImage(path:)`` when the library loads but
    ///   registers no Swift metadata.
    public static func probe(_ path: String, timeout: Duration = .seconds(30)) throws(RuntimeMetadataError)
        -> ImageProbe
    {
        let (seconds, attoseconds) = timeout.components
        let milliseconds = max(1, min(Int64(Int32.max), seconds * 1_000 + attoseconds / 1_000_000_000_000_000))
        let outcome = LoadedImages.probe(
            path: path,
            timeoutMilliseconds: Int32(milliseconds),
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

/// The type the probe's scan asks about: it conforms to none of ``protocols``, so each
/// question misses and the runtime reads every conformance record of every image.
private struct ProbeScanType {
    /// Protocols with many conformances, in every Swift image that declares one.
    static let protocols: [ProtocolReference] = [
        (any Equatable).self, (any Hashable).self, (any CustomStringConvertible).self,
        (any CustomDebugStringConvertible).self, (any Error).self, (any Encodable).self, (any Decodable).self,
    ].compactMap { try? ProtocolDescriptor($0).reference }
}
