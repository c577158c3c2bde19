// JSONValue.swift
//
// A small JSON tree and writer. The standard library has no JSON encoder, and this keeps the
// output's field order exactly as the contract lists it, which Foundation's JSONSerialization
// does not promise.

/// A JSON value with ordered object keys.
public enum JSONValue: Equatable, Sendable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// An integer.
    case int(Int)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, its keys in order.
    case object([(String, JSONValue)])

    /// Two values are equal when they serialize equally.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool { lhs.serialized() == rhs.serialized() }

    /// The value of a key of an object.
    /// - Parameter key: The key.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    /// Serializes the value, indented with two spaces per level when `pretty`.
    /// - Parameter pretty: Whether to indent.
    /// - Returns: The JSON text.
    public func serialized(pretty: Bool = false) -> String {
        // Written as UTF-8 bytes and decoded once: appending to a `String` piece by piece costs
        // several times more on a listing of thousands of records.
        var output: [UInt8] = []
        output.reserveCapacity(size(pretty: pretty, depth: 0))
        write(to: &output, pretty: pretty, depth: 0)
        return String(decoding: output, as: UTF8.self)
    }

    /// A newline and the indentation of `depth` levels, built once for the common depths.
    private static let indentations: [[UInt8]] = (0..<16).map { [0x0A] + Array(repeating: 0x20, count: 2 * $0) }

    private static func indent(_ output: inout [UInt8], _ depth: Int) {
        if depth < indentations.count {
            output.append(contentsOf: indentations[depth])
        } else {
            output.append(0x0A)
            output.append(contentsOf: repeatElement(0x20, count: 2 * depth))
        }
    }

    /// The serialized size in bytes, when no string needs an escape (a capacity to reserve).
    private func size(pretty: Bool, depth: Int) -> Int {
        switch self {
        case .null: return 4
        case .bool(let value): return value ? 4 : 5
        case .int: return 20
        case .string(let value): return value.utf8.count + 2
        case .array(let values):
            var total = 2 + (pretty ? 1 + 2 * depth : 0)
            for index in values.indices {
                total += 1 + (pretty ? 1 + 2 * (depth + 1) : 0) + values[index].size(pretty: pretty, depth: depth + 1)
            }
            return total
        case .object(let pairs):
            var total = 2 + (pretty ? 1 + 2 * depth : 0)
            for index in pairs.indices {
                total += pairs[index].0.utf8.count + 4 + (pretty ? 2 + 2 * (depth + 1) : 0)
                total += pairs[index].1.size(pretty: pretty, depth: depth + 1)
            }
            return total
        }
    }

    private func write(to output: inout [UInt8], pretty: Bool, depth: Int) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): output.append(contentsOf: String(value).utf8)
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let values):
            if values.isEmpty {
                output.append(contentsOf: "[]".utf8)
                return
            }
            output.append(UInt8(ascii: "["))
            for index in values.indices {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { Self.indent(&output, depth + 1) }
                values[index].write(to: &output, pretty: pretty, depth: depth + 1)
            }
            if pretty { Self.indent(&output, depth) }
            output.append(UInt8(ascii: "]"))
        case .object(let pairs):
            if pairs.isEmpty {
                output.append(contentsOf: "{}".utf8)
                return
            }
            output.append(UInt8(ascii: "{"))
            for index in pairs.indices {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                if pretty { Self.indent(&output, depth + 1) }
                Self.writeString(pairs[index].0, to: &output)
                output.append(UInt8(ascii: ":"))
                if pretty { output.append(UInt8(ascii: " ")) }
                pairs[index].1.write(to: &output, pretty: pretty, depth: depth + 1)
            }
            if pretty { Self.indent(&output, depth) }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Writes a string literal: quotes, backslashes and control characters escaped, every other
    /// byte of its UTF-8 copied as it is.
    private static func writeString(_ value: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Names and paths need no escape: copied whole, then checked where they landed.
        let start = output.count
        output.append(contentsOf: value.utf8)
        if !needsEscape(output, from: start) {
            output.append(UInt8(ascii: "\""))
            return
        }
        output.removeSubrange(start...)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): output.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): output.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): output.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: "\\u00".utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0xF)])
            default:
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// Whether the bytes from `start` on hold a quote, a backslash or a control character.
    private static func needsEscape(_ bytes: [UInt8], from start: Int) -> Bool {
        for index in start..<bytes.count {
            let byte = bytes[index]
            if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return true }
        }
        return false
    }
}
