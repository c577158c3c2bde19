// OpaqueValueAccess+EnumPayloads.swift
//
// Reads and builds enum values through the enum value witnesses (`getEnumTag`,
// `destructiveProjectEnumData`, `destructiveInjectEnumTag` in swiftlang/swift
// include/swift/ABI/ValueWitness.def): a value's tag, its payload projected from a copy
// (through the box of an `indirect` case), an `Optional`'s payload as `as?` looks through
// it, and a value made from a tag and a payload already of the payload's type.

extension OpaqueValueAccess {
    /// The enum witnesses of a type, or `nil` when it has none.
    @inline(__always)
    static func enumWitnesses(_ metadata: MetadataReference) -> ValueWitnessTableLayout? {
        guard let table = unsafe MetadataLayout(metadata.address).valueWitnesses,
            unsafe table.flags.contains(ValueWitnessFlags.hasEnumWitnesses)
        else { return nil }
        return unsafe table
    }

    /// The payload of an `Optional` an `Any` holds, as `as?` looks through it.
    /// - Parameter value: The value.
    /// - Returns: `nil` when the value is not an optional; `.some(nil)` for `.none`; otherwise
    ///   the payload, copied out as the value it holds (never a container of a container).
    static func optionalPayload(in value: borrowing Any) -> Any?? {
        unsafe withUnsafePointer(to: value) { container in
            let (address, type) = unsafe ExistentialContainerLayout.project(
                UnsafeRawPointer(container),
                type: MetadataReference(Any.self)
            )
            guard type.rawKind == MetadataKind.optional.rawValue,
                let witnesses = unsafe enumWitnesses(type),
                case .type(let wrapped)? = type.genericArguments.first
            else { return nil }
            let tag = unsafe RuntimeEntryPoints.callGetEnumTag(
                witnesses.witness(.getEnumTag),
                value: address,
                metadata: type.address
            )
            // Optional's one payload case, `some`, has tag 0, and its payload is at offset 0.
            guard tag == 0 else { return .some(nil) }
            return .some(unsafe copyAny(at: address, type: wrapped.metatype))
        }
    }

    /// Reads the tag of an enum value.
    /// - Parameters:
    ///   - value: The value.
    ///   - metadata: The enum's metadata (the value's own type).
    /// - Returns: The tag, or `nil` when the type has no enum witnesses.
    @inline(__always)
    static func enumTag<T>(of value: T, metadata: MetadataReference) -> Int? {
        guard let witnesses = unsafe enumWitnesses(metadata) else { return nil }
        let witness = unsafe witnesses.witness(.getEnumTag)
        return unsafe withUnsafePointer(to: value) {
            unsafe RuntimeEntryPoints.callGetEnumTag(witness, value: UnsafeRawPointer($0), metadata: metadata.address)
        }
    }

    /// Reads the tag of an enum value held as itself or in existential containers, which are
    /// projected however deeply they nest, without a cast.
    /// - Parameters:
    ///   - value: A value of the enum type, or an existential holding one.
    ///   - metadata: The enum's metadata.
    /// - Returns: The tag, or `nil` when the value projects to another type or the type has no
    ///   enum witnesses.
    static func enumTag<T>(projecting value: T, metadata: MetadataReference) -> Int? {
        guard let witnesses = unsafe enumWitnesses(metadata) else { return nil }
        return unsafe withUnsafePointer(to: value) { pointer in
            let (address, dynamicType) = unsafe ExistentialContainerLayout.project(
                UnsafeRawPointer(pointer),
                type: MetadataReference(T.self)
            )
            guard dynamicType == metadata else { return nil }
            return unsafe RuntimeEntryPoints.callGetEnumTag(
                witnesses.witness(.getEnumTag),
                value: address,
                metadata: metadata.address
            )
        }
    }

    /// Copies the payload out of an enum value, leaving the value intact.
    /// - Parameters:
    ///   - value: The enum value.
    ///   - metadata: The enum's metadata.
    ///   - payloadType: The payload's type.
    ///   - form: How the payload is stored (OpaqueValueAccess+StoredForms.swift).
    ///   - isIndirect: Whether the case is `indirect` (the payload is boxed).
    /// - Returns: The payload, or `nil` when the type has no enum witnesses.
    static func payload<T>(
        of value: T,
        metadata: MetadataReference,
        payloadType: MetadataReference,
        form: StoredForm,
        isIndirect: Bool
    ) -> Any? {
        let projected = unsafe withProjectedPayload(
            of: value,
            metadata: metadata,
            payloadType: form.storedType(of: payloadType),
            isIndirect: isIndirect
        ) {
            unsafe copyStored(at: $0, type: payloadType, form: form)
        }
        return projected ?? nil
    }

    /// Calls `body` with the address of the payload of a copy of an enum value, leaving the
    /// value intact.
    /// - Parameters:
    ///   - value: The enum value.
    ///   - metadata: The enum's metadata.
    ///   - payloadType: The payload's type.
    ///   - isIndirect: Whether the case is `indirect` (the payload is boxed).
    ///   - body: Receives the payload's address, valid during the call.
    /// - Returns: What `body` returns, or `nil` when the type has no enum witnesses.
    static func withProjectedPayload<T, Result>(
        of value: T,
        metadata: MetadataReference,
        payloadType: MetadataReference,
        isIndirect: Bool,
        _ body: (UnsafeRawPointer) -> Result
    ) -> Result? {
        if storesPayloadInPlace(metadata) {
            return unsafe withUnsafePointer(to: value) { pointer in
                let value = unsafe UnsafeRawPointer(pointer)
                return unsafe body(payloadAddress(in: value, payloadType: payloadType, isIndirect: isIndirect))
            }
        }
        guard let witnesses = unsafe enumWitnesses(metadata) else { return nil }
        let tagWitness = unsafe witnesses.witness(.getEnumTag)
        let project = unsafe witnesses.witness(.destructiveProjectEnumData)
        let inject = unsafe witnesses.witness(.destructiveInjectEnumTag)
        var copy = value
        return unsafe withUnsafeMutablePointer(to: &copy) { pointer -> Result in
            let raw = UnsafeMutableRawPointer(pointer)
            let tag = unsafe RuntimeEntryPoints.callGetEnumTag(tagWitness, value: raw, metadata: metadata.address)
            unsafe RuntimeEntryPoints.callProjectEnumData(project, value: raw, metadata: metadata.address)
            let result: Result
            if isIndirect {
                let box = unsafe UnsafeRawPointer(raw).pointer(at: 0)!
                unsafe result = body(box + boxValueOffset(payloadType))
            } else {
                unsafe result = body(UnsafeRawPointer(raw))
            }
            // Projection then injection of the same tag restores the original value.
            unsafe RuntimeEntryPoints.callInjectEnumTag(inject, value: raw, tag: tag, metadata: metadata.address)
            return result
        }
    }

    /// Whether an enum value in its payload case holds the payload as it is, at offset 0: true
    /// of an enum with one payload case (`Optional` among them). Its empty cases are the
    /// payload's extra inhabitants or extra tag bytes after the payload
    /// (`swift_initEnumMetadataSinglePayload` in stdlib/public/runtime/Enum.cpp,
    /// `getEnumTagSinglePayloadImpl` in EnumImpl.h), so its `destructiveProjectEnumData`
    /// changes nothing and the payload can be read in place. An enum with several payload
    /// cases may keep its tag in the payload's spare bits, which projection clears.
    /// - Parameter metadata: The enum's metadata.
    /// - Returns: Whether the payload is read in place.
    @inline(__always)
    static func storesPayloadInPlace(_ metadata: MetadataReference) -> Bool {
        metadata.enumCaseCounts?.payload == 1
    }

    /// The address of the payload of an enum value in its payload case, whose payload is in
    /// place (``storesPayloadInPlace(_:)``): the value's own address, or, for an `indirect`
    /// case, the value in the box the value points to.
    /// - Parameters:
    ///   - value: The enum value's address.
    ///   - payloadType: The payload's type, as stored.
    ///   - isIndirect: Whether the case is `indirect`.
    /// - Returns: The payload's address.
    @inline(__always)
    static func payloadAddress(in value: UnsafeRawPointer, payloadType: MetadataReference, isIndirect: Bool)
        -> UnsafeRawPointer
    {
        guard isIndirect else { return unsafe value }
        return unsafe value.pointer(at: 0)! + boxValueOffset(payloadType)
    }

    /// Builds an enum value of a case from its tag and payload.
    /// - Parameters:
    ///   - type: The enum type.
    ///   - tag: The case's tag.
    ///   - payload: The payload, already checked to be of `payloadType`, or `nil` for an empty case.
    ///   - payloadType: The payload's type.
    ///   - payloadForm: How the payload is stored (OpaqueValueAccess+StoredForms.swift).
    ///   - isIndirect: Whether the case is `indirect`.
    /// - Returns: The value, or `nil` when the payload does not cast or the type has no enum witnesses.
    static func makeEnum<T>(
        _ type: T.Type,
        tag: Int,
        payload: Any?,
        payloadType: MetadataReference?,
        payloadForm: StoredForm,
        isIndirect: Bool
    ) -> T? {
        let metadata = MetadataReference(T.self)
        guard let witnesses = unsafe enumWitnesses(metadata) else { return nil }
        let inject = unsafe witnesses.witness(.destructiveInjectEnumTag)
        let storage = UnsafeMutablePointer<T>.allocate(capacity: 1)
        defer { unsafe storage.deallocate() }
        let raw = UnsafeMutableRawPointer(storage)
        if let payloadType {
            guard let payload else { return nil }
            // Cast before allocating anything, so that a failed cast leaves nothing behind.
            func initialize<P>(_: P.Type) -> Bool {
                guard let typed = payload as? P else { return false }
                if !payloadForm.isAsType {
                    // Stored in another form: converted into it, in the box for that form.
                    let storedType = payloadForm.storedType(of: payloadType)
                    var destination = unsafe raw
                    if isIndirect {
                        let allocation = unsafe RuntimeEntryPoints.allocateBox(for: storedType.address)
                        unsafe raw.storeBytes(of: allocation.box, as: UnsafeMutableRawPointer.self)
                        unsafe destination = allocation.value
                    }
                    return unsafe withUnsafePointer(to: typed) {
                        unsafe initializeStored(
                            destination,
                            type: payloadType,
                            form: payloadForm,
                            from: UnsafeRawPointer($0)
                        )
                    }
                }
                if isIndirect {
                    let allocation = unsafe RuntimeEntryPoints.allocateBox(for: payloadType.address)
                    unsafe allocation.value.initializeMemory(as: P.self, repeating: typed, count: 1)
                    unsafe raw.storeBytes(of: allocation.box, as: UnsafeMutableRawPointer.self)
                } else {
                    unsafe raw.initializeMemory(as: P.self, repeating: typed, count: 1)
                }
                return true
            }
            guard _openExistential(payloadType.metatype, do: initialize) else { return nil }
        }
        unsafe RuntimeEntryPoints.callInjectEnumTag(inject, value: raw, tag: tag, metadata: metadata.address)
        return unsafe storage.move()
    }
}
