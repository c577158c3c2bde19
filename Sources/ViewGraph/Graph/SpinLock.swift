// SpinLock.swift

import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a lock built on one atomic flag.
///
/// State locations and the invalidation set are written from any thread, and each write holds
/// the lock for a few instructions. The flag's acquire and release are atomic operations the
/// thread sanitizer follows; `Synchronization.Mutex` on Linux locks through code it does not
/// see, so it reports the guarded accesses as races.
final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only read or written between acquiring and releasing `flag`.
    private let flag = Atomic<Bool>(false)
    private var value: Value

    /// Guards a value.
    /// - Parameter value: The initial value.
    init(_ value: Value) {
        self.value = value
    }

    /// Calls `body` with the value while holding the lock.
    /// - Parameter body: Reads or changes the value.
    /// - Returns: What `body` returns.
    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        var attempts = 0
        while !flag.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged {
            attempts += 1
            if attempts > 64 { sched_yield() }
        }
        defer { flag.store(false, ordering: .releasing) }
        return body(&value)
    }
}
