// MetadataReference+Fields.swift
//
// A metadata handle's stored properties and cases: its descriptor's field records resolved
// against this metadata, the stored properties' offsets, and an enum's case counts
// (MetadataReference.swift has the handle itself).

extension MetadataReference {
    /// One field record resolved against this metadata.
    struct FieldRecordValue: Sendable {
        /// The field or case name.
        var name: String
        /// The resolved type; `nil` when there is none (empty case) or it does not resolve.
        var type: MetadataReference?
        /// The mangled type name, printable.
        var mangledTypeName: String?
        /// Whether the record has a type name at all.
        var hasType: Bool
        /// Whether the type name is an accessor-function reference, as used for hidden noncopyable types.
        var isHiddenType: Bool
        /// `FieldRecordFlags`.
        var flags: UInt32
        /// The ownership suffix: "", "Xw", "Xo" or "Xu".
        var ownershipSuffix: String
    }

    /// Why a field list cannot be read.
    enum FieldReadFailure: Error, Sendable {
        /// The type has fields, but its module carries no reflection metadata.
        case noReflectionMetadata
        /// The kind has no stored fields.
        case notNominal
    }

    /// The field records of this nominal type's own descriptor, resolved against this metadata.
    var fieldRecords: Result<[FieldRecordValue], FieldReadFailure> {
        guard let descriptor = typeDescriptor else { return .failure(.notNominal) }
        guard let fields = unsafe TypeContextDescriptorLayout(descriptor.address).fieldDescriptor else {
            return descriptor.declaredFieldCount == 0 ? .success([]) : .failure(.noReflectionMetadata)
        }
        let records = unsafe fields.records.map { record -> FieldRecordValue in
            guard let namePointer = unsafe record.mangledTypeName else {
                return unsafe FieldRecordValue(
                    name: record.name,
                    type: nil,
                    mangledTypeName: nil,
                    hasType: false,
                    isHiddenType: false,
                    flags: record.flags,
                    ownershipSuffix: ""
                )
            }
            let name = unsafe MangledNameLayout(namePointer)
            let trailing = unsafe name.trailingText
            let suffix = ["Xw", "Xo", "Xu"].first { trailing.hasSuffix($0) } ?? ""
            // 0x09: an accessor-function reference. 6.3 uses it for stored properties of
            // noncopyable type, and the function returns `()` (the DocC article
            // "Understanding the ABI layer").
            let hidden = unsafe name.leadingReferenceKind == 0x09
            return unsafe FieldRecordValue(
                name: record.name,
                type: hidden ? nil : resolve(name),
                mangledTypeName: name.printable,
                hasType: true,
                isHiddenType: hidden,
                flags: record.flags,
                ownershipSuffix: suffix
            )
        }
        return .success(records)
    }

    /// The byte offsets of this nominal type's own stored properties.
    var fieldOffsets: [Int] {
        guard let descriptor = typeDescriptor else { return [] }
        let kind = unsafe layout.kind
        if kind == .struct {
            let structDescriptor = unsafe StructDescriptorLayout(descriptor.address)
            return unsafe StructMetadataLayout(address).fieldOffsets(
                vectorOffset: structDescriptor.fieldOffsetVectorOffset,
                count: structDescriptor.fieldCount
            )
        }
        if kind.isClass {
            let classDescriptor = unsafe ClassDescriptorLayout(descriptor.address)
            return unsafe ClassMetadataLayout(address).fieldOffsets(
                wordIndex: classDescriptor.fieldOffsetVectorOffset,
                count: classDescriptor.fieldCount
            )
        }
        return []
    }

    /// The payload and empty case counts of an enum.
    var enumCaseCounts: (payload: Int, empty: Int)? {
        guard unsafe layout.kind == .enum || layout.kind == .optional, let descriptor = typeDescriptor else {
            return nil
        }
        let enumDescriptor = unsafe EnumDescriptorLayout(descriptor.address)
        return unsafe (enumDescriptor.payloadCaseCount, enumDescriptor.emptyCaseCount)
    }
}
