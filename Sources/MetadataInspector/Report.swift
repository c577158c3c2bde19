// Report.swift

public import RuntimeMetadata

/// One report, as aligned text and as the JSON contract.
public struct Report: Sendable {
    private let renderText: @Sendable () -> String
    private let renderJSON: @Sendable () -> JSONValue

    /// The aligned text, rendered when asked (a listing of thousands of rows is rendered only in
    /// the format printed).
    public var text: String { renderText() }
    /// The JSON document, built when asked.
    public var json: JSONValue { renderJSON() }

    /// A report rendered on demand.
    private init(text: @escaping @Sendable () -> [String], json: @escaping @Sendable () -> JSONValue) {
        renderText = { text().joined(separator: "\n") }
        renderJSON = json
    }

    /// A report of lines and a document already built.
    private init(lines: [String], json: JSONValue) {
        let text = lines.joined(separator: "\n")
        self.init(text: { [text] }, json: { json })
    }

    /// Image, type, protocol and conformance counts, the largest images first.
    /// - Parameter images: The images.
    /// - Returns: The report.
    public static func summary(_ images: [Image]) -> Report {
        let rows = images.map { image in
            (image, image.typeDescriptors.count, image.protocols.count, image.conformances.count)
        }.sorted { ($0.1 + $0.2 + $0.3, $1.0.path) > ($1.1 + $1.2 + $1.3, $0.0.path) }
        let totals = rows.reduce((0, 0, 0)) { ($0.0 + $1.1, $0.1 + $1.2, $0.2 + $1.3) }
        var lines = [
            "\(images.count) images, \(totals.0) types, \(totals.1) protocols, \(totals.2) conformances", "",
        ]
        lines += table(
            ["TYPES", "PROTOCOLS", "CONFORMANCES", "IMAGE"],
            rows.map { [String($0.1), String($0.2), String($0.3), $0.0.path] },
            rightAligned: 3
        )
        let json = JSONValue.object([
            ("images", .array(rows.map { imageJSON($0.0, types: $0.1, protocols: $0.2, conformances: $0.3) })),
            (
                "totals",
                .object([
                    ("images", .int(images.count)), ("types", .int(totals.0)), ("protocols", .int(totals.1)),
                    ("conformances", .int(totals.2)),
                ])
            ),
        ])
        return Report(lines: lines, json: json)
    }

    /// Every image, in load order.
    /// - Parameter images: The images.
    /// - Returns: The report.
    public static func images(_ images: [Image]) -> Report {
        let rows = images.map { ($0, $0.typeDescriptors.count, $0.protocols.count, $0.conformances.count) }
        let lines = table(
            ["TYPES", "PROTOCOLS", "CONFORMANCES", "IMAGE"],
            rows.map { [String($0.1), String($0.2), String($0.3), $0.0.path] },
            rightAligned: 3
        )
        let json = JSONValue.object([
            ("images", .array(rows.map { imageJSON($0.0, types: $0.1, protocols: $0.2, conformances: $0.3) }))
        ])
        return Report(lines: lines, json: json)
    }

    private static func imageJSON(_ image: Image, types: Int, protocols: Int, conformances: Int) -> JSONValue {
        .object([
            ("path", .string(image.path)), ("types", .int(types)), ("protocols", .int(protocols)),
            ("conformances", .int(conformances)),
        ])
    }

    /// The nominal types of the images, and their protocols when `kinds` asks for them.
    /// - Parameters:
    ///   - images: The images.
    ///   - kinds: `struct`, `enum`, `class`, `protocol`; empty for the three type kinds.
    /// - Returns: The report.
    public static func types(_ images: [Image], kinds: [String]) -> Report {
        let wanted = Set(kinds.isEmpty ? ["struct", "enum", "class"] : kinds)
        var rows: [(name: String, kind: String, image: String, isGeneric: Bool, parameters: Int)] = []
        for image in images {
            for descriptor in image.typeDescriptors {
                let kind = kindName(descriptor.kind)
                guard wanted.contains(kind) else { continue }
                rows.append(
                    (
                        descriptor.portableName, kind, image.path, descriptor.isGeneric,
                        descriptor.genericParameters.count
                    )
                )
            }
            if wanted.contains("protocol") {
                for protocolDescriptor in image.protocols {
                    rows.append((protocolDescriptor.portableName, "protocol", image.path, false, 0))
                }
            }
        }
        let lines: @Sendable () -> [String] = { [rows] in
            table(
                ["KIND", "GENERIC", "NAME", "IMAGE"],
                rows.map { [$0.kind, $0.isGeneric ? "<\($0.parameters)>" : "", $0.name, fileName($0.image)] }
            )
        }
        let json: @Sendable () -> JSONValue = { [rows] in
            JSONValue.object([
                (
                    "types",
                    .array(
                        rows.map {
                            .object([
                                ("name", .string($0.name)), ("kind", .string($0.kind)), ("image", .string($0.image)),
                                ("isGeneric", .bool($0.isGeneric)), ("genericParameterCount", .int($0.parameters)),
                            ])
                        }
                    )
                )
            ])
        }
        return Report(text: lines, json: json)
    }

    /// The protocols of the images.
    /// - Parameter images: The images.
    /// - Returns: The report.
    public static func protocols(_ images: [Image]) -> Report {
        var rows: [(ProtocolDescriptor, String)] = []
        for image in images {
            for protocolDescriptor in image.protocols { rows.append((protocolDescriptor, image.path)) }
        }
        let lines = table(
            ["REQUIREMENTS", "CLASS", "NAME", "ASSOCIATED TYPES", "IMAGE"],
            rows.map {
                [
                    String($0.0.requirements.count), $0.0.isClassBound ? "class" : "",
                    $0.0.portableName, $0.0.associatedTypeNames.joined(separator: ", "), fileName($0.1),
                ]
            },
            rightAligned: 1
        )
        let json = JSONValue.object([
            (
                "protocols",
                .array(
                    rows.map {
                        .object([
                            ("name", .string($0.0.portableName)), ("image", .string($0.1)),
                            ("requirementCount", .int($0.0.requirements.count)),
                            ("associatedTypes", .array($0.0.associatedTypeNames.map(JSONValue.string))),
                            ("isClassBound", .bool($0.0.isClassBound)),
                        ])
                    }
                )
            )
        ])
        return Report(lines: lines, json: json)
    }

    /// The conformance records of the images.
    /// - Parameters:
    ///   - images: The images.
    ///   - protocolName: Only conformances to this protocol (qualified or plain name).
    ///   - typeName: Only conformances of this type (qualified or plain name).
    /// - Returns: The report.
    public static func conformances(_ images: [Image], protocolName: String?, typeName: String?) -> Report {
        var rows: [(type: String, protocolName: String, image: String, record: ConformanceRecord)] = []
        func add(_ record: ConformanceRecord, protocolName protocolPortable: String) {
            let type = record.typeDescriptor?.portableName ?? "<objc>"
            if let typeName, !matches(type, typeName) { return }
            rows.append((type, protocolPortable, record.image.path, record))
        }
        let loaded = images.filter(\.isLoaded)
        if let protocolName, !loaded.isEmpty {
            // Only the named protocols' records: their names are printed, not every record's.
            let selected = Set(loaded)
            var seen = Set<ProtocolDescriptor>()
            for image in Image.all {
                for descriptor in image.protocols where seen.insert(descriptor).inserted {
                    let protocolPortable = descriptor.portableName
                    guard matches(protocolPortable, protocolName) else { continue }
                    for record in descriptor.conformanceRecords() where selected.contains(record.image) {
                        add(record, protocolName: protocolPortable)
                    }
                }
            }
        }
        // Images read from files, and every image without a protocol filter: each record's
        // protocol is named from its descriptor (a stand-in for another module's).
        for image in images where protocolName == nil || !image.isLoaded {
            for record in image.conformances {
                let protocolPortable = record.protocolDescriptor?.portableName ?? "<unknown>"
                if let protocolName, !matches(protocolPortable, protocolName) { continue }
                add(record, protocolName: protocolPortable)
            }
        }
        let lines: @Sendable () -> [String] = { [rows] in
            table(
                ["TYPE", "PROTOCOL", "FLAGS", "IMAGE"],
                rows.map {
                    var flags: [String] = []
                    if $0.record.isRetroactive { flags.append("retroactive") }
                    if !$0.record.conditionalRequirements.isEmpty {
                        flags.append("conditional(\($0.record.conditionalRequirements.count))")
                    }
                    if $0.record.isGeneric { flags.append("generic") }
                    return [$0.type, $0.protocolName, flags.joined(separator: " "), fileName($0.image)]
                }
            )
        }
        let json: @Sendable () -> JSONValue = { [rows] in
            JSONValue.object([
                (
                    "conformances",
                    .array(
                        rows.map {
                            .object([
                                ("type", .string($0.type)), ("protocol", .string($0.protocolName)),
                                ("image", .string($0.image)),
                                ("isRetroactive", .bool($0.record.isRetroactive)),
                                ("conditionalRequirementCount", .int($0.record.conditionalRequirements.count)),
                                // Unknown (null) for another module's type named by a file read.
                                (
                                    "isGeneric",
                                    $0.record.typeDescriptor?.isStandIn == true ? .null : .bool($0.record.isGeneric)
                                ),
                            ])
                        }
                    )
                )
            ])
        }
        return Report(text: lines, json: json)
    }

    /// The stored properties and cases of the images' types, from their field descriptors:
    /// names, and types demangled and mangled.
    /// - Parameters:
    ///   - images: The images.
    ///   - typeName: Only this type (qualified or plain name).
    /// - Returns: The report.
    public static func fields(_ images: [Image], typeName: String?) -> Report {
        var rows: [(name: String, kind: String, image: String, records: [FieldRecord]?)] = []
        for image in images {
            for descriptor in image.typeDescriptors {
                let name = descriptor.portableName
                if let typeName, !matches(name, typeName) { continue }
                rows.append((name, kindName(descriptor.kind), image.path, descriptor.fieldRecords))
            }
        }
        let lines: @Sendable () -> [String] = { [rows] in
            var lines: [String] = []
            for row in rows {
                lines.append("\(row.kind) \(row.name)  (\(fileName(row.image)))")
                guard let records = row.records else {
                    lines.append("    <no reflection metadata>")
                    continue
                }
                let isEnum = row.kind == "enum"
                lines += table(
                    ["", "", "", ""],
                    records.map { record in
                        let word =
                            isEnum ? (record.isIndirectCase ? "indirect case" : "case") : record.isVar ? "var" : "let"
                        let type = record.hasType ? record.typeName ?? "<unreadable>" : ""
                        return [word, record.name, type, record.hasType ? record.mangledTypeName ?? "<none>" : ""]
                    }
                ).dropFirst().map { "    " + $0 }
            }
            return lines
        }
        let json: @Sendable () -> JSONValue = { [rows] in
            func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
            return JSONValue.object([
                (
                    "types",
                    .array(
                        rows.map { row in
                            .object([
                                ("name", .string(row.name)), ("kind", .string(row.kind)), ("image", .string(row.image)),
                                ("hasReflectionMetadata", .bool(row.records != nil)),
                                (
                                    row.kind == "enum" ? "cases" : "fields",
                                    .array(
                                        (row.records ?? []).map { record in
                                            .object([
                                                ("name", .string(record.name)),
                                                ("typeName", optional(record.typeName)),
                                                ("mangledTypeName", optional(record.mangledTypeName)),
                                                ("hasType", .bool(record.hasType)),
                                                ("isVar", .bool(record.isVar)),
                                                ("isIndirect", .bool(record.isIndirectCase)),
                                            ])
                                        }
                                    )
                                ),
                            ])
                        }
                    )
                )
            ])
        }
        return Report(text: lines, json: json)
    }

    /// The full model of one type.
    /// - Parameter metadata: The type.
    /// - Returns: The report.
    /// - Throws: ``InspectorError/metadata(_:)`` when the type's fields or cases cannot be read.
    public static func layout(_ metadata: TypeMetadata) throws(InspectorError) -> Report {
        var fields: [(name: String, type: String, offset: Int, isVar: Bool, ownership: String)] = []
        switch metadata.kind {
        case .struct, .class:
            do {
                for field in try metadata.fields {
                    fields.append(
                        (
                            field.name, field.type?.name ?? "<hidden>", field.offset, field.isVar,
                            field.ownership.rawValue
                        )
                    )
                }
            } catch {
                throw .metadata("\(error)")
            }
        case .tuple:
            for element in metadata.tupleElements {
                fields.append((element.name, element.type.name, element.offset, true, "strong"))
            }
        default: break
        }
        var cases: [(name: String, payloadType: String?, isIndirect: Bool)] = []
        if metadata.kind == .enum || metadata.kind == .optional {
            do {
                for enumCase in try metadata.cases {
                    var payload = enumCase.payloadType?.name
                    if enumCase.hasPayload && payload == nil { payload = "<hidden>" }
                    cases.append((enumCase.name, payload, enumCase.isIndirect))
                }
            } catch {
                throw .metadata("\(error)")
            }
        }
        let conformances = metadata.conformances.map(\.qualifiedName)
        let arguments = metadata.genericArguments.map(\.description)
        var lines = [
            "\(metadata.name)", "  kind: \(metadata.kind)",
            "  size: \(metadata.size), stride: \(metadata.stride), alignment: \(metadata.alignment)",
            "  POD: \(metadata.isPOD), bitwise-takable: \(metadata.isBitwiseTakable), copyable: \(metadata.isCopyable)",
        ]
        if !arguments.isEmpty { lines.append("  generic arguments: " + arguments.joined(separator: ", ")) }
        if let superclass = metadata.superclass { lines.append("  superclass: \(superclass.name)") }
        if !fields.isEmpty {
            lines.append("  fields:")
            lines += table(
                ["OFFSET", "NAME", "TYPE", "", ""],
                fields.map {
                    [
                        String($0.offset), $0.name, $0.type, $0.isVar ? "var" : "let",
                        $0.ownership == "strong" ? "" : $0.ownership,
                    ]
                },
                rightAligned: 1
            ).map { "    " + $0 }
        }
        if !cases.isEmpty {
            lines.append("  cases (tag order):")
            lines += cases.enumerated().map { tag, enumCase in
                "    \(tag) \(enumCase.isIndirect ? "indirect " : "")\(enumCase.name)"
                    + (enumCase.payloadType.map { "(\($0))" } ?? "")
            }
        }
        if !conformances.isEmpty { lines.append("  conformances: " + conformances.joined(separator: ", ")) }
        let json = JSONValue.object([
            ("name", .string(metadata.name)), ("kind", .string("\(metadata.kind)")), ("size", .int(metadata.size)),
            ("stride", .int(metadata.stride)), ("alignment", .int(metadata.alignment)),
            ("isPOD", .bool(metadata.isPOD)),
            ("isBitwiseTakable", .bool(metadata.isBitwiseTakable)), ("isCopyable", .bool(metadata.isCopyable)),
            ("genericArguments", .array(arguments.map(JSONValue.string))),
            ("superclass", metadata.superclass.map { .string($0.name) } ?? .null),
            (
                "fields",
                .array(
                    fields.map {
                        .object([
                            ("name", .string($0.name)), ("type", .string($0.type)), ("offset", .int($0.offset)),
                            ("isVar", .bool($0.isVar)), ("ownership", .string($0.ownership)),
                        ])
                    }
                )
            ),
            (
                "cases",
                .array(
                    cases.map {
                        .object([
                            ("name", .string($0.name)), ("payloadType", $0.payloadType.map(JSONValue.string) ?? .null),
                            ("isIndirect", .bool($0.isIndirect)),
                        ])
                    }
                )
            ),
            ("conformances", .array(conformances.map(JSONValue.string))),
        ])
        return Report(lines: lines, json: json)
    }

    private static func kindName(_ kind: TypeDescriptor.Kind) -> String {
        switch kind {
        case .struct: "struct"
        case .enum: "enum"
        case .class: "class"
        case .other(let raw): "other(\(raw))"
        }
    }

    /// The live class instances of a process, by type: count and bytes, the most bytes first.
    /// - Parameters:
    ///   - census: The process's census.
    ///   - typeName: Only this type, or this generic class's specializations.
    /// - Returns: The report.
    public static func instances(_ census: ProcessCensus, typeName: String?) -> Report {
        let rows = typeName.map { census.rows(ofType: $0) } ?? census.rows
        let lines = table(
            ["COUNT", "BYTES", "TYPE"],
            rows.map { [String($0.count), String($0.bytes), $0.typeName] },
            rightAligned: 2
        )
        let json = JSONValue.object([
            (
                "instances",
                .array(
                    rows.map {
                        .object([("type", .string($0.typeName)), ("count", .int($0.count)), ("bytes", .int($0.bytes))])
                    }
                )
            )
        ])
        return Report(lines: lines, json: json)
    }

    /// The leaks of a process: its rows (count, bytes, type), then its cycles, each member's
    /// type and address, and how long the process was held.
    /// - Parameter leaks: The leaks found.
    /// - Returns: The report.
    public static func leaks(_ leaks: ProcessLeaks) -> Report {
        let held = leaks.held.components
        let milliseconds = Int(held.seconds) * 1000 + Int(held.attoseconds / 1_000_000_000_000_000)
        func hex(_ address: UInt) -> String { "0x" + String(address, radix: 16) }
        var lines = table(
            ["COUNT", "BYTES", "TYPE"],
            leaks.rows.map { [String($0.count), String($0.bytes), $0.typeName] },
            rightAligned: 2
        )
        for (number, cycle) in leaks.cycles.enumerated() {
            lines.append("")
            lines.append("cycle \(number + 1), \(cycle.members.count) member\(cycle.members.count == 1 ? "" : "s"):")
            lines += cycle.members.map { "  \(hex($0.address))  \($0.typeName)" }
        }
        lines.append("")
        lines.append(
            "\(leaks.rows.reduce(0) { $0 + $1.count }) leaked objects in \(leaks.cycles.count) cycles; "
                + "process \(leaks.processID) held for \(milliseconds) ms"
        )
        let json = JSONValue.object([
            ("heldMilliseconds", .int(milliseconds)),
            (
                "leaks",
                .array(
                    leaks.rows.map {
                        .object([("type", .string($0.typeName)), ("count", .int($0.count)), ("bytes", .int($0.bytes))])
                    }
                )
            ),
            (
                "cycles",
                .array(
                    leaks.cycles.map { cycle in
                        .object([
                            (
                                "members",
                                .array(
                                    cycle.members.map {
                                        .object([("type", .string($0.typeName)), ("address", .string(hex($0.address)))])
                                    }
                                )
                            )
                        ])
                    }
                )
            ),
        ])
        return Report(lines: lines, json: json)
    }

    /// A type's instances in a census: their count and bytes.
    public struct CensusCounts: Hashable, Sendable {
        /// The number of instances.
        public var count: Int
        /// Their heap blocks' bytes.
        public var bytes: Int

        /// Counts of a type.
        /// - Parameters:
        ///   - count: The number of instances.
        ///   - bytes: Their bytes.
        public init(count: Int, bytes: Int) {
            self.count = count
            self.bytes = bytes
        }
    }

    /// Growth between two censuses: each type's count and bytes now, with their change since
    /// `baseline`, sorted by bytes gained (the most first), ties by type name in code-point
    /// order. A type of the baseline that has no instance now has count 0.
    /// - Parameters:
    ///   - census: The census now.
    ///   - baseline: The earlier census's counts, by type name.
    /// - Returns: The report.
    public static func growth(_ census: ProcessCensus, since baseline: [String: CensusCounts]) -> Report {
        var now: [String: CensusCounts] = [:]
        for row in census.rows { now[row.typeName] = CensusCounts(count: row.count, bytes: row.bytes) }
        let types = Set(now.keys).union(baseline.keys)
        let rows = types.map { type in
            let current = now[type] ?? CensusCounts(count: 0, bytes: 0)
            let before = baseline[type] ?? CensusCounts(count: 0, bytes: 0)
            return (
                type: type, count: current.count, bytes: current.bytes,
                countChange: current.count - before.count, bytesChange: current.bytes - before.bytes
            )
        }
        .sorted {
            $0.bytesChange != $1.bytesChange
                ? $0.bytesChange > $1.bytesChange : $0.type.utf8.lexicographicallyPrecedes($1.type.utf8)
        }
        func signed(_ value: Int) -> String { value > 0 ? "+\(value)" : String(value) }
        let lines = table(
            ["COUNT", "CHANGE", "BYTES", "CHANGE", "TYPE"],
            rows.map { [String($0.count), signed($0.countChange), String($0.bytes), signed($0.bytesChange), $0.type] },
            rightAligned: 4
        )
        let json = JSONValue.object([
            (
                "instances",
                .array(
                    rows.map {
                        .object([
                            ("type", .string($0.type)), ("count", .int($0.count)), ("bytes", .int($0.bytes)),
                            ("countChange", .int($0.countChange)), ("bytesChange", .int($0.bytesChange)),
                        ])
                    }
                )
            )
        ])
        return Report(lines: lines, json: json)
    }

    /// The addresses of one type's instances in a process, one per line in hexadecimal.
    /// - Parameters:
    ///   - census: The process's census.
    ///   - typeName: The type, or a generic class for all its specializations.
    /// - Returns: The report.
    public static func addresses(_ census: ProcessCensus, typeName: String) -> Report {
        let addresses = census.addresses(ofType: typeName).map { "0x" + String($0, radix: 16) }
        let json = JSONValue.object([
            ("type", .string(typeName)), ("addresses", .array(addresses.map { .string($0) })),
        ])
        return Report(lines: addresses, json: json)
    }

    private static func fileName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

    /// Whether a qualified name matches a filter: equal, or equal to its last component.
    private static func matches(_ qualified: String, _ filter: String) -> Bool {
        qualified == filter || qualified.split(separator: ".").last.map(String.init) == filter
    }

    /// Aligns rows under a header; the first `rightAligned` columns are right-aligned.
    private static func table(_ header: [String], _ rows: [[String]], rightAligned: Int = 0) -> [String] {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if column == row.count - 1 { return cell }
                return column < rightAligned ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces
        }
    }
}

extension String {
    /// The string without trailing spaces, which empty last columns would leave.
    fileprivate var trimmingTrailingSpaces: String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }
}
