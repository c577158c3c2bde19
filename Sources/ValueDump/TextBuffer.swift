// TextBuffer.swift
//
// The text of one dump, kept as UTF-8 bytes until it is passed to the stream: appending a
// string's bytes to an array is a copy, where appending to a `String` checks and grows it
// piece by piece, several pieces a line.

/// The dump's pending text.
struct TextBuffer {
    /// The text, UTF-8 encoded.
    private var bytes: [UInt8] = []

    /// An empty buffer with room for `capacity` bytes.
    /// - Parameter capacity: The bytes to reserve.
    init(capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// The number of bytes pending.
    var count: Int { bytes.count }

    /// Appends a string.
    /// - Parameter text: The string.
    mutating func write(_ text: String) {
        // The string's contiguous UTF-8, appended as one copy; through `text.utf8` as a
        // sequence, the append goes byte by byte.
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends a string as `String.debugDescription` writes it: quoted, with quotes,
    /// backslashes and non-printing characters escaped. Printable ASCII is copied as it is;
    /// anything else is left to `debugDescription`.
    /// - Parameter text: The string.
    mutating func writeQuoted(_ text: String) {
        let plain = text.utf8.allSatisfy {
            $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\")
        }
        guard plain else {
            write(text.debugDescription)
            return
        }
        bytes.append(UInt8(ascii: "\""))
        write(text)
        bytes.append(UInt8(ascii: "\""))
    }

    /// Removes and returns the pending text.
    /// - Returns: The text.
    mutating func take() -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        bytes.removeAll(keepingCapacity: true)
        return text
    }
}
