// BorrowedValue.swift
//
// A value's address and static type, taken in the caller's specialization, so that the
// questions asked of the value run in non-generic code. In an unspecialized generic function,
// `withUnsafePointer(to:)` is an out-of-line generic call with a closure; a public entry point
// that is `@inlinable` takes the address where the caller knows the type (often a concrete
// `Any` local) and passes it on as two words. The container layouts read through it are those
// of include/swift/ABI/Metadata.h (TargetOpaqueExistentialContainer and its relatives).

/// The address of a borrowed value and its static type, valid for the duration of the call
/// that lends it (``OpaqueValueAccess/withBorrowedValue(_:_:)``).
@usableFromInline
@safe
struct BorrowedValue {
    /// The value's storage.
    @usableFromInline
    let address: UnsafeRawPointer
    /// The value's static type: the type itself, or an existential holding it.
    @usableFromInline
    let staticType: MetadataReference

    /// A borrowed value.
    /// - Parameters:
    ///   - address: The value's storage, valid while the value is borrowed.
    ///   - staticType: Its static type.
    @inlinable
    @inline(__always)
    init(address: UnsafeRawPointer, staticType: MetadataReference) {
        unsafe self.address = address
        self.staticType = staticType
    }

    /// The tag of the enum value this is or holds, read in place: the value itself when its
    /// static type is the enum, else the value its existential containers hold, projected however
    /// deeply they nest.
    /// - Parameter metadata: The enum's metadata.
    /// - Returns: The tag, or `nil` when the value is of another type or the type has no enum
    ///   witnesses.
    func enumTag(of metadata: MetadataReference) -> Int? {
        guard let witnesses = unsafe OpaqueValueAccess.enumWitnesses(metadata) else { return nil }
        var value = unsafe address
        if staticType != metadata {
            if staticType == Self.anyType,
                unsafe address.load(fromByteOffset: ExistentialContainerLayout.opaqueMetadataOffset, as: UInt.self)
                    == UInt(bitPattern: metadata.address)
            {
                // An `Any` holding the enum itself, the commonest container, read without the
                // general projection: the value is in the buffer, or in the box the buffer's
                // first word refers to, as the enum's own flags (already loaded) say.
                if unsafe witnesses.flags.contains(ValueWitnessFlags.isNonInline) {
                    guard let box = unsafe address.pointer(at: 0) else { return nil }
                    unsafe value = box + OpaqueValueAccess.boxValueOffset(metadata)
                }
            } else {
                let (projected, dynamicType) = unsafe ExistentialContainerLayout.project(address, type: staticType)
                guard dynamicType == metadata else { return nil }
                unsafe value = projected
            }
        }
        return unsafe RuntimeEntryPoints.callGetEnumTag(
            witnesses.witness(.getEnumTag),
            value: value,
            metadata: metadata.address
        )
    }
}

extension BorrowedValue {
    /// The tag of the value as a value of its static type, when that type has enum witnesses
    /// (an enum or an optional): ``enumTag(of:)`` for the value's own type, inlined.
    /// - Returns: The tag, or `nil` when the static type is not an enum.
    @inline(__always)
    func ownEnumTag() -> Int? {
        guard let witnesses = unsafe OpaqueValueAccess.enumWitnesses(staticType) else { return nil }
        return unsafe RuntimeEntryPoints.callGetEnumTag(
            witnesses.witness(.getEnumTag),
            value: address,
            metadata: staticType.address
        )
    }

    /// `Any`'s metadata.
    private static var anyType: MetadataReference { MetadataReference(Any.self) }
}

extension OpaqueValueAccess {
    /// Lends a value to `body` as its address and static type.
    /// - Parameters:
    ///   - value: The value.
    ///   - body: Receives the value's address and type; the address is valid only during the
    ///     call.
    /// - Returns: What `body` returns.
    @inlinable
    @inline(__always)
    static func withBorrowedValue<T, R>(_ value: borrowing T, _ body: (BorrowedValue) -> R) -> R {
        unsafe withUnsafePointer(to: value) { pointer in
            unsafe body(BorrowedValue(address: UnsafeRawPointer(pointer), staticType: MetadataReference(T.self)))
        }
    }
}
