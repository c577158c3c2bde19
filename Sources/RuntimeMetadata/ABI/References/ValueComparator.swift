// ValueComparator.swift
//
// Layout equality over raw value storage. A comparator is built once per type from the
// safe field model (offsets, kinds, conformances) and then compares two values' storage
// without allocating: bytes for plain data, `==` for Equatable types, object identity for
// class references, tag then payload for enums (projected on stack copies through the enum
// value witnesses of swiftlang/swift include/swift/ABI/ValueWitness.def), and the dynamic
// type then the value for existentials.

/// Compares two values of one type through their storage.
class ValueComparator: @unchecked Sendable {
    // @unchecked: every subclass is immutable after init; the stored metadata handles are
    // read-only references into the runtime's metadata.

    /// Compares the values at two addresses.
    /// - Parameters:
    ///   - lhs: The first value's storage.
    ///   - rhs: The second value's storage.
    /// - Returns: Whether the values are equal.
    func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool { false }

    /// Compares two values of a static type.
    /// - Parameters:
    ///   - lhs: The first value.
    ///   - rhs: The second value.
    /// - Returns: Whether the values are equal.
    @inline(__always)
    final func compare<T>(_ lhs: T, _ rhs: T) -> Bool {
        unsafe withUnsafePointer(to: lhs) { left in
            unsafe withUnsafePointer(to: rhs) { right in
                unsafe equals(UnsafeRawPointer(left), UnsafeRawPointer(right))
            }
        }
    }

    /// A comparator that calls a type's own `==` on the values in place, through the witness
    /// table of its `Equatable` conformance: no copy of either value, unlike a generic
    /// `lhs.pointee == rhs.pointee`, which copies both through their value witnesses.
    /// - Parameters:
    ///   - metadata: The Equatable type.
    ///   - witnessTable: Its `Equatable` witness table.
    ///   - requirement: The index of the `==` requirement in the protocol descriptor.
    /// - Returns: The comparator, or `nil` when the table has no such witness.
    static func equatable(
        _ metadata: MetadataReference,
        witnessTable: WitnessTableReference,
        requirement: Int
    ) -> ValueComparator? {
        guard let witness = unsafe witnessTable.witness(requirement: requirement) else { return nil }
        return unsafe EqualsWitnessComparator(metadata: metadata, witnessTable: witnessTable, witness: witness)
    }

    /// A comparator of byte ranges.
    /// - Parameter ranges: The ranges of the storage that hold data.
    /// - Returns: The comparator.
    static func bytes(_ ranges: [Range<Int>]) -> ValueComparator { BytesComparator(ranges) }

    /// A comparator of the object references stored in the first word.
    static var identity: ValueComparator { IdentityComparator() }

    /// A comparator of stored properties, each at its offset.
    /// - Parameter fields: Each field's offset and comparator.
    /// - Returns: The comparator.
    static func fields(_ fields: [(offset: Int, comparator: ValueComparator)]) -> ValueComparator {
        FieldsComparator(fields)
    }

    /// A comparator of enum values: the tags, then the payloads of the matching case.
    /// - Parameters:
    ///   - metadata: The enum's metadata.
    ///   - payloads: One entry per tag: the payload comparator and indirection, or `nil` for an empty case.
    /// - Returns: The comparator.
    static func enumeration(
        _ metadata: MetadataReference,
        payloads: [(comparator: ValueComparator, isIndirect: Bool, type: MetadataReference)?]
    ) -> ValueComparator {
        EnumComparator(metadata, payloads: payloads)
    }

    /// A comparator that asks for the real one on each comparison.
    /// - Parameter resolve: Returns the comparator; expected to be a cache lookup.
    /// - Returns: The comparator.
    static func deferred(_ resolve: @escaping @Sendable () -> ValueComparator) -> ValueComparator {
        DeferredComparator(resolve)
    }

    /// A comparator of opaque existential containers (`Any`, `any P`): the dynamic types, then the values.
    /// - Parameter resolve: Returns the comparator of a dynamic type.
    /// - Returns: The comparator.
    static func existential(_ resolve: @escaping @Sendable (MetadataReference) -> ValueComparator) -> ValueComparator {
        ExistentialComparator(resolve)
    }
}

/// A comparator found when first needed, so that recursive types (indirect enums, classes
/// holding their own type) can refer to their own comparator.
private final class DeferredComparator: ValueComparator, @unchecked Sendable {
    let resolve: @Sendable () -> ValueComparator

    init(_ resolve: @escaping @Sendable () -> ValueComparator) {
        self.resolve = resolve
    }

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
        unsafe resolve().equals(lhs, rhs)
    }
}

/// `==` of an Equatable type, called through its witness.
@safe
private final class EqualsWitnessComparator: ValueComparator, @unchecked Sendable {
    let metadata: MetadataReference
    let witnessTable: WitnessTableReference
    nonisolated(unsafe) let witness: UnsafeRawPointer

    init(metadata: MetadataReference, witnessTable: WitnessTableReference, witness: UnsafeRawPointer) {
        self.metadata = metadata
        self.witnessTable = witnessTable
        unsafe self.witness = witness
    }

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
        unsafe RuntimeEntryPoints.callEquals(
            witness,
            lhs,
            rhs,
            metadata: metadata.address,
            witnessTable: witnessTable.address
        )
    }
}

/// Byte ranges compared word by word.
private final class BytesComparator: ValueComparator, @unchecked Sendable {
    let ranges: [Range<Int>]

    init(_ ranges: [Range<Int>]) {
        self.ranges = ranges
    }

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
        unsafe OpaqueValueAccess.bytesEqual(lhs, rhs, ranges: ranges)
    }
}

/// Object identity of a strong reference.
private final class IdentityComparator: ValueComparator, @unchecked Sendable {
    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
        unsafe lhs.read(at: 0, as: UInt.self) == rhs.read(at: 0, as: UInt.self)
    }
}

/// Stored properties, each compared by its own comparator.
private final class FieldsComparator: ValueComparator, @unchecked Sendable {
    let offsets: [Int]
    let comparators: [ValueComparator]

    init(_ fields: [(offset: Int, comparator: ValueComparator)]) {
        self.offsets = fields.map(\.offset)
        self.comparators = fields.map(\.comparator)
    }

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
        for index in offsets.indices {
            let offset = offsets[index]
            if unsafe !comparators[index].equals(lhs + offset, rhs + offset) { return false }
        }
        return true
    }
}

/// Tags, then payloads projected from stack copies.
private final class EnumComparator: ValueComparator, @unchecked Sendable {
    let metadata: MetadataReference
    let payloads: [(comparator: ValueComparator, isIndirect: Bool, type: MetadataReference)?]
    let size: Int
    let alignment: Int

    init(
        _ metadata: MetadataReference,
        payloads: [(comparator: ValueComparator, isIndirect: Bool, type: MetadataReference)?]
    ) {
        self.metadata = metadata
        self.payloads = payloads
        let witnesses = metadata.valueWitnesses
        self.size = max(witnesses.size, 1)
        self.alignment = ValueWitnessFlags(rawValue: witnesses.flags).alignment
    }

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
        guard let table = unsafe MetadataLayout(metadata.address).valueWitnesses,
            unsafe table.flags.contains(ValueWitnessFlags.hasEnumWitnesses)
        else { return false }
        let getTag = unsafe table.witness(.getEnumTag)
        let leftTag = unsafe RuntimeEntryPoints.callGetEnumTag(getTag, value: lhs, metadata: metadata.address)
        let rightTag = unsafe RuntimeEntryPoints.callGetEnumTag(getTag, value: rhs, metadata: metadata.address)
        guard leftTag == rightTag else { return false }
        guard leftTag < payloads.count, let payload = payloads[leftTag] else { return true }
        let copy = unsafe table.witness(.initializeWithCopy)
        let destroy = unsafe table.witness(.destroy)
        let project = unsafe table.witness(.destructiveProjectEnumData)
        let inject = unsafe table.witness(.destructiveInjectEnumTag)
        return unsafe withUnsafeTemporaryAllocation(byteCount: size * 2, alignment: alignment) { buffer in
            let left = buffer.baseAddress!
            let right = unsafe left + size
            unsafe RuntimeEntryPoints.callCopyWitness(
                copy,
                destination: left,
                source: UnsafeMutableRawPointer(mutating: lhs),
                metadata: metadata.address
            )
            unsafe RuntimeEntryPoints.callCopyWitness(
                copy,
                destination: right,
                source: UnsafeMutableRawPointer(mutating: rhs),
                metadata: metadata.address
            )
            unsafe RuntimeEntryPoints.callProjectEnumData(project, value: left, metadata: metadata.address)
            unsafe RuntimeEntryPoints.callProjectEnumData(project, value: right, metadata: metadata.address)
            var leftPayload = UnsafeRawPointer(left)
            var rightPayload = UnsafeRawPointer(right)
            if payload.isIndirect {
                let alignment = ValueWitnessFlags(rawValue: payload.type.valueWitnesses.flags).alignment
                let offset = (16 + alignment - 1) & ~(alignment - 1)
                unsafe leftPayload = unsafe UnsafeRawPointer(left).pointer(at: 0)! + offset
                unsafe rightPayload = unsafe UnsafeRawPointer(right).pointer(at: 0)! + offset
            }
            let result = unsafe payload.comparator.equals(leftPayload, rightPayload)
            unsafe RuntimeEntryPoints.callInjectEnumTag(inject, value: left, tag: leftTag, metadata: metadata.address)
            unsafe RuntimeEntryPoints.callInjectEnumTag(inject, value: right, tag: rightTag, metadata: metadata.address)
            unsafe RuntimeEntryPoints.callDestroyWitness(destroy, value: left, metadata: metadata.address)
            unsafe RuntimeEntryPoints.callDestroyWitness(destroy, value: right, metadata: metadata.address)
            return result
        }
    }
}

/// Opaque existential containers: three buffer words, the dynamic type, then witness tables.
private final class ExistentialComparator: ValueComparator, @unchecked Sendable {
    let resolve: @Sendable (MetadataReference) -> ValueComparator

    init(_ resolve: @escaping @Sendable (MetadataReference) -> ValueComparator) {
        self.resolve = resolve
    }

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
        // TargetOpaqueExistentialContainer: ValueBuffer (3 words), then `const Metadata *Type`.
        guard let leftType = unsafe lhs.pointer(at: 24), let rightType = unsafe rhs.pointer(at: 24) else {
            return unsafe lhs.pointer(at: 24) == rhs.pointer(at: 24)
        }
        guard unsafe leftType == rightType else { return false }
        let type = unsafe MetadataReference(leftType)
        let flags = ValueWitnessFlags(rawValue: type.valueWitnesses.flags)
        var left = unsafe lhs
        var right = unsafe rhs
        if flags.contains(ValueWitnessFlags.isNonInline) {
            // Out of line: the first word is a box whose value follows the heap header.
            let offset = (16 + flags.alignment - 1) & ~(flags.alignment - 1)
            unsafe left = unsafe lhs.pointer(at: 0)! + offset
            unsafe right = unsafe rhs.pointer(at: 0)! + offset
        }
        return unsafe resolve(type).equals(left, right)
    }
}
