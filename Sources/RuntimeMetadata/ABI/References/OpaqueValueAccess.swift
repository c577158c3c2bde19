// OpaqueValueAccess.swift
//
// Reads and writes values through their type metadata. The operations are grouped by
// concept, one file each:
//
// - `OpaqueValueAccess+FieldStorage.swift`: stored properties at an offset.
// - `OpaqueValueAccess+ReferenceStorage.swift`: `weak`, `unowned` and `unowned(unsafe)`
//   properties.
// - `OpaqueValueAccess+ExistentialCopies.swift`: values copied into and out of `Any`,
//   existential projection, heap boxes.
// - `OpaqueValueAccess+EnumPayloads.swift`: enum tags, payload projection and injection.
// - `OpaqueValueAccess+RawBytes.swift`: byte copies and byte equality of plain data.
// - `OpaqueValueAccess+Parts.swift`: every part of a struct, tuple or class instance.
// - `OpaqueValueAccess+Arrays.swift`: array elements from the array's own storage.
// - `OpaqueValueAccess+Instances.swift`: values and objects made from their properties.
// - `OpaqueValueAccess+FunctionStandIns.swift`: values holding functions at their
//   declaration's abstraction, copied as `Mirror` hands them out.

/// Value operations through metadata: a namespace of static functions, one concept per file.
@usableFromInline
enum OpaqueValueAccess {}
