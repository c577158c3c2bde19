// Heartbeat.swift
//
// CensusTarget's heartbeat thread: it beats every 100 µs and notes the longest gap between two
// beats, which is how long something (a census with --stop) held every thread of the process.

#if canImport(Glibc)
import Glibc
#endif

enum Heartbeat {
    /// The longest gap since the last `takeLongestGap`, and the last beat, in nanoseconds,
    /// under `lock`.
    nonisolated(unsafe) private static var longestGap: UInt64 = 0
    nonisolated(unsafe) private static var lastBeat: UInt64 = 0
    nonisolated(unsafe) private static let lock: UnsafeMutablePointer<pthread_mutex_t> = {
        let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        pthread_mutex_init(lock, nil)
        return lock
    }()

    private static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    private static func beat() {
        let beat = now()
        pthread_mutex_lock(lock)
        longestGap = max(longestGap, beat - lastBeat)
        lastBeat = beat
        pthread_mutex_unlock(lock)
    }

    /// Starts the thread.
    static func start() {
        lastBeat = now()
        var thread = pthread_t()
        pthread_create(
            &thread,
            nil,
            { _ in
                while true {
                    var pause = timespec(tv_sec: 0, tv_nsec: 100_000)
                    nanosleep(&pause, nil)
                    Heartbeat.beat()
                }
            },
            nil
        )
    }

    /// The longest gap between beats since the last call (or the start), in milliseconds.
    static func takeLongestGap() -> Double {
        pthread_mutex_lock(lock)
        let gap = max(longestGap, now() - lastBeat)
        longestGap = 0
        pthread_mutex_unlock(lock)
        return Double(gap) / 1e6
    }
}
