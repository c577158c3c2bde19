// JSONValue.swift
//
// A small JSON tree and writer. The standard library has no JSON encoder, and this keeps the
// output's field order exactly as the contract lists it, which Foundation's JSONSerialization
// does not promise.

/// A JSON value with ordered object keys.
public indirect enum JSONValue: Equatable, Sendable {
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
        var output = ""
        write(to: &output, pretty: pretty, depth: 0)
        return output
    }

    private func write(to output: inout String, pretty: Bool, depth: Int) {
        let newline = pretty ? "\n" + String(repeating: "  ", count: depth + 1) : ""
        let closing = pretty ? "\n" + String(repeating: "  ", count: depth) : ""
        switch self {
        case .null: output += "null"
        case .bool(let value): output += value ? "true" : "false"
        case .int(let value): output += String(value)
        case .string(let value): Self.writeString(value, to: &output)
        case .array(let values):
            if values.isEmpty {
                output += "[]"
                return
            }
            output += "["
            for (index, value) in values.enumerated() {
                if index > 0 { output += "," }
                output += newline
                value.write(to: &output, pretty: pretty, depth: depth + 1)
            }
            output += closing + "]"
        case .object(let pairs):
            if pairs.isEmpty {
                output += "{}"
                return
            }
            output += "{"
            for (index, (key, value)) in pairs.enumerated() {
                if index > 0 { output += "," }
                output += newline
                Self.writeString(key, to: &output)
                output += pretty ? ": " : ":"
                value.write(to: &output, pretty: pretty, depth: depth + 1)
            }
            output += closing + "}"
        }
    }

    private static func writeString(_ value: String, to output: inout String) {
        output += "\""
        // Most strings (names, paths) need no escape: append them whole.
        if !value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            output += value
            output += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
