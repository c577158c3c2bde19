// ValueDifference.swift

/// One difference between two values: where it is, and what each value holds there.
public struct ValueDifference: Hashable, Sendable {
    /// The path from the root to the part that differs: `.lines[2].quantity`, `.status`,
    /// `.scores["ada"]`, `.items[id: 7]`, or `` for the root itself. Paths are unique within
    /// one diff: keys or ids whose dumped texts are alike (two NaN keys; `1` and `"1"` in one
    /// `[AnyHashable: …]`) are numbered after the first, `[nan]`, `[nan #2]`.
    public let path: String
    /// The old value's part, dumped; `nil` when the part is only in the new value.
    public let old: String?
    /// The new value's part, dumped; `nil` when the part is only in the old value.
    public let new: String?

    /// A difference, as a test expects it.
    /// - Parameters:
    ///   - path: The path to the part.
    ///   - old: The old value's part, dumped, or `nil`.
    ///   - new: The new value's part, dumped, or `nil`.
    public init(path: String, old: String?, new: String?) {
        self.path = path
        self.old = old
        self.new = new
    }
}
