// TupleTypeMetadataLayout.swift
//
// Mirrors swift::TargetTupleTypeMetadata and its Element from swiftlang/swift
// include/swift/ABI/Metadata.h, checked against Swift 6.3.1 on Linux x86_64.
//
// Platform branch: `Element::Offset` is a `StoredSize` on Apple platforms and a `uint32_t`
// elsewhere (followed by 4 bytes of padding on 64-bit Linux). Reading it as `Int` on Linux
// is the Runtime library's latent bug. Labels are one string: each element's label followed
// by a space, an empty label for an unlabelled element, or a null pointer when none has one;
// a raw identifier label keeps its backticks and may contain spaces (Swift 6.2, SE-0451).

/// A view of tuple metadata.
@unsafe
struct TupleTypeMetadataLayout: Sendable {
    /// The C++ fields in declaration order.
    struct Fields {
        var kind: UInt
        var numElements: UInt  // StoredSize
        var labels: UInt  // const char *
    }

    /// One `TargetTupleTypeMetadata::Element`.
    struct Element {
        var type: UInt  // const Metadata *
        var offset: Offset
    }

    #if canImport(Darwin)
    /// `Element::Offset`: a `StoredSize` on Apple platforms.
    typealias Offset = UInt
    #else
    /// `Element::Offset`: a `uint32_t` off Apple platforms.
    typealias Offset = UInt32
    #endif

    /// The address point of the metadata.
    nonisolated(unsafe) let address: UnsafeRawPointer

    /// Creates a view.
    /// - Parameter address: The address point.
    init(_ address: UnsafeRawPointer) {
        unsafe self.address = address
    }

    /// `NumElements`.
    var count: Int {
        unsafe Int(bitPattern: address.read(at: MemoryLayout<Fields>.offset(of: \.numElements)!, as: UInt.self))
    }

    /// The labels, one per element, empty for unlabelled elements.
    var labels: [String] {
        let count = unsafe self.count
        guard let string = unsafe address.pointer(at: MemoryLayout<Fields>.offset(of: \.labels)!) else {
            return Array(repeating: "", count: count)
        }
        // Each label ends at a space outside backticks: a raw identifier label keeps its
        // backticks and may hold spaces ("`a b` c " for `(`a b`: Int, c: String)`).
        var labels: [String] = []
        var current: [UInt8] = []
        var inBackticks = false
        for byte in unsafe string.cString.utf8 {
            if byte == UInt8(ascii: "`") { inBackticks.toggle() }
            if byte == UInt8(ascii: " ") && !inBackticks {
                labels.append(String(decoding: current, as: UTF8.self))
                current.removeAll()
            } else {
                current.append(byte)
            }
        }
        if !current.isEmpty { labels.append(String(decoding: current, as: UTF8.self)) }
        if labels.count > count { labels.removeLast(labels.count - count) }
        while labels.count < count { labels.append("") }
        return labels
    }

    /// The address of element `index`.
    private func element(_ index: Int) -> UnsafeRawPointer {
        unsafe address + MemoryLayout<Fields>.size + index * MemoryLayout<Element>.stride
    }

    /// The metadata of element `index`.
    /// - Parameter index: The element index.
    /// - Returns: The element type's metadata.
    func elementType(_ index: Int) -> UnsafeRawPointer {
        unsafe element(index).pointer(at: MemoryLayout<Element>.offset(of: \.type)!)!
    }

    /// The byte offset of element `index`.
    /// - Parameter index: The element index.
    /// - Returns: The offset.
    func elementOffset(_ index: Int) -> Int {
        unsafe Int(element(index).read(at: MemoryLayout<Element>.offset(of: \.offset)!, as: Offset.self))
    }
}
