// FieldList.swift

/// The stored properties of a type, as ``TypeMetadata/fields`` returns them.
///
/// A random-access collection of ``Field`` values in declaration order. The list is a view of
/// the type's cached field model, which lives as long as the process: getting the list again,
/// counting it or iterating it takes no lock, allocates nothing and does not even touch a
/// reference count.
///
/// ```swift
/// let fields = try TypeMetadata(Point.self).fields
/// fields.count                 // 2
/// fields.map(\.name)           // ["x", "y"]
/// fields.first?.offset         // 0
/// ```
public struct FieldList: RandomAccessCollection, Hashable, Sendable, CustomStringConvertible {
    /// The cached fields.
    @usableFromInline
    let box: ImmortalReference<FieldsBox>

    /// A view of cached fields.
    /// - Parameter box: The fields, published for the life of the process.
    @usableFromInline
    init(box: ImmortalReference<FieldsBox>) {
        self.box = box
    }

    /// The position of the first field, `0`.
    @inlinable
    public var startIndex: Int { 0 }

    /// The position after the last field, the number of fields.
    @inlinable
    public var endIndex: Int { box.withObject { $0.fields.count } }

    /// The field at a position.
    /// - Parameter position: A position in `0..<count`.
    @inlinable
    public subscript(position: Int) -> Field { box.withObject { $0.fields[position] } }

    /// The fields as an array.
    public var array: [Field] { box.object.fields }

    /// The fields, as an array prints them.
    public var description: String { box.object.fields.description }

    /// Whether two lists hold the same fields in the same order.
    public static func == (lhs: FieldList, rhs: FieldList) -> Bool {
        lhs.box === rhs.box || lhs.box.object.fields == rhs.box.object.fields
    }

    /// Hashes the fields.
    /// - Parameter hasher: The hasher.
    public func hash(into hasher: inout Hasher) { hasher.combine(box.object.fields) }
}
