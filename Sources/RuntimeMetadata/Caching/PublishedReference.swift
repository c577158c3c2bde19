// PublishedReference.swift
//
// A class reference published once and read lock-free, like the standard library's
// AtomicLazyReference, but compiled into this module. On Linux the standard library's type is
// not inlinable: every `load()` goes through its unspecialized generic implementation, which
// instantiates generic metadata through the runtime's metadata cache, and that costs more
// than a whole warm lookup should. This version keeps the object in an `Atomic` of an
// `Unmanaged` reference (the atomic operations are transparent, so they specialize here).

public import Synchronization

/// A class reference set at most once and read without a lock.
@usableFromInline
@safe
struct PublishedReference<Instance: AnyObject & Sendable>: ~Copyable, Sendable {
    @usableFromInline
    let storage = unsafe Atomic<Unmanaged<Instance>?>(nil)

    /// Creates an empty slot.
    init() {}

    /// The published instance, read with acquire ordering.
    /// - Returns: The instance, or `nil` when none was published yet.
    @inline(__always)
    func load() -> Instance? {
        unsafe storage.load(ordering: .acquiring)?.takeUnretainedValue()
    }

    /// The published instance without retaining it, for owners that never release what they
    /// publish (the process-lifetime caches).
    /// - Returns: An unretained reference, or `nil`.
    @inlinable
    @inline(__always)
    func loadImmortal() -> ImmortalReference<Instance>? {
        unsafe storage.load(ordering: .acquiring).map { unsafe ImmortalReference(unmanaged: $0) }
    }

    /// Publishes an instance unless one is already published.
    /// - Parameter desired: The instance to publish.
    /// - Returns: The published instance: `desired`, or the one that was there first.
    func storeIfNil(_ desired: Instance) -> Instance {
        let retained = unsafe Unmanaged.passRetained(desired)
        let (exchanged, current) = unsafe storage.compareExchange(
            expected: nil,
            desired: retained,
            ordering: .acquiringAndReleasing
        )
        if exchanged { return desired }
        unsafe retained.release()
        return unsafe current!.takeUnretainedValue()
    }

    deinit {
        unsafe storage.load(ordering: .acquiring)?.release()
    }
}
