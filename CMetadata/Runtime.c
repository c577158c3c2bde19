// Runtime.c
//
// Declares the Swift runtime entry points under their exported names, with the
// signatures from swiftlang/swift's headers, and defines the cmd_ wrappers that
// CMDRuntime.h exposes. Keeping the real names out of imported headers avoids the
// 6.3.1 compiler crash described in RuntimeMetadata's DocC article "Understanding the ABI layer".

#include "CMDRuntime.h"

#include <stdlib.h>

#if __has_feature(ptrauth_calls)
#include <ptrauth.h>
/// On arm64e the pointers this file calls come out of metadata stripped of their signatures
/// (ABI/Pointers/PointerAuthentication.swift); sign them the way a C function pointer call
/// expects. Written from swiftlang/swift include/swift/ABI/PointerAuth.h; untested here.
#define CMD_CALLABLE(function) ptrauth_sign_unauthenticated(function, ptrauth_key_function_pointer, 0)

const void *cmd_stripPointer(const void *pointer) {
    // Data pointers in metadata use the DA key, code pointers IA; stripping ignores the key's
    // discriminator, and both keys strip the same bits.
    return ptrauth_strip(pointer, ptrauth_key_asda);
}
#else
/// Elsewhere, function pointers are called as stored.
#define CMD_CALLABLE(function) (function)
#endif

typedef struct {
    const char *data;
    uintptr_t length;
} CMDTypeNamePair;

typedef struct {
    void *object;
    void *buffer;
} CMDBoxPair;

// const Metadata *swift_getTypeByMangledNameInContext(const char *typeNameStart,
//     size_t typeNameLength, const TargetContextDescriptor<InProcess> *context,
//     const void * const *genericArgs);  // SWIFT_CC(swift), MetadataLookup.cpp
CMD_SWIFT_CC extern const void *swift_getTypeByMangledNameInContext(
    const char *, size_t, const void *, const void *const *);

// TypeNamePair swift_getTypeName(const Metadata *type, bool qualified);
// SWIFT_CC(swift), include/swift/Runtime/HeapObject.h
CMD_SWIFT_CC extern CMDTypeNamePair swift_getTypeName(const void *, bool);

// TypeNamePair swift_getMangledTypeName(const Metadata *type);  // SWIFT_CC(swift), Casting.cpp
CMD_SWIFT_CC extern CMDTypeNamePair swift_getMangledTypeName(const void *);

// const WitnessTable *swift_conformsToProtocol(const Metadata *type,
//     const void *protocol);  // C, include/swift/Runtime/Casting.h
extern const void *swift_conformsToProtocol(const void *, const void *);

// MetadataResponse swift_getTupleTypeMetadata(MetadataRequest request, TupleTypeFlags flags,
//     const Metadata * const *elements, const char *labels, const ValueWitnessTable *proposedWitnesses);
// SWIFT_CC(swift), include/swift/Runtime/Metadata.h
CMD_SWIFT_CC extern CMDMetadataResponse swift_getTupleTypeMetadata(
    size_t, size_t, const void *const *, const char *, const void *);

// const ExistentialTypeMetadata *swift_getExistentialTypeMetadata(
//     ProtocolClassConstraint classConstraint, const Metadata *superclassConstraint,
//     size_t numProtocols, const ProtocolDescriptorRef *protocols);
// C, include/swift/Runtime/Metadata.h. Sorts `protocols` in place.
extern const void *swift_getExistentialTypeMetadata(bool, const void *, size_t, const void **);

// MetadataResponse swift_getFixedArrayTypeMetadata(MetadataRequest request, intptr_t count,
//     const Metadata *element);  // SWIFT_CC(swift), include/swift/Runtime/Metadata.h
CMD_SWIFT_CC extern CMDMetadataResponse swift_getFixedArrayTypeMetadata(size_t, intptr_t, const void *);

// const MetatypeMetadata *swift_getMetatypeMetadata(const Metadata *instanceType);
// C, include/swift/Runtime/Metadata.h
extern const void *swift_getMetatypeMetadata(const void *);

// const ExistentialMetatypeMetadata *swift_getExistentialMetatypeMetadata(const Metadata *instanceType);
// C, include/swift/Runtime/Metadata.h
extern const void *swift_getExistentialMetatypeMetadata(const void *);

// MetadataResponse swift_getAssociatedTypeWitness(MetadataRequest request, WitnessTable *wtable,
//     const Metadata *conformingType, const ProtocolRequirement *reqBase,
//     const ProtocolRequirement *assocType);  // SWIFT_CC(swift), include/swift/Runtime/Metadata.h
CMD_SWIFT_CC extern CMDMetadataResponse swift_getAssociatedTypeWitness(
    size_t, const void *, const void *, const void *, const void *);

// BoxPair swift_allocBox(Metadata const *type);  // SWIFT_CC(swift), include/swift/Runtime/HeapObject.h
CMD_SWIFT_CC extern CMDBoxPair swift_allocBox(const void *);

// BoxPair swift_makeBoxUnique(OpaqueValue *buffer, Metadata const *type, size_t alignMask);
// SWIFT_CC(swift), include/swift/Runtime/HeapObject.h
CMD_SWIFT_CC extern CMDBoxPair swift_makeBoxUnique(void *, const void *, size_t);

// struct ErrorValueResult { const OpaqueValue *value; const Metadata *type;
//     const WitnessTable *errorConformance; };
// void swift_getErrorValue(const SwiftError *errorObject, void **scratch, ErrorValueResult *out);
// C, include/swift/Runtime/Error.h
typedef struct {
    const void *value;
    const void *type;
    const void *errorConformance;
} CMDErrorValueResult;
extern void swift_getErrorValue(const void *, void **, CMDErrorValueResult *);

// HeapObject *swift_allocObject(HeapMetadata const *metadata, size_t requiredSize,
//     size_t requiredAlignmentMask);  // C, include/swift/Runtime/HeapObject.h
extern void *swift_allocObject(const void *, size_t, size_t);

// const ClassMetadata *swift_getObjectType(HeapObject *object);  // C, include/swift/Runtime/Metadata.h
extern const void *swift_getObjectType(const void *);

// char *swift_demangle(const char *mangledName, size_t mangledNameLength, char *outputBuffer,
//     size_t *outputBufferSize, uint32_t flags);  // C, stdlib/public/runtime/Demangle.cpp
extern char *swift_demangle(const char *, size_t, char *, size_t *, uint32_t);

const void *cmd_getTypeByMangledNameInContext(
    const char *name,
    size_t length,
    const void *context,
    const void *const *genericArguments) {
    return swift_getTypeByMangledNameInContext(name, length, context, genericArguments);
}

const char *cmd_getTypeName(const void *metadata, bool qualified, size_t *length) {
    CMDTypeNamePair pair = swift_getTypeName(metadata, qualified);
    *length = pair.length;
    return pair.data;
}

const char *cmd_getMangledTypeName(const void *metadata, size_t *length) {
    CMDTypeNamePair pair = swift_getMangledTypeName(metadata);
    *length = pair.length;
    return pair.data;
}

const void *cmd_conformsToProtocol(const void *metadata, const void *protocol) {
    return swift_conformsToProtocol(metadata, protocol);
}

// const WitnessTable *swift_getWitnessTable(const ProtocolConformanceDescriptor *conformance,
//     const Metadata *type, const void * const *instantiationArgs);
// C, include/swift/Runtime/Metadata.h
extern const void *swift_getWitnessTable(const void *, const void *, const void *const *);

const void *cmd_getWitnessTable(const void *conformance, const void *metadata, const void *const *arguments) {
    return swift_getWitnessTable(conformance, metadata, arguments);
}

const void *cmd_getTupleTypeMetadata(size_t count, const void *const *elements, const char *labels) {
    // TupleTypeFlags: the element count in the low 16 bits, NonConstantLabels (0x10000)
    // so that the runtime copies the labels instead of keeping the caller's pointer.
    // A larger count does not fit the flags: refuse it rather than build a truncated tuple.
    if (count > 0xFFFF) {
        return NULL;
    }
    size_t flags = count | (labels ? 0x10000 : 0);
    CMDMetadataResponse response = swift_getTupleTypeMetadata(0, flags, elements, labels, NULL);
    return response.state == 0 ? response.value : NULL;
}

const void *cmd_getExistentialTypeMetadata(
    bool classBound,
    const void *superclass,
    size_t count,
    const void *const *protocols) {
    // The runtime sorts the array in place; hand it a scratch copy: on the stack when small,
    // on the heap otherwise (never a variable-length array, whose size the caller controls).
    const void *small[16];
    const void **scratch = count <= 16 ? small : malloc(count * sizeof(const void *));
    if (scratch == NULL) {
        return NULL;
    }
    for (size_t i = 0; i < count; i++) {
        scratch[i] = protocols[i];
    }
    // ProtocolClassConstraint: Class = 0, Any = 1.
    const void *result = swift_getExistentialTypeMetadata(!classBound, superclass, count, scratch);
    if (scratch != small) {
        free(scratch);
    }
    return result;
}

const void *cmd_getFixedArrayTypeMetadata(intptr_t count, const void *element) {
    // The runtime takes any count; a negative one has no layout.
    if (count < 0) {
        return NULL;
    }
    CMDMetadataResponse response = swift_getFixedArrayTypeMetadata(0, count, element);
    return response.state == 0 ? response.value : NULL;
}

const void *cmd_getMetatypeMetadata(const void *instance) {
    return swift_getMetatypeMetadata(instance);
}

const void *cmd_getExistentialMetatypeMetadata(const void *instance) {
    return swift_getExistentialMetatypeMetadata(instance);
}

const void *cmd_getAssociatedTypeWitness(
    const void *witnessTable,
    const void *conformingType,
    const void *requirementsBase,
    const void *associatedType) {
    CMDMetadataResponse response =
        swift_getAssociatedTypeWitness(0, witnessTable, conformingType, requirementsBase, associatedType);
    return response.value;
}

void *cmd_allocBox(const void *metadata, void **buffer) {
    CMDBoxPair pair = swift_allocBox(metadata);
    *buffer = pair.buffer;
    return pair.object;
}

void *cmd_makeBoxUnique(void *containerBuffer, const void *metadata, uintptr_t alignMask) {
    return swift_makeBoxUnique(containerBuffer, metadata, alignMask).buffer;
}

const void *cmd_getErrorValue(const void *errorBox, const void **type, const void **errorConformance) {
    // The scratch word is written only for a bridged NSError, which Linux does not have.
    void *scratch = NULL;
    CMDErrorValueResult result;
    swift_getErrorValue(errorBox, &scratch, &result);
    *type = result.type;
    if (errorConformance) *errorConformance = result.errorConformance;
    return result.value;
}

void *cmd_allocObject(const void *metadata, size_t size, size_t alignmentMask) {
    return swift_allocObject(metadata, size, alignmentMask);
}

const void *cmd_getObjectType(const void *object) {
    return swift_getObjectType(object);
}

// Access functions: MetadataResponse (MetadataRequest, const Metadata *...), swiftcall,
// with the key arguments passed directly up to three and as one array beyond
// (swiftlang/swift include/swift/ABI/Metadata.h, TargetTypeContextDescriptor, and
// lib/IRGen/GenMeta.cpp, NumDirectGenericTypeMetadataAccessFunctionArgs = 3).
typedef CMD_SWIFT_CC CMDMetadataResponse (*CMDAccess0)(size_t);
typedef CMD_SWIFT_CC CMDMetadataResponse (*CMDAccess1)(size_t, const void *);
typedef CMD_SWIFT_CC CMDMetadataResponse (*CMDAccess2)(size_t, const void *, const void *);
typedef CMD_SWIFT_CC CMDMetadataResponse (*CMDAccess3)(size_t, const void *, const void *, const void *);
typedef CMD_SWIFT_CC CMDMetadataResponse (*CMDAccessN)(size_t, const void *const *);

CMDMetadataResponse cmd_callMetadataAccessFunction(
    const void *function,
    size_t request,
    size_t count,
    const void *const *arguments) {
    switch (count) {
    case 0:
        return ((CMDAccess0)CMD_CALLABLE(function))(request);
    case 1:
        return ((CMDAccess1)CMD_CALLABLE(function))(request, arguments[0]);
    case 2:
        return ((CMDAccess2)CMD_CALLABLE(function))(request, arguments[0], arguments[1]);
    case 3:
        return ((CMDAccess3)CMD_CALLABLE(function))(request, arguments[0], arguments[1], arguments[2]);
    default:
        return ((CMDAccessN)CMD_CALLABLE(function))(request, arguments);
    }
}

#if __has_feature(ptrauth_calls)
// Value witnesses, swiftlang/swift include/swift/ABI/ValueWitness.def; all swiftcall. Elsewhere
// the calls are inline, in CMDRuntime.h.
typedef CMD_SWIFT_CC void *(*CMDCopyWitness)(void *, void *, const void *);
typedef CMD_SWIFT_CC void (*CMDDestroyWitness)(void *, const void *);
typedef CMD_SWIFT_CC unsigned (*CMDGetEnumTagWitness)(const void *, const void *);
typedef CMD_SWIFT_CC void (*CMDProjectWitness)(void *, const void *);
typedef CMD_SWIFT_CC void (*CMDInjectWitness)(void *, unsigned, const void *);

void cmd_callCopyWitness(const void *witness, void *destination, void *source, const void *metadata) {
    ((CMDCopyWitness)CMD_CALLABLE(witness))(destination, source, metadata);
}

void cmd_callDestroyWitness(const void *witness, void *value, const void *metadata) {
    ((CMDDestroyWitness)CMD_CALLABLE(witness))(value, metadata);
}

unsigned cmd_callGetEnumTagWitness(const void *witness, const void *value, const void *metadata) {
    return ((CMDGetEnumTagWitness)CMD_CALLABLE(witness))(value, metadata);
}

void cmd_callDestructiveProjectEnumDataWitness(const void *witness, void *value, const void *metadata) {
    ((CMDProjectWitness)CMD_CALLABLE(witness))(value, metadata);
}

void cmd_callDestructiveInjectEnumTagWitness(const void *witness, void *value, unsigned tag, const void *metadata) {
    ((CMDInjectWitness)CMD_CALLABLE(witness))(value, tag, metadata);
}

// A protocol witness of `static func == (Self, Self) -> Bool`: the `witness_method` convention.
// Clang spells LLVM's `swiftself` (the self register) `swift_context`, which must come last;
// the runtime's own SWIFT_CONTEXT (include/swift/Runtime/Config.h) is the same attribute.
// Elsewhere the call is inline, in CMDRuntime.h.
typedef CMD_SWIFT_CC bool (*CMDEqualsWitness)(
    const void *, const void *, const void *, const void *, __attribute__((swift_context)) const void *);

bool cmd_callEqualsWitness(
    const void *witness,
    const void *lhs,
    const void *rhs,
    const void *metadata,
    const void *witnessTable) {
    return ((CMDEqualsWitness)CMD_CALLABLE(witness))(lhs, rhs, metadata, witnessTable, metadata);
}
#endif

char *cmd_demangle(const char *symbol, size_t length) {
    // No output buffer: the result is allocated with malloc. Flags must be 0.
    return swift_demangle(symbol, length, NULL, NULL, 0);
}

void cmd_free(void *pointer) {
    free(pointer);
}
