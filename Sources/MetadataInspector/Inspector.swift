// Inspector.swift

// Foundation's FileManager tells a missing file from a directory.
import Foundation
import RuntimeMetadata

/// The logic of `metadata-inspect`: parses a command line, reads image files (or loads
/// libraries), and reports on their Swift metadata through RuntimeMetadata's public API.
public enum Inspector {
    /// The version `--version` prints, the package's (the README's installation names it).
    public static let version = "0.1.0"

    /// What a run printed and how it ended.
    public struct Outcome: Equatable, Sendable {
        /// Standard output.
        public var output: String
        /// Standard error: `error: …` lines.
        public var error: String
        /// The exit status: 0 on success, 1 for a failure on good syntax, 2 for a usage error.
        public var status: Int32
    }

    /// Runs a command line, without the program name.
    /// - Parameter arguments: The arguments.
    /// - Returns: What to print and the exit status.
    public static func run(_ arguments: [String]) -> Outcome {
        do {
            let parsed = try Arguments(parsing: arguments)
            if parsed.version {
                return Outcome(output: "metadata-inspect \(version)\n", error: "", status: 0)
            }
            if parsed.help {
                return Outcome(output: Arguments.help(for: parsed.subcommand) + "\n", error: "", status: 0)
            }
            var notes: [String] = []
            let output = try report(parsed, notes: &notes)
            return Outcome(
                output: output.isEmpty ? "" : output + "\n",
                error: notes.map { "note: \($0)\n" }.joined(),
                status: 0
            )
        } catch {
            let hint = error.exitStatus == 2 ? "\nRun 'metadata-inspect --help' for usage." : ""
            return Outcome(output: "", error: "error: \(error)\(hint)\n", status: error.exitStatus)
        }
    }

    /// Loads the requested libraries, then builds the requested report.
    /// - Parameter arguments: The parsed command line.
    /// - Returns: The report's text or JSON.
    /// - Throws: ``InspectorError``.
    public static func report(_ arguments: Arguments) throws(InspectorError) -> String {
        var notes: [String] = []
        return try report(arguments, notes: &notes)
    }

    /// ``report(_:)``, with the notes a run prints on standard error: the images of a process
    /// whose files changed since it mapped them.
    static func report(_ arguments: Arguments, notes: inout [String]) throws(InspectorError) -> String {
        for path in arguments.loads {
            try load(path)
        }
        if let processID = arguments.processID {
            // A census holds the process for the heap's read alone: its images, which do not
            // change, are read before. A listing holds it for the read of its images.
            if !arguments.stop || arguments.subcommand == .instances || arguments.subcommand == .leaks {
                return try processReport(arguments, processID: processID, notes: &notes)
            }
            return try held(processID) { () throws(InspectorError) in
                try processReport(arguments, processID: processID, notes: &notes)
            }
        }
        let images: [Image]
        if arguments.files.isEmpty {
            images = try selectImages(arguments.image, from: Image.all)
        } else {
            var read: [Image] = []
            for path in arguments.files { read.append(try self.read(path)) }
            images = try selectImages(arguments.image, from: read)
        }
        let report = try listingReport(arguments, images: images)
        return arguments.json ? report.json.serialized(pretty: true) : report.text
    }

    /// The report a subcommand makes of images.
    private static func listingReport(_ arguments: Arguments, images: [Image]) throws(InspectorError) -> Report {
        switch arguments.subcommand {
        case .summary: return Report.summary(images)
        case .images: return Report.images(images)
        case .types: return Report.types(images, kinds: arguments.kinds)
        case .protocols: return Report.protocols(images)
        case .conformances:
            return Report.conformances(images, protocolName: arguments.protocolName, typeName: arguments.typeName)
        case .fields: return Report.fields(images, typeName: arguments.typeName)
        case .layout: return try Report.layout(try resolve(arguments.layoutType ?? ""))
        case .instances: throw .usage("'instances' needs '--pid PID'")
        case .leaks: throw .usage("'leaks' needs '--pid PID'")
        }
    }

    /// The report of a running process: a listing of its images, or the census of its objects.
    private static func processReport(
        _ arguments: Arguments,
        processID: Int32,
        notes: inout [String]
    ) throws(InspectorError) -> String {
        let baseline = try arguments.since.map { path throws(InspectorError) in try readBaseline(path) }
        let process = try readProcess(processID)
        notes += process.imagesWithChangedFiles.map {
            "\($0.path) was deleted or replaced since process \(processID) mapped it; it is listed from memory"
        }
        let report: Report
        if arguments.subcommand == .leaks {
            // The search holds the process itself, for the heap's read and the marking.
            do {
                report = Report.leaks(try process.leaks())
            } catch {
                throw .processUnreadable(pid: processID, reason: "\(error)")
            }
        } else if arguments.subcommand == .instances {
            let count = { () throws(InspectorError) -> ProcessCensus in
                do {
                    return try process.census(keepingAddressesOf: arguments.typeName)
                } catch {
                    throw .processUnreadable(pid: processID, reason: "\(error)")
                }
            }
            let census = try arguments.stop ? held(processID, count) : count()
            if let typeName = arguments.typeName {
                // A type with no live instance prints nothing; a name no type has is an error.
                guard !census.rows(ofType: typeName).isEmpty || hasType(named: typeName, in: process.images) else {
                    throw .unknownType(
                        name: typeName,
                        reason: "process \(processID) has no type of that name in its Swift images "
                            + "(a name as String(reflecting:) prints it, or a generic class's without arguments)"
                    )
                }
                report = Report.addresses(census, typeName: typeName)
            } else if let baseline {
                report = Report.growth(census, since: baseline)
            } else {
                report = Report.instances(census, typeName: nil)
            }
        } else {
            report = try listingReport(arguments, images: try selectImages(arguments.image, from: process.images))
        }
        return arguments.json ? report.json.serialized(pretty: true) : report.text
    }

    /// Calls `body` with every thread of a process held (``RemoteProcess/whileStopped(_:_:)``).
    private static func held<Value>(
        _ processID: Int32,
        _ body: () throws(InspectorError) -> Value
    ) throws(InspectorError) -> Value {
        let outcome: Result<Value, InspectorError>
        do {
            outcome = try RemoteProcess.whileStopped(processID) { Result { () throws(InspectorError) in try body() } }
        } catch {
            throw .processUnreadable(pid: processID, reason: "\(error)")
        }
        return try outcome.get()
    }

    /// Whether a process's images declare a type of a name: its qualified name, or for a generic
    /// type's name with arguments, the name before them.
    private static func hasType(named typeName: String, in images: [Image]) -> Bool {
        let base = typeName.firstIndex(of: "<").map { String(typeName[..<$0]) } ?? typeName
        return images.contains { image in
            image.typeDescriptors.contains { $0.portableName == base || $0.qualifiedName == base }
        }
    }

    /// Reads the rows of an earlier `instances --json` output.
    /// - Parameter path: The file.
    /// - Returns: Each type's count and bytes, by type name.
    /// - Throws: ``InspectorError/missingFile(path:)``, ``InspectorError/invalidBaseline(path:reason:)``.
    static func readBaseline(_ path: String) throws(InspectorError) -> [String: Report.CensusCounts] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .missingFile(path: path)
        }
        guard !isDirectory.boolValue else { throw .directory(path: path) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .invalidBaseline(path: path, reason: "it cannot be read")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .invalidBaseline(path: path, reason: "it is not JSON")
        }
        guard let object = parsed as? [String: Any], let rows = object["instances"] as? [Any] else {
            throw .invalidBaseline(path: path, reason: "it has no \"instances\" array")
        }
        var counts: [String: Report.CensusCounts] = [:]
        for (index, row) in rows.enumerated() {
            guard let row = row as? [String: Any], let type = row["type"] as? String,
                let count = (row["count"] as? NSNumber).flatMap({ Int(exactly: $0.doubleValue) }),
                let bytes = (row["bytes"] as? NSNumber).flatMap({ Int(exactly: $0.doubleValue) }),
                count >= 0, bytes >= 0
            else {
                throw .invalidBaseline(
                    path: path,
                    reason: "row \(index) is not {\"type\": NAME, \"count\": N, \"bytes\": N} with counts of 0 or more"
                )
            }
            guard counts[type] == nil else {
                throw .invalidBaseline(path: path, reason: "type '\(type)' has two rows")
            }
            counts[type] = Report.CensusCounts(count: count, bytes: bytes)
        }
        return counts
    }

    /// Checks a library file and loads it: the file is read and every record of its Swift
    /// sections checked (``Image/read(_:)``), then the sections the runtime registers for it,
    /// which a child process that loaded it reports, are checked against the same image; the
    /// library is loaded only when both pass.
    /// - Parameter path: The library.
    /// - Throws: ``InspectorError`` for a missing, foreign or corrupt file or a refused load.
    static func load(_ path: String) throws(InspectorError) {
        let image = try read(path)
        if image.isExecutable {
            throw .loadFailed(
                path: path,
                reason: "it is an executable, and an executable cannot be loaded into another process; "
                    + "'types', 'protocols', 'conformances' and 'fields' read it without loading: "
                    + "metadata-inspect conformances \(path)"
            )
        }
        // The runtime reads the sections the library registers when it loads, which a child
        // process that loaded it reports.
        let probe: ImageProbe
        do {
            probe = try Image.probe(path)
            try image.checkRegisteredSections(probe)
        } catch {
            throw inspectorError(error, path: path)
        }
        if let signal = probe.scanSignal {
            throw .corruptMetadata(
                path: path,
                section: "swift5_protocol_conformances",
                record: 0,
                reason: "crashed the runtime's conformance scan in a child process (signal \(signal))"
            )
        }
        guard probe.scanCompleted else {
            throw .loadFailed(path: path, reason: "the runtime's conformance scan in a child process did not finish")
        }
        do {
            try Image.load(path)
        } catch {
            throw inspectorError(error, path: path)
        }
    }

    /// Reads a running process's Swift images.
    /// - Parameter processID: The process.
    /// - Returns: The process.
    /// - Throws: ``InspectorError/processUnreadable(pid:reason:)``, or
    ///   ``InspectorError/corruptMetadata(path:section:record:reason:)`` for a bad record.
    static func readProcess(_ processID: Int32) throws(InspectorError) -> RemoteProcess {
        do {
            return try RemoteProcess.read(processID)
        } catch .corruptMetadata(let path, let section, let record, let reason) {
            throw .corruptMetadata(path: path, section: section, record: record, reason: reason)
        } catch {
            throw .processUnreadable(pid: processID, reason: "\(error)")
        }
    }

    /// The inspector's error for a refused read or load.
    private static func inspectorError(_ error: RuntimeMetadataError, path: String) -> InspectorError {
        switch error {
        case .notASwiftImage: .notSwift(path: path)
        case .imageLoadFailed(_, let reason): .loadFailed(path: path, reason: reason)
        case .imageReadFailed(_, let offset, let reason): .readFailed(path: path, offset: offset, reason: reason)
        case .corruptMetadata(_, let section, let record, let reason):
            .corruptMetadata(path: path, section: section, record: record, reason: reason)
        default: .loadFailed(path: path, reason: "\(error)")
        }
    }

    /// Reads an image file without loading it, every record of its Swift sections checked.
    /// - Parameter path: The file.
    /// - Returns: The image.
    /// - Throws: ``InspectorError`` for a missing, foreign, truncated, inconsistent or corrupt file.
    static func read(_ path: String) throws(InspectorError) -> Image {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .missingFile(path: path)
        }
        if isDirectory.boolValue { throw .directory(path: path) }
        do {
            return try Image.read(path)
        } catch {
            throw inspectorError(error, path: path)
        }
    }

    /// The images an `--image` filter selects: all without a filter; by full path, or by file name.
    static func selectImages(_ filter: String?, from images: [Image]) throws(InspectorError) -> [Image] {
        guard let filter else { return images }
        let matches = images.filter { $0.path == filter || $0.fileName == filter }
        guard !matches.isEmpty else { throw .unknownImage(filter) }
        return matches
    }

    /// Resolves a type name as `String(reflecting:)` prints it, or a mangled name.
    static func resolve(_ name: String) throws(InspectorError) -> TypeMetadata {
        guard !name.allSatisfy({ $0 == " " }) else { throw .unknownType(name: name, reason: "the name is empty") }
        let byName: RuntimeMetadataError
        do {
            return try TypeMetadata(named: name)
        } catch {
            byName = error
        }
        if !name.contains("."), !name.contains("<"), !name.contains(" ") {
            // Looks mangled: when it is not a valid mangling either, say why in those terms.
            let asMangled: String
            do {
                return try TypeMetadata(mangledName: name)
            } catch .unresolvableName(_, let part, let reason) {
                asMangled = part == name ? reason : "'\(part)': \(reason)"
            } catch {
                asMangled = "\(error)"
            }
            throw .unknownType(name: name, reason: "\(Self.reason(byName)); as a mangled name, \(asMangled)")
        }
        throw .unknownType(name: name, reason: Self.reason(byName))
    }

    /// A name error's reason, as the inspector words it.
    private static func reason(_ byName: RuntimeMetadataError) -> String {
        switch byName {
        case .unresolvableName(_, let part, let reason): "'\(part)': \(reason)"
        default: "\(byName)"
        }
    }
}
