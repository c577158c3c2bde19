// CMDRuntime.h
//
// Wrappers over the Swift runtime's exported entry points and trampolines for the
// Swift-calling-convention function pointers stored in metadata.
//
// The runtime functions themselves are declared under their real names only in
// Runtime.c. A header that Swift imports must not declare them: IRGen declares some of
// the same symbols with its own LLVM types, and the two declarations collide and crash
// the 6.3.1 compiler (RuntimeMetadata's DocC article "Understanding the ABI layer").

#ifndef CMD_RUNTIME_H
#define CMD_RUNTIME_H

#include "CMDDefines.h"

CMD_ASSUME_NONNULL_BEGIN

/// The runtime's `MetadataResponse`: a metadata pointer and the state it is in.
///
/// Mirrors `swift::MetadataResponse` in swiftlang/swift `include/swift/Runtime/Metadata.h`.
typedef struct CMDMetadataResponse {
    /// The metadata, or `NULL`.
    const void *_Nullable value;
    /// The `MetadataState` reached: 0 is complete.
    size_t state;
} CMDMetadataResponse;

/// Resolves a mangled type name, which may contain symbolic references, to metadata.
///
/// Wraps `swift_getTypeByMangledNameInContext` (swiftcall), declared in
/// swiftlang/swift `stdlib/public/runtime/MetadataLookup.cpp`.
/// - Parameters:
///   - name: The mangled name; not NUL-terminated, it may contain zero bytes.
///   - length: The exact length of the name in bytes.
///   - context: The context descriptor the name is mangled in, or `NULL`.
///   - genericArguments: The generic arguments of that context, or `NULL`.
/// - Returns: The metadata, or `NULL` when the name does not resolve.
CMD_EXTERN const void *_Nullable cmd_getTypeByMangledNameInContext(
    const char *name,
    size_t length,
    const void *_Nullable context,
    const void *const _Nullable *_Nullable genericArguments);

/// Returns the name of a type as `String(reflecting:)` prints it.
///
/// Wraps `swift_getTypeName` (swiftcall), declared in swiftlang/swift
/// `include/swift/Runtime/HeapObject.h`. The runtime caches the string forever.
/// - Parameters:
///   - metadata: The type's metadata.
///   - qualified: Whether to qualify names with their module.
///   - length: Receives the length in bytes.
/// - Returns: A pointer to UTF-8 bytes owned by the runtime.
CMD_EXTERN const char *cmd_getTypeName(const void *metadata, bool qualified, size_t *length);

/// Returns the mangled name of a type, without the `$s` prefix.
///
/// Wraps `swift_getMangledTypeName` (swiftcall), defined in swiftlang/swift
/// `stdlib/public/runtime/Casting.cpp`.
/// - Parameters:
///   - metadata: The type's metadata.
///   - length: Receives the length in bytes.
/// - Returns: A pointer to the bytes owned by the runtime, or `NULL`.
CMD_EXTERN const char *_Nullable cmd_getMangledTypeName(const void *metadata, size_t *length);

/// Finds the witness table by which a type conforms to a Swift protocol.
///
/// Wraps `swift_conformsToProtocol` (C convention), declared in swiftlang/swift
/// `include/swift/Runtime/Casting.h`.
/// - Parameters:
///   - metadata: The type's metadata.
///   - protocol: The protocol descriptor.
/// - Returns: The witness table, or `NULL` when the type does not conform.
CMD_EXTERN const void *_Nullable cmd_conformsToProtocol(const void *metadata, const void *protocol);

/// Instantiates the witness table of one conformance record for a type (`swift_getWitnessTable`,
/// include/swift/Runtime/Metadata.h). The caller has matched the record's type with `metadata`
/// and checked its conditional requirements; `arguments` are the witness tables those
/// requirements with key arguments produced, in order.
/// - Parameters:
///   - conformance: The conformance descriptor.
///   - metadata: The conforming type (the record's type, or the instantiation of its generic type).
///   - arguments: The conditional requirements' witness tables, or `NULL` when there are none.
/// - Returns: The witness table.
CMD_EXTERN const void *_Nullable cmd_getWitnessTable(
    const void *conformance, const void *metadata, const void *_Nullable const *_Nullable arguments);

/// Returns the metadata of a tuple type.
///
/// Wraps `swift_getTupleTypeMetadata` (swiftcall), declared in swiftlang/swift
/// `include/swift/Runtime/Metadata.h`.
/// - Parameters:
///   - count: The number of elements.
///   - elements: The element metadata.
///   - labels: Space-terminated labels ("a  c "), or `NULL`; copied by the runtime.
/// - Returns: The tuple metadata, or `NULL` if the runtime returned an incomplete one.
CMD_EXTERN const void *_Nullable cmd_getTupleTypeMetadata(
    size_t count,
    const void *_Nullable const *_Nonnull elements,
    const char *_Nullable labels);

/// Returns the metadata of an existential type.
///
/// Wraps `swift_getExistentialTypeMetadata` (C convention), declared in swiftlang/swift
/// `include/swift/Runtime/Metadata.h`. The protocols are copied before the runtime sorts them.
/// - Parameters:
///   - classBound: Whether the existential is class-constrained.
///   - superclass: The superclass constraint, or `NULL`.
///   - count: The number of protocols.
///   - protocols: The protocol descriptors.
/// - Returns: The existential metadata, or `NULL` when memory for the copy runs out.
CMD_EXTERN const void *_Nullable cmd_getExistentialTypeMetadata(
    bool classBound,
    const void *_Nullable superclass,
    size_t count,
    const void *const _Nullable *_Nullable protocols);

/// Returns the metadata of the builtin `Builtin.FixedArray<count, element>`, the storage of
/// `InlineArray`.
///
/// Wraps `swift_getFixedArrayTypeMetadata` (swiftcall) with a blocking request, declared in
/// swiftlang/swift `include/swift/Runtime/Metadata.h`.
/// - Parameters:
///   - count: The number of elements; a negative count is refused.
///   - element: The element's metadata.
/// - Returns: The metadata, or `NULL` for a negative count or an incomplete response.
CMD_EXTERN const void *_Nullable cmd_getFixedArrayTypeMetadata(intptr_t count, const void *element);

/// Returns the metadata of `T.Type` for the metadata of `T`.
///
/// Wraps `swift_getMetatypeMetadata` (C convention), declared in swiftlang/swift
/// `include/swift/Runtime/Metadata.h`.
/// - Parameter instance: The metadata of `T`.
/// - Returns: The metatype's metadata.
CMD_EXTERN const void *cmd_getMetatypeMetadata(const void *instance);

/// Returns the metadata of an existential metatype `any P.Type` for the metadata of `any P`.
///
/// Wraps `swift_getExistentialMetatypeMetadata` (C convention), declared in swiftlang/swift
/// `include/swift/Runtime/Metadata.h`.
/// - Parameter instance: The existential's metadata.
/// - Returns: The existential metatype's metadata.
CMD_EXTERN const void *cmd_getExistentialMetatypeMetadata(const void *instance);

/// Resolves the metadata of an associated type from a witness table.
///
/// Wraps `swift_getAssociatedTypeWitness` (swiftcall), declared in swiftlang/swift
/// `include/swift/Runtime/Metadata.h`.
/// - Parameters:
///   - witnessTable: The conformance's witness table.
///   - conformingType: The conforming type's metadata.
///   - requirementsBase: The protocol's requirement base (one requirement before the first).
///   - associatedType: The associated-type requirement.
/// - Returns: The associated type's metadata, or `NULL`.
CMD_EXTERN const void *_Nullable cmd_getAssociatedTypeWitness(
    const void *witnessTable,
    const void *conformingType,
    const void *requirementsBase,
    const void *associatedType);

/// Allocates a heap box for a value of the given type, as indirect enum payloads use.
///
/// Wraps `swift_allocBox` (swiftcall), declared in swiftlang/swift
/// `include/swift/Runtime/HeapObject.h`.
/// - Parameters:
///   - metadata: The type of the boxed value.
///   - buffer: Receives the address of the uninitialized value inside the box.
/// - Returns: The box, retained once.
CMD_EXTERN void *cmd_allocBox(const void *metadata, void *_Nullable *_Nonnull buffer);

/// Wraps `swift_makeBoxUnique` (swiftcall), declared in swiftlang/swift
/// `include/swift/Runtime/HeapObject.h`: the box an existential container's buffer refers to,
/// replaced by a copy when it is shared (the old one released), so that its value can be written
/// without the container's copies seeing it.
/// - Parameters:
///   - containerBuffer: The container's three-word buffer, whose first word is the box.
///   - metadata: The boxed value's type.
///   - alignMask: The value's alignment mask, from its value witnesses.
/// - Returns: The address of the value in the container's now unique box.
CMD_EXTERN void *cmd_makeBoxUnique(void *containerBuffer, const void *metadata, uintptr_t alignMask);

/// Finds the value an `any Error` box holds.
///
/// Wraps `swift_getErrorValue` (C), declared in swiftlang/swift `include/swift/Runtime/Error.h`.
/// On Linux every error box is a native `SwiftError`; the value stays owned by the box.
/// - Parameters:
///   - errorBox: The box, the one word of an `any Error` container.
///   - type: Receives the value's dynamic type.
///   - errorConformance: Receives the `Error` witness table of the value's type, when not null.
/// - Returns: The value's address inside the box.
CMD_EXTERN const void *cmd_getErrorValue(const void *errorBox, const void *_Nullable *_Nonnull type,
                                         const void *_Nullable *_Nullable errorConformance);

/// Allocates an uninitialized instance of a Swift class: its header (the class and a reference
/// count of one) is written, its stored properties are not.
///
/// Wraps `swift_allocObject` (C), declared in swiftlang/swift `include/swift/Runtime/HeapObject.h`.
/// The object is released with `swift_release`, which runs the class's destroyer once the count
/// reaches zero, so every stored property must be initialized before the object is shared.
/// - Parameters:
///   - metadata: The class's metadata.
///   - size: The instance size (`ClassMetadata::InstanceSize`).
///   - alignmentMask: The instance alignment mask (`ClassMetadata::InstanceAlignMask`).
/// - Returns: The object, retained once.
CMD_EXTERN void *cmd_allocObject(const void *metadata, size_t size, size_t alignmentMask);

/// Returns the class of a native Swift object.
///
/// Wraps `swift_getObjectType` (C), declared in swiftlang/swift
/// `include/swift/Runtime/Metadata.h`.
/// - Parameter object: The object.
/// - Returns: Its class's metadata.
CMD_EXTERN const void *cmd_getObjectType(const void *object);

/// Calls a type's metadata access function with up to three key arguments.
///
/// Access functions are swiftcall functions stored as relative pointers in type
/// descriptors (`TargetTypeContextDescriptor::AccessFunctionPtr`, swiftlang/swift
/// `include/swift/ABI/Metadata.h`). With more than three key arguments they take a
/// single array, passed here as `arguments` with `count` above 3.
/// - Parameters:
///   - function: The access function.
///   - request: A `MetadataRequest`; 0 blocks until the metadata is complete.
///   - count: The number of key arguments.
///   - arguments: The key arguments.
/// - Returns: The runtime's response.
CMD_EXTERN CMDMetadataResponse cmd_callMetadataAccessFunction(
    const void *function,
    size_t request,
    size_t count,
    const void *const _Nullable *_Nullable arguments);

// The value witnesses, swiftcall (swiftlang/swift include/swift/ABI/ValueWitness.def). Where
// function pointers are called as stored, each call is inline, so that a caller's call of a
// witness is one indirect call; on arm64e, where a pointer read out of metadata must be signed
// before it is called, they are functions in Runtime.c.
#if __has_feature(ptrauth_calls)
/// Calls a value witness of the shape `OpaqueValue *(OpaqueValue *, OpaqueValue *, const Metadata *)`:
/// `initializeWithCopy`, `assignWithCopy`, `initializeWithTake` or `assignWithTake`.
/// - Parameters:
///   - witness: The witness function.
///   - destination: The destination value.
///   - source: The source value.
///   - metadata: The type's metadata.
CMD_EXTERN void cmd_callCopyWitness(
    const void *witness,
    void *destination,
    void *source,
    const void *metadata);

/// Calls a type's `destroy` value witness.
/// - Parameters:
///   - witness: The witness function.
///   - value: The value to destroy.
///   - metadata: The type's metadata.
CMD_EXTERN void cmd_callDestroyWitness(const void *witness, void *value, const void *metadata);

/// Calls an enum's `getEnumTag` value witness.
/// - Parameters:
///   - witness: The witness function.
///   - value: The enum value.
///   - metadata: The enum's metadata.
/// - Returns: The case index in the runtime's tag order.
CMD_EXTERN unsigned cmd_callGetEnumTagWitness(const void *witness, const void *value, const void *metadata);

/// Calls an enum's `destructiveProjectEnumData` value witness.
/// - Parameters:
///   - witness: The witness function.
///   - value: The enum value, left holding the bare payload.
///   - metadata: The enum's metadata.
CMD_EXTERN void cmd_callDestructiveProjectEnumDataWitness(const void *witness, void *value, const void *metadata);

/// Calls an enum's `destructiveInjectEnumTag` value witness.
/// - Parameters:
///   - witness: The witness function.
///   - value: The bare payload, made into an enum value of the given case.
///   - tag: The case index in the runtime's tag order.
///   - metadata: The enum's metadata.
CMD_EXTERN void cmd_callDestructiveInjectEnumTagWitness(
    const void *witness,
    void *value,
    unsigned tag,
    const void *metadata);
#else
/// Calls a value witness of the shape `OpaqueValue *(OpaqueValue *, OpaqueValue *, const Metadata *)`:
/// `initializeWithCopy`, `assignWithCopy`, `initializeWithTake` or `assignWithTake`.
/// - Parameters:
///   - witness: The witness function.
///   - destination: The destination value.
///   - source: The source value.
///   - metadata: The type's metadata.
static inline void cmd_callCopyWitness(
    const void *witness,
    void *destination,
    void *source,
    const void *metadata) {
    typedef CMD_SWIFT_CC void *(*CMDCopyWitness)(void *, void *, const void *);
    ((CMDCopyWitness)witness)(destination, source, metadata);
}

/// Calls a type's `destroy` value witness.
/// - Parameters:
///   - witness: The witness function.
///   - value: The value to destroy.
///   - metadata: The type's metadata.
static inline void cmd_callDestroyWitness(const void *witness, void *value, const void *metadata) {
    typedef CMD_SWIFT_CC void (*CMDDestroyWitness)(void *, const void *);
    ((CMDDestroyWitness)witness)(value, metadata);
}

/// Calls an enum's `getEnumTag` value witness.
/// - Parameters:
///   - witness: The witness function.
///   - value: The enum value.
///   - metadata: The enum's metadata.
/// - Returns: The case index in the runtime's tag order.
static inline unsigned cmd_callGetEnumTagWitness(const void *witness, const void *value, const void *metadata) {
    typedef CMD_SWIFT_CC unsigned (*CMDGetEnumTagWitness)(const void *, const void *);
    return ((CMDGetEnumTagWitness)witness)(value, metadata);
}

/// Calls an enum's `destructiveProjectEnumData` value witness.
/// - Parameters:
///   - witness: The witness function.
///   - value: The enum value, left holding the bare payload.
///   - metadata: The enum's metadata.
static inline void cmd_callDestructiveProjectEnumDataWitness(const void *witness, void *value, const void *metadata) {
    typedef CMD_SWIFT_CC void (*CMDProjectWitness)(void *, const void *);
    ((CMDProjectWitness)witness)(value, metadata);
}

/// Calls an enum's `destructiveInjectEnumTag` value witness.
/// - Parameters:
///   - witness: The witness function.
///   - value: The bare payload, made into an enum value of the given case.
///   - tag: The case index in the runtime's tag order.
///   - metadata: The enum's metadata.
static inline void cmd_callDestructiveInjectEnumTagWitness(
    const void *witness,
    void *value,
    unsigned tag,
    const void *metadata) {
    typedef CMD_SWIFT_CC void (*CMDInjectWitness)(void *, unsigned, const void *);
    ((CMDInjectWitness)witness)(value, tag, metadata);
}
#endif

/// Calls the `==` witness of a type's `Equatable` conformance on two values in place.
///
/// A protocol witness uses the `witness_method` convention (swiftlang/swift
/// `docs/ABI/CallingConvention.rst`, `lib/IRGen/GenProto.cpp`): the formal parameters, here two
/// `@in_guaranteed Self` addresses; `self`, for a static requirement the `Self` metatype,
/// in the swiftself register; then `Self`'s metadata and the conformance's witness table.
/// - Parameters:
///   - witness: The witness function, from the witness table.
///   - lhs: The first value.
///   - rhs: The second value.
///   - metadata: The type's metadata.
///   - witnessTable: The type's `Equatable` witness table.
/// - Returns: `lhs == rhs`.
#if __has_feature(ptrauth_calls)
CMD_EXTERN bool cmd_callEqualsWitness(
    const void *witness,
    const void *lhs,
    const void *rhs,
    const void *metadata,
    const void *witnessTable);
#else
/// Inline where function pointers are called as stored, so that a caller's call of `==` is one
/// indirect call. Clang spells LLVM's `swiftself` (the self register) `swift_context`, which
/// must come last; the runtime's own SWIFT_CONTEXT (include/swift/Runtime/Config.h) is the same
/// attribute.
static inline bool cmd_callEqualsWitness(
    const void *witness,
    const void *lhs,
    const void *rhs,
    const void *metadata,
    const void *witnessTable) {
    typedef CMD_SWIFT_CC bool (*CMDEqualsWitness)(
        const void *, const void *, const void *, const void *, __attribute__((swift_context)) const void *);
    return ((CMDEqualsWitness)witness)(lhs, rhs, metadata, witnessTable, metadata);
}
#endif

#if __has_feature(ptrauth_calls)
/// Strips the pointer-authentication signature from a data or function pointer read out of
/// metadata. Exists only on arm64e, where Swift has no spelling for `ptrauth_strip`.
/// - Parameter pointer: A possibly signed pointer.
/// - Returns: The plain address.
CMD_EXTERN const void *cmd_stripPointer(const void *pointer);
#endif

/// Demangles a symbol to the text the runtime's demangler prints for it.
///
/// Wraps `swift_demangle` (C), defined in swiftlang/swift `stdlib/public/runtime/Demangle.cpp`.
/// The demangler reads the input with an explicit stack and its printer bounds its depth, so
/// any input is safe; unlike `swift_getTypeByMangledNameInContext`, it resolves nothing.
/// - Parameters:
///   - symbol: The symbol, such as `$sSaySiGD`; not necessarily NUL-terminated.
///   - length: Its length in bytes.
/// - Returns: A NUL-terminated string to release with `cmd_free`, or `NULL` when the input is
///   not a Swift symbol.
CMD_EXTERN char *_Nullable cmd_demangle(const char *symbol, size_t length);

/// Releases memory the C library allocated, such as `cmd_demangle`'s result.
/// - Parameter pointer: The memory, or `NULL`.
CMD_EXTERN void cmd_free(void *_Nullable pointer);

CMD_ASSUME_NONNULL_END

#endif  // CMD_RUNTIME_H
