// ClassFlags.swift

/// The flags of Swift class metadata (`ClassFlags`).
public struct ClassFlags: OptionSet, Hashable, Sendable {
    /// The raw flags.
    public let rawValue: UInt32

    /// Flags from their raw value.
    /// - Parameter rawValue: The raw flags.
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A class of the Darwin pre-stable ABI (clear in every stable-ABI class).
    public static let isSwiftPreStableABI = ClassFlags(rawValue: 0x1)
    /// The class uses Swift reference counting.
    public static let usesSwiftRefcounting = ClassFlags(rawValue: 0x2)
    /// The class has a custom Objective-C name (`@objc(Name)`).
    public static let hasCustomObjCName = ClassFlags(rawValue: 0x4)
    /// The metadata is a specialization of a generic pattern made at compile time.
    public static let isStaticSpecialization = ClassFlags(rawValue: 0x8)
    /// The metadata is a compile-time specialization made canonical by the metadata accessor.
    public static let isCanonicalStaticSpecialization = ClassFlags(rawValue: 0x10)
}
