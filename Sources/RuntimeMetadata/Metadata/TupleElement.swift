// TupleElement.swift

/// One element of a tuple type.
public struct TupleElement: Hashable, Sendable, CustomStringConvertible {
    /// The element's label, or `nil` for an unlabelled element.
    public let label: String?

    /// The element's position.
    public let index: Int

    /// The element's type.
    public let type: TypeMetadata

    /// The byte offset of the element within the tuple.
    public let offset: Int

    /// The name `Mirror` uses for the element: its label, or `.0`, `.1` and so on.
    public var name: String { label ?? ".\(index)" }

    /// The label and type.
    public var description: String { label.map { "\($0): \(type.name)" } ?? type.name }
}

extension TypeMetadata {
    /// The elements of a tuple type; empty for other kinds.
    ///
    /// Offsets come from the tuple metadata, where Linux stores them as 32-bit integers.
    public var tupleElements: [TupleElement] {
        record.tupleElements.value {
            record.reference.tupleElements.enumerated().map { index, element in
                TupleElement(
                    label: element.label.isEmpty ? nil : element.label,
                    index: index,
                    type: TypeMetadata(element.type),
                    offset: element.offset
                )
            }
        }
    }
}
