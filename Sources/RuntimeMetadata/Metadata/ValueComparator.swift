// ValueComparator.swift
//
// Layout equality over raw value storage. A comparator is built once per type from the
// safe field model (offsets, kinds, conformances) and then compares two values' storage
// without allocating: bytes for plain data, `==` for Equatable types, object identity for
// class references, tag then payload for enums (projected on stack copies through the enum
// value witnesses of swiftlang/swift include/swift/ABI/ValueWitness.def), and the dynamic
// type then the value for existentials (projected by ExistentialContainerLayout).
//
// A comparison that reaches a heap box (an indirect payload, an existential's out-of-line
// value) is not made in place but deferred to a work list, which the outermost call drains:
// the box belongs to the values being compared, so its contents outlive the step that found
// them. Values of unbounded depth (an indirect list of a million nodes) are therefore compared
// without recursion; only a value's inline structure, which its type bounds, recurses.

/// Comparisons deferred to the outermost call: a comparator and the two values' storage.
@unsafe
struct PendingComparisons {
    /// The comparisons to make; `nil` until the first is deferred, so that a comparison that
    /// defers none does not touch an array.
    private var items: [(comparator: ValueComparator, lhs: UnsafeRawPointer, rhs: UnsafeRawPointer)]? = nil

    /// Defers a comparison of two values in heap boxes owned by the values being compared.
    mutating func postpone(_ comparator: ValueComparator, _ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) {
        if unsafe items == nil { unsafe items = [] }
        unsafe items!.append((comparator, lhs, rhs))
    }

    /// Makes the deferred comparisons, and those they defer in turn, until one fails.
    /// - Returns: Whether every comparison succeeded.
    @inline(__always)
    mutating func drain() -> Bool {
        guard unsafe items != nil else { return true }
        return unsafe drainItems()
    }

    @inline(never)
    private mutating func drainItems() -> Bool {
        while let next = unsafe items?.popLast() {
            guard unsafe next.comparator.equals(next.lhs, next.rhs, &self) else { return false }
        }
        return true
    }
}

/// Compares two values of one type through their storage.
@usableFromInline
class ValueComparator: @unchecked Sendable {
    // @unchecked: every subclass is immutable after init; the stored metadata handles are
    // read-only references into the runtime's metadata.

    /// Compares the values at two addresses.
    /// - Parameters:
    ///   - lhs: The first value's storage.
    ///   - rhs: The second value's storage.
    ///   - pending: Receives the comparisons of values found in heap boxes.
    /// - Returns: `false` when the values differ; `true` when they are equal as far as compared
    ///   here, the deferred comparisons aside.
    func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ pending: inout PendingComparisons) -> Bool {
        false
    }

    /// Compares two values of a static type with the cached comparator of the type.
    ///
    /// Inlined into the caller, so that the values' addresses are taken in code specialized for
    /// `T`; the comparison itself is out of line.
    /// - Parameters:
    ///   - lhs: The first value.
    ///   - rhs: The second value.
    /// - Returns: Whether the values are equal.
    @inlinable
    @inline(__always)
    static func compare<T>(_ lhs: T, _ rhs: T) -> Bool {
        unsafe withUnsafePointer(to: lhs) { left in
            unsafe withUnsafePointer(to: rhs) { right in
                unsafe compareStorage(UnsafeRawPointer(left), UnsafeRawPointer(right), type: MetadataReference(T.self))
            }
        }
    }

    /// Compares two values of a type, at their addresses, with the type's cached comparator.
    /// - Parameters:
    ///   - lhs: The first value's storage.
    ///   - rhs: The second value's storage.
    ///   - type: The values' type.
    /// - Returns: Whether the values are equal.
    @usableFromInline
    static func compareStorage(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, type: MetadataReference) -> Bool {
        withCachedComparator(of: type) { comparator in
            var pending = unsafe PendingComparisons()
            guard unsafe comparator.equals(lhs, rhs, &pending) else { return false }
            return unsafe pending.drain()
        }
    }

    /// Calls `body` with the comparator of a type, without retaining it.
    ///
    /// The comparators of the types compared are kept in a word table of their own, keyed by
    /// metadata, whose slots hold the comparator's address: a warm lookup is one probe of a
    /// small table, with no entry object to load. A comparator is cached in its type's record
    /// for the life of the process, so the address stays valid.
    /// - Parameters:
    ///   - type: The type.
    ///   - body: Receives the comparator.
    /// - Returns: What `body` returns.
    @inline(__always)
    static func withCachedComparator<R>(of type: MetadataReference, _ body: (ValueComparator) -> R) -> R {
        let word = ConcurrentWordTable(.comparators).value(for: type.identity) ?? publishComparator(of: type)
        return unsafe Unmanaged<ValueComparator>.fromOpaque(UnsafeRawPointer(bitPattern: word).unsafelyUnwrapped)
            ._withUnsafeGuaranteedRef(body)
    }

    /// Publishes the comparator of a type compared for the first time.
    /// - Parameter type: The type.
    /// - Returns: The comparator's address.
    @inline(never)
    private static func publishComparator(of type: MetadataReference) -> UInt {
        let comparator = TypeMetadata(type).comparator
        let word = UInt(bitPattern: unsafe Unmanaged.passUnretained(comparator).toOpaque())
        return ConcurrentWordTable(.comparators).update(type.identity) { $0 ?? word }
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

    /// A comparator that compares the values' bits first, and stops there when they are
    /// identical.
    /// - Parameters:
    ///   - comparator: The comparison to make when the bits differ.
    ///   - size: The values' size in bytes.
    /// - Returns: The comparator; `comparator` itself when it compares bytes already.
    static func identicalBitsFirst(_ comparator: ValueComparator, size: Int) -> ValueComparator {
        if comparator is BytesComparator { return comparator }
        return IdenticalBitsComparator(comparator, size: size)
    }

    /// A comparator that asks for the real one on each comparison.
    /// - Parameter resolve: Returns the comparator; expected to be a cache lookup.
    /// - Returns: The comparator.
    static func deferred(_ resolve: @escaping @Sendable () -> ValueComparator) -> ValueComparator {
        DeferredComparator(resolve)
    }

    /// A comparator of existential containers of any kind: the dynamic types, then the values.
    /// - Parameters:
    ///   - type: The existential type.
    ///   - resolve: Returns the comparator of a dynamic type.
    /// - Returns: The comparator.
    static func existential(
        _ type: MetadataReference,
        _ resolve: @escaping @Sendable (MetadataReference) -> ValueComparator
    ) -> ValueComparator {
        ExistentialComparator(type, resolve)
    }
}

/// A comparator found when first needed, so that recursive types (indirect enums, classes
/// holding their own type) can refer to their own comparator.
private final class DeferredComparator: ValueComparator, @unchecked Sendable {
    let resolve: @Sendable () -> ValueComparator

    init(_ resolve: @escaping @Sendable () -> ValueComparator) {
        self.resolve = resolve
    }

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ pending: inout PendingComparisons) -> Bool
    {
        unsafe resolve().equals(lhs, rhs, &pending)
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

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ pending: inout PendingComparisons) -> Bool
    {
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

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ pending: inout PendingComparisons) -> Bool
    {
        unsafe OpaqueValueAccess.bytesEqual(lhs, rhs, ranges: ranges)
    }
}

/// Identical bits, then the structural comparison.
private final class IdenticalBitsComparator: ValueComparator, @unchecked Sendable {
    let comparator: ValueComparator
    let size: Int

    init(_ comparator: ValueComparator, size: Int) {
        self.comparator = comparator
        self.size = size
    }

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ pending: inout PendingComparisons) -> Bool
    {
        if unsafe OpaqueValueAccess.bytesEqual(lhs, rhs, count: size) { return true }
        return unsafe comparator.equals(lhs, rhs, &pending)
    }
}

/// Object identity of a strong reference.
private final class IdentityComparator: ValueComparator, @unchecked Sendable {
    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ pending: inout PendingComparisons) -> Bool
    {
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

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ pending: inout PendingComparisons) -> Bool
    {
        for index in offsets.indices {
            let offset = offsets[index]
            if unsafe !comparators[index].equals(lhs + offset, rhs + offset, &pending) { return false }
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

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ pending: inout PendingComparisons) -> Bool
    {
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
            let result: Bool
            if payload.isIndirect {
                // The copies share the originals' boxes: the payloads outlive the copies, so
                // their comparison is deferred rather than made in place.
                let offset = OpaqueValueAccess.boxValueOffset(payload.type)
                if let leftBox = unsafe UnsafeRawPointer(left).pointer(at: 0),
                    let rightBox = unsafe UnsafeRawPointer(right).pointer(at: 0)
                {
                    if unsafe leftBox != rightBox {
                        unsafe pending.postpone(payload.comparator, leftBox + offset, rightBox + offset)
                    }
                    result = true
                } else {
                    result = false
                }
            } else {
                result = unsafe payload.comparator.equals(UnsafeRawPointer(left), UnsafeRawPointer(right), &pending)
            }
            unsafe RuntimeEntryPoints.callInjectEnumTag(inject, value: left, tag: leftTag, metadata: metadata.address)
            unsafe RuntimeEntryPoints.callInjectEnumTag(inject, value: right, tag: rightTag, metadata: metadata.address)
            unsafe RuntimeEntryPoints.callDestroyWitness(destroy, value: left, metadata: metadata.address)
            unsafe RuntimeEntryPoints.callDestroyWitness(destroy, value: right, metadata: metadata.address)
            return result
        }
    }
}

/// Existential containers of every kind (`Any`, `any P`, class-bound, `any Error`), projected
/// to their values: the dynamic types, then the values by their own comparator. A value in a
/// box is compared later, from the work list.
private final class ExistentialComparator: ValueComparator, @unchecked Sendable {
    let type: MetadataReference
    /// The container's size: a projected value inside it is inline, one outside it is boxed.
    let size: Int
    let resolve: @Sendable (MetadataReference) -> ValueComparator

    init(_ type: MetadataReference, _ resolve: @escaping @Sendable (MetadataReference) -> ValueComparator) {
        self.type = type
        self.size = type.valueWitnesses.size
        self.resolve = resolve
    }

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ pending: inout PendingComparisons) -> Bool
    {
        let (left, leftType) = unsafe ExistentialContainerLayout.project(lhs, type: type)
        let (right, rightType) = unsafe ExistentialContainerLayout.project(rhs, type: type)
        guard leftType == rightType else { return false }
        // A container the projection does not open (a constrained existential metatype, such
        // as `any Sequence<Int>.Type`, holds a metadata pointer and its tables): its words.
        if leftType == type { return unsafe OpaqueValueAccess.bytesEqual(lhs, rhs, count: size) }
        // Two class instances: the same object, or equal by the class's own comparator.
        let comparator = resolve(leftType)
        let leftInline = unsafe left >= lhs && left < lhs + size
        let rightInline = unsafe right >= rhs && right < rhs + size
        if leftInline && rightInline { return unsafe comparator.equals(left, right, &pending) }
        if unsafe left == right { return true }
        unsafe pending.postpone(comparator, left, right)
        return true
    }
}
