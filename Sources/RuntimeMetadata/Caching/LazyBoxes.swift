// LazyBoxes.swift
//
// The boxes ``LazyValue`` publishes, one concrete final class per value type (LazyValue.swift
// says why a generic box will not do); ``FieldsBox``, read on the warm paths, has a file of its
// own.

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
