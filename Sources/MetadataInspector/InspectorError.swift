// InspectorError.swift

/// An error of the inspector, mapped by `metadata-inspect` to a message on standard error
/// and an exit status.
public enum InspectorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The command line is malformed: an unknown subcommand or option, a missing value.
    /// Exit status 2.
    case usage(String)
    /// No file exists at the path.
    case missingFile(path: String)
    /// The path names a directory.
    case directory(path: String)
    /// The file is not an ELF shared object or executable.
    ///
    /// No longer thrown: since the inspector reads every file through `Image.read(_:)`, such
    /// a file is ``readFailed(path:offset:reason:)`` with the reason `not an ELF file: …`.
    case notELF(path: String)
    /// The file ends before a structure it declares.
    ///
    /// No longer thrown: such a file is ``readFailed(path:offset:reason:)`` with the reason
    /// `truncated: …` and the offset.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - offset: The byte offset that lies beyond the end of the file.
    case truncated(path: String, offset: Int)
    /// A field of the file's ELF header, program headers or section headers holds an offset,
    /// address or size no image can have (beyond the 47-bit user address space).
    ///
    /// No longer thrown: such a file is ``readFailed(path:offset:reason:)``, whose reason names
    /// the field (`malformed ELF header: e_shoff is 0x…`).
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - field: The field's name in `<elf.h>`, such as `p_offset`.
    ///   - value: The value read.
    case malformedHeader(path: String, field: String, value: UInt64)
    /// The file is an ELF image without Swift metadata sections.
    case notSwift(path: String)
    /// An image file could not be read: its headers, tables or Swift sections are inconsistent
    /// or it ends early (the reason names the structure; the offset is in the file, or 0).
    case readFailed(path: String, offset: Int, reason: String)
    /// The dynamic loader or the runtime refused the library.
    case loadFailed(path: String, reason: String)
    /// A Swift metadata section of a file holds a record that points outside the image: the file
    /// is refused before the loader sees it, since the runtime trusts these records once loaded.
    /// The verdict is `Image.read(_:)`'s
    /// (`RuntimeMetadataError.corruptMetadata(path:section:record:reason:)`), for files
    /// listed and libraries loaded alike.
    case corruptMetadata(path: String, section: String, record: Int, reason: String)
    /// No loaded image matches an `--image` filter.
    case unknownImage(String)
    /// A type name did not resolve.
    case unknownType(name: String, reason: String)
    /// Describing a type failed.
    case metadata(String)
    /// A running process could not be read (`--pid`): no such process, permission denied,
    /// not a Swift process, or it exited during the read; the reason says which, and what to
    /// do about a refusal.
    case processUnreadable(pid: Int32, reason: String)
    /// The file `--since` names is not the JSON output of `instances --json`.
    case invalidBaseline(path: String, reason: String)

    /// The exit status: 2 for usage errors, 1 for failures on good syntax.
    public var exitStatus: Int32 {
        if case .usage = self { return 2 }
        return 1
    }

    /// The message, without the `error:` prefix.
    public var description: String {
        switch self {
        case .usage(let message): message
        case .missingFile(let path): "no such file: '\(path)'"
        case .directory(let path): "'\(path)' is a directory, not a library"
        case .notELF(let path): "'\(path)' is not an ELF image"
        case .truncated(let path, let offset): "'\(path)' is truncated: it ends before offset \(offset)"
        case .malformedHeader(let path, let field, let value):
            "'\(path)' has a malformed ELF header: \(field) is 0x\(String(value, radix: 16)), beyond any image"
        case .notSwift(let path): "'\(path)' has no Swift metadata sections"
        case .readFailed(let path, let offset, let reason):
            "cannot read '\(path)': \(reason)" + (offset > 0 ? " (file offset 0x\(String(offset, radix: 16)))" : "")
        case .loadFailed(let path, let reason): "cannot load '\(path)': \(reason)"
        case .corruptMetadata(let path, let section, let record, let reason):
            "'\(path)' has corrupt Swift metadata: record \(record) of \(section) \(reason)"
        case .unknownImage(let name): "no Swift image matches '\(name)'"
        case .unknownType(let name, let reason): "unknown type '\(name)': \(reason)"
        case .metadata(let message): message
        case .processUnreadable(_, let reason): reason
        case .invalidBaseline(let path, let reason):
            "'\(path)' is not the output of 'metadata-inspect instances --json': \(reason)"
        }
    }
}
