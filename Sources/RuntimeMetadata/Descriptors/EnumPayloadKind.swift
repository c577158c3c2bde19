// EnumPayloadKind.swift

/// How many of an enum's cases carry a payload: none, one, or several. The runtime lays out
/// each differently (the single-payload and multi-payload strategies of include/swift/Runtime/Enum.h).
public enum EnumPayloadKind: Hashable, Sendable {
    /// No case carries a payload: the value is its tag.
    case noPayload
    /// One case carries a payload; the empty cases use its spare bits or extra tag bytes.
    case singlePayload
    /// Several cases carry payloads.
    case multiPayload
}
