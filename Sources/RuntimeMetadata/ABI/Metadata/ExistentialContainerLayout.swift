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
// not one, at any depth, as the runtime's casts do (each level is a container the program
// built, held by the one outside it, so the chain ends).

/// The projection of a value through the existential containers that hold it.
@unsafe
struct ExistentialContainerLayout {
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
        while let (value, valueType) = unsafe projectOneLevel(address, type: type) {
            unsafe address = value
            type = valueType
        }
        return unsafe (address, type)
    }

    /// The value one container holds and the type it stores for it, which may itself be an
    /// existential: the value's address in the buffer or box and the stored metadata (opaque),
    /// the reference word and the object's class (class-bound), the value in the error box and
    /// its type (`any Error`).
    /// - Parameters:
    ///   - address: The address of a value of `type`.
    ///   - type: The value's static type.
    /// - Returns: The value's address and type, or `nil` when `type` is not an existential whose
    ///   container is laid out here, or the container is empty.
    static func projectOneLevel(_ address: UnsafeRawPointer, type: MetadataReference) -> (
        UnsafeRawPointer, MetadataReference
    )? {
        switch unsafe shape(of: type) {
        case .opaque?:
            return unsafe projectOpaque(address)
        case .classBound?:
            // The first word is the object, which is the value.
            guard let object = unsafe address.pointer(at: 0) else { return nil }
            return unsafe (address, MetadataReference(RuntimeEntryPoints.objectType(of: object)))
        case .error?:
            guard let box = unsafe address.pointer(at: 0),
                let (value, valueType) = unsafe RuntimeEntryPoints.errorValue(in: box)
            else { return nil }
            return unsafe (value, MetadataReference(valueType))
        case .other?, nil:
            return nil
        }
    }

    /// How an existential type's container holds its value.
    enum Shape {
        /// A three-word buffer, then the metadata and witness tables (`Any`, `any P`, and a
        /// constrained existential of opaque shape).
        case opaque
        /// The object, then the witness tables (`AnyObject`, `any CP`, a class-constrained
        /// constrained existential).
        case classBound
        /// The `any Error` box.
        case error
        /// A constrained existential of another shape (an existential metatype).
        case other
    }

    /// The shape of an existential type's container, from its flags (or, for a constrained
    /// existential, its shape's special kind).
    /// - Parameter type: A type.
    /// - Returns: The shape, or `nil` when the type is not existential.
    static func shape(of type: MetadataReference) -> Shape? {
        if type.rawKind == MetadataKind.extendedExistential.rawValue {
            switch unsafe ExtendedExistentialTypeMetadataLayout(type.address).specialKind {
            case .none?: return .opaque
            case .class?: return .classBound
            default: return .other
            }
        }
        guard type.rawKind == MetadataKind.existential.rawValue else { return nil }
        let flags = unsafe ExistentialTypeMetadataLayout(type.address).flags
        let special =
            (flags & ExistentialTypeMetadataLayout.Flag.specialProtocolMask)
            >> ExistentialTypeMetadataLayout.Flag.specialProtocolShift
        if unsafe special == errorSpecialProtocol { return .error }
        return flags & ExistentialTypeMetadataLayout.Flag.classConstraintMask == 0 ? .classBound : .opaque
    }

    /// The value that opaque containers hold, made writable without their copies seeing the
    /// write: each box on the way is made unique (`swift_makeBoxUnique`, copied when shared),
    /// as the compiler does to mutate an opened existential, and a value held inline in a
    /// container is in the caller's own memory.
    ///
    /// Only opaque containers are followed (`Any`, `any P`, a constrained existential of opaque
    /// shape). A class-bound container holds a reference, whose object a write changes for
    /// every holder, as a property write on the object does; an `any Error` box is immutable.
    /// For those, and for a container with no value, the result is `nil`.
    /// - Parameters:
    ///   - address: The address of a value of `type`, which the caller may write.
    ///   - type: The value's static type.
    /// - Returns: The address of the value to write and its type, or `nil`.
    static func projectForWriting(_ address: UnsafeMutableRawPointer, type: MetadataReference) -> (
        UnsafeMutableRawPointer, MetadataReference
    )? {
        var address = unsafe address
        var type = type
        while true {
            guard let shape = unsafe shape(of: type) else { return unsafe (address, type) }
            guard shape == .opaque else { return nil }
            guard let stored = unsafe UnsafeRawPointer(address).pointer(at: opaqueMetadataOffset) else { return nil }
            let dynamicType = unsafe MetadataReference(stored)
            let flags = ValueWitnessFlags(rawValue: dynamicType.valueWitnesses.flags)
            if flags.rawValue & ValueWitnessFlags.isNonInline != 0 {
                guard unsafe UnsafeRawPointer(address).pointer(at: 0) != nil else { return nil }
                unsafe address = RuntimeEntryPoints.makeBoxUnique(
                    address,
                    metadata: stored,
                    alignMask: UInt(flags.alignment - 1)
                )
            }
            type = dynamicType
        }
    }

    /// The value an opaque container holds, in its buffer or in its box, and its type.
    /// - Parameter address: The container's address.
    /// - Returns: The value's address and dynamic type, or `nil` for an empty container.
    private static func projectOpaque(_ address: UnsafeRawPointer) -> (UnsafeRawPointer, MetadataReference)? {
        guard let stored = unsafe address.pointer(at: opaqueMetadataOffset) else { return nil }
        let dynamicType = unsafe MetadataReference(stored)
        if dynamicType.valueWitnesses.flags & ValueWitnessFlags.isNonInline != 0 {
            guard let box = unsafe address.pointer(at: 0) else { return nil }
            return unsafe (box + OpaqueValueAccess.boxValueOffset(dynamicType), dynamicType)
        }
        return unsafe (address, dynamicType)
    }

    /// The witness tables that the outermost container of an existential value stores, each
    /// with the protocol it witnesses, in the existential's protocol order: after the
    /// three-word buffer and the metadata in an opaque container, after the object in a
    /// class-bound one, and the box's `Error` conformance for `any Error`.
    /// - Parameters:
    ///   - address: The address of a value of existential type `type`.
    ///   - type: The existential type (kind `Existential`).
    /// - Returns: The protocols and tables; empty for `Any` and `AnyObject`.
    static func witnessTables(
        _ address: UnsafeRawPointer,
        type: MetadataReference
    ) -> [(protocolDescriptor: UnsafeRawPointer, table: UnsafeRawPointer)] {
        if type.rawKind == MetadataKind.extendedExistential.rawValue {
            return unsafe constrainedWitnessTables(address, type: type) ?? []
        }
        guard type.rawKind == MetadataKind.existential.rawValue else { return unsafe [] }
        let layout = unsafe ExistentialTypeMetadataLayout(type.address)
        let flags = unsafe layout.flags
        let protocols = unsafe layout.protocols
        let shape = unsafe shape(of: type)
        if shape == .error {
            guard let box = unsafe address.pointer(at: 0), let only = unsafe protocols.first,
                let table = unsafe RuntimeEntryPoints.errorConformance(in: box)
            else { return unsafe [] }
            return unsafe [(only, table)]
        }
        let count = Int(flags & ExistentialTypeMetadataLayout.Flag.numWitnessTablesMask)
        let isClassBound = shape == .classBound
        let firstTable = unsafe isClassBound ? MemoryLayout<UInt>.size : opaqueMetadataOffset + MemoryLayout<UInt>.size
        // Every protocol of the list needs a table (marker protocols are not in the list; an
        // Objective-C protocol would have none): a mismatch means a layout this code does not
        // know, and no table is returned rather than a wrong pairing.
        guard unsafe count == protocols.count else { return unsafe [] }
        return unsafe (0..<count).compactMap { index in
            guard let table = unsafe address.pointer(at: firstTable + index * MemoryLayout<UInt>.size) else {
                return nil
            }
            return unsafe (protocols[index], table)
        }
    }

    /// The witness tables that witness the conformances of the value a container holds at its
    /// innermost level, one for each protocol of the outermost container's existential type.
    ///
    /// A container whose value is itself an existential stores the tables of that
    /// existential's conformances: generic code that stores an `any Error` as a `T: Error` in
    /// an `any Error` stores the self-conformance `Error: Error`, which does not witness the
    /// error inside. Each table is replaced by the one an inner container stores for the same
    /// protocol, level by level, so that the tables and the projected type belong together.
    /// - Parameters:
    ///   - address: The address of a value of existential type `type`.
    ///   - type: The existential type.
    /// - Returns: The protocols and tables, as ``witnessTables(_:type:)`` orders them.
    static func innermostWitnessTables(
        _ address: UnsafeRawPointer,
        type: MetadataReference
    ) -> [(protocolDescriptor: UnsafeRawPointer, table: UnsafeRawPointer)] {
        var tables = unsafe witnessTables(address, type: type)
        var level = unsafe projectOneLevel(address, type: type)
        while let (value, valueType) = unsafe level, unsafe shape(of: valueType) != nil {
            let inner = unsafe witnessTables(value, type: valueType)
            for index in unsafe tables.indices {
                let protocolDescriptor = unsafe tables[index].protocolDescriptor
                if let match = unsafe inner.first(where: { unsafe $0.protocolDescriptor == protocolDescriptor }) {
                    unsafe tables[index].table = match.table
                }
            }
            unsafe level = projectOneLevel(value, type: valueType)
        }
        return unsafe tables
    }

    /// The witness tables a constrained existential's container stores: one per protocol
    /// requirement of its shape's requirement signature, in that order, after the dynamic
    /// type's metadata in an opaque container (TargetOpaqueExistentialContainer's
    /// `getWitnessTables`) and after the object in a class one, as the runtime's cast to an
    /// extended existential fills them (`tryCastToExtendedExistential` in
    /// stdlib/public/runtime/DynamicCast.cpp).
    /// - Parameters:
    ///   - address: The address of a value of the extended existential type.
    ///   - type: The extended existential type.
    /// - Returns: The protocols and tables, or `nil` for a kind whose container this code does
    ///   not lay out (a metatype, an explicit layout) or a requirement it cannot pair.
    static func constrainedWitnessTables(
        _ address: UnsafeRawPointer,
        type: MetadataReference
    ) -> [(protocolDescriptor: UnsafeRawPointer, table: UnsafeRawPointer)]? {
        let layout = unsafe ExtendedExistentialTypeMetadataLayout(type.address)
        guard let shape = unsafe layout.shape, let kind = unsafe layout.specialKind else { return nil }
        let first: Int
        switch kind {
        case .none:
            // The three-word buffer, then the dynamic type's metadata.
            first = 4
        case .class:
            // The object.
            first = 1
        case .metatype, .explicitLayout:
            return nil
        }
        var tables: [(protocolDescriptor: UnsafeRawPointer, table: UnsafeRawPointer)] = unsafe []
        // Indexed: swift-format 6.3 joins the words of `for unsafe descriptor in`.
        let protocols = unsafe shape.requiredProtocols.protocols
        for index in unsafe protocols.indices {
            guard let descriptor = unsafe protocols[index],
                let table = unsafe address.pointer(at: (first + index) * MemoryLayout<UInt>.size)
            else { return nil }
            unsafe tables.append((descriptor, table))
        }
        return unsafe tables
    }

    /// `SpecialProtocol::Error` in `ExistentialTypeFlags`.
    private static var errorSpecialProtocol: UInt32 { 1 }

    /// The offset of the metadata in an opaque container, after the three-word buffer
    /// (`NumWords_ValueBuffer` in include/swift/ABI/MetadataValues.h).
    static var opaqueMetadataOffset: Int { 3 * MemoryLayout<UInt>.size }
}
