// WithheldFunction.swift
//
// A stored property or payload of tuple type that holds a function stored at its
// declaration's abstraction (`(String, () -> Void)`, `case confirm(title: String, action:
// () -> Void)`) is never handed out as the tuple itself: the function inside it does not have
// the calling convention that code holding the tuple as `Any` would call it with (the DocC
// article "Reading type metadata"). Its other elements are safe to copy, each by its own type.
// The walker hands out a tuple of the same labels in which each such function is a
// `WithheldFunction`, so that a dump or a diff shows the elements, as `Swift.dump` does.

/// A function that the walker does not hand out, in place of one inside a tuple: a stored
/// property or enum payload of tuple type such as `(title: String, action: () -> Void)` is
/// read as `(title: String, action: WithheldFunction)`.
///
/// It describes itself as `Swift.dump` writes a function, `(Function)`.
public struct WithheldFunction: Hashable, Sendable, CustomStringConvertible, CustomDebugStringConvertible {
    /// A withheld function.
    public init() {}

    /// `(Function)`.
    public var description: String { "(Function)" }

    /// `(Function)`.
    public var debugDescription: String { "(Function)" }
}

/// Builds the tuple that stands for a tuple holding withheld functions.
enum WithheldTuple {
    /// Where each element of the tuple comes from.
    private indirect enum Shape {
        /// A function, withheld.
        case function
        /// An element copied by its own type: the next value read.
        case part(TypeMetadata)
        /// An optional function: the next value read, its `nil`, or none for a function.
        case optionalFunction(TypeMetadata)
        /// A nested tuple holding functions.
        case tuple(labels: [String], elements: [Shape])
    }

    /// The tuple with each function in it (at any depth of nested tuples) a
    /// ``WithheldFunction``, its other elements read by `read`.
    /// - Parameters:
    ///   - tuple: The tuple type.
    ///   - offset: The tuple's offset, which the parts' offsets start from.
    ///   - read: Copies the parts at the given layouts; `nil` when it cannot.
    /// - Returns: The tuple, or `nil` when an element is another structure holding a function
    ///   (an optional of a tuple holding one), or the parts cannot be read.
    static func value(
        of tuple: TypeMetadata,
        at offset: Int,
        read: ([OpaqueValueAccess.PartLayout]) -> [Any?]?
    ) -> Any? {
        guard tuple.kind == .tuple else { return nil }
        var layouts: [OpaqueValueAccess.PartLayout] = []
        guard let shape = shape(of: tuple, at: offset, depth: 0, layouts: &layouts),
            let values = read(layouts), values.count == layouts.count
        else { return nil }
        var next = 0
        return build(shape, from: values, next: &next)?.value
    }

    private static func shape(
        of tuple: TypeMetadata,
        at offset: Int,
        depth: Int,
        layouts: inout [OpaqueValueAccess.PartLayout]
    ) -> Shape? {
        guard depth < RuntimeMetadataLimits.maximumNameNesting else { return nil }
        var elements: [Shape] = []
        for element in tuple.tupleElements {
            switch element.type.kind {
            case .function:
                elements.append(.function)
            case .tuple where element.type.containsStructuralFunction:
                guard
                    let nested = shape(
                        of: element.type,
                        at: offset + element.offset,
                        depth: depth + 1,
                        layouts: &layouts
                    )
                else { return nil }
                elements.append(nested)
            case .optional where element.type.containsStructuralFunction:
                // `nil` is read as it is; `some` stands in as `WithheldFunction?.some`.
                guard case .type(let wrapped)? = element.type.genericArguments.first, wrapped.kind == .function
                else { return nil }
                layouts.append(
                    OpaqueValueAccess.PartLayout(
                        offset: offset + element.offset,
                        type: element.type.reference,
                        ownership: .strong,
                        isWithheldFunction: true,
                        isNoncopyable: false
                    )
                )
                elements.append(.optionalFunction(element.type))
            default:
                // Another structure holding a function (an optional of a tuple of one): it
                // cannot be stood for element by element.
                guard !element.type.containsStructuralFunction else { return nil }
                layouts.append(
                    OpaqueValueAccess.PartLayout(
                        offset: offset + element.offset,
                        type: element.type.reference,
                        ownership: .strong,
                        isWithheldFunction: false,
                        isNoncopyable: !element.type.isCopyable
                    )
                )
                elements.append(.part(element.type))
            }
        }
        return .tuple(labels: tuple.tupleElements.map { $0.label ?? "" }, elements: elements)
    }

    private static func build(_ shape: Shape, from values: [Any?], next: inout Int) -> (value: Any, type: TypeMetadata)?
    {
        switch shape {
        case .function:
            return (WithheldFunction(), TypeMetadata(WithheldFunction.self))
        case .part(let type):
            defer { next += 1 }
            return values[next].map { ($0, type) }
        case .optionalFunction(let type):
            defer { next += 1 }
            if let none = values[next] { return (none, type) }
            return (WithheldFunction?.some(WithheldFunction()) as Any, TypeMetadata(WithheldFunction?.self))
        case .tuple(let labels, let elements):
            var built: [Any] = []
            var types: [MetadataReference] = []
            for element in elements {
                guard let (value, type) = build(element, from: values, next: &next) else { return nil }
                built.append(value)
                types.append(type.reference)
            }
            guard let tupleType = MetadataReference.tuple(types, labels: labels),
                let value = try? TypeMetadata(tupleType).makeInstance(orderedValues: built)
            else { return nil }
            return (value, TypeMetadata(tupleType))
        }
    }
}
