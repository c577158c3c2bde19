// OpaqueValueAccess+StoredForms.swift
//
// Values stored in another form than their type's metadata lays out. A stored property, tuple
// element or enum payload is laid out from its declaration's lowered type, not from the
// metadata of its substituted type: a metatype of a type whose metatype has one value (a
// struct, enum, tuple, function or existential: `Int.Type`) is thin there, taking no bytes,
// while its metadata, `MetatypeMetadata`, describes the thick pointer generic code passes
// (swiftlang/swift lib/SIL/IR/TypeLowering.cpp, `getMetatypeRepresentation`, and
// include/swift/AST/Types.h, `MetatypeRepresentation`). A tuple or optional holding one at its
// declaration's own abstraction is laid out with it as an empty element. The form is decided
// in Fields/StoredRepresentation.swift; these functions convert between it and the metadata's
// form, each part with its own value witnesses (include/swift/ABI/ValueWitness.def).

extension OpaqueValueAccess {
    /// How a value is stored where a declaration holds it, against its type's metadata.
    ///
    /// A struct rather than an indirect enum: the caches keep forms for the life of the process,
    /// and an indirect case's box is referred to by a word whose spare bits hold the case, which
    /// LeakSanitizer cannot follow; an array's buffer is referred to by a plain pointer.
    struct StoredForm: Sendable, Hashable {
        /// The form's shape, with its parts.
        enum Shape {
            /// As its type's metadata lays it out.
            case asType
            /// A thin metatype: no bytes; the value is the metatype of the type's instance type.
            case thinMetatype
            /// A tuple some of whose elements are stored in another form, laid out as `storage`,
            /// the tuple of the elements' stored types.
            case tuple(storage: MetadataReference, elements: [StoredForm])
            /// An optional whose payload is stored in another form, laid out as `storage`, the
            /// optional of the payload's stored type.
            case optional(storage: MetadataReference, payload: StoredForm)
        }

        /// The shapes, without their parts.
        private enum Kind: UInt8 {
            case asType, thinMetatype, tuple, optional
        }

        private let kind: Kind
        /// The stored type of a tuple or optional.
        private let storage: MetadataReference?
        /// A tuple's elements' forms, or an optional's payload's.
        private let parts: [StoredForm]

        /// As its type's metadata lays it out.
        static let asType = StoredForm(kind: .asType, storage: nil, parts: [])
        /// A thin metatype.
        static let thinMetatype = StoredForm(kind: .thinMetatype, storage: nil, parts: [])

        /// A tuple some of whose elements are stored in another form.
        static func tuple(storage: MetadataReference, elements: [StoredForm]) -> StoredForm {
            StoredForm(kind: .tuple, storage: storage, parts: elements)
        }

        /// An optional whose payload is stored in another form.
        static func optional(storage: MetadataReference, payload: StoredForm) -> StoredForm {
            StoredForm(kind: .optional, storage: storage, parts: [payload])
        }

        /// Whether the value is stored as its type's metadata lays it out.
        var isAsType: Bool { kind == .asType }

        /// The form's shape.
        var shape: Shape {
            switch kind {
            case .asType: .asType
            case .thinMetatype: .thinMetatype
            case .tuple: .tuple(storage: storage!, elements: parts)
            case .optional: .optional(storage: storage!, payload: parts[0])
            }
        }

        /// The type whose layout and value witnesses the stored value has: `type` itself, `()`
        /// for a thin metatype, or the tuple or optional of the parts' stored types.
        /// - Parameter type: The value's type.
        /// - Returns: The stored type.
        func storedType(of type: MetadataReference) -> MetadataReference {
            switch kind {
            case .asType: type
            case .thinMetatype: MetadataReference(Void.self)
            case .tuple, .optional: storage!
            }
        }
    }

    /// The size a value of `type` stored in `form` occupies.
    /// - Parameters:
    ///   - type: The value's type.
    ///   - form: Its stored form.
    /// - Returns: The size in bytes, or `nil` when the stored type has no value witnesses.
    static func storedSize(of type: MetadataReference, form: StoredForm) -> Int? {
        unsafe MetadataLayout(form.storedType(of: type).address).valueWitnesses.map { unsafe $0.size }
    }

    /// Copies a value stored in another form into an `Any` of its type.
    /// - Parameters:
    ///   - address: Where the value is stored.
    ///   - type: Its type.
    ///   - form: Its stored form.
    /// - Returns: The value; `nil` when a part's type has no value witnesses.
    static func copyStored(at address: UnsafeRawPointer, type: MetadataReference, form: StoredForm) -> Any? {
        if form.isAsType { return unsafe copyAny(at: address, metadata: type) }
        guard let witnesses = unsafe MetadataLayout(type.address).valueWitnesses else { return nil }
        // On the heap: the size comes from metadata, never from the stack.
        let buffer = UnsafeMutableRawPointer.allocate(
            byteCount: max(unsafe witnesses.size, 1),
            alignment: unsafe witnesses.flags.alignment
        )
        defer { unsafe buffer.deallocate() }
        guard unsafe initialize(buffer, type: type, fromStored: address, form: form) else { return nil }
        let value = unsafe copyAny(at: buffer, metadata: type)
        unsafe RuntimeEntryPoints.callDestroyWitness(
            witnesses.witness(.destroy),
            value: buffer,
            metadata: type.address
        )
        return value
    }

    /// Initializes memory with a value of `type`, in its metadata's form, from the value stored
    /// at `source` in `form`.
    /// - Parameters:
    ///   - destination: Uninitialized memory for a value of `type`.
    ///   - type: The value's type.
    ///   - source: The stored value.
    ///   - form: Its stored form.
    /// - Returns: `false`, with `destination` left uninitialized, when a part's type has no
    ///   value witnesses or the forms do not match the type.
    static func initialize(
        _ destination: UnsafeMutableRawPointer,
        type: MetadataReference,
        fromStored source: UnsafeRawPointer,
        form: StoredForm
    ) -> Bool {
        unsafe convert(from: source, to: destination, type: type, form: form, toStored: false)
    }

    /// Initializes memory with the stored form of a value of `type`.
    /// - Parameters:
    ///   - destination: Uninitialized memory for the stored value.
    ///   - type: The value's type.
    ///   - form: The stored form.
    ///   - source: A value of `type`, in its metadata's form.
    /// - Returns: `false`, with `destination` left uninitialized, when a part's type has no
    ///   value witnesses or the forms do not match the type.
    static func initializeStored(
        _ destination: UnsafeMutableRawPointer,
        type: MetadataReference,
        form: StoredForm,
        from source: UnsafeRawPointer
    ) -> Bool {
        unsafe convert(from: source, to: destination, type: type, form: form, toStored: true)
    }

    /// Replaces a value stored in `form` with another, given in its metadata's form: the old
    /// stored value is destroyed with its stored type's witness, then the new one stored.
    /// - Parameters:
    ///   - destination: The stored value.
    ///   - type: The value's type.
    ///   - form: The stored form.
    ///   - source: The new value, of `type`.
    /// - Returns: `false`, with `destination` untouched, when the stored type has no value witnesses.
    static func assignStored(
        _ destination: UnsafeMutableRawPointer,
        type: MetadataReference,
        form: StoredForm,
        from source: UnsafeRawPointer
    ) -> Bool {
        let storedType = form.storedType(of: type)
        guard let witnesses = unsafe MetadataLayout(storedType.address).valueWitnesses,
            witnessesReachParts(of: type, form: form)
        else { return false }
        unsafe RuntimeEntryPoints.callDestroyWitness(
            witnesses.witness(.destroy),
            value: destination,
            metadata: storedType.address
        )
        return unsafe initializeStored(destination, type: type, form: form, from: source)
    }

    /// Whether every part a conversion in `form` touches has the witnesses it calls, checked
    /// before anything is destroyed or written.
    private static func witnessesReachParts(of type: MetadataReference, form: StoredForm) -> Bool {
        switch form.shape {
        case .asType:
            return unsafe MetadataLayout(type.address).valueWitnesses != nil
        case .thinMetatype:
            return type.instanceType != nil
        case .tuple(let storage, let forms):
            let elements = type.tupleElements
            return elements.count == forms.count && storage.tupleElements.count == forms.count
                && zip(elements, forms).allSatisfy { witnessesReachParts(of: $0.type, form: $1) }
        case .optional(let storage, let payload):
            guard unsafe enumWitnesses(type) != nil, unsafe enumWitnesses(storage) != nil,
                case .type(let wrapped)? = type.genericArguments.first
            else { return false }
            return witnessesReachParts(of: wrapped, form: payload)
        }
    }

    /// Converts one value between its metadata's form and its stored form, initializing the
    /// destination, part by part: a part stored as its type is copied with its own
    /// `initializeWithCopy`, a thin metatype is the instance type's metatype, a tuple's
    /// elements are at their offsets in each form, an optional's payload at offset 0 with its
    /// tag read and injected through the enum witnesses.
    /// - Parameters:
    ///   - source: The value to convert.
    ///   - destination: Uninitialized memory for the result.
    ///   - type: The value's type (its metadata's form).
    ///   - form: The stored form.
    ///   - toStored: `true` to convert from `type`'s form to the stored form, `false` back.
    /// - Returns: `false`, with nothing initialized, when a part lacks the witnesses it needs.
    private static func convert(
        from source: UnsafeRawPointer,
        to destination: UnsafeMutableRawPointer,
        type: MetadataReference,
        form: StoredForm,
        toStored: Bool
    ) -> Bool {
        guard witnessesReachParts(of: type, form: form) else { return false }
        unsafe convertChecked(from: source, to: destination, type: type, form: form, toStored: toStored)
        return true
    }

    /// ``convert(from:to:type:form:toStored:)`` once the witnesses are checked.
    private static func convertChecked(
        from source: UnsafeRawPointer,
        to destination: UnsafeMutableRawPointer,
        type: MetadataReference,
        form: StoredForm,
        toStored: Bool
    ) {
        switch form.shape {
        case .asType:
            let witnesses = unsafe MetadataLayout(type.address).valueWitnesses!
            unsafe RuntimeEntryPoints.callCopyWitness(
                witnesses.witness(.initializeWithCopy),
                destination: destination,
                source: UnsafeMutableRawPointer(mutating: source),
                metadata: type.address
            )
        case .thinMetatype:
            // Stored: nothing. As the type: the one value a thin metatype has.
            if !toStored, let instance = type.instanceType {
                unsafe destination.storeBytes(of: instance.address, as: UnsafeRawPointer.self)
            }
        case .tuple(let storage, let forms):
            let elements = type.tupleElements
            let stored = storage.tupleElements
            for index in forms.indices {
                let (sourceOffset, destinationOffset) =
                    toStored
                    ? (elements[index].offset, stored[index].offset) : (stored[index].offset, elements[index].offset)
                unsafe convertChecked(
                    from: source + sourceOffset,
                    to: destination + destinationOffset,
                    type: elements[index].type,
                    form: forms[index],
                    toStored: toStored
                )
            }
        case .optional(let storage, let payload):
            let (sourceType, destinationType) = toStored ? (type, storage) : (storage, type)
            let sourceWitnesses = unsafe enumWitnesses(sourceType)!
            let destinationWitnesses = unsafe enumWitnesses(destinationType)!
            // Optional's payload case, `some`, has tag 0; `none` has tag 1.
            let tag = unsafe RuntimeEntryPoints.callGetEnumTag(
                sourceWitnesses.witness(.getEnumTag),
                value: source,
                metadata: sourceType.address
            )
            if tag == 0, case .type(let wrapped)? = type.genericArguments.first {
                unsafe convertChecked(from: source, to: destination, type: wrapped, form: payload, toStored: toStored)
            }
            unsafe RuntimeEntryPoints.callInjectEnumTag(
                destinationWitnesses.witness(.destructiveInjectEnumTag),
                value: destination,
                tag: tag == 0 ? 0 : 1,
                metadata: destinationType.address
            )
        }
    }
}
