// TextOracles.swift
//
// Text the tests compare against, transformed independently of the code under test.

/// Swift.dump's text with each anonymous context's address removed, written independently of
/// the dump's own code.
public enum TextBufferOracle {
    /// The text with `(unknown context at $…)` spelled `(unknown context)`.
    /// - Parameter text: What `Swift.dump` printed.
    /// - Returns: The text without addresses.
    public static func withoutAddresses(_ text: String) -> String {
        text.replacing(/\(unknown context at \$[0-9a-f]+\)/, with: "(unknown context)")
    }
}
