// ObservedImageCount.swift
//
// The largest number of loaded images seen so far, in CMetadata's static storage
// (`cmd_observedImageCount`, CMetadata/include/CMDCacheStorage.h): read on the warm path of
// every negative conformance answer, which is inlined into clients, so it must not be a Swift
// global reached through an addressor and `swift_once`.

public import CMetadata

/// The largest number of loaded images seen so far.
@usableFromInline
enum ObservedImageCount {
    /// The count, read with acquire ordering.
    @inlinable
    @inline(__always)
    static var current: Int { Int(cmd_observedImageCountLoad()) }

    /// Raises the count to `count` unless a larger one was published.
    /// - Parameter count: A count the runtime reported.
    static func raise(to count: Int) { cmd_observedImageCountRaise(count) }
}
