// LazyValue.swift
//
// A value computed on first use and published atomically, so that later reads take no lock
// and allocate nothing. The published box is a concrete class per value type: a generic box
// class would need its metadata instantiated by the runtime on every read.

import Synchronization

/// The box a ``LazyValue`` publishes: a final class holding one immutable value.
@usableFromInline
protocol LazyBox: AnyObject, Sendable {
    /// The boxed type.
    associatedtype Value: Sendable
    /// The value.
    var value: Value { get }
    /// Boxes a value.
    init(_ value: Value)
}

/// A once-computed value, safe to read from any thread.
@usableFromInline
struct LazyValue<Box: LazyBox>: ~Copyable, Sendable {
    @usableFromInline
    let storage = PublishedReference<Box>()

    /// Creates an empty slot.
    init() {}

    /// The box once published, or `nil`: one acquiring load, inlinable into clients.
    @inlinable
    @inline(__always)
    var published: ImmortalReference<Box>? { storage.loadImmortal() }

    /// Returns the value, computing it on the first call. Racing first calls may each
    /// compute it; the first published result is the one every caller sees, and the others'
    /// boxes are released (a box whose value owns storage that a release does not reclaim, a
    /// table's, frees it in its `deinit`).
    /// - Parameter compute: Computes the value.
    /// - Returns: The published value.
    @inline(__always)
    func value(_ compute: () -> Box.Value) -> Box.Value {
        immortalBox(compute).withObject { $0.value }
    }

    /// Returns the published box itself, unretained, computing its value on the first call.
    ///
    /// Slots live in process-lifetime records (``TypeRecord`` and the other cache entries), and
    /// a box is released only with its slot, so an unretained reference stays valid.
    /// - Parameter compute: Computes the value.
    /// - Returns: The published box.
    @inline(__always)
    func immortalBox(_ compute: () -> Box.Value) -> ImmortalReference<Box> {
        if let box = storage.loadImmortal() { return box }
        return ImmortalReference(immortal: storage.storeIfNil(Box(compute())))
    }
}
