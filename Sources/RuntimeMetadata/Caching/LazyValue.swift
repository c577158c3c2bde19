// LazyValue.swift
//
// A value computed on first use and published atomically, so that later reads take no lock
// and allocate nothing.

import Synchronization

/// A once-computed value, safe to read from any thread.
final class LazyValue<Value: Sendable>: Sendable {
    /// The box that is published.
    private final class Box: Sendable {
        let value: Value
        init(_ value: Value) { self.value = value }
    }

    private let storage = AtomicLazyReference<Box>()

    /// Creates an empty slot.
    init() {}

    /// Returns the value, computing it on the first call. Racing first calls may each
    /// compute it; the first published result is the one every caller sees.
    /// - Parameter compute: Computes the value.
    /// - Returns: The published value.
    @inline(__always)
    func value(_ compute: () -> Value) -> Value {
        if let box = storage.load() { return box.value }
        return storage.storeIfNil(Box(compute())).value
    }
}
