// ExistentialContainerLayout.swift
//
// Mirrors the value containers of existential types in swiftlang/swift
// include/swift/ABI/Metadata.h: TargetOpaqueExistentialContainer (a three-word buffer, then
// the dynamic type's metadata and the witness tables), TargetClassExistentialContainer (the
// object, then the witness tables), and the one-word `any Error` box, whose value the runtime
// finds with swift_getErrorValue (include/swift/Runtime/Error.h). The projection follows
// TargetExistentialTypeMetadata::projectValue and getDynamicType
// (stdlib/public/runtime/ExistentialMetadataImpl.h, Metadata.cpp): an opaque container holds
// its value inline when the dynamic type's value witnesses say it fits (IsNonInline clear),
// otherwise in a heap box whose value follows the 16-byte HeapObject header, rounded up to
// the value's alignment. The value an existential holds may itself be an existential (generic
// code wraps an `Any` in an `Any`): the projection repeats until it reaches a value that is
// not one.

/// The projection of a value through the existential containers that hold it.
@unsafe
struct ExistentialContainerLayout {
    /// The deepest nesting of containers the projection follows. Each level is a real
    /// container the program built, so only a corrupted value reaches this.
    static var maximumNesting: Int { 1024 }

    /// The value a container holds, and its dynamic type.
    ///
    /// - For an opaque existential (`Any`, `any P`), the value's address (in the buffer or in
    ///   its box) and the stored metadata; nested containers are projected in turn.
    /// - For a class-bound existential (`AnyObject`, `any CP`, `any Base & P`), the address of
    ///   the reference word and the object's own class.
    /// - For `any Error`, the value inside the error box and its type.
    /// - Any other type is its own projection: `(address, type)`.
    ///
    /// The addresses stay valid while the outermost container is alive and unmodified.
    /// - Parameters:
    ///   - address: The address of a value of `type`.
    ///   - type: The value's static type.
    /// - Returns: The projected value's address and its dynamic type.
    static func project(_ address: UnsafeRawPointer, type: MetadataReference) -> (UnsafeRawPointer, MetadataReference) {
        var address = unsafe address
        var type = type
        var nesting = 0
        let limit = unsafe maximumNesting
        while type.rawKind == MetadataKind.existential.rawValue, nesting < limit {
            nesting += 1
            let flags = unsafe ExistentialTypeMetadataLayout(type.address).flags
            let special =
                (flags & ExistentialTypeMetadataLayout.Flag.specialProtocolMask)
                >> ExistentialTypeMetadataLayout.Flag.specialProtocolShift
            if unsafe special == errorSpecialProtocol {
                guard let box = unsafe address.pointer(at: 0),
                    let (value, valueType) = unsafe RuntimeEntryPoints.errorValue(in: box)
                else { break }
                unsafe address = value
                unsafe type = MetadataReference(valueType)
            } else if flags & ExistentialTypeMetadataLayout.Flag.classConstraintMask == 0 {
                // A class-bound container: the first word is the object, which is the value.
                guard let object = unsafe address.pointer(at: 0) else { break }
                unsafe type = MetadataReference(RuntimeEntryPoints.objectType(of: object))
            } else {
                guard let stored = unsafe address.pointer(at: opaqueMetadataOffset) else { break }
                let dynamicType = unsafe MetadataReference(stored)
                if dynamicType.valueWitnesses.flags & ValueWitnessFlags.isNonInline != 0 {
                    guard let box = unsafe address.pointer(at: 0) else { break }
                    unsafe address = box + OpaqueValueAccess.boxValueOffset(dynamicType)
                }
                type = dynamicType
            }
        }
        return unsafe (address, type)
    }

    /// `SpecialProtocol::Error` in `ExistentialTypeFlags`.
    private static var errorSpecialProtocol: UInt32 { 1 }

    /// The offset of the metadata in an opaque container, after the three-word buffer
    /// (`NumWords_ValueBuffer` in include/swift/ABI/MetadataValues.h).
    static var opaqueMetadataOffset: Int { 3 * MemoryLayout<UInt>.size }
}
