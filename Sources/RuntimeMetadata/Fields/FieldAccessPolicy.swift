// FieldAccessPolicy.swift
//
// The vocabulary of field access that the Fields layer decides and the ABI layer's
// OpaqueValueAccess carries out: how a property holds its reference (from its mangled type's
// ownership suffix, include/swift/Demangling/DemangleNodes.def: weak, unowned and
// unowned(unsafe) storage), how a root of a given dynamic type reaches the property, and what an
// access found.

/// How a stored property holds its reference, from the mangled type's suffix.
enum StorageOwnership: Sendable {
    case strong, weak, unowned, unownedUnsafe
}

extension OpaqueValueAccess {
    /// How a root reaches a stored property, decided from the root's dynamic type.
    enum RootAccess {
        /// The root is a value of the declaring type: the property is at an offset in it.
        case inline
        /// The root is a class instance: the property is at an offset in the object.
        case object
    }

    /// Why a field read found no value.
    enum FieldReadFailure: Error {
        /// The root's dynamic type does not hold the property.
        case rootMismatch(MetadataReference)
        /// The property's reference could not be read as its type (a weak or unowned
        /// reference that does not convert), or an object root was null.
        case notReadable
    }

    /// What a field access found.
    enum FieldOutcome<Value> {
        /// The value read, or `()` for a write.
        case done(Value)
        /// The root's dynamic type does not hold the property.
        case rootMismatch(MetadataReference)
        /// The value does not cast to the requested or the property's type; nothing was written.
        case notCastable
    }
}
