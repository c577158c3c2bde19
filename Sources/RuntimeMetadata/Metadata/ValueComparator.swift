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
///
/// Trivial until the first comparison is deferred: the list is an object made on the first
/// `postpone` and held unretained, so that a comparison that defers none costs no reference
/// counting. The outermost call ends every comparison with ``finish()``, which releases it.
@unsafe
struct PendingComparisons {
    /// The deferred comparisons.
    @unsafe
    private final class List {
        var items: [(comparator: ValueComparator, lhs: UnsafeRawPointer, rhs: UnsafeRawPointer)] = unsafe []
    }

    /// The list, retained once, or `nil` while nothing is deferred.
    private var list: Unmanaged<List>? = nil

    /// Defers a comparison of two values in heap boxes owned by the values being compared.
    mutating func postpone(_ comparator: ValueComparator, _ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) {
        if unsafe list == nil { unsafe list = Unmanaged.passRetained(List()) }
        unsafe list!._withUnsafeGuaranteedRef { unsafe $0.items.append((comparator, lhs, rhs)) }
    }

    /// Makes the deferred comparisons, and those they defer in turn, until one fails.
    /// - Returns: Whether every comparison succeeded.
    @inline(__always)
    mutating func drain() -> Bool {
        guard unsafe list != nil else { return true }
        return unsafe drainItems()
    }

    @inline(never)
    private mutating func drainItems() -> Bool {
        while let next = unsafe list?._withUnsafeGuaranteedRef({ unsafe $0.items.popLast() }) {
            guard unsafe next.comparator.equals(next.lhs, next.rhs, &self) else { return false }
        }
        return true
    }

    /// Releases the list, drained or not.
    @inline(__always)
    mutating func finish() {
        guard let made = unsafe list else { return }
        unsafe made.release()
        unsafe list = nil
    }
}

/// The entry point of layout equality: the cached comparator of a type, found and applied.
///
/// A type's comparator is kept in a word table of its own (``CacheTable/comparators``), keyed by
/// metadata, whose value is the comparator's address with four flags in its low bits, which an
/// object's alignment leaves free. The flags say what identical bits decide (alone, or unless a
/// stored floating-point number is a NaN) and whether the comparator is the type's own `==`, so
/// that the common case, a value compared with an unchanged copy of itself, is answered in the
/// caller's specialized code (one probe of a small table and a comparison of
/// `MemoryLayout<T>.size` bytes, with no call, or one call to look for NaNs), and an `Equatable`
/// type's `==` is called from there too.
@usableFromInline
enum LayoutEquality {
    /// Identical bits mean equal values (``ValueComparator/identicalBitsFirst(_:size:)``).
    @usableFromInline
    static var identicalBitsAreEqual: UInt { 1 }

    /// Different bits mean different values: the comparator compares every byte of the value.
    @usableFromInline
    static var differentBitsAreUnequal: UInt { 2 }

    /// The comparator calls the type's own `==` (``ValueComparator/equatable(_:witnessTable:requirement:unlessNaNAt:)``),
    /// which the caller calls directly rather than through the comparator.
    @usableFromInline
    static var callsEquals: UInt { 4 }

    /// Identical bits mean equal values unless a floating-point number the value stores is a
    /// NaN, which the comparator checks (``ValueComparator/holdsNaN(_:)``).
    @usableFromInline
    static var identicalBitsUnlessNaN: UInt { 8 }

    /// The flag bits of a table word: an object's address is a multiple of 16 (the runtime
    /// allocates objects with `malloc`, whose alignment is 16 on 64-bit platforms).
    @usableFromInline
    static var flagMask: UInt { 15 }

    /// Compares two values of a static type with the cached comparator of the type.
    ///
    /// Inlined into the caller, so that the table probe and the comparison of the values' bits
    /// run in code specialized for `T`; the comparator itself runs out of line.
    /// - Parameters:
    ///   - lhs: The first value.
    ///   - rhs: The second value.
    /// - Returns: Whether the values are equal.
    @inlinable
    @inline(__always)
    static func compare<T>(_ lhs: T, _ rhs: T) -> Bool {
        unsafe withUnsafePointer(to: lhs) { left in
            unsafe withUnsafePointer(to: rhs) { right in
                unsafe compare(
                    UnsafeRawPointer(left),
                    UnsafeRawPointer(right),
                    type: MetadataReference(T.self),
                    size: MemoryLayout<T>.size
                )
            }
        }
    }

    /// Compares two values of a type at their addresses: the identical-bits answer when the
    /// type's flags allow it, else the comparator.
    /// - Parameters:
    ///   - lhs: The first value's storage.
    ///   - rhs: The second value's storage.
    ///   - type: The values' type.
    ///   - size: Its size, known statically in a specialized caller.
    /// - Returns: Whether the values are equal.
    @inlinable
    @inline(__always)
    static func compare(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, type: MetadataReference, size: Int) -> Bool {
        let word = ConcurrentWordTable(.comparators).value(for: type.identity) ?? publishComparator(of: type)
        if word & identicalBitsAreEqual != 0 {
            if unsafe OpaqueValueAccess.bytesEqual(lhs, rhs, count: size) { return true }
            if word & differentBitsAreUnequal != 0 { return false }
        } else if word & identicalBitsUnlessNaN != 0, unsafe OpaqueValueAccess.bytesEqual(lhs, rhs, count: size),
            unsafe !holdsNaN(lhs, comparatorWord: word)
        {
            return true
        }
        if word & callsEquals != 0 {
            // The type's own `==`, called from here through its witness.
            return unsafe Unmanaged<EqualsWitnessComparator>.fromOpaque(
                UnsafeRawPointer(bitPattern: word & ~flagMask).unsafelyUnwrapped
            )._withUnsafeGuaranteedRef { unsafe $0.callEquals(lhs, rhs) }
        }
        return unsafe compareStorage(lhs, rhs, comparatorWord: word)
    }

    /// Whether a floating-point number in a value is a NaN, by the comparator in a table word
    /// (``identicalBitsUnlessNaN``): up to three slots in line, from the comparator's
    /// ``ValueComparator/packedNaNSlots``, any others out of line.
    /// - Parameters:
    ///   - value: The value's storage.
    ///   - comparatorWord: The comparator's table word.
    /// - Returns: `true` when identical bits do not make the value equal to another.
    @inlinable
    @inline(__always)
    static func holdsNaN(_ value: UnsafeRawPointer, comparatorWord: UInt) -> Bool {
        let packed = unsafe Unmanaged<ValueComparator>.fromOpaque(
            UnsafeRawPointer(bitPattern: comparatorWord & ~flagMask).unsafelyUnwrapped
        )._withUnsafeGuaranteedRef { $0.packedNaNSlots }
        guard packed != 0 else { return unsafe holdsNaNOutOfLine(value, comparatorWord: comparatorWord) }
        var offsets = packed >> 6
        for _ in 0..<(packed & 3) {
            if unsafe OpaqueValueAccess.isNaN(double: value, at: Int(truncatingIfNeeded: offsets & 0x3_FFFF)) {
                return true
            }
            offsets >>= 18
        }
        for _ in 0..<(packed >> 2 & 3) {
            if unsafe OpaqueValueAccess.isNaN(single: value, at: Int(truncatingIfNeeded: offsets & 0x3_FFFF)) {
                return true
            }
            offsets >>= 18
        }
        for _ in 0..<(packed >> 4 & 3) {
            if unsafe OpaqueValueAccess.isNaN(half: value, at: Int(truncatingIfNeeded: offsets & 0x3_FFFF)) {
                return true
            }
            offsets >>= 18
        }
        return false
    }

    /// ``holdsNaN(_:comparatorWord:)`` for slots that do not fit the packed form, out of line.
    /// - Parameters:
    ///   - value: The value's storage.
    ///   - comparatorWord: The comparator's table word.
    /// - Returns: `true` when identical bits do not make the value equal to another.
    @usableFromInline
    static func holdsNaNOutOfLine(_ value: UnsafeRawPointer, comparatorWord: UInt) -> Bool {
        unsafe Unmanaged<ValueComparator>.fromOpaque(
            UnsafeRawPointer(bitPattern: comparatorWord & ~flagMask).unsafelyUnwrapped
        )._withUnsafeGuaranteedRef { unsafe $0.holdsNaN(value) }
    }

    /// Compares two values with a comparator from the table: the comparator's structural
    /// comparison (the caller calls an `Equatable` type's `==` itself).
    /// - Parameters:
    ///   - lhs: The first value's storage.
    ///   - rhs: The second value's storage.
    ///   - comparatorWord: The comparator's table word.
    /// - Returns: Whether the values are equal.
    @usableFromInline
    static func compareStorage(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, comparatorWord: UInt) -> Bool {
        let comparator = unsafe Unmanaged<ValueComparator>.fromOpaque(
            UnsafeRawPointer(bitPattern: comparatorWord & ~flagMask).unsafelyUnwrapped
        )
        return unsafe comparator._withUnsafeGuaranteedRef { comparator in
            var pending = unsafe PendingComparisons()
            let equal = unsafe comparator.equals(lhs, rhs, &pending) && pending.drain()
            unsafe pending.finish()
            return equal
        }
    }

    /// Publishes the comparator of a type compared for the first time. A comparator is cached
    /// in its type's record for the life of the process, so its address stays valid.
    /// - Parameter type: The type.
    /// - Returns: The comparator's table word: its address and flags.
    @usableFromInline
    @inline(never)
    static func publishComparator(of type: MetadataReference) -> UInt {
        let metadata = TypeMetadata(type)
        // The entry's comparator is the type's cached comparator or one it holds, so it lives
        // as long as the type's record, that is, for the life of the process.
        let entry = metadata.comparator.tableEntry(size: metadata.size)
        var word = UInt(bitPattern: unsafe Unmanaged.passUnretained(entry.comparator).toOpaque())
        precondition(word & flagMask == 0, "a comparator's address leaves its low four bits free")
        word |= entry.flags
        return ConcurrentWordTable(.comparators).update(type.identity) { $0 ?? word }
    }
}

/// Compares two values of one type through their storage.
@usableFromInline
class ValueComparator: @unchecked Sendable {
    // @unchecked: every subclass is immutable after init; the stored metadata handles are
    // read-only references into the runtime's metadata.

    /// The floating-point slots this comparator's table word has the caller check for NaNs
    /// (``LayoutEquality/identicalBitsUnlessNaN``), packed so that the caller checks them in
    /// line (``LayoutEquality/holdsNaN(_:comparatorWord:)``): the number of `Double` slots in
    /// bits 0-1, of `Float` slots in bits 2-3 and of `Float16` slots in bits 4-5, three at
    /// most in all, then their offsets, 18 bits each, in that order, so that the caller runs
    /// one short loop per format with no branch on a slot's format.
    /// 0 when there are more than three slots, a `Float80` or an offset of 2^18 bytes or more:
    /// the caller then asks ``holdsNaN(_:)``.
    @usableFromInline
    final let packedNaNSlots: UInt

    /// Makes a comparator.
    /// - Parameter floatingPointSlots: The slots its table word has the caller check for NaNs.
    init(checkingNaNAt floatingPointSlots: [FloatingPointSlot]? = nil) {
        packedNaNSlots = Self.pack(floatingPointSlots ?? [])
    }

    /// The packed form of ``packedNaNSlots``.
    /// - Parameter slots: The slots.
    /// - Returns: Their packed form, or 0 when they do not fit it.
    private static func pack(_ slots: [FloatingPointSlot]) -> UInt {
        guard (1...3).contains(slots.count),
            slots.allSatisfy({ $0.format != .extended && $0.offset >= 0 && $0.offset < 1 << 18 })
        else { return 0 }
        var packed: UInt = 0
        var shift = 6
        for (index, format) in [FloatingPointSlot.Format.double, .single, .half].enumerated() {
            let offsets = slots.filter { $0.format == format }.map(\.offset)
            packed |= UInt(offsets.count) << (2 * index)
            for offset in offsets {
                packed |= UInt(offset) << shift
                shift += 18
            }
        }
        return packed
    }

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

    /// The comparator the table holds for this one, and what the comparison decides without
    /// calling it, as ``LayoutEquality`` flags.
    /// - Parameter size: The size of the values compared.
    /// - Returns: This comparator and no flags, by default.
    func tableEntry(size: Int) -> (comparator: ValueComparator, flags: UInt) { (self, 0) }

    /// Whether one of a value's floating-point numbers is a NaN (or may be), for a comparator
    /// whose table word says identical bits decide unless one is.
    /// - Parameter value: The value's storage.
    /// - Returns: `true` when identical bits do not make the value equal to another; `true` by
    ///   default.
    func holdsNaN(_ value: UnsafeRawPointer) -> Bool { true }

    /// A comparator that calls a type's own `==` on the values in place, through the witness
    /// table of its `Equatable` conformance: no copy of either value, unlike a generic
    /// `lhs.pointee == rhs.pointee`, which copies both through their value witnesses.
    /// - Parameters:
    ///   - metadata: The Equatable type.
    ///   - witnessTable: Its `Equatable` witness table.
    ///   - requirement: The index of the `==` requirement in the protocol descriptor.
    ///   - floatingPointSlots: Where the type stores floating-point numbers, when identical bits
    ///     mean equal values unless one of them is a NaN; `nil` when identical bits do not
    ///     decide, or when they decide alone (no slots), which a comparison checks before this
    ///     comparator.
    /// - Returns: The comparator, or `nil` when the table has no such witness.
    static func equatable(
        _ metadata: MetadataReference,
        witnessTable: WitnessTableReference,
        requirement: Int,
        unlessNaNAt floatingPointSlots: [FloatingPointSlot]?
    ) -> ValueComparator? {
        guard let witness = unsafe witnessTable.witness(requirement: requirement) else { return nil }
        return unsafe EqualsWitnessComparator(
            metadata: metadata,
            witnessTable: witnessTable,
            witness: witness,
            floatingPointSlots: floatingPointSlots?.isEmpty == false ? floatingPointSlots : nil
        )
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
    /// identical and none of their floating-point numbers is a NaN.
    /// - Parameters:
    ///   - comparator: The comparison to make when the bits differ.
    ///   - ranges: The byte ranges that hold the values' data: all but padding.
    ///   - size: The values' size in bytes.
    ///   - floatingPointSlots: Where the values store floating-point numbers.
    /// - Returns: The comparator; `comparator` itself when it compares bytes already.
    static func identicalBitsFirst(
        _ comparator: ValueComparator,
        ranges: [Range<Int>],
        size: Int,
        unlessNaNAt floatingPointSlots: [FloatingPointSlot]
    ) -> ValueComparator {
        if comparator is BytesComparator && floatingPointSlots.isEmpty { return comparator }
        return IdenticalBitsComparator(comparator, ranges: ranges, size: size, floatingPointSlots: floatingPointSlots)
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
///
/// The comparator found is published once and then read without a lock, a retain or the
/// type's cache lookup: it is a type's cached comparator, or one that such a comparator holds,
/// so it lives for the life of the process, as this one does.
private final class DeferredComparator: ValueComparator, @unchecked Sendable {
    let resolve: @Sendable () -> ValueComparator
    let resolved = PublishedReference<ValueComparator>()

    init(_ resolve: @escaping @Sendable () -> ValueComparator) {
        self.resolve = resolve
    }

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ pending: inout PendingComparisons) -> Bool
    {
        if let comparator = resolved.loadImmortal() {
            return comparator.withObject { unsafe $0.equals(lhs, rhs, &pending) }
        }
        return unsafe resolved.storeIfNil(resolve()).equals(lhs, rhs, &pending)
    }
}

/// `==` of an Equatable type, called through its witness.
@safe
@usableFromInline
final class EqualsWitnessComparator: ValueComparator, @unchecked Sendable {
    @usableFromInline
    let metadata: MetadataReference
    @usableFromInline
    let witnessTable: WitnessTableReference
    @usableFromInline
    nonisolated(unsafe) let witness: UnsafeRawPointer
    /// Where the type stores floating-point numbers, when identical bits mean equal values
    /// unless one of them is a NaN.
    let floatingPointSlots: [FloatingPointSlot]?

    init(
        metadata: MetadataReference,
        witnessTable: WitnessTableReference,
        witness: UnsafeRawPointer,
        floatingPointSlots: [FloatingPointSlot]?
    ) {
        self.metadata = metadata
        self.witnessTable = witnessTable
        unsafe self.witness = witness
        self.floatingPointSlots = floatingPointSlots
        super.init(checkingNaNAt: floatingPointSlots)
    }

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ pending: inout PendingComparisons) -> Bool
    {
        unsafe callEquals(lhs, rhs)
    }

    override func tableEntry(size: Int) -> (comparator: ValueComparator, flags: UInt) {
        (self, LayoutEquality.callsEquals | (floatingPointSlots != nil ? LayoutEquality.identicalBitsUnlessNaN : 0))
    }

    override func holdsNaN(_ value: UnsafeRawPointer) -> Bool {
        guard let floatingPointSlots else { return true }
        return unsafe OpaqueValueAccess.holdsNaN(value, slots: floatingPointSlots)
    }

    /// Calls the type's `==`.
    /// - Parameters:
    ///   - lhs: The first value's storage.
    ///   - rhs: The second value's storage.
    /// - Returns: What `==` returns.
    @inlinable
    @inline(__always)
    func callEquals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer) -> Bool {
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

    override func tableEntry(size: Int) -> (comparator: ValueComparator, flags: UInt) {
        // Different bits outside the ranges (padding) do not make the values different.
        (
            self,
            LayoutEquality.identicalBitsAreEqual | (ranges == [0..<size] ? LayoutEquality.differentBitsAreUnequal : 0)
        )
    }
}

/// Identical bits where no floating-point number is a NaN, then the structural comparison.
private final class IdenticalBitsComparator: ValueComparator, @unchecked Sendable {
    let comparator: ValueComparator
    /// The byte ranges compared: the value's data, without padding.
    let ranges: [Range<Int>]
    /// Whether the ranges cover the whole value.
    let coversValue: Bool
    /// Where the values store floating-point numbers.
    let floatingPointSlots: [FloatingPointSlot]

    init(_ comparator: ValueComparator, ranges: [Range<Int>], size: Int, floatingPointSlots: [FloatingPointSlot]) {
        self.comparator = comparator
        self.ranges = ranges
        coversValue = ranges == [0..<size]
        self.floatingPointSlots = floatingPointSlots
        super.init(checkingNaNAt: floatingPointSlots)
    }

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ pending: inout PendingComparisons) -> Bool
    {
        if unsafe OpaqueValueAccess.bytesEqual(lhs, rhs, ranges: ranges),
            unsafe floatingPointSlots.isEmpty || !OpaqueValueAccess.holdsNaN(lhs, slots: floatingPointSlots)
        {
            return true
        }
        return unsafe comparator.equals(lhs, rhs, &pending)
    }

    override func holdsNaN(_ value: UnsafeRawPointer) -> Bool {
        unsafe !floatingPointSlots.isEmpty && OpaqueValueAccess.holdsNaN(value, slots: floatingPointSlots)
    }

    override func tableEntry(size: Int) -> (comparator: ValueComparator, flags: UInt) {
        // The caller compares the whole value's bits (a copy's padding is the same). Without
        // padding, the table holds the comparison to make when they differ; with padding, this
        // comparator, which compares the bits of the data alone, range by range, first.
        guard floatingPointSlots.isEmpty else {
            // Identical bits decide only with no NaN among them, which the caller checks
            // (`identicalBitsUnlessNaN`; all the bits compared there, padding too, which only
            // sends more comparisons on): by the type's own `==`'s comparator when it is one,
            // else by this one, which compares the data's bits again when they differ.
            let inner = comparator.tableEntry(size: size)
            if inner.flags & LayoutEquality.identicalBitsUnlessNaN != 0 { return inner }
            return (self, LayoutEquality.identicalBitsUnlessNaN)
        }
        guard coversValue else { return (self, LayoutEquality.identicalBitsAreEqual) }
        let inner = comparator.tableEntry(size: size)
        return (inner.comparator, inner.flags | LayoutEquality.identicalBitsAreEqual)
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
@safe
private final class FieldsComparator: ValueComparator, @unchecked Sendable {
    let offsets: [Int]
    /// The comparators, owned here.
    let comparators: [ValueComparator]
    /// The same comparators, unretained: a comparison reads them without reference counting.
    let unretained: [Unmanaged<ValueComparator>]

    init(_ fields: [(offset: Int, comparator: ValueComparator)]) {
        self.offsets = fields.map(\.offset)
        self.comparators = fields.map(\.comparator)
        unsafe self.unretained = unsafe comparators.map { unsafe Unmanaged.passUnretained($0) }
    }

    override func equals(_ lhs: UnsafeRawPointer, _ rhs: UnsafeRawPointer, _ pending: inout PendingComparisons) -> Bool
    {
        for index in offsets.indices {
            let offset = offsets[index]
            let equal = unsafe unretained[index]._withUnsafeGuaranteedRef {
                unsafe $0.equals(lhs + offset, rhs + offset, &pending)
            }
            if !equal { return false }
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
