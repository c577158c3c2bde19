// RuntimeMetadataError.swift

/// An error thrown by RuntimeMetadata when input does not describe what the caller asked for.
///
/// Every case carries what a reader needs to find the cause: the type involved, the field or
/// case name, the name that failed to resolve. ``description`` prints type names as
/// `String(reflecting:)` does.
public enum RuntimeMetadataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The metadata has a kind this version of the library does not know.
    ///
    /// - Parameters:
    ///   - rawValue: The kind word the runtime stored.
    ///   - typeName: The runtime's name for the type.
    case unknownKind(rawValue: UInt, typeName: String)

    /// The type has stored properties or cases, but its module was built without reflection
    /// metadata (`-disable-reflection-metadata`), so their names and types are not recorded.
    case missingReflectionMetadata(typeName: String)

    /// The type's kind does not have the requested feature, such as cases of a struct.
    ///
    /// - Parameters:
    ///   - typeName: The type.
    ///   - expected: What the operation needs, such as "an enum".
    case wrongKind(typeName: String, expected: String)

    /// No stored property has the given name.
    case noSuchField(name: String, typeName: String)

    /// A field index is outside the type's stored properties.
    case fieldIndexOutOfRange(index: Int, count: Int, typeName: String)

    /// No enum case has the given name.
    case noSuchCase(name: String, typeName: String)

    /// A value of one type was used where another was required; nothing was read or written.
    ///
    /// - Parameters:
    ///   - expected: The type the field, payload or root has.
    ///   - actual: The type that was supplied or requested.
    ///   - context: What was accessed, such as "field 'id' of 'Fixtures.Point'".
    case typeMismatch(expected: String, actual: String, context: String)

    /// The type of a field or payload is not recorded in a way the runtime can resolve.
    case unresolvableFieldType(name: String, typeName: String, mangledName: String)

    /// A type name could not be resolved.
    ///
    /// - Parameters:
    ///   - name: The whole name.
    ///   - part: The part that failed.
    ///   - reason: Why it failed.
    case unresolvableName(name: String, part: String, reason: String)

    /// The operation needs a copyable type, and the type is `~Copyable`.
    case noncopyableType(typeName: String)

    /// The type is not a single protocol's existential, so it names no protocol descriptor.
    ///
    /// Marker protocols such as `Sendable` are erased from existential types at run time:
    /// `(any Sendable).self` is `Any.self`.
    case notAProtocol(typeName: String)

    /// The protocol is a marker protocol (`Sendable`, `Copyable`, `Escapable`, `BitwiseCopyable`):
    /// it has no runtime records, and conformance to it cannot be checked at run time.
    case markerProtocol(name: String)

    /// A generic type could not be instantiated with the given arguments.
    ///
    /// - Parameters:
    ///   - typeName: The generic type's qualified name.
    ///   - reason: The violated requirement or the argument mismatch.
    case instantiationFailed(typeName: String, reason: String)

    /// The dynamic loader refused to load a library.
    case imageLoadFailed(path: String, reason: String)

    /// A library loaded, but the Swift runtime registered no metadata for it; or an image file
    /// read with ``Image/read(_:)`` has no Swift metadata sections.
    case notASwiftImage(path: String)
    /// A record of an image file's Swift metadata is not safe to read: a pointer that leaves
    /// the file's loadable segments, a context of the wrong kind, a field descriptor past its
    /// section. ``Image/read(_:)`` checks every record of the sections it reads, and
    /// ``Image/checkRegisteredSections(_:)`` the sections the runtime registers when the file
    /// is loaded, before anything reads a record: once a library is loaded, the runtime trusts
    /// its records, and a bad one crashes the process.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - section: The section, such as `swift5_protocol_conformances`.
    ///   - record: The record's index in its section.
    ///   - reason: What is wrong with it, such as `points outside the image`.
    case corruptMetadata(path: String, section: String, record: Int, reason: String)
    /// An image file could not be read without loading it (``Image/read(_:)``): it cannot be
    /// opened, is not a 64-bit little-endian ELF executable or shared library, ends early, or
    /// holds headers, tables or Swift sections that contradict each other.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - offset: The file offset of the structure concerned, or 0.
    ///   - reason: What is wrong, naming the structure or section.
    case imageReadFailed(path: String, offset: Int, reason: String)

    /// Another process's Swift images could not be read from its memory
    /// (``RemoteProcess/read(_:)``).
    ///
    /// - Parameters:
    ///   - pid: The process.
    ///   - problem: What kind of failure.
    ///   - reason: What happened, with what to do about it where something can be done.
    case processUnreadable(pid: Int32, problem: ProcessReadProblem, reason: String)

    /// A function value is stored at its declaration's own abstraction, which generic code
    /// cannot move: the runtime has no reabstraction thunk to convert it. Nothing was read or
    /// written. A function held through a generic parameter is not affected.
    ///
    /// - Parameters:
    ///   - typeName: The stored type, which is or contains a function type.
    ///   - context: What was accessed, such as "field 'onTap' of 'MyApp.Button'".
    case functionNotReabstractable(typeName: String, context: String)

    /// How a value is stored depends on a declaration that cannot be resolved: a metatype of a
    /// non-class type, stored in no bytes when the declaration names its instance type and in a
    /// pointer when the declaration reaches it through a type parameter, is reached here
    /// through an associated or opaque type of a generic declaration (`T.Element.Type`).
    /// Nothing was read or written. See the DocC article "Understanding the ABI layer".
    ///
    /// - Parameters:
    ///   - typeName: The stored type, which is or contains a metatype.
    ///   - context: What was accessed, such as "field 'kind' of 'MyApp.Box<Swift.Array<Swift.Int>>'".
    case unknownStorage(typeName: String, context: String)

    /// A new instance was asked for without a value for one of its stored properties.
    ///
    /// - Parameters:
    ///   - name: The property's name.
    ///   - typeName: The type being made.
    case missingValue(name: String, typeName: String)

    /// A stored property to be filled has a type with no obvious empty value
    /// (``TypeMetadata/emptyValue()``).
    ///
    /// - Parameters:
    ///   - typeName: The type without an empty value.
    ///   - context: The properties that lead to it, outermost first; empty when the type was asked
    ///     for directly.
    case noEmptyValue(typeName: String, context: String)

    /// A new instance was asked for with a different number of values than it has stored
    /// properties.
    ///
    /// - Parameters:
    ///   - expected: The number of stored properties.
    ///   - actual: The number of values given.
    ///   - typeName: The type being made.
    case wrongValueCount(expected: Int, actual: Int, typeName: String)

    /// An input is larger or deeper than ``RuntimeMetadataLimits`` allows; the runtime never saw it.
    ///
    /// - Parameters:
    ///   - limit: The limit that was hit.
    ///   - value: How large or deep the input is, or at least how far it was read.
    ///   - context: The input, shortened.
    case limitExceeded(_ limit: RuntimeMetadataLimit, value: Int, context: String)

    /// A human-readable explanation.
    public var description: String {
        switch self {
        case .unknownKind(let rawValue, let typeName):
            return "unknown metadata kind 0x\(String(rawValue, radix: 16)) for '\(typeName)'"
        case .missingReflectionMetadata(let typeName):
            return "'\(typeName)' has no reflection metadata (its module was built with -disable-reflection-metadata)"
        case .wrongKind(let typeName, let expected):
            return "'\(typeName)' is not \(expected)"
        case .noSuchField(let name, let typeName):
            return "no field named '\(name)' in '\(typeName)'"
        case .fieldIndexOutOfRange(let index, let count, let typeName):
            return "field index \(index) is out of range for '\(typeName)', which has \(count) fields"
        case .noSuchCase(let name, let typeName):
            return "no case named '\(name)' in '\(typeName)'"
        case .typeMismatch(let expected, let actual, let context):
            return "type mismatch on \(context): expected '\(expected)', got '\(actual)'"
        case .unresolvableFieldType(let name, let typeName, let mangledName):
            return "the type of '\(name)' in '\(typeName)' does not resolve (mangled name '\(mangledName)')"
        case .unresolvableName(let name, let part, let reason):
            return "cannot resolve '\(part)' in type name '\(name)': \(reason)"
        case .noncopyableType(let typeName):
            return "'\(typeName)' is noncopyable"
        case .notAProtocol(let typeName):
            return "'\(typeName)' is not the existential of a single protocol"
        case .markerProtocol(let name):
            return
                "'\(name)' is a marker protocol: it has no runtime records, so conformance to it cannot be checked at run time"
        case .instantiationFailed(let typeName, let reason):
            return "cannot instantiate '\(typeName)': \(reason)"
        case .imageLoadFailed(let path, let reason):
            return "cannot load '\(path)': \(reason)"
        case .imageReadFailed(let path, let offset, let reason):
            return "cannot read '\(path)': \(reason)"
                + (offset > 0 ? " (file offset 0x\(String(offset, radix: 16)))" : "")
        case .notASwiftImage(let path):
            return "'\(path)' carries no Swift metadata"
        case .corruptMetadata(let path, let section, let record, let reason):
            return "'\(path)' has corrupt Swift metadata: record \(record) of \(section) \(reason)"
        case .processUnreadable(_, _, let reason):
            return reason
        case .functionNotReabstractable(let typeName, let context):
            return
                "\(context) holds a function of type '\(typeName)' at its declared abstraction; without a reabstraction thunk, which only the compiler can emit, it cannot be read or written as a value"
        case .unknownStorage(let typeName, let context):
            return
                "\(context) holds '\(typeName)' in a form its declaration decides, and the declaration reaches it through an associated or opaque type that cannot be resolved; nothing was read or written"
        case .missingValue(let name, let typeName):
            return "no value for field '\(name)' of '\(typeName)'"
        case .noEmptyValue(let typeName, let context):
            return "'\(typeName)' has no empty value" + (context.isEmpty ? "" : " (\(context))")
        case .wrongValueCount(let expected, let actual, let typeName):
            return "'\(typeName)' has \(expected) stored properties, but \(actual) values were given"
        case .limitExceeded(let limit, let value, let context):
            return "\(limit) exceeds its limit of \(limit.maximum) (\(value)) in '\(context)'"
        }
    }
}
