// OpaqueValueAccess+ExistentialCopies.swift
//
// Copies values of dynamic types into `Any` containers and out of existential ones: a value
// that fits the container's buffer is copied into it by its own `initializeWithCopy`
// (TargetOpaqueExistentialContainer in include/swift/ABI/Metadata.h), a larger one into a
// heap box (`swift_allocBox`, include/swift/Runtime/HeapObject.h: the value follows the
// 16-byte HeapObject header, rounded up to the value's alignment), and a container of a
// container is projected to the innermost value.

extension OpaqueValueAccess {
    /// What an existential value holds: the dynamic type of its innermost value, and the witness
    /// tables of its outermost container's protocols that witness that value's conformances.
    /// - Parameter value: A value of existential type.
    /// - Returns: `nil` when `T` is not an existential type (kind `Existential`).
    static func existentialContents<T>(
        of value: T
    ) -> (dynamicType: MetadataReference, tables: [(ProtocolReference, WitnessTableReference)])? {
        let type = MetadataReference(T.self)
        if type.rawKind == MetadataKind.extendedExistential.rawValue {
            // A constrained existential whose container is laid out here (opaque or class).
            return unsafe withUnsafePointer(to: value) { pointer in
                let address = unsafe UnsafeRawPointer(pointer)
                guard let tables = unsafe ExistentialContainerLayout.constrainedWitnessTables(address, type: type)
                else { return nil }
                let (_, dynamicType) = unsafe ExistentialContainerLayout.project(address, type: type)
                return unsafe (
                    dynamicType,
                    tables.map { unsafe (ProtocolReference($0.protocolDescriptor), WitnessTableReference($0.table)) }
                )
            }
        }
        guard type.rawKind == MetadataKind.existential.rawValue else { return nil }
        return unsafe withUnsafePointer(to: value) { pointer in
            let address = unsafe UnsafeRawPointer(pointer)
            let (_, dynamicType) = unsafe ExistentialContainerLayout.project(address, type: type)
            let tables = unsafe ExistentialContainerLayout.innermostWitnessTables(address, type: type).map {
                unsafe (ProtocolReference($0.protocolDescriptor), WitnessTableReference($0.table))
            }
            return (dynamicType, tables)
        }
    }

    /// Copies the value an existential holds, through nested containers, into an `Any`.
    /// - Parameter value: A value, of existential type or not.
    /// - Returns: The innermost value, copied.
    static func projectedCopy<T>(of value: T) -> Any {
        unsafe withUnsafePointer(to: value) { unsafe copyAny(at: UnsafeRawPointer($0), type: T.self) }
    }

    /// Copies the value of a dynamic type out of memory into an `Any`.
    /// - Parameters:
    ///   - address: The value's address.
    ///   - type: Its type.
    /// - Returns: A copy.
    static func copyAny(at address: UnsafeRawPointer, type: Any.Type) -> Any {
        unsafe copyAny(at: address, metadata: MetadataReference(type))
    }

    /// Copies the value of a dynamic type out of memory into an `Any`.
    /// - Parameters:
    ///   - address: The value's address.
    ///   - metadata: Its type.
    /// - Returns: A copy.
    @usableFromInline
    @inline(__always)
    static func copyAny(at address: UnsafeRawPointer, metadata: MetadataReference) -> Any {
        if metadata.rawKind != MetadataKind.existential.rawValue,
            metadata.rawKind != MetadataKind.extendedExistential.rawValue,
            let table = unsafe MetadataLayout(metadata.address).valueWitnesses,
            unsafe !table.flags.contains(ValueWitnessFlags.isNonInline),
            unsafe !table.flags.contains(ValueWitnessFlags.isNonCopyable)
        {
            // A value that fits the container's buffer (TargetOpaqueExistentialContainer in
            // include/swift/ABI/Metadata.h): copied into it by its own `initializeWithCopy`,
            // the metadata stored after it. `()` occupies nothing, so nothing is overwritten.
            var result: Any = ()
            unsafe withUnsafeMutablePointer(to: &result) { container in
                let buffer = UnsafeMutableRawPointer(container)
                guard unsafe table.flags.contains(ValueWitnessFlags.isNonPOD) else {
                    // Plain data (`IsNonPOD` clear in include/swift/ABI/ValueWitnessTable.h).
                    unsafe storePlainValue(from: address, size: table.size, metadata: metadata, into: buffer)
                    return
                }
                unsafe RuntimeEntryPoints.callCopyWitness(
                    table.witness(.initializeWithCopy),
                    destination: buffer,
                    source: UnsafeMutableRawPointer(mutating: address),
                    metadata: metadata.address
                )
                unsafe buffer.storeBytes(
                    of: metadata.address,
                    toByteOffset: ExistentialContainerLayout.opaqueMetadataOffset,
                    as: UnsafeRawPointer.self
                )
            }
            return result
        }
        // Out of line, so that the path above stays as small as it is.
        return unsafe copyOutOfBuffer(at: address, metadata: metadata)
    }

    /// ``copyAny(at:metadata:)`` for the values its buffer does not hold: a value of
    /// existential type is copied as the value it holds, as `as Any` does in non-generic code,
    /// so that the `Any` is never a container of a container; any other is copied into a box.
    /// - Parameters:
    ///   - address: The value's address.
    ///   - metadata: Its type.
    /// - Returns: A copy.
    @inline(never)
    private static func copyOutOfBuffer(at address: UnsafeRawPointer, metadata: MetadataReference) -> Any {
        if metadata.rawKind != MetadataKind.existential.rawValue,
            metadata.rawKind != MetadataKind.extendedExistential.rawValue,
            let table = unsafe MetadataLayout(metadata.address).valueWitnesses,
            unsafe !table.flags.contains(ValueWitnessFlags.isNonCopyable)
        {
            return unsafe copyIntoBox(at: address, metadata: metadata, witnesses: table)
        }
        let (value, dynamicType) = unsafe ExistentialContainerLayout.project(address, type: metadata)
        func copy<T>(_: T.Type) -> Any {
            unsafe value.assumingMemoryBound(to: T.self).pointee
        }
        return _openExistential(dynamicType.metatype, do: copy)
    }

    /// Copies a value too large for an `Any`'s buffer, or not bitwise-takable, into a heap box
    /// that the buffer's first word refers to, as the compiler's
    /// `allocateBoxForExistentialInBuffer` makes it (`swift_allocBox`,
    /// include/swift/Runtime/HeapObject.h): the value copied into the box by its own
    /// `initializeWithCopy`. The box, returned retained, is the `Any`'s to release.
    /// - Parameters:
    ///   - address: The value's address.
    ///   - metadata: Its type, neither an existential nor noncopyable.
    ///   - witnesses: Its value witnesses.
    /// - Returns: A copy.
    @inline(never)
    private static func copyIntoBox(
        at address: UnsafeRawPointer,
        metadata: MetadataReference,
        witnesses: ValueWitnessTableLayout
    ) -> Any {
        var result: Any = ()
        unsafe withUnsafeMutablePointer(to: &result) { container in
            let buffer = UnsafeMutableRawPointer(container)
            let (box, value) = unsafe RuntimeEntryPoints.allocateBox(for: metadata.address)
            unsafe RuntimeEntryPoints.callCopyWitness(
                witnesses.witness(.initializeWithCopy),
                destination: value,
                source: UnsafeMutableRawPointer(mutating: address),
                metadata: metadata.address
            )
            unsafe buffer.storeBytes(of: box, as: UnsafeMutableRawPointer.self)
            unsafe buffer.storeBytes(
                of: metadata.address,
                toByteOffset: ExistentialContainerLayout.opaqueMetadataOffset,
                as: UnsafeRawPointer.self
            )
        }
        return result
    }

    /// The value an `Any` holds through the containers nested in it, copied, when the value it
    /// holds is itself an existential: generic code that returns a `T` as `Any`, with `T` bound
    /// to `Any` or `any P`, stores the container as the value (`as?` looks through it,
    /// `tryCastUnwrappingExistentialSource` in stdlib/public/runtime/DynamicCast.cpp).
    /// - Parameter value: The value.
    /// - Returns: The innermost value, or `nil` when the `Any` holds no existential.
    static func nestedExistentialValue(in value: borrowing Any) -> Any? {
        unsafe withUnsafePointer(to: value) { container in
            let address = unsafe UnsafeRawPointer(container)
            guard
                let stored = unsafe address.pointer(at: ExistentialContainerLayout.opaqueMetadataOffset),
                unsafe ExistentialContainerLayout.shape(of: MetadataReference(stored)) != nil
            else { return nil }
            // copyAny projects a container of a container to the innermost value.
            return unsafe copyAny(at: address, type: Any.self)
        }
    }

    /// The offset of a boxed value inside a heap box (a `swift_allocBox` box, an indirect
    /// payload's box, an existential's out-of-line buffer): after the `HeapObject` header
    /// (metadata and reference counts, include/swift/Runtime/HeapObject.h), rounded up to the
    /// value's alignment.
    static func boxValueOffset(_ type: MetadataReference) -> Int {
        let alignment = ValueWitnessFlags(rawValue: type.valueWitnesses.flags).alignment
        let header = 2 * MemoryLayout<UInt>.size
        return (header + alignment - 1) & ~(alignment - 1)
    }
}
