// TestScale.swift
//
// How much work the suite's largest tests do. `swift test` (the debug run of `.ci/run`) takes the
// sizes the tests name (a million entries, 200,000 nodes, a fuzz target's every input); the
// AddressSanitizer run (a release build) and the ThreadSanitizer run, where each access costs 5
// to 20 times as much, take a tenth. What a sanitizer looks for, a memory error or a race, is in
// the code each size runs through, not in how many times it runs; the sizes that prove a bound
// (no recursion at 200,000 levels, a table past its tenth growth) are proved by the
// uninstrumented run.

import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The size of the suite's largest tests: what they name, or a tenth of it under a sanitizer.
public enum TestScale {
    /// Whether this process runs under AddressSanitizer or ThreadSanitizer, from the symbols
    /// their runtimes export (`swift test --sanitize=address|thread` links one into the test
    /// executable).
    public static let isSanitized: Bool = dlsym(nil, "__asan_init") != nil || dlsym(nil, "__tsan_init") != nil

    /// `full`, or under a sanitizer a tenth of it, but never less than `minimum` nor more than
    /// `full`.
    /// - Parameters:
    ///   - full: The size the test names, run by an uninstrumented build.
    ///   - minimum: The least size that still exercises what the test checks.
    /// - Returns: The size to run.
    public static func scaled<Size: BinaryInteger>(_ full: Size, minimum: Size = 1) -> Size {
        guard isSanitized else { return full }
        return min(full, max(full / 10, minimum))
    }
}
