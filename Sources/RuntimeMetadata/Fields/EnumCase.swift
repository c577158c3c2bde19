// EnumCase.swift

/// One case of an enum, in the runtime's tag order.
///
/// The runtime numbers payload cases first, in declaration order, then empty cases in
/// declaration order; a case's ``tag`` is its position in ``TypeMetadata/cases``.
public struct EnumCase: Hashable, Sendable, CustomStringConvertible {
    /// The case's name.
    public let name: String

    /// The tag the runtime uses for the case: its index in ``TypeMetadata/cases``.
    public let tag: Int

    /// The payload's type (a tuple for several associated values), or `nil` for a case without payload.
    public let payloadType: TypeMetadata?

    /// The labels of the associated values (`nil` for unlabelled ones); empty without payload.
    ///
    /// `case rectangle(width: Double, height: Double)` has `["width", "height"]`.
    public let payloadLabels: [String?]

    /// Whether the case has a payload.
    public let hasPayload: Bool

    /// Whether the case is `indirect`, its payload stored in a heap box.
    public let isIndirect: Bool

    /// Whether the case's field record is marked `var` (`FieldRecordFlags::IsVar`). The
    /// compiler marks stored `var` properties; it never marks enum cases, which are immutable,
    /// so this is `false` for every case, reported as the record stores it.
    public let isVar: Bool

    /// The reference ownership the case's record states for its payload (`weak`, `unowned`),
    /// read from its mangled type as for fields. Enum payloads cannot declare one, so this is
    /// ``Field/Ownership/strong``, reported as the record stores it.
    public let ownership: Field.Ownership

    /// The enum that declares the case.
    public let enumType: TypeMetadata

    /// Whether the payload is a function at the case's declared abstraction, which generic
    /// code cannot move (FunctionAbstraction.swift).
    let storesSubstitutedFunction: Bool

    /// The payload's type as the case's record states it: ``payloadType``, except that one
    /// labelled value stays the one-element tuple `(radius: Double)`, which `Mirror` shows.
    let recordedPayloadType: TypeMetadata?

    /// How the payload, as ``recordedPayloadType``, is stored (StoredRepresentation.swift);
    /// `nil` when that depends on a declaration that cannot be resolved.
    let recordedPayloadForm: OpaqueValueAccess.StoredForm?

    /// How the payload, as ``payloadType``, is stored: a one-labelled-value tuple is laid out as
    /// its element, and so is the element's form.
    var payloadForm: OpaqueValueAccess.StoredForm? {
        guard case .tuple(_, let elements)? = recordedPayloadForm?.shape, elements.count == 1,
            recordedPayloadType?.tupleElements.count == 1
        else { return recordedPayloadForm }
        return elements[0]
    }

    /// The name and payload.
    public var description: String {
        hasPayload ? "\(name)(\(payloadType?.name ?? "<unknown>"))" : name
    }
}

extension TypeMetadata {
    /// The cases of an enum or `Optional`, in the runtime's tag order.
    ///
    /// - Throws: ``RuntimeMetadataError/wrongKind(typeName:expected:)`` for other kinds,
    ///   ``RuntimeMetadataError/missingReflectionMetadata(typeName:)`` when the enum's module kept no
    ///   reflection metadata.
    public var cases: [EnumCase] {
        get throws(RuntimeMetadataError) {
            try record.cases.value { computeCases() }.get()
        }
    }

    private func computeCases() -> Result<[EnumCase], RuntimeMetadataError> {
        guard kind == .enum || kind == .optional, let counts = record.reference.enumCaseCounts else {
            return .failure(.wrongKind(typeName: name, expected: "an enum"))
        }
        switch record.reference.fieldRecords {
        case .failure(.noReflectionMetadata):
            return .failure(.missingReflectionMetadata(typeName: name))
        case .failure(.notNominal):
            return .failure(.wrongKind(typeName: name, expected: "an enum"))
        case .success(let records):
            var cases: [EnumCase] = []
            for (tag, entry) in records.enumerated() {
                var payloadType = entry.type.map(TypeMetadata.init)
                let recordedPayloadType = payloadType
                var labels: [String?] = []
                if let tuple = payloadType, tuple.kind == .tuple {
                    let elements = tuple.tupleElements
                    labels = elements.map(\.label)
                    // The compiler records one labelled value, `case c(radius: Double)`, as the
                    // one-element tuple `(radius: Double)`, laid out as its element.
                    if elements.count == 1 { payloadType = elements[0].type }
                } else if payloadType != nil {
                    labels = [nil]
                }
                cases.append(
                    EnumCase(
                        name: entry.name,
                        tag: tag,
                        payloadType: payloadType,
                        payloadLabels: labels,
                        hasPayload: tag < counts.payload || entry.hasType,
                        isIndirect: entry.flags & 0x1 != 0,
                        isVar: entry.flags & 0x2 != 0,
                        ownership: Field.Ownership(suffix: entry.ownershipSuffix),
                        enumType: self,
                        storesSubstitutedFunction: entry.type.map {
                            TypeMetadata($0).storesSubstitutedFunction(declaredAs: entry.mangledTypeName ?? "") {
                                declaredPattern(ofRecordAt: tag)
                            }
                        } ?? false,
                        recordedPayloadType: recordedPayloadType,
                        recordedPayloadForm: recordedPayloadType.map {
                            $0.storedForm(ofRecordAt: tag, in: self, mangledName: entry.mangledTypeName ?? "")
                        } ?? .asType
                    )
                )
            }
            return .success(cases)
        }
    }
}
