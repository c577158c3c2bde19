// TypeName.swift
//
// A parser for type names as `String(reflecting:)` prints them, plus the sugar people write:
// `Swift.Dictionary<Swift.String, Fixtures.Box<Swift.Int>>`, `(Swift.Int, label: Swift.String)`,
// `Swift.Optional<Swift.Int>`, `[Swift.Int]`, `[Swift.String: Swift.Int]`, `Swift.Int?`,
// `Fixtures.P & Fixtures.Q`, `Swift.Int.Type`, `Fixtures.P.Protocol`,
// `(extension in Fixtures):Swift.Int.Nested` and `Fixtures.(unknown context at $…).Private`.

/// The syntax tree of a type name.
indirect enum TypeName: Equatable, Sendable {
    /// One component of a dotted nominal path, with the generic arguments written after it.
    struct Component: Equatable, Sendable {
        var name: String
        var arguments: [TypeName]
    }

    /// A dotted nominal path: a type, a protocol, or `Any`/`AnyObject`.
    case nominal([Component])
    /// An integer generic argument.
    case value(Int)
    /// A pack of generic arguments, printed `Pack{A, B}`.
    case pack([TypeName])
    /// A tuple with its labels ("" for unlabelled elements).
    case tuple([(label: String, type: TypeName)])
    /// A protocol composition (`P & Q`, `Base & P`).
    case composition([TypeName])
    /// `T.Type`.
    case metatype(TypeName)
    /// `P.Protocol`: the metatype of the existential itself.
    case protocolMetatype(TypeName)
    /// A function type, with its parameters and result parsed (their modifiers, the effects and
    /// attributes are kept only in the text). Names do not resolve function types; validated
    /// mangled names do, through the runtime.
    case function(text: String, parameters: [TypeName], result: TypeName)

    static func == (lhs: TypeName, rhs: TypeName) -> Bool {
        switch (lhs, rhs) {
        case (.nominal(let a), .nominal(let b)): a == b
        case (.value(let a), .value(let b)): a == b
        case (.pack(let a), .pack(let b)): a == b
        case (.tuple(let a), .tuple(let b)): a.map(\.label) == b.map(\.label) && a.map(\.type) == b.map(\.type)
        case (.composition(let a), .composition(let b)): a == b
        case (.metatype(let a), .metatype(let b)): a == b
        case (.protocolMetatype(let a), .protocolMetatype(let b)): a == b
        case (.function(let a, _, _), .function(let b, _, _)): a == b
        default: false
        }
    }

    /// A parse failure with the text around it.
    struct ParseError: Error, Sendable {
        var part: String
        var reason: String
        /// The limit of ``RuntimeMetadataLimits`` the name exceeds, if that is the failure.
        var limit: (RuntimeMetadataLimit, value: Int)?

        init(part: String, reason: String, limit: (RuntimeMetadataLimit, value: Int)? = nil) {
            self.part = part
            self.reason = reason
            self.limit = limit
        }
    }

    /// Parses a complete name.
    /// - Parameter text: The name.
    /// - Returns: The tree.
    /// - Throws: ``ParseError`` naming the part that failed.
    static func parse(_ text: String) throws(ParseError) -> TypeName {
        let length = text.utf8.count
        guard length <= RuntimeMetadataLimits.maximumNameLength else {
            throw ParseError(part: "", reason: "the name is too long", limit: (.nameLength, length))
        }
        let bytes = Array(text.utf8)
        let nesting = Self.nesting(of: bytes)
        guard nesting <= RuntimeMetadataLimits.maximumNameNesting else {
            throw ParseError(part: "", reason: "the name nests too deeply", limit: (.nameNesting, nesting))
        }
        var parser = Parser(bytes)
        parser.skipSpaces()
        guard !parser.atEnd else { throw ParseError(part: text, reason: "the name is empty") }
        let result = try parser.parseType()
        parser.skipSpaces()
        guard parser.atEnd else {
            throw ParseError(part: parser.rest, reason: "unexpected text after a complete type")
        }
        // Postfix `?`, `!`, `.Type` and `.Protocol` nest without brackets: measure the tree.
        let depth = result.depth
        guard depth <= RuntimeMetadataLimits.maximumNameNesting else {
            throw ParseError(part: "", reason: "the name nests too deeply", limit: (.nameNesting, depth))
        }
        return result
    }
}

extension TypeName {
    /// The trees one level inside this one: generic arguments, elements, parts, parameters and
    /// result, a metatype's instance.
    var children: [TypeName] {
        switch self {
        case .value: []
        case .function(_, let parameters, let result): parameters + [result]
        case .nominal(let components): components.flatMap(\.arguments)
        case .pack(let elements), .composition(let elements): elements
        case .tuple(let elements): elements.map(\.type)
        case .metatype(let inner), .protocolMetatype(let inner): [inner]
        }
    }

    /// Whether this tree or one inside it satisfies `predicate`, found without recursion.
    func contains(where predicate: (TypeName) -> Bool) -> Bool {
        var pending = [self]
        while let next = pending.popLast() {
            if predicate(next) { return true }
            pending += next.children
        }
        return false
    }

    /// Whether a function type appears anywhere in the tree.
    var containsFunction: Bool { contains { if case .function = $0 { true } else { false } } }

    /// Whether a tuple in the tree has a raw-identifier label (kept in backticks).
    var containsRawLabel: Bool {
        contains { if case .tuple(let elements) = $0 { elements.contains { $0.label.hasPrefix("`") } } else { false } }
    }

    /// Whether an integer appears anywhere in the tree.
    var containsValue: Bool { contains { if case .value = $0 { true } else { false } } }

    /// The tree's depth, measured without recursion: the levels the resolver and the runtime's
    /// printer recurse through.
    var depth: Int {
        var deepest = 0
        var pending: [(TypeName, Int)] = [(self, 1)]
        while let (next, level) = pending.popLast() {
            deepest = max(deepest, level)
            pending += next.children.map { ($0, level + 1) }
        }
        return deepest
    }

    /// How deeply a name nests, counted without recursion: one level for the name, and one
    /// more inside each `<…>`, `(…)`, `[…]` and `{…}`. The parser recurses once per level.
    /// - Parameter bytes: The name's UTF-8 bytes.
    /// - Returns: The deepest level.
    static func nesting(of bytes: [UInt8]) -> Int {
        var depth = 1
        var deepest = 1
        var inBackticks = false
        var previous: UInt8 = 0
        for byte in bytes {
            defer { previous = byte }
            if byte == UInt8(ascii: "`") {
                inBackticks.toggle()
                continue
            }
            if inBackticks { continue }
            switch byte {
            case UInt8(ascii: "<"), UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: ">") where previous == UInt8(ascii: "-"):
                break  // the arrow of a function type
            case UInt8(ascii: ">"), UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"):
                depth = max(1, depth - 1)
            default:
                break
            }
        }
        return deepest
    }
}

/// A recursive-descent parser over UTF-8 bytes. Its recursion is bounded by
/// ``RuntimeMetadataLimits/maximumNameNesting``: each nested type costs one level.
private struct Parser {
    let bytes: [UInt8]
    var position = 0
    /// The nesting of the type being parsed.
    var depth = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var atEnd: Bool { position >= bytes.count }
    var current: UInt8? { atEnd ? nil : bytes[position] }
    var rest: String { String(decoding: bytes[min(position, bytes.count)...], as: UTF8.self) }

    mutating func skipSpaces() {
        while current == UInt8(ascii: " ") { position += 1 }
    }

    func lookingAt(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return position + utf8.count <= bytes.count && Array(bytes[position..<(position + utf8.count)]) == utf8
    }

    mutating func consume(_ text: String) -> Bool {
        guard lookingAt(text) else { return false }
        position += text.utf8.count
        return true
    }

    mutating func expect(_ text: String) throws(TypeName.ParseError) {
        skipSpaces()
        guard consume(text) else {
            throw TypeName.ParseError(part: rest.isEmpty ? "end of name" : rest, reason: "expected '\(text)'")
        }
    }

    /// type := prefixType ('&' prefixType)*
    mutating func parseType() throws(TypeName.ParseError) -> TypeName {
        depth += 1
        defer { depth -= 1 }
        guard depth <= RuntimeMetadataLimits.maximumNameNesting else {
            throw TypeName.ParseError(
                part: String(decoding: bytes[max(0, position - 40)..<min(bytes.count, position + 40)], as: UTF8.self),
                reason: "the name nests too deeply",
                limit: (.nameNesting, depth)
            )
        }
        skipSpaces()
        _ = consume("any ")
        var parts = [try parsePostfix()]
        skipSpaces()
        while consume("&") {
            skipSpaces()
            _ = consume("any ")
            parts.append(try parsePostfix())
            skipSpaces()
        }
        return parts.count == 1 ? parts[0] : .composition(parts)
    }

    /// postfix := primary ('?' | '!' | '.Type' | '.Protocol')*
    mutating func parsePostfix() throws(TypeName.ParseError) -> TypeName {
        var type = try parsePrimary()
        // Each postfix operator wraps the type once more; bound the wrapping as it is built, as
        // a deeper tree would recurse when it is released.
        var wraps = 0
        while true {
            if wraps + depth > RuntimeMetadataLimits.maximumNameNesting {
                throw TypeName.ParseError(
                    part: "",
                    reason: "the name nests too deeply",
                    limit: (.nameNesting, wraps + depth)
                )
            }
            wraps += 1
            if consume("?") || consume("!") {
                type = .nominal([.init(name: "Swift", arguments: []), .init(name: "Optional", arguments: [type])])
            } else if lookingAt(".Type"), !isIdentifierByte(at: position + 5) {
                position += 5
                type = .metatype(type)
            } else if lookingAt(".Protocol"), !isIdentifierByte(at: position + 9) {
                position += 9
                type = .protocolMetatype(type)
            } else {
                return type
            }
        }
    }

    func isIdentifierByte(at index: Int) -> Bool {
        guard index < bytes.count else { return false }
        let byte = bytes[index]
        // `$` appears in the names the compiler gives macro-generated types (`$s4main…fMu_`).
        return byte == UInt8(ascii: "_") || byte == UInt8(ascii: "$") || (byte >= 0x30 && byte <= 0x39)
            || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte >= 0x80
    }

    mutating func parsePrimary() throws(TypeName.ParseError) -> TypeName {
        skipSpaces()
        guard let byte = current else { throw TypeName.ParseError(part: "end of name", reason: "expected a type") }
        switch byte {
        case UInt8(ascii: "@"):
            // Attributes of a function type: `@Sendable`, `@convention(c)`, `@isolated(any)`.
            try skipAttributes()
            guard current == UInt8(ascii: "(") else {
                throw TypeName.ParseError(part: rest.isEmpty ? "end of name" : rest, reason: "expected a function type")
            }
            guard case .function(let text, let parameters, let result) = try parseTupleOrFunction() else {
                throw TypeName.ParseError(part: rest.isEmpty ? "end of name" : rest, reason: "expected a function type")
            }
            return .function(text: text, parameters: parameters, result: result)
        case UInt8(ascii: "("):
            if lookingAt("(extension in ") { return try parseNominal() }
            return try parseTupleOrFunction()
        case UInt8(ascii: "["):
            position += 1
            let element = try parseType()
            skipSpaces()
            if consume(":") {
                let value = try parseType()
                try expect("]")
                return .nominal([
                    .init(name: "Swift", arguments: []), .init(name: "Dictionary", arguments: [element, value]),
                ])
            }
            try expect("]")
            return .nominal([.init(name: "Swift", arguments: []), .init(name: "Array", arguments: [element])])
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = position
            position += 1
            while let digit = current, digit >= 0x30 && digit <= 0x39 { position += 1 }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            guard let value = Int(text) else { throw TypeName.ParseError(part: text, reason: "not an integer") }
            return .value(value)
        default:
            return try parseNominal()
        }
    }

    /// A parenthesized tuple, or a function type when an arrow follows.
    mutating func parseTupleOrFunction() throws(TypeName.ParseError) -> TypeName {
        let start = position
        position += 1
        var elements: [(label: String, type: TypeName)] = []
        skipSpaces()
        if !consume(")") {
            while true {
                skipSpaces()
                var label = ""
                let save = position
                let labelStart = position
                if let identifier = parseIdentifier() {
                    skipSpaces()
                    if consume(":") {
                        // The runtime keeps a raw identifier label in backticks, as it is written;
                        // an escaped keyword (`class`) is stored plain.
                        let wasQuoted = bytes[labelStart] == UInt8(ascii: "`")
                        label = wasQuoted && !Self.isPlainIdentifier(identifier) ? "`" + identifier + "`" : identifier
                    } else {
                        position = save
                    }
                } else {
                    position = save
                }
                skipSpaces()
                // Parameter modifiers and attributes only appear in function types.
                while consumeWord("inout") || consumeWord("__owned") || consumeWord("__shared")
                    || consumeWord("borrowing") || consumeWord("consuming") || consumeWord("isolated")
                    || consumeWord("sending") || consumeWord("__isolated")
                {
                    skipSpaces()
                }
                try skipAttributes()
                elements.append((label, try parseType()))
                skipSpaces()
                _ = consume("...")
                skipSpaces()
                if consume(")") { break }
                try expect(",")
            }
        }
        skipSpaces()
        // Effects, then the arrow and the result: a function type.
        var isFunction = false
        while true {
            if consumeWord("async") || consumeWord("rethrows") {
                isFunction = true
            } else if consumeWord("throws") {
                isFunction = true
                if consume("(") {
                    _ = try parseType()
                    try expect(")")
                }
            } else {
                break
            }
            skipSpaces()
        }
        if consume("->") {
            skipSpaces()
            _ = consumeWord("sending")
            let result = try parseType()
            return .function(
                text: String(decoding: bytes[start..<position], as: UTF8.self),
                parameters: elements.map(\.type),
                result: result
            )
        }
        if isFunction { throw TypeName.ParseError(part: rest.isEmpty ? "end of name" : rest, reason: "expected '->'") }
        if elements.count == 1 && elements[0].label.isEmpty { return elements[0].type }
        return .tuple(elements)
    }

    /// Whether text is an identifier without backticks: a letter, `_` or non-ASCII character,
    /// then those or digits.
    static func isPlainIdentifier(_ text: String) -> Bool {
        // The runtime's demangler prints a space in a raw identifier as U+00A0, which no plain
        // identifier contains.
        if text.unicodeScalars.contains(where: { $0.value == 0xA0 || $0.properties.isWhitespace }) { return false }
        let bytes = Array(text.utf8)
        guard let first = bytes.first, !(first >= 0x30 && first <= 0x39), first != UInt8(ascii: "$") else {
            return false
        }
        return bytes.allSatisfy {
            $0 == UInt8(ascii: "_") || ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A)
                || ($0 >= 0x61 && $0 <= 0x7A)
                || $0 >= 0x80
        }
    }

    /// Consumes a keyword not followed by an identifier character.
    mutating func consumeWord(_ word: String) -> Bool {
        guard lookingAt(word), !isIdentifierByte(at: position + word.utf8.count) else { return false }
        position += word.utf8.count
        return true
    }

    /// Skips attributes (`@name` with an optional parenthesized argument, or a global actor's
    /// qualified name, `@Swift.MainActor`) and the spaces after them.
    mutating func skipAttributes() throws(TypeName.ParseError) {
        while consume("@") {
            guard parseIdentifier() != nil else {
                throw TypeName.ParseError(part: rest.isEmpty ? "end of name" : rest, reason: "expected an attribute")
            }
            while consume(".") {
                guard parseIdentifier() != nil else {
                    throw TypeName.ParseError(
                        part: rest.isEmpty ? "end of name" : rest,
                        reason: "expected an attribute"
                    )
                }
            }
            if consume("(") {
                var open = 1
                while open > 0, let byte = current {
                    if byte == UInt8(ascii: "(") { open += 1 }
                    if byte == UInt8(ascii: ")") { open -= 1 }
                    position += 1
                }
                guard open == 0 else { throw TypeName.ParseError(part: "end of name", reason: "expected ')'") }
            }
            skipSpaces()
        }
    }

    mutating func parseIdentifier() -> String? {
        let start = position
        if lookingAt("`") {
            position += 1
            while let byte = current, byte != UInt8(ascii: "`") { position += 1 }
            guard consume("`") else {
                position = start
                return nil
            }
            return String(decoding: bytes[(start + 1)..<(position - 1)], as: UTF8.self)
        }
        while isIdentifierByte(at: position) { position += 1 }
        guard position > start else { return nil }
        let first = bytes[start]
        guard !(first >= 0x30 && first <= 0x39) else {
            position = start
            return nil
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }

    /// nominal := component ('.' component)*, where a component is an identifier or a runtime
    /// context placeholder, optionally followed by generic arguments.
    mutating func parseNominal() throws(TypeName.ParseError) -> TypeName {
        var components: [TypeName.Component] = []
        var prefix = ""
        if lookingAt("(extension in ") {
            let start = position
            while let byte = current, byte != UInt8(ascii: ")") { position += 1 }
            guard consume("):") else { throw TypeName.ParseError(part: rest, reason: "malformed extension context") }
            prefix = String(decoding: bytes[start..<position], as: UTF8.self)
        }
        while true {
            var name: String
            if lookingAt("(unknown context at ") {
                let start = position
                while let byte = current, byte != UInt8(ascii: ")") { position += 1 }
                guard consume(")") else { throw TypeName.ParseError(part: rest, reason: "malformed anonymous context") }
                name = String(decoding: bytes[start..<position], as: UTF8.self)
            } else if let identifier = parseIdentifier() {
                // A raw identifier that is not a plain one stays quoted, as the runtime prints it:
                // `Swift.Int` in backticks is one identifier, not a path.
                let quoted = position > 0 && bytes[position - 1] == UInt8(ascii: "`")
                let identifier = quoted && !Self.isPlainIdentifier(identifier) ? "`" + identifier + "`" : identifier
                if identifier == "Pack" && components.isEmpty && consume("{") {
                    var elements: [TypeName] = []
                    skipSpaces()
                    if !consume("}") {
                        while true {
                            elements.append(try parseType())
                            skipSpaces()
                            if consume("}") { break }
                            try expect(",")
                        }
                    }
                    return .pack(elements)
                }
                name = identifier
            } else {
                throw TypeName.ParseError(part: rest.isEmpty ? "end of name" : rest, reason: "expected a type name")
            }
            if !prefix.isEmpty {
                name = prefix + name
                prefix = ""
            }
            var arguments: [TypeName] = []
            if consume("<") {
                while true {
                    arguments.append(try parseType())
                    skipSpaces()
                    if consume(">") { break }
                    try expect(",")
                }
            }
            components.append(.init(name: name, arguments: arguments))
            if lookingAt(".Type") && !isIdentifierByte(at: position + 5) { break }
            if lookingAt(".Protocol") && !isIdentifierByte(at: position + 9) { break }
            guard consume(".") else { break }
        }
        return .nominal(components)
    }
}
