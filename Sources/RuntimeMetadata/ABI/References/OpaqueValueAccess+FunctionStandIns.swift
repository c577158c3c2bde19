// OpaqueValueAccess+FunctionStandIns.swift
//
// Copies a value that holds functions at its declaration's abstraction, as `Mirror` hands
// it out: a copy of the declared type (a function, a tuple of them, an optional of one). A
// function value is stored as its entry point and its context (a thick function, two words;
// thin and C functions, the entry point alone; include/swift/ABI/Metadata.h,
// TargetFunctionTypeMetadata). Code that receives it in an `Any` calls it in the most general
// form (every value passed indirectly), which the stored entry point may not take: where the
// caller's predicate says the two differ, the copy's entry point is replaced by one that stops
// the program with a message, and its context is kept, so that the copy is released as the
// value it was copied from. A synchronous entry point is a C function, which stops before it
// reads an argument; an `async` one is an async function pointer
// (include/swift/ABI/Task.h, `AsyncFunctionPointer`), whose context size the caller reads.

extension OpaqueValueAccess {
    /// The message a function stand-in stops with.
    private static let standInMessage =
        "RuntimeMirror: this function is stored at its declaration's abstraction and cannot be called as a value of its type; read it through its declared type (DocC article \"Switching from Mirror\")"

    /// The entry point of a synchronous stand-in, as an address: it stops before reading any
    /// argument.
    private static let synchronousStandIn: UInt = {
        let stop: @convention(c) () -> Void = { fatalError(OpaqueValueAccess.standInMessage) }
        return unsafe unsafeBitCast(stop, to: UInt.self)
    }()

    /// The async function pointer of an `async` stand-in: a closure without captures is its
    /// function pointer and a null context.
    private static let asynchronousStandIn: UInt = {
        let stop: @Sendable () async -> Void = { fatalError(OpaqueValueAccess.standInMessage) }
        return unsafe unsafeBitCast(stop, to: (UInt, UInt).self).0
    }()

    /// Copies a value that holds functions at its declaration's abstraction into an `Any` of
    /// its declared type, with each function in its structure (the value itself, a tuple's
    /// elements, an optional's payload) that `isCallable` rejects made a stand-in.
    /// - Parameters:
    ///   - address: The value's address.
    ///   - type: Its declared type.
    ///   - isCallable: Whether a function of the given type, stored at its declaration's
    ///     abstraction, is called correctly in the general form.
    /// - Returns: The copy; `nil` where a function's entry point is signed
    ///   (`_ptrauth(_arm64e)`), which a stand-in could not be signed for.
    static func copyWithFunctionStandIns(
        at address: UnsafeRawPointer,
        type: MetadataReference,
        isCallable: (MetadataReference) -> Bool
    ) -> Any? {
        #if _ptrauth(_arm64e)
        return nil
        #else
        var copy = unsafe copyAny(at: address, metadata: type)
        unsafe withUnsafeMutablePointer(to: &copy) { container in
            // A value larger than the container's buffer is in a box that this copy alone
            // holds, so a write there is seen by no other value.
            let (value, _) = unsafe ExistentialContainerLayout.project(
                UnsafeRawPointer(container),
                type: MetadataReference(Any.self)
            )
            unsafe replaceFunctions(at: UnsafeMutableRawPointer(mutating: value), type: type, depth: 0, isCallable)
        }
        return copy
        #endif
    }

    /// ``copyWithFunctionStandIns(at:type:isCallable:)`` for one part of a struct, tuple or
    /// class instance.
    /// - Parameters:
    ///   - part: The part's layout.
    ///   - value: The value, in an `Any`.
    ///   - isObject: Whether the value is a class instance, whose parts are in the object.
    ///   - isCallable: As in ``copyWithFunctionStandIns(at:type:isCallable:)``.
    /// - Returns: The copy, or `nil`.
    static func partWithFunctionStandIns(
        _ part: PartLayout,
        of value: borrowing Any,
        isObject: Bool,
        isCallable: (MetadataReference) -> Bool
    ) -> Any? {
        guard part.ownership == .strong, !part.isNoncopyable else { return nil }
        return unsafe withUnsafePointer(to: value) { container in
            let base = unsafe partsBase(ofAny: UnsafeRawPointer(container), isObject: isObject)
            return unsafe copyWithFunctionStandIns(at: base + part.offset, type: part.type, isCallable: isCallable)
        }
    }

    /// ``copyWithFunctionStandIns(at:type:isCallable:)`` for the payload of an enum value.
    /// - Parameters:
    ///   - value: The enum value, in an `Any`.
    ///   - metadata: The enum's metadata.
    ///   - payloadType: The payload's type.
    ///   - isIndirect: Whether the case is `indirect`.
    ///   - isCallable: As in ``copyWithFunctionStandIns(at:type:isCallable:)``.
    /// - Returns: The copy, or `nil`.
    static func payloadWithFunctionStandIns(
        inAny value: borrowing Any,
        metadata: MetadataReference,
        payloadType: MetadataReference,
        isIndirect: Bool,
        isCallable: (MetadataReference) -> Bool
    ) -> Any? {
        unsafe withUnsafePointer(to: value) { container in
            let (address, dynamicType) = unsafe ExistentialContainerLayout.project(
                UnsafeRawPointer(container),
                type: MetadataReference(Any.self)
            )
            guard dynamicType == metadata else { return nil }
            func copy<T>(_: T.Type) -> Any?? {
                unsafe withProjectedPayload(
                    of: address.assumingMemoryBound(to: T.self).pointee,
                    metadata: metadata,
                    payloadType: payloadType,
                    isIndirect: isIndirect
                ) { payload in
                    unsafe copyWithFunctionStandIns(at: payload, type: payloadType, isCallable: isCallable)
                }
            }
            return _openExistential(metadata.metatype, do: copy) ?? nil
        }
    }

    /// Replaces the entry point of each function in a value's structure that `isCallable`
    /// rejects.
    /// - Parameters:
    ///   - address: The value, in memory this copy alone holds.
    ///   - type: Its type.
    ///   - depth: The nesting so far; structure nests no deeper than a type's name.
    ///   - isCallable: Whether a function of a type is called correctly as stored.
    private static func replaceFunctions(
        at address: UnsafeMutableRawPointer,
        type: MetadataReference,
        depth: Int,
        _ isCallable: (MetadataReference) -> Bool
    ) {
        guard depth < RuntimeMetadataLimits.maximumNameNesting else { return }
        switch type.rawKind {
        case MetadataKind.function.rawValue:
            guard !isCallable(type), let function = type.function else { return }
            let convention = (function.flags & FunctionTypeMetadataLayout.Flag.conventionMask)
            // A block is an object, not an entry point (convention 1, FunctionMetadataConvention
            // in include/swift/ABI/MetadataValues.h); it has no other abstraction to differ at.
            guard convention >> FunctionTypeMetadataLayout.Flag.conventionShift != 1 else { return }
            let isAsync = function.flags & FunctionTypeMetadataLayout.Flag.asyncMask != 0
            unsafe address.storeBytes(
                of: isAsync ? asynchronousStandIn : synchronousStandIn,
                as: UInt.self
            )
        case MetadataKind.tuple.rawValue:
            for element in type.tupleElements {
                unsafe replaceFunctions(at: address + element.offset, type: element.type, depth: depth + 1, isCallable)
            }
        case MetadataKind.optional.rawValue:
            guard case .type(let wrapped)? = type.genericArguments.first,
                let witnesses = unsafe enumWitnesses(type)
            else { return }
            let tag = unsafe RuntimeEntryPoints.callGetEnumTag(
                witnesses.witness(.getEnumTag),
                value: UnsafeRawPointer(address),
                metadata: type.address
            )
            // Optional's payload case, `some`, has tag 0, and its payload is at offset 0; a
            // stand-in's entry point is not null, so the value stays `some`.
            guard tag == 0 else { return }
            unsafe replaceFunctions(at: address, type: wrapped, depth: depth + 1, isCallable)
        default:
            return
        }
    }
}
