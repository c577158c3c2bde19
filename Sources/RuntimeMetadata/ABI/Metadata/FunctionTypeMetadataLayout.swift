// FunctionTypeMetadataLayout.swift
//
// Mirrors swift::TargetFunctionTypeMetadata and TargetFunctionTypeFlags,
// TargetParameterTypeFlags and TargetExtendedFunctionTypeFlags from swiftlang/swift
// include/swift/ABI/Metadata.h and include/swift/ABI/MetadataValues.h, checked against
// Swift 6.3.1 on Linux x86_64.
//
// Trailing objects after the fixed part, each present only when its flag says so:
// parameter metadata pointers; `uint32_t` parameter flags (HasParamFlags); then, starting
// on a word boundary, the differentiability kind (Differentiable), the global actor
// metadata (GlobalActor), the `uint32_t` extended flags (ExtendedFlags, padded to a word)
// and the thrown error type (extended flag TypedThrows). Observed on 6.3.1:
// `@MainActor (inout Int) throws(E) -> ()` stores Int, flags, MainActor, 1, E at words 3-7.

/// A view of function type metadata.
@unsafe
struct FunctionTypeMetadataLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var kind: UInt
        var flags: UInt  // TargetFunctionTypeFlags<StoredSize>
        var resultType: UInt  // const Metadata *
    }

    /// `TargetFunctionTypeFlags` masks.
    enum Flag {
        static let numParametersMask: UInt = 0x0000_FFFF
        static let conventionMask: UInt = 0x00FF_0000
        static let conventionShift: UInt = 16
        static let throwsMask: UInt = 0x0100_0000
        static let paramFlagsMask: UInt = 0x0200_0000
        static let escapingMask: UInt = 0x0400_0000
        static let differentiableMask: UInt = 0x0800_0000
        static let globalActorMask: UInt = 0x1000_0000
        static let asyncMask: UInt = 0x2000_0000
        static let sendableMask: UInt = 0x4000_0000
        static let extendedFlagsMask: UInt = 0x8000_0000
    }

    /// `TargetExtendedFunctionTypeFlags` masks.
    enum ExtendedFlag {
        static let typedThrowsMask: UInt32 = 0x1
        static let isolatedAny: UInt32 = 0x2
        static let nonIsolatedCaller: UInt32 = 0x4
        static let isolationMask: UInt32 = 0xE
        static let sendingResultMask: UInt32 = 0x10
    }

    /// The address point of the metadata.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The address point.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// `Flags`.
    var flags: UInt { unsafe address.read(at: MemoryLayout<Fields>.offset(of: \.flags)!) }

    /// The number of parameters.
    var parameterCount: Int { unsafe Int(flags & Flag.numParametersMask) }

    /// `ResultType`.
    var resultType: UnsafeRawPointer { unsafe address.pointer(at: MemoryLayout<Fields>.offset(of: \.resultType)!)! }

    /// The metadata of parameter `index`.
    /// - Parameter index: The parameter index.
    /// - Returns: The parameter type.
    func parameterType(_ index: Int) -> UnsafeRawPointer {
        unsafe address.pointer(at: MemoryLayout<Fields>.size + index * MemoryLayout<UInt>.size)!
    }

    /// The byte offset just past the parameter types.
    private var parameterFlagsOffset: Int {
        unsafe MemoryLayout<Fields>.size + parameterCount * MemoryLayout<UInt>.size
    }

    /// The `ParameterFlags` of parameter `index`, or 0 when none are stored.
    /// - Parameter index: The parameter index.
    /// - Returns: The raw flags.
    func parameterFlags(_ index: Int) -> UInt32 {
        guard unsafe flags & Flag.paramFlagsMask != 0 else { return 0 }
        return unsafe address.read(at: parameterFlagsOffset + index * 4)
    }

    /// The offset of the word-aligned trailing objects.
    private var wordTrailingOffset: Int {
        var offset = unsafe parameterFlagsOffset
        if unsafe flags & Flag.paramFlagsMask != 0 {
            offset += unsafe parameterCount * 4
        }
        return (offset + 7) & ~7
    }

    /// The global actor type, when the function is isolated to one.
    var globalActor: UnsafeRawPointer? {
        guard let offset = unsafe globalActorOffset else { return nil }
        return unsafe address.pointer(at: offset)
    }

    /// The offset of the global actor's word, when the function is isolated to one.
    var globalActorOffset: Int? {
        guard unsafe flags & Flag.globalActorMask != 0 else { return nil }
        var offset = unsafe wordTrailingOffset
        if unsafe flags & Flag.differentiableMask != 0 { offset += 8 }
        return offset
    }

    /// The offset of the thrown error type's word, for a function with typed throws.
    var thrownErrorOffset: Int? {
        guard unsafe extendedFlags & ExtendedFlag.typedThrowsMask != 0 else { return nil }
        return unsafe extendedFlagsOffset + 8
    }

    /// The size of the metadata from its address point: its fields and trailing objects.
    var size: Int {
        var end = unsafe extendedFlagsOffset
        if unsafe flags & Flag.extendedFlagsMask != 0 { end += 8 }
        if unsafe thrownErrorOffset != nil { end += 8 }
        return end
    }

    /// The offset of the extended flags word.
    private var extendedFlagsOffset: Int {
        var offset = unsafe wordTrailingOffset
        if unsafe flags & Flag.differentiableMask != 0 { offset += 8 }
        if unsafe flags & Flag.globalActorMask != 0 { offset += 8 }
        return offset
    }

    /// The extended flags, or 0 when none are stored.
    var extendedFlags: UInt32 {
        guard unsafe flags & Flag.extendedFlagsMask != 0 else { return 0 }
        return unsafe address.read(at: extendedFlagsOffset)
    }

    /// The thrown error type of a function with typed throws.
    var thrownError: UnsafeRawPointer? {
        guard unsafe extendedFlags & ExtendedFlag.typedThrowsMask != 0 else { return nil }
        return unsafe address.pointer(at: extendedFlagsOffset + 8)
    }
}
