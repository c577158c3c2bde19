// Arguments.swift
//
// The command line: a subcommand, its argument, and the options every subcommand takes.

/// A parsed `metadata-inspect` command line.
public struct Arguments: Equatable, Sendable {
    /// What to print.
    public enum Subcommand: String, CaseIterable, Sendable {
        /// Image, type, protocol and conformance counts, the largest images first.
        case summary
        /// Every loaded image with Swift metadata.
        case images
        /// The nominal types of the loaded images.
        case types
        /// The protocols of the loaded images.
        case protocols
        /// The conformances of the loaded images.
        case conformances
        /// The full model of one type.
        case layout
    }

    /// The subcommand.
    public var subcommand: Subcommand = .summary
    /// Libraries to load first (`--load`, repeatable).
    public var loads: [String] = []
    /// An image to restrict listings to (`--image`).
    public var image: String?
    /// Whether to print JSON (`--json`).
    public var json = false
    /// Whether help was asked for (`--help`).
    public var help = false
    /// Kinds to list (`types --kind`, repeatable).
    public var kinds: [String] = []
    /// A protocol name filter (`conformances --protocol`).
    public var protocolName: String?
    /// A type name filter (`conformances --type`).
    public var typeName: String?
    /// The type to describe (`layout TYPE`).
    public var layoutType: String?

    /// The kinds `types --kind` accepts.
    public static let kindNames: Set<String> = ["struct", "enum", "class", "protocol"]

    /// Parses a command line, without the program name.
    /// - Parameter arguments: The arguments.
    /// - Throws: ``InspectorError/usage(_:)`` naming the bad argument.
    public init(parsing arguments: [String]) throws(InspectorError) {
        var remaining = arguments[...]
        if let first = remaining.first, !first.hasPrefix("-") {
            guard let subcommand = Subcommand(rawValue: first) else {
                throw .usage("unknown subcommand '\(first)'; expected one of \(Self.subcommandList)")
            }
            self.subcommand = subcommand
            remaining = remaining.dropFirst()
        }
        func value(for option: String) throws(InspectorError) -> String {
            guard let next = remaining.first, !next.hasPrefix("--") else {
                throw .usage("option '\(option)' needs a value")
            }
            remaining = remaining.dropFirst()
            return next
        }
        while let argument = remaining.first {
            remaining = remaining.dropFirst()
            switch argument {
            case "--help", "-h": help = true
            case "--json": json = true
            case "--load": loads.append(try value(for: argument))
            case "--image": image = try value(for: argument)
            case "--kind" where subcommand == .types:
                let kind = try value(for: argument)
                guard Self.kindNames.contains(kind) else {
                    throw .usage("unknown kind '\(kind)' for '--kind'; expected struct, enum, class or protocol")
                }
                kinds.append(kind)
            case "--protocol" where subcommand == .conformances: protocolName = try value(for: argument)
            case "--type" where subcommand == .conformances: typeName = try value(for: argument)
            default:
                if argument.hasPrefix("-") {
                    throw .usage("unknown option '\(argument)' for '\(subcommand.rawValue)'")
                }
                guard subcommand == .layout, layoutType == nil else {
                    throw .usage("unexpected argument '\(argument)' for '\(subcommand.rawValue)'")
                }
                layoutType = argument
            }
        }
        if subcommand == .layout && layoutType == nil && !help {
            throw .usage("'layout' needs a TYPE argument")
        }
    }

    private static var subcommandList: String { Subcommand.allCases.map(\.rawValue).joined(separator: ", ") }

    /// The help text of a subcommand.
    /// - Parameter subcommand: The subcommand.
    /// - Returns: The text.
    public static func help(for subcommand: Subcommand) -> String {
        let common = """
            Options:
              --load PATH           Load a Swift shared library first (repeatable).
              --image PATH-OR-NAME  Restrict listings to one image; a bare file name matches by name.
              --json                Print one JSON document instead of aligned text.
              --help                Show this help.
            """
        let usage: String
        switch subcommand {
        case .summary:
            usage = """
                USAGE: metadata-inspect [summary] [options]

                Counts the types, protocols and conformances of every loaded Swift image, largest first.
                Subcommands: \(subcommandList).
                """
        case .images:
            usage = "USAGE: metadata-inspect images [options]\n\nLists every loaded image with Swift metadata."
        case .types:
            usage = """
                USAGE: metadata-inspect types [--kind struct|enum|class|protocol]... [options]

                Lists the nominal types (and, with --kind protocol, the protocols) of the loaded images.
                """
        case .protocols:
            usage = "USAGE: metadata-inspect protocols [options]\n\nLists the protocols of the loaded images."
        case .conformances:
            usage = """
                USAGE: metadata-inspect conformances [--protocol NAME] [--type NAME] [options]

                Lists the conformance records of the loaded images, filtered by protocol or type name.
                """
        case .layout:
            usage = """
                USAGE: metadata-inspect layout TYPE [options]

                Describes one type: size, alignment, fields, cases, generic arguments, conformances.
                TYPE is a name as String(reflecting:) prints it (Swift.Dictionary<Swift.String, Swift.Int>)
                or a mangled name (SDySSSiG).
                """
        }
        return usage + "\n\n" + common
    }
}
