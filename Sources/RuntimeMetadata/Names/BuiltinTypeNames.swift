// BuiltinTypeNames.swift
//
// The builtin types the runtime has metadata for, by the name `String(reflecting:)` prints
// and their mangling: the storage of the standard library's integers (`Builtin.Int64`),
// floating point (`Builtin.FPIEEE64`), pointers (`Builtin.RawPointer`) and references
// (`Builtin.NativeObject`). No image declares them, so the type descriptor index cannot find
// them: a name from this table is resolved by the runtime's own lookup of its mangling, which
// finds the metadata the runtime exports for it (include/swift/Runtime/BuiltinTypes.def,
// `$sBi64_N` and the like). `Builtin.FixedArray<N, T>` is generic, and is built by
// `swift_getFixedArrayTypeMetadata` instead.

/// The builtin types with runtime metadata, by name.
enum BuiltinTypeNames {
    /// The mangling of each builtin type, by its name without arguments, such as `Builtin.Int64`
    /// for `Bi64_` (docs/ABI/Mangling.rst, "builtin types").
    static let manglings: [String: String] = {
        var manglings = [
            "Builtin.BridgeObject": "Bb",
            "Builtin.DefaultActorStorage": "BD",
            "Builtin.Executor": "Be",
            "Builtin.Job": "Bj",
            "Builtin.NativeObject": "Bo",
            "Builtin.NonDefaultDistributedActorStorage": "Bd",
            "Builtin.RawPointer": "Bp",
            "Builtin.RawUnsafeContinuation": "Bc",
            "Builtin.UnknownObject": "BO",
            "Builtin.UnsafeValueBuffer": "BB",
            "Builtin.Word": "Bw",
        ]
        var scalars: [(name: String, mangling: String)] = []
        for bits in [1, 7, 8, 16, 32, 63, 64, 128, 256, 512] {
            scalars.append(("Int\(bits)", "Bi\(bits)_"))
        }
        for bits in [16, 32, 64, 80, 128] {
            scalars.append(("FPIEEE\(bits)", "Bf\(bits)_"))
        }
        for scalar in scalars { manglings["Builtin." + scalar.name] = scalar.mangling }
        // Vectors of the element types the runtime exports them for.
        for element in scalars where ["Int8", "Int16", "Int32", "Int64", "FPIEEE32", "FPIEEE64"].contains(element.name)
        {
            for count in [2, 3, 4, 8, 16, 32, 64] {
                manglings["Builtin.Vec\(count)x\(element.name)"] = element.mangling + "Bv\(count)_"
            }
        }
        return manglings
    }()

    /// The name of the generic builtin of fixed-size arrays, `Builtin.FixedArray<N, T>`.
    static let fixedArray = "Builtin.FixedArray"
}
