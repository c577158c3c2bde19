// RuntimeEntryPoints.swift
//
// The only Swift file that calls CMetadata's wrappers over the runtime's swift_* entry points.
// Each function is a thin, documented pass-through in the manner of swift-system's
// Syscalls.swift; the signatures they wrap are quoted in CMetadata/Runtime.c.
//
// Imported publicly, so that the call of an `Equatable` type's `==` from layout equality can be
// inlined into its caller (measured in the DocC article "Understanding the ABI layer");
// CMetadata's headers declare only `cmd_` wrappers.

public import CMetadata

/// The runtime's entry points, as this package uses them.
@usableFromInline
enum RuntimeEntryPoints {
    /// Whether an address lies in an image read from a file: such an image is data only. Its
    /// functions are mapped without execute permission and its records were never registered
    /// with the runtime, so no entry point that would run, instantiate or register something
    /// is given its addresses; each returns `nil` instead.
    /// - Parameter address: An address given to an entry point.
    /// - Returns: Whether to refuse it.
    static func isInReadImage(_ address: UnsafeRawPointer?) -> Bool {
        guard let address = unsafe address else { return false }
        return unsafe ImageSections.readImageRange(containing: address) != nil
    }

    /// `swift_getTypeByMangledNameInContext`.
    /// - Parameters:
    ///   - name: The first byte of the mangled name.
    ///   - length: The exact length.
    ///   - context: The context descriptor, or `nil`.
    ///   - genericArguments: The context's generic arguments, or `nil`.
    /// - Returns: The metadata, or `nil`.
    static func typeByMangledName(
        _ name: UnsafeRawPointer,
        length: Int,
        context: UnsafeRawPointer?,
        genericArguments: UnsafeRawPointer?
    ) -> UnsafeRawPointer? {
        // A read image's names and contexts resolve to code that never runs (Image.read).
        guard unsafe !isInReadImage(name), unsafe !isInReadImage(context) else { return nil }
        return unsafe cmd_getTypeByMangledNameInContext(
            name.assumingMemoryBound(to: CChar.self),
            length,
            context,
            genericArguments?.assumingMemoryBound(to: UnsafeRawPointer?.self)
        )
    }

    /// `swift_getTypeByMangledNameInContext` on a string without symbolic references.
    /// - Parameter name: The mangled name.
    /// - Returns: The metadata, or `nil`.
    static func typeByMangledName(_ name: String) -> UnsafeRawPointer? {
        var name = name
        return name.withUTF8 { bytes in
            guard let base = bytes.baseAddress, bytes.count > 0 else { return nil }
            return unsafe typeByMangledName(
                UnsafeRawPointer(base),
                length: bytes.count,
                context: nil,
                genericArguments: nil
            )
        }
    }

    /// `swift_getTypeName`.
    /// - Parameters:
    ///   - metadata: The type's metadata.
    ///   - qualified: Whether to qualify with module names.
    /// - Returns: The name.
    static func typeName(_ metadata: UnsafeRawPointer, qualified: Bool) -> String {
        var length = 0
        let bytes = unsafe cmd_getTypeName(metadata, qualified, &length)
        return unsafe String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    /// `swift_getMangledTypeName`.
    /// - Parameter metadata: The type's metadata.
    /// - Returns: The mangled name, or `nil` when the runtime cannot mangle it.
    static func mangledTypeName(_ metadata: UnsafeRawPointer) -> String? {
        var length = 0
        guard let bytes = unsafe cmd_getMangledTypeName(metadata, &length), length > 0 else { return nil }
        return unsafe String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }

    /// `swift_conformsToProtocol`.
    /// - Parameters:
    ///   - metadata: The type's metadata.
    ///   - protocolDescriptor: The protocol descriptor.
    /// - Returns: The witness table, or `nil`.
    static func conformsToProtocol(_ metadata: UnsafeRawPointer, _ protocolDescriptor: UnsafeRawPointer)
        -> UnsafeRawPointer?
    {
        unsafe cmd_conformsToProtocol(metadata, protocolDescriptor)
    }

    /// `swift_getWitnessTable`: the witness table of a conformance record for a type.
    /// - Parameters:
    ///   - conformance: The conformance descriptor.
    ///   - type: The conforming type.
    ///   - arguments: The conditional requirements' witness tables, or `nil` when there are none.
    /// - Returns: The witness table, or `nil`.
    static func witnessTable(
        conformance: UnsafeRawPointer,
        type: UnsafeRawPointer,
        arguments: UnsafePointer<UnsafeRawPointer?>?
    ) -> UnsafeRawPointer? {
        guard unsafe !isInReadImage(conformance) else { return nil }
        return unsafe cmd_getWitnessTable(conformance, type, arguments)
    }

    /// Calls a metadata access function with key arguments.
    ///
    /// The function's address was read from a type descriptor, so it is called only when an
    /// allow-list admits it: an executable segment of an image the dynamic loader has loaded
    /// (`cmd_isLoadedCode`, CMetadata/include/CMDLoadedCode.h). Any other address, inside an
    /// image read from a file, just outside one, or anywhere a forged relative pointer leads,
    /// is refused with `nil`.
    /// - Parameters:
    ///   - function: The access function.
    ///   - arguments: The key arguments.
    /// - Returns: Complete metadata, or `nil`.
    static func callAccessFunction(_ function: UnsafeRawPointer, arguments: [UInt]) -> UnsafeRawPointer? {
        guard unsafe cmd_isLoadedCode(function) else { return nil }
        let response = unsafe arguments.withUnsafeBufferPointer { buffer in
            unsafe buffer.withMemoryRebound(to: UnsafeRawPointer?.self) { rebound in
                unsafe cmd_callMetadataAccessFunction(function, 0, arguments.count, rebound.baseAddress)
            }
        }
        guard unsafe response.state == 0 else { return nil }
        return unsafe response.value
    }

    /// `swift_getTupleTypeMetadata`.
    /// - Parameters:
    ///   - elements: The element types.
    ///   - labels: One label per element, empty for none.
    /// - Returns: The tuple metadata, or `nil`.
    static func tupleType(elements: [UnsafeRawPointer], labels: [String]) -> UnsafeRawPointer? {
        let labelString: String? = labels.allSatisfy(\.isEmpty) ? nil : labels.map { $0 + " " }.joined()
        return unsafe elements.withUnsafeBufferPointer { buffer in
            unsafe buffer.withMemoryRebound(to: UnsafeRawPointer?.self) { rebound in
                if let labelString {
                    return unsafe cmd_getTupleTypeMetadata(elements.count, rebound.baseAddress!, labelString)
                }
                return unsafe cmd_getTupleTypeMetadata(elements.count, rebound.baseAddress!, nil)
            }
        }
    }

    /// `swift_getExistentialTypeMetadata`.
    /// - Parameters:
    ///   - protocols: The protocol descriptors.
    ///   - classBound: Whether the existential is class-constrained.
    ///   - superclass: The superclass constraint.
    /// - Returns: The existential metadata.
    static func existentialType(
        protocols: [UnsafeRawPointer],
        classBound: Bool,
        superclass: UnsafeRawPointer?
    ) -> UnsafeRawPointer? {
        unsafe protocols.withUnsafeBufferPointer { buffer in
            unsafe buffer.withMemoryRebound(to: UnsafeRawPointer?.self) { rebound in
                unsafe cmd_getExistentialTypeMetadata(classBound, superclass, protocols.count, rebound.baseAddress)
            }
        }
    }

    /// `swift_getFixedArrayTypeMetadata`.
    /// - Parameters:
    ///   - count: The number of elements.
    ///   - element: The element type.
    /// - Returns: The metadata, or `nil` for a negative count.
    static func fixedArray(count: Int, element: UnsafeRawPointer) -> UnsafeRawPointer? {
        unsafe cmd_getFixedArrayTypeMetadata(count, element)
    }

    /// `swift_getMetatypeMetadata`.
    /// - Parameter instance: The instance type.
    /// - Returns: The metatype's metadata.
    static func metatype(of instance: UnsafeRawPointer) -> UnsafeRawPointer {
        unsafe cmd_getMetatypeMetadata(instance)
    }

    /// `swift_getExistentialMetatypeMetadata`.
    /// - Parameter instance: The existential type.
    /// - Returns: The existential metatype's metadata.
    static func existentialMetatype(of instance: UnsafeRawPointer) -> UnsafeRawPointer {
        unsafe cmd_getExistentialMetatypeMetadata(instance)
    }

    /// `swift_getAssociatedTypeWitness` with a blocking request.
    /// - Parameters:
    ///   - witnessTable: The conformance's witness table.
    ///   - conformingType: The conforming type.
    ///   - requirementsBase: The protocol's requirement base.
    ///   - requirement: The associated-type requirement.
    /// - Returns: The associated type's metadata.
    static func associatedTypeWitness(
        witnessTable: UnsafeRawPointer,
        conformingType: UnsafeRawPointer,
        requirementsBase: UnsafeRawPointer,
        requirement: UnsafeRawPointer
    ) -> UnsafeRawPointer? {
        unsafe cmd_getAssociatedTypeWitness(witnessTable, conformingType, requirementsBase, requirement)
    }

    /// `swift_allocBox`.
    /// - Parameter metadata: The boxed type.
    /// - Returns: The box (retained) and the address of its uninitialized value.
    static func allocateBox(for metadata: UnsafeRawPointer) -> (
        box: UnsafeMutableRawPointer, value: UnsafeMutableRawPointer
    ) {
        var value: UnsafeMutableRawPointer? = nil
        let box = unsafe cmd_allocBox(metadata, &value)
        return unsafe (box, value!)
    }

    /// `swift_makeBoxUnique`: the value of an existential container stored out of line, in a
    /// box of its own (copied first when the box was shared).
    /// - Parameters:
    ///   - container: The container's buffer, whose first word is the box.
    ///   - metadata: The value's type.
    ///   - alignMask: The value's alignment mask.
    /// - Returns: The value's address in the unique box.
    static func makeBoxUnique(
        _ container: UnsafeMutableRawPointer,
        metadata: UnsafeRawPointer,
        alignMask: UInt
    ) -> UnsafeMutableRawPointer {
        unsafe cmd_makeBoxUnique(container, metadata, alignMask)
    }

    /// `swift_getErrorValue`: the value an `any Error` box holds.
    /// - Parameter box: The error box.
    /// - Returns: The value's address inside the box and its type, or `nil` when the runtime
    ///   reports no type.
    static func errorValue(in box: UnsafeRawPointer) -> (value: UnsafeRawPointer, type: UnsafeRawPointer)? {
        var type: UnsafeRawPointer? = nil
        let value = unsafe cmd_getErrorValue(box, &type, nil)
        guard let type = unsafe type else { return nil }
        return unsafe (value, type)
    }

    /// `swift_getErrorValue`'s `Error` witness table: the conformance of the boxed value's type.
    /// - Parameter box: The `any Error` box.
    /// - Returns: The witness table, or `nil` when the runtime reports none.
    static func errorConformance(in box: UnsafeRawPointer) -> UnsafeRawPointer? {
        var type: UnsafeRawPointer? = nil
        var conformance: UnsafeRawPointer? = nil
        _ = unsafe cmd_getErrorValue(box, &type, &conformance)
        return unsafe conformance
    }

    /// `swift_demangle`: the text the runtime's demangler prints for a symbol.
    /// - Parameter symbol: The symbol.
    /// - Returns: The text, or `nil` when the input is not a Swift symbol.
    static func demangle(_ symbol: String) -> String? {
        var symbol = symbol
        return symbol.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return nil }
            let text = unsafe base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                unsafe cmd_demangle($0, bytes.count)
            }
            guard let text = unsafe text else { return nil }
            defer { unsafe cmd_free(text) }
            return unsafe String(cString: text)
        }
    }

    /// `swift_allocObject`: an uninitialized instance of a class.
    /// - Parameters:
    ///   - metadata: The class's metadata.
    ///   - size: The instance size.
    ///   - alignmentMask: The instance alignment mask.
    /// - Returns: The object, retained once, its stored properties uninitialized.
    static func allocateObject(_ metadata: UnsafeRawPointer, size: Int, alignmentMask: Int) -> UnsafeMutableRawPointer {
        unsafe cmd_allocObject(metadata, size, alignmentMask)
    }

    /// `swift_getObjectType`.
    /// - Parameter object: A native Swift object.
    /// - Returns: Its class's metadata.
    static func objectType(of object: UnsafeRawPointer) -> UnsafeRawPointer {
        unsafe cmd_getObjectType(object)
    }

    /// Calls a copy or take witness (`initializeWithCopy` and its siblings).
    /// - Parameters:
    ///   - witness: The witness.
    ///   - destination: The destination.
    ///   - source: The source.
    ///   - metadata: The type.
    static func callCopyWitness(
        _ witness: UnsafeRawPointer,
        destination: UnsafeMutableRawPointer,
        source: UnsafeMutableRawPointer,
        metadata: UnsafeRawPointer
    ) {
        unsafe cmd_callCopyWitness(witness, destination, source, metadata)
    }

    /// Calls the `destroy` witness.
    /// - Parameters:
    ///   - witness: The witness.
    ///   - value: The value.
    ///   - metadata: The type.
    static func callDestroyWitness(
        _ witness: UnsafeRawPointer,
        value: UnsafeMutableRawPointer,
        metadata: UnsafeRawPointer
    ) {
        unsafe cmd_callDestroyWitness(witness, value, metadata)
    }

    /// Calls `getEnumTag`.
    /// - Parameters:
    ///   - witness: The witness.
    ///   - value: The enum value.
    ///   - metadata: The enum type.
    /// - Returns: The tag.
    static func callGetEnumTag(_ witness: UnsafeRawPointer, value: UnsafeRawPointer, metadata: UnsafeRawPointer) -> Int
    {
        unsafe Int(cmd_callGetEnumTagWitness(witness, value, metadata))
    }

    /// Calls the `==` witness of an `Equatable` conformance on two values in place.
    /// - Parameters:
    ///   - witness: The witness.
    ///   - lhs: The first value.
    ///   - rhs: The second value.
    ///   - metadata: The values' type.
    ///   - witnessTable: The type's `Equatable` witness table.
    /// - Returns: `lhs == rhs`.
    @inlinable
    static func callEquals(
        _ witness: UnsafeRawPointer,
        _ lhs: UnsafeRawPointer,
        _ rhs: UnsafeRawPointer,
        metadata: UnsafeRawPointer,
        witnessTable: UnsafeRawPointer
    ) -> Bool {
        unsafe cmd_callEqualsWitness(witness, lhs, rhs, metadata, witnessTable)
    }

    /// Calls `destructiveProjectEnumData`.
    /// - Parameters:
    ///   - witness: The witness.
    ///   - value: The enum value.
    ///   - metadata: The enum type.
    static func callProjectEnumData(
        _ witness: UnsafeRawPointer,
        value: UnsafeMutableRawPointer,
        metadata: UnsafeRawPointer
    ) {
        unsafe cmd_callDestructiveProjectEnumDataWitness(witness, value, metadata)
    }

    /// Calls `destructiveInjectEnumTag`.
    /// - Parameters:
    ///   - witness: The witness.
    ///   - value: The payload.
    ///   - tag: The tag.
    ///   - metadata: The enum type.
    static func callInjectEnumTag(
        _ witness: UnsafeRawPointer,
        value: UnsafeMutableRawPointer,
        tag: Int,
        metadata: UnsafeRawPointer
    ) {
        unsafe cmd_callDestructiveInjectEnumTagWitness(witness, value, UInt32(tag), metadata)
    }
}
