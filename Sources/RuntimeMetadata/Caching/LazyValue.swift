// LazyValue.swift
//
// A value computed on first use and published atomically, so that later reads take no lock
// and allocate nothing. The published box is a concrete class per value type: a generic box
// class would need its metadata instantiated by the runtime on every read.

import Synchronization

/// The box a ``LazyValue`` publishes: a final class holding one immutable value.
@usableFromInline
protocol LazyBox: AnyObject, Sendable {
    /// The boxed type.
    associatedtype Value: Sendable
    /// The value.
    var value: Value { get }
    /// Boxes a value.
    init(_ value: Value)
}

/// A once-computed value, safe to read from any thread.
@usableFromInline
struct LazyValue<Box: LazyBox>: ~Copyable, Sendable {
    @usableFromInline
    let storage = PublishedReference<Box>()

    /// Creates an empty slot.
    init() {}

    /// The box once published, or `nil`: one acquiring load, inlinable into clients.
    @inlinable
    @inline(__always)
    var published: ImmortalReference<Box>? { storage.loadImmortal() }

    /// Returns the value, computing it on the first call. Racing first calls may each
    /// compute it; the first published result is the one every caller sees, and the others'
    /// boxes are released (a box whose value owns storage that a release does not reclaim, a
    /// table's, frees it in its `deinit`).
    /// - Parameter compute: Computes the value.
    /// - Returns: The published value.
    @inline(__always)
    func value(_ compute: () -> Box.Value) -> Box.Value {
        immortalBox(compute).withObject { $0.value }
    }

    /// Returns the published box itself, unretained, computing its value on the first call.
    ///
    /// Slots live in process-lifetime records (``TypeRecord`` and the other cache entries), and
    /// a box is released only with its slot, so an unretained reference stays valid.
    /// - Parameter compute: Computes the value.
    /// - Returns: The published box.
    @inline(__always)
    func immortalBox(_ compute: () -> Box.Value) -> ImmortalReference<Box> {
        if let box = storage.loadImmortal() { return box }
        return ImmortalReference(immortal: storage.storeIfNil(Box(compute())))
    }
}

/// A boxed optional string.
final class OptionalStringBox: LazyBox {
    let value: String?
    init(_ value: String?) { self.value = value }
}

/// Boxed generic arguments.
final class GenericArgumentsBox: LazyBox {
    let value: [GenericArgument]
    init(_ value: [GenericArgument]) { self.value = value }
}

/// A boxed field list or its error.
///
/// The list and the error are stored apart, not as a `Result`: copying a `Result` out of the
/// box goes through its generic value witnesses, which cost more than the rest of the read.
@usableFromInline
final class FieldsBox: LazyBox {
    /// The fields' storage, which the box keeps alive, and the fields that refer to it.
    @usableFromInline
    struct Contents: Sendable {
        let storage: [Field.Storage]
        @usableFromInline
        let fields: [Field]

        init(_ storage: [Field.Storage]) {
            self.storage = storage
            // The box that holds these contents lives as long as the process, and with it
            // the storage each field refers to without retaining it.
            self.fields = storage.map { Field(storage: ImmortalReference(immortal: $0)) }
        }
    }

    @usableFromInline
    let contents: Contents
    @usableFromInline
    let error: RuntimeMetadataError?
    /// Whether the list failed, for the warm path: reading `error == nil` there copies the
    /// optional error, a 57-byte enum, out of the box (about 10 ns, ten times the rest of the
    /// read, since `corruptMetadata` made the error that large).
    @usableFromInline
    let failed: Bool
    @inlinable
    var fields: [Field] { contents.fields }
    @usableFromInline
    var value: Result<Contents, RuntimeMetadataError> { error.map { .failure($0) } ?? .success(contents) }

    /// The field with a name, by a linear search: types have few fields, and a dictionary
    /// would hash the name, which costs more than comparing it with a handful of names.
    func field(named name: String) -> Field? {
        for field in contents.fields where field.storage.withObject({ $0.name == name }) { return field }
        return nil
    }

    @usableFromInline
    init(_ value: Result<Contents, RuntimeMetadataError>) {
        switch value {
        case .success(let contents): (self.contents, self.error, self.failed) = (contents, nil, false)
        case .failure(let error): (self.contents, self.error, self.failed) = (Contents([]), error, true)
        }
    }
}

/// A boxed case list or its error.
final class CasesBox: LazyBox {
    let value: Result<[EnumCase], RuntimeMetadataError>
    init(_ value: Result<[EnumCase], RuntimeMetadataError>) { self.value = value }
}

/// Boxed tuple elements.
final class TupleElementsBox: LazyBox {
    let value: [TupleElement]
    init(_ value: [TupleElement]) { self.value = value }
}

/// A boxed comparator.
final class ComparatorBox: LazyBox {
    let value: ValueComparator
    init(_ value: ValueComparator) { self.value = value }
}

/// Boxed strings.
final class StringsBox: LazyBox {
    let value: [String]
    init(_ value: [String]) { self.value = value }
}

/// Boxed type descriptor handles.
final class DescriptorReferencesBox: LazyBox {
    let value: [DescriptorReference]
    init(_ value: [DescriptorReference]) { self.value = value }
}

/// Boxed protocol descriptor handles.
final class ProtocolReferencesBox: LazyBox {
    let value: [ProtocolReference]
    init(_ value: [ProtocolReference]) { self.value = value }
}

/// Boxed conformance descriptor handles.
final class ConformanceRecordReferencesBox: LazyBox {
    let value: [ConformanceRecordReference]
    init(_ value: [ConformanceRecordReference]) { self.value = value }
}

/// The images of one generation.
final class ImagesBox: LazyBox {
    let value: [Image]
    init(_ value: [Image]) { self.value = value }
}

/// A boxed string.
final class StringBox: LazyBox {
    let value: String
    init(_ value: String) { self.value = value }
}
