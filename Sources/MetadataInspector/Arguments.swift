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
        /// The stored properties and cases of the images' types.
        case fields
        /// The full model of one type.
        case layout
        /// The live class instances of a running process, by type (`--pid`).
        case instances
        /// The live Swift objects of a running process that nothing reachable refers to, and
        /// their cycles (`--pid`).
        case leaks
    }

    /// The subcommand.
    public var subcommand: Subcommand = .summary
    /// Libraries to load first (`--load`, repeatable).
    public var loads: [String] = []
    /// Image files to read without loading them (the listings' `FILE` arguments).
    public var files: [String] = []
    /// An image to restrict listings to (`--image`).
    public var image: String?
    /// Whether to print JSON (`--json`).
    public var json = false
    /// Whether help was asked for (`--help`, or `help SUBCOMMAND`).
    public var help = false
    /// Whether the version was asked for (`--version`).
    public var version = false
    /// Kinds to list (`types --kind`, repeatable).
    public var kinds: [String] = []
    /// A protocol name filter (`conformances --protocol`).
    public var protocolName: String?
    /// A type name filter (`conformances --type`, `fields --type`).
    public var typeName: String?
    /// The type to describe (`layout TYPE`).
    public var layoutType: String?
    /// A running process to read instead of files (`--pid`).
    public var processID: Int32?
    /// Whether to hold the process stopped while it is read (`--stop`).
    public var stop = false
    /// `instances --since FILE`: an earlier `instances --json` output to compare the census with.
    public var since: String?

    /// The kinds `types --kind` accepts.
    public static let kindNames: Set<String> = ["struct", "enum", "class", "protocol"]

    /// Parses a command line, without the program name.
    ///
    /// Options may come before or after the subcommand, as with `git -C dir status`:
    /// `metadata-inspect --load lib.so conformances --json` is
    /// `metadata-inspect conformances --load lib.so --json`. The subcommand is the first argument
    /// that is neither an option nor an option's value. `help SUBCOMMAND` is `SUBCOMMAND --help`.
    /// - Parameter arguments: The arguments.
    /// - Throws: ``InspectorError/usage(_:)`` naming the bad argument.
    public init(parsing arguments: [String]) throws(InspectorError) {
        var remaining = arguments
        if let position = Self.subcommandPosition(in: arguments) {
            let word = arguments[position]
            remaining.remove(at: position)
            if word == "help" {
                help = true
                if let topicPosition = Self.subcommandPosition(in: remaining) {
                    let topic = remaining.remove(at: topicPosition)
                    guard let subcommand = Subcommand(rawValue: topic) else {
                        throw .usage("unknown subcommand '\(topic)' for 'help'; expected one of \(Self.subcommandList)")
                    }
                    self.subcommand = subcommand
                }
            } else {
                guard let subcommand = Subcommand(rawValue: word) else {
                    throw .usage("unknown subcommand '\(word)'; expected one of \(Self.subcommandList)")
                }
                self.subcommand = subcommand
            }
        }
        var rest = remaining[...]
        func value(for option: String) throws(InspectorError) -> String {
            guard let next = rest.first, !next.hasPrefix("--") else {
                throw .usage("option '\(option)' needs a value")
            }
            rest = rest.dropFirst()
            return next
        }
        while let argument = rest.first {
            rest = rest.dropFirst()
            switch argument {
            case "--help", "-h": help = true
            case "--version": version = true
            case "--json": json = true
            case "--stop": stop = true
            case "--since" where subcommand == .instances: since = try value(for: argument)
            case "--load": loads.append(try value(for: argument))
            case "--image": image = try value(for: argument)
            case "--pid":
                let text = try value(for: argument)
                guard let pid = Int32(text), pid > 0 else {
                    throw .usage("'--pid' needs a process id, a positive number; got '\(text)'")
                }
                processID = pid
            case "--kind" where subcommand == .types:
                let kind = try value(for: argument)
                guard Self.kindNames.contains(kind) else {
                    throw .usage("unknown kind '\(kind)' for '--kind'; expected struct, enum, class or protocol")
                }
                kinds.append(kind)
            case "--protocol" where subcommand == .conformances: protocolName = try value(for: argument)
            case "--type" where subcommand == .conformances || subcommand == .fields || subcommand == .instances:
                typeName = try value(for: argument)
            default:
                if argument.hasPrefix("-") {
                    throw .usage("unknown option '\(argument)' for '\(subcommand.rawValue)'")
                }
                if subcommand == .layout {
                    guard layoutType == nil else {
                        throw .usage("unexpected argument '\(argument)' for 'layout'")
                    }
                    layoutType = argument
                } else {
                    files.append(argument)
                }
            }
        }
        if subcommand == .layout && layoutType == nil && !help && !version {
            throw .usage("'layout' needs a TYPE argument")
        }
        if subcommand == .instances && processID == nil && !help && !version {
            throw .usage("'instances' counts the objects of a running process: it needs '--pid PID'")
        }
        if subcommand == .leaks && processID == nil && !help && !version {
            throw .usage("'leaks' searches the heap of a running process: it needs '--pid PID'")
        }
        if subcommand == .leaks && !files.isEmpty && !help && !version {
            throw .usage("'leaks' reads a running process, not files; unexpected argument '\(files[0])'")
        }
        if since != nil && typeName != nil && !help && !version {
            throw .usage("'--since' compares every type's counts; it cannot be combined with '--type'")
        }
        if stop && processID == nil && !help && !version {
            throw .usage("'--stop' holds the process that '--pid' reads; it needs '--pid PID'")
        }
        if let processID, !help, !version {
            if subcommand == .layout {
                throw .usage("'layout' describes a type of this process; '--pid' is for the listings")
            }
            if !files.isEmpty {
                throw .usage("'--pid \(processID)' reads a process; it cannot be combined with FILE arguments")
            }
            if !loads.isEmpty {
                throw .usage("'--pid \(processID)' reads a process; '--load' loads into this one")
            }
        }
    }

    /// The options that take a value, whatever the subcommand: their values are skipped when
    /// looking for the subcommand.
    private static let optionsWithValues: Set<String> = [
        "--load", "--image", "--kind", "--protocol", "--type", "--pid",
    ]

    /// The position of the first argument that is neither an option nor an option's value.
    private static func subcommandPosition(in arguments: [String]) -> Int? {
        var index = arguments.startIndex
        while index < arguments.endIndex {
            let argument = arguments[index]
            if !argument.hasPrefix("-") { return index }
            index += optionsWithValues.contains(argument) ? 2 : 1
        }
        return nil
    }

    private static var subcommandList: String { Subcommand.allCases.map(\.rawValue).joined(separator: ", ") }

    /// The help text of a subcommand.
    /// - Parameter subcommand: The subcommand.
    /// - Returns: The text.
    public static func help(for subcommand: Subcommand) -> String {
        let common = """
            Options:
              --load PATH           Load a Swift shared library into this process first (repeatable).
              --image PATH-OR-NAME  Restrict listings to one image; a bare file name matches by name.
              --pid PID             List the Swift images of a running process, read from its memory.
              --stop                Hold the --pid process stopped while it is read (ptrace), then resume it.
              --json                Print one JSON document instead of aligned text.
              --help                Show this help (also: metadata-inspect help SUBCOMMAND).
              --version             Print the version.

            Options may come before or after the subcommand.
            """
        let reading = """
            FILE is any Swift ELF executable or shared library, stripped or not. It is read, never
            loaded: none of its code runs and the dynamic loader never sees it. Without FILE, the
            listing covers the images loaded in this process (the toolchain's and --load's).
            Names are the same in every run: a private context is written
            (unknown context at FILE-NAME+0xOFFSET).

            With --pid PID, the listing covers the Swift images mapped in that running process
            (its executable, its libraries, plugins it loaded), read from its memory without
            stopping it or running anything in it; the output is the files' listing's. Reading
            needs permission to trace the process: the same user, or root, or CAP_SYS_PTRACE.
            """
        let usage: String
        switch subcommand {
        case .summary:
            usage = """
                USAGE: metadata-inspect [options] [summary] [FILE...] [options]
                       metadata-inspect help [SUBCOMMAND]

                Counts the types, protocols and conformances of each Swift image, largest first.
                Subcommands: \(subcommandList).
                types, protocols, conformances, fields, images and summary read FILEs without running them;
                layout needs a type's metadata, so it loads libraries with --load.

                \(reading)
                """
        case .images:
            usage = """
                USAGE: metadata-inspect images [FILE...] [options]

                Lists each image with Swift metadata and its counts.

                \(reading)
                """
        case .types:
            usage = """
                USAGE: metadata-inspect types [FILE...] [--kind struct|enum|class|protocol]... [options]

                Lists the nominal types (and, with --kind protocol, the protocols) of the images.

                \(reading)
                """
        case .protocols:
            usage = """
                USAGE: metadata-inspect protocols [FILE...] [options]

                Lists the protocols of the images.

                \(reading)
                """
        case .conformances:
            usage = """
                USAGE: metadata-inspect conformances [FILE...] [--protocol NAME] [--type NAME] [options]

                Lists the conformance records of the images, filtered by protocol or type name.

                \(reading)
                """
        case .fields:
            usage = """
                USAGE: metadata-inspect fields [FILE...] [--type NAME] [options]

                Lists each type's stored properties (or an enum's cases, in tag order) from its field
                descriptor: name, type as demangled, and type as mangled (symbolic references replaced
                by their contexts' manglings). No metadata is needed, so FILEs are read, not loaded.

                \(reading)
                """
        case .instances:
            usage = """
                USAGE: metadata-inspect instances --pid PID [--type NAME | --since FILE] [--stop] [options]

                Counts the live Swift class instances of a running process by type, read from its
                glibc malloc heap: COUNT, BYTES (their heap blocks, tail allocations included) and
                TYPE as String(reflecting:) prints it there, the most bytes first. With --type,
                prints the addresses of that type's instances, one per line (a generic class's name
                without arguments selects every specialization); a type with no live instance prints
                nothing, and a name that is no type of the process is an error. With --since FILE,
                an earlier `instances --json` output, prints each type's count and bytes now with
                their change since, the most bytes gained first; a type that is gone has count 0.

                A census is whole or an error: a heap that changes under the read is read again, up
                to four reads, and a process that exits or execs during it is an error.

                Only a block the allocator holds in use, whose reference counts say its object is
                alive, whose metadata is a class of one of the process's images, and whose size fits
                that class, is counted. Without --stop the process runs during the read, and objects
                allocated or freed in a part already read are seen as they were; --stop holds every
                thread for the read. A process whose heap is another allocator's (jemalloc, mimalloc, a
                sanitizer's) is refused with an error naming it.

                JSON: {"instances": [{"type", "count", "bytes"}]}; with --type,
                {"type": NAME, "addresses": ["0x...", ...]}; with --since,
                {"instances": [{"type", "count", "bytes", "countChange", "bytesChange"}]}.
                """
        case .leaks:
            usage = """
                USAGE: metadata-inspect leaks --pid PID [--json]

                Lists the live Swift objects of a running process that nothing reachable refers to:
                COUNT, BYTES and TYPE as String(reflecting:) prints it there, the most bytes first,
                then the retain cycles among them, each member's type and address. The process is
                always held (as --stop holds it) from the first root read until the marking ends, and
                the time it was held is printed.

                The roots are every readable, writable mapping but the malloc heaps (thread stacks
                whole, static TLS, the dynamic loader's allocations, the images' data and bss) and
                every thread's general and vector registers. A word is a reference when, with a Swift
                reference's spare bits masked, it points at any byte of a heap block in use; a weak
                reference reaches its object's side table, which refers to nothing. Marking is
                conservative: a reachable object is never reported, and a leak may be missed where a
                stale word (on a stack, in a register) or an unowned reference still points at it.

                A leaked closure context or box is a member named (closure context) or (box); its
                bytes, and those of the other leaked blocks an object reaches first, count in that
                object's row. A cycle is a strongly connected component of the leaked objects with two
                members or more, or one that refers to itself.

                JSON: {"heldMilliseconds": Int, "leaks": [{"type", "count", "bytes"}],
                "cycles": [{"members": [{"type", "address": "0x..."}]}]}.
                """
        case .layout:
            usage = """
                USAGE: metadata-inspect layout TYPE [--load LIBRARY]... [options]

                Describes one type: size, alignment, fields, cases, generic arguments, conformances.
                TYPE is a name as String(reflecting:) prints it (Swift.Dictionary<Swift.String, Swift.Int>)
                or a mangled name (SDySSSiG).

                layout needs the type's metadata, so it loads: --load loads a shared library into this
                process, which runs its initializers. An executable cannot be loaded into another
                process; list its types and conformances with the other subcommands, which read it.
                """
        }
        return usage + "\n\n" + common
    }
}
