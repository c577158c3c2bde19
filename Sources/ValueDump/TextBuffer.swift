// TextBuffer.swift
//
// The text of one dump, kept as UTF-8 bytes until it is passed to the stream: appending a
// string's bytes to an array is a copy, where appending to a `String` checks and grows it
// piece by piece, several pieces a line.

/// The dump's pending text.
struct TextBuffer {
    /// The text, UTF-8 encoded.
    private var bytes: [UInt8] = []

    /// Whether type names are written without the addresses of anonymous contexts
    /// (``DumpOptions/portableTypeNames``).
    let portableTypeNames: Bool

    /// An empty buffer with room for `capacity` bytes.
    /// - Parameters:
    ///   - capacity: The bytes to reserve.
    ///   - portableTypeNames: Whether type names drop their anonymous contexts' addresses.
    init(capacity: Int, portableTypeNames: Bool = false) {
        bytes.reserveCapacity(capacity)
        self.portableTypeNames = portableTypeNames
    }

    /// Appends a type's name; with ``portableTypeNames``, each anonymous context the runtime
    /// spells with its address, `(unknown context at $7f3a…)`, is written `(unknown context)`,
    /// which is the same in every process and every build.
    /// - Parameter name: The name.
    mutating func writeTypeName(_ name: String) {
        // A `$` first, byte by byte: the search for the marker itself is slower than the line.
        guard portableTypeNames, name.utf8.contains(UInt8(ascii: "$")), name.contains("(unknown context at $") else {
            return write(name)
        }
        write(Self.withoutContextAddresses(name))
    }

    /// A name with each `(unknown context at $<hex>)` written `(unknown context)`.
    static func withoutContextAddresses(_ name: String) -> String {
        let marker = Array("(unknown context at $".utf8)
        let utf8 = Array(name.utf8)
        var result: [UInt8] = []
        result.reserveCapacity(utf8.count)
        var index = 0
        while index < utf8.count {
            if utf8[index] == marker[0], utf8[index...].starts(with: marker) {
                var end = index + marker.count
                while end < utf8.count, Self.isHexDigit(utf8[end]) { end += 1 }
                if end < utf8.count, utf8[end] == UInt8(ascii: ")") {
                    result.append(contentsOf: "(unknown context)".utf8)
                    index = end + 1
                    continue
                }
            }
            result.append(utf8[index])
            index += 1
        }
        return String(decoding: result, as: UTF8.self)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x66) || (byte >= 0x41 && byte <= 0x46)
    }

    /// The number of bytes pending.
    var count: Int { bytes.count }

    /// Appends a string.
    /// - Parameter text: The string.
    mutating func write(_ text: String) {
        // The string's contiguous UTF-8, appended as one copy, in place where the string has
        // it (a third faster than `withUTF8`, which copies a small string first); through
        // `text.utf8` as a sequence, the append goes byte by byte.
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) != nil { return }
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Appends an integer in decimal, as its `description` writes it, digit by digit into the
    /// buffer rather than through a `String` of its own.
    /// - Parameter number: The integer.
    mutating func write(_ number: Int) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits = 1
        var rest = magnitude / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: digits))
        var index = start + digits - 1
        repeat {
            bytes[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
            index -= 1
        } while magnitude > 0
    }

    /// The standard library's bullets.
    enum Bullet: Int {
        /// `-`: no children.
        case leaf
        /// `▹`: children the depth limit hides.
        case collapsed
        /// `▿`: children that follow.
        case expanded

        var text: String {
            switch self {
            case .leaf: "- "
            case .collapsed: "▹ "
            case .expanded: "▿ "
            }
        }
    }

    /// Writes the start of a line: its indentation and bullet, in one piece, and its label.
    /// - Parameters:
    ///   - indent: The indentation.
    ///   - bullet: The bullet.
    ///   - label: The label, followed by `: `, or `nil` for none.
    mutating func writeLineStart(indent: Int, bullet: Bullet, label: String?) {
        if indent >= 0, indent < prefixes.count / 3 {
            write(prefixes[indent * 3 + bullet.rawValue])
        } else {
            writeIndent(indent)
            write(bullet.text)
        }
        guard let label else { return }
        write(label)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(UInt8(ascii: " "))
    }

    /// Writes `count` spaces.
    /// - Parameter count: The indentation.
    mutating func writeIndent(_ count: Int) {
        guard count > 0 else { return }
        if count < prefixes.count / 3 {
            // The spaces of the prefix with this indentation, without its bullet.
            let prefix = prefixes[count * 3].utf8
            bytes.append(contentsOf: prefix.prefix(count))
            return
        }
        // Deeper: copied from a run of spaces kept for the dump, grown by doubling, so that a
        // line costs its length however deep it is.
        if spaces.count < count {
            spaces = [UInt8](repeating: UInt8(ascii: " "), count: max(count, spaces.count * 2))
        }
        bytes.append(contentsOf: spaces[..<count])
    }

    /// Spaces for indentation past the shared prefixes.
    private var spaces: [UInt8] = []

    /// Line starts, shared by all dumps: for each indentation below 64, its spaces followed by
    /// each bullet, at `indent * 3 + bullet.rawValue`.
    private static let sharedPrefixes: [String] = (0..<64).flatMap { indent in
        [Bullet.leaf, .collapsed, .expanded].map { String(repeating: " ", count: indent) + $0.text }
    }

    /// ``sharedPrefixes``, read once per buffer rather than through the global's initializer
    /// check on every line.
    private let prefixes = TextBuffer.sharedPrefixes

    /// Ends a line.
    mutating func writeNewline() {
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Appends a string as `String.debugDescription` writes it: quoted, with quotes,
    /// backslashes and non-printing characters escaped. Printable ASCII is copied as it is;
    /// anything else is left to `debugDescription`.
    /// - Parameter text: The string.
    mutating func writeQuoted(_ text: String) {
        // Scanned and copied where the string holds its UTF-8: through `text.utf8` as a
        // sequence, a small string is read a byte at a time out of a fresh copy of itself.
        let written = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.allSatisfy(Self.isPlain) else { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if written == true { return }
        var text = text
        if written == nil, text.withUTF8({ $0.allSatisfy(Self.isPlain) }) {
            bytes.append(UInt8(ascii: "\""))
            write(text)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        write(text.debugDescription)
    }

    /// Whether a byte is written as it is between quotes: printable ASCII other than a quote,
    /// an apostrophe or a backslash, the three that `debugDescription` escapes.
    private static func isPlain(_ byte: UInt8) -> Bool {
        byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "'")
            && byte != UInt8(ascii: "\\")
    }

    /// Removes the text written after a point.
    /// - Parameter count: The number of bytes to keep.
    mutating func truncate(to count: Int) {
        bytes.removeSubrange(count...)
    }

    /// Removes and returns the pending text.
    /// - Returns: The text.
    mutating func take() -> String {
        let text = Self.string(validating: bytes)
        bytes.removeAll(keepingCapacity: true)
        return text
    }

    /// The string of UTF-8 bytes that are valid, as every buffer's are (each piece came from a
    /// `String` or is ASCII). Checked by `UTF8Span`'s validation where the standard library has
    /// it: a dump's text has a non-ASCII bullet on most lines, and `String(decoding:as:)`
    /// checks such text a byte at a time, about 1.4x as long (16 against 11 us for 28 KB).
    /// - Parameter bytes: The bytes.
    /// - Returns: The string.
    private static func string(validating bytes: [UInt8]) -> String {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *),
            let span = try? UTF8Span(validating: bytes.span)
        {
            return String(copying: span)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
