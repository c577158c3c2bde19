// GenericArgumentVector.swift
//
// The safe edge of the ABI layer for the key arguments of a generic instantiation, as a metadata
// access function takes them (swiftlang/swift include/swift/ABI/GenericContext.h, and
// TargetTypeContextDescriptor::getAccessFunction in include/swift/ABI/Metadata.h): one word per
// pack shape class (the pack's length), then one word per key parameter (metadata, a pack
// pointer or an integer value), then one witness table per key protocol requirement. The words
// live in memory of their own while they are gathered, because a requirement's subject is
// resolved against the arguments gathered so far (swift_getTypeByMangledNameInContext reads
// them). The order of the checks is domain logic, in Descriptors/GenericInstantiation.swift.

/// The key arguments of one generic instantiation, gathered in order.
@safe
final class GenericArgumentVector {
    private nonisolated(unsafe) let words: UnsafeMutablePointer<UInt>
    /// The packs the words refer to, freed with the vector.
    private nonisolated(unsafe) var packs: [UnsafeMutablePointer<UInt>] = unsafe []
    /// The number of words.
    let count: Int
    /// The next witness table's slot: after the shape classes and the key parameters.
    private(set) var witnessSlot: Int

    /// Zeroed words for a generic context.
    /// - Parameters:
    ///   - count: The key argument count (`GenericContextDescriptorHeader::NumKeyArguments`).
    ///   - witnessSlot: The first witness table's slot.
    init(count: Int, witnessSlot: Int) {
        self.count = count
        self.witnessSlot = witnessSlot
        unsafe words = UnsafeMutablePointer<UInt>.allocate(capacity: max(count, 1))
        unsafe words.initialize(repeating: 0, count: max(count, 1))
    }

    deinit {
        unsafe words.deallocate()
        unsafe packs.forEach { unsafe $0.deallocate() }
    }

    /// Stores a word; returns `false` when the slot is past the end.
    /// - Parameters:
    ///   - word: The word.
    ///   - slot: The slot.
    /// - Returns: Whether it was stored.
    @discardableResult
    func store(_ word: UInt, at slot: Int) -> Bool {
        guard slot >= 0, slot < count else { return false }
        unsafe words[slot] = word
        return true
    }

    /// Appends the witness table of a key protocol requirement.
    /// - Parameter table: The witness table.
    /// - Returns: Whether a slot was left for it.
    func appendWitnessTable(_ table: WitnessTableReference) -> Bool {
        guard store(table.identity, at: witnessSlot) else { return false }
        witnessSlot += 1
        return true
    }

    /// Stores a pack of types: its address is the parameter's word, and the pack lives as long
    /// as the vector. The runtime copies a pack it keeps: a pack pointer whose low bit is clear
    /// is on the caller's stack (`PackLifetime::OnStack`, include/swift/ABI/MetadataValues.h),
    /// and `MetadataCacheKey::installGenericArguments` (stdlib/public/runtime/Metadata.cpp)
    /// stores a heap copy from `swift_allocateMetadataPack` in the metadata it makes.
    /// - Parameters:
    ///   - types: The pack's elements.
    ///   - slot: The parameter's slot.
    /// - Returns: Whether it was stored.
    @discardableResult
    func storePack(_ types: [MetadataReference], at slot: Int) -> Bool {
        let pack = UnsafeMutablePointer<UInt>.allocate(capacity: max(types.count, 1))
        for (position, type) in types.enumerated() { unsafe pack[position] = type.identity }
        unsafe packs.append(pack)
        return store(UInt(bitPattern: pack), at: slot)
    }

    /// Resolves a mangled name of a generic context's requirements against the words gathered so
    /// far.
    /// - Parameters:
    ///   - name: The name, from a requirement of `context`.
    ///   - context: The generic type's descriptor.
    /// - Returns: The metadata, or `nil` when the runtime cannot resolve it.
    func resolve(_ name: MangledNameLayout, in context: DescriptorReference) -> MetadataReference? {
        unsafe RuntimeEntryPoints.typeByMangledName(
            name.address,
            length: name.length,
            context: context.address,
            genericArguments: UnsafeRawPointer(words)
        )
        .map(MetadataReference.init)
    }

    /// The words, in order, for the access function.
    var keyArguments: [UInt] { (0..<count).map { unsafe words[$0] } }
}
