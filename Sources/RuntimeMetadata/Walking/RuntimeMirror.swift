// RuntimeMirror.swift
//
// A drop-in for `Swift.Mirror` built on the value walker: the same API, the same answers, the
// children of a value read from its type's cached plan instead of the runtime's reflection
// calls (the DocC article "Switching from Mirror").

/// A representation of a value's structure with `Swift.Mirror`'s API and answers, read through
/// the library's value walker.
///
/// A framework that reads values through `Mirror` switches by declaring, in its own module,
///
/// ```swift
/// typealias Mirror = RuntimeMirror
/// ```
///
/// and spelling `Swift.Mirror` where its `CustomReflectable` conformances return one.
/// ``Child``, ``DisplayStyle`` and ``AncestorRepresentation`` are `Mirror`'s own types, so code
/// written against them compiles unchanged.
///
/// ```swift
/// let mirror = RuntimeMirror(reflecting: Point(x: 1, y: 2))
/// mirror.displayStyle                  // .struct
/// mirror.children.map(\.label)         // ["x", "y"]
/// mirror.descendant("y") as? Int       // 2
/// ```
///
/// A value's children are computed when they are read, one at a time. A `CustomReflectable`
/// value is represented by its `customMirror`, as `Mirror` represents it; the standard
/// library's collections, numbers, strings and characters, whose custom mirrors show what the
/// walker shows, are read directly. Like `Mirror`, a mirror holds its subject, and is not
/// `Sendable`.
///
/// A child of function type has the type `Mirror` gives it. One stored with a calling convention
/// other than the one its type is called with from an `Any` (a non-generic `(Int) -> Int`
/// property) is a stand-in that stops the program with a message when called, where `Mirror`'s
/// would be called with the wrong convention; `() -> Void` and its like are the stored closure
/// (the DocC article "Switching from Mirror").
public struct RuntimeMirror {
    /// A child: an optional label and a value, `Mirror`'s own type.
    public typealias Child = Mirror.Child

    /// How a mirror is displayed by debuggers and playgrounds, `Mirror`'s own type.
    public typealias DisplayStyle = Mirror.DisplayStyle

    /// How a mirror made with an explicit initializer represents the subject's superclass,
    /// `Mirror`'s own type.
    public typealias AncestorRepresentation = Mirror.AncestorRepresentation

    /// The walker's node of the value, for a mirror made by reflecting one: its children are
    /// read from it. Boxed, so that the mirror and its children share one node, and a copy of
    /// either costs a retain.
    private let box: NodeBox?

    /// The node's style, kept beside it, so that questions about the style copy no node.
    private let nodeStyle: ValueNode.Style?

    /// For a class instance's node, the level of its hierarchy this mirror shows (0 is the
    /// instance's own class).
    private let level: Int

    /// What a mirror that is not a node's holds, and a node's custom ancestor.
    private let other: OtherSource?

    /// The static type of the subject, or its dynamic type for ``init(reflecting:)``.
    public let subjectType: Any.Type

    /// How the subject is displayed, or `nil` for a value shown without structure.
    public var displayStyle: DisplayStyle? {
        switch style {
        case .none: nil
        case .struct: .struct
        case .class: .class
        case .enum: .enum
        case .tuple: .tuple
        case .optional: .optional
        case .collection: .collection
        case .dictionary: .dictionary
        case .set: .set
        case .given: other?.displayStyle
        }
    }

    /// The display style, stored as a code of this module's: `Mirror.DisplayStyle` is a
    /// resilient enum of the standard library, and a stored one would give the mirror a layout
    /// known only at run time, every copy and access going through value witnesses.
    private let style: StyleCode

    /// ``displayStyle``'s cases, and `given` for a style held by ``other``.
    private enum StyleCode: UInt8 {
        case none, `struct`, `class`, `enum`, tuple, optional, collection, dictionary, set, given
    }

    /// Creates a mirror of a value, as `Mirror(reflecting:)` does: the value's `customMirror`
    /// when it is `CustomReflectable`, its structure otherwise.
    /// - Parameter subject: The value.
    public init(reflecting subject: Any) {
        if let leaf = ValueWalker.leafType(of: subject) {
            // A leaf (most of a value's parts): its type and style, without a node.
            self.init(leaf: leaf, subject: subject)
            return
        }
        var node = ValueWalker(honorsCustomReflectable: true).node(for: subject)
        node.handsOutFunctions = true
        if node.style == .custom, let custom = Self.customMirror(of: node) {
            self = custom
            return
        }
        self.init(node: node, level: 0, other: nil)
    }

    /// The mirror of a custom node's `customMirror`. Out of line, as every use of a `Mirror`
    /// is: `Mirror` is a resilient struct, and a function holding one loads its metadata and
    /// sizes its stack at entry, whichever path it takes.
    /// - Parameter node: A node of style `custom`.
    /// - Returns: The wrapped custom mirror, or `nil` when the node has none.
    @inline(never)
    private static func customMirror(of node: borrowing ValueNode) -> RuntimeMirror? {
        node.customMirror.map(RuntimeMirror.init)
    }

    /// The mirror of a leaf: a value without children, of a type the walker shows as a leaf.
    private init(leaf: TypeMetadata, subject: borrowing Any) {
        subjectType = Self.mirroredType(of: leaf, value: subject)
        style = Self.style(of: .leaf, type: leaf)
        nodeStyle = .leaf
        box = nil
        level = 0
        other = nil
    }

    /// The mirror of one level of a node. The ancestor arrives boxed: `Mirror` is a resilient
    /// struct, and an optional one costs value-witness calls to pass and test.
    private init(node: consuming ValueNode, level: Int, other: OtherSource?) {
        if node.style == .class {
            let hierarchy = node.classHierarchy
            subjectType = hierarchy.indices.contains(level) ? (hierarchy[level].type ?? Any.self) : Any.self
        } else {
            subjectType = Self.mirroredType(of: node.type, value: node.value)
        }
        style = Self.style(of: node.style, type: node.type)
        nodeStyle = node.style
        // A value without children (most are leaves) needs no node kept, and no box made.
        box = node.style != .class && node.childCount == 0 ? nil : NodeBox(node)
        self.level = level
        self.other = other
    }

    /// The mirror of another level of a class instance's node, sharing its box.
    private init(box: NodeBox, level: Int, other: OtherSource?) {
        let hierarchy = box.node.classHierarchy
        subjectType = hierarchy.indices.contains(level) ? (hierarchy[level].type ?? Any.self) : Any.self
        style = .class
        nodeStyle = .class
        self.box = box
        self.level = level
        self.other = other
    }

    /// Wraps a standard library mirror, such as a type's `customMirror`.
    /// - Parameter mirror: The mirror.
    public init(_ mirror: Mirror) {
        box = nil
        nodeStyle = nil
        level = 0
        other = OtherSource(standard: mirror)
        subjectType = mirror.subjectType
        style = .given
    }

    /// Creates a mirror with the given children, as `Mirror`'s initializer of the same shape
    /// does.
    /// - Parameters:
    ///   - subject: The value the mirror represents.
    ///   - children: The children, with their labels.
    ///   - displayStyle: How the subject is displayed.
    ///   - ancestorRepresentation: How the superclass of a class subject is represented.
    public init<Subject, C: Collection>(
        _ subject: Subject,
        children: C,
        displayStyle: DisplayStyle? = nil,
        ancestorRepresentation: AncestorRepresentation = .generated
    ) where C.Element == Child {
        box = nil
        nodeStyle = nil
        level = 0
        other = OtherSource(
            children: Array(children),
            superclass: Self.superclass(of: subject, Subject.self, ancestorRepresentation),
            displayStyle: displayStyle
        )
        subjectType = Subject.self
        style = .given
    }

    /// Creates a mirror with the given unlabeled children, as `Mirror`'s initializer of the
    /// same shape does.
    /// - Parameters:
    ///   - subject: The value the mirror represents.
    ///   - unlabeledChildren: The children's values.
    ///   - displayStyle: How the subject is displayed.
    ///   - ancestorRepresentation: How the superclass of a class subject is represented.
    public init<Subject, C: Collection>(
        _ subject: Subject,
        unlabeledChildren: C,
        displayStyle: DisplayStyle? = nil,
        ancestorRepresentation: AncestorRepresentation = .generated
    ) {
        self.init(
            subject,
            children: unlabeledChildren.map { Child(label: nil, value: $0) },
            displayStyle: displayStyle,
            ancestorRepresentation: ancestorRepresentation
        )
    }

    /// Creates a mirror with children given as a dictionary literal of labels and values, as
    /// `Mirror`'s initializer of the same shape does.
    /// - Parameters:
    ///   - subject: The value the mirror represents.
    ///   - children: The children's labels and values, in order.
    ///   - displayStyle: How the subject is displayed.
    ///   - ancestorRepresentation: How the superclass of a class subject is represented.
    public init<Subject>(
        _ subject: Subject,
        children: KeyValuePairs<String, Any>,
        displayStyle: DisplayStyle? = nil,
        ancestorRepresentation: AncestorRepresentation = .generated
    ) {
        self.init(
            subject,
            children: children.map { Child(label: $0.key, value: $0.value) },
            displayStyle: displayStyle,
            ancestorRepresentation: ancestorRepresentation
        )
    }

    /// The subject's children, computed when read; a function child as the type's documentation
    /// describes.
    public var children: Children {
        switch nodeStyle {
        case nil:
            return givenChildren()
        case .class?:
            let node = box!.node
            let hierarchy = node.classHierarchy
            guard hierarchy.indices.contains(level) else { return Children(array: []) }
            return Children(box: box!, range: node.childIndices(declaredBy: hierarchy[level]))
        case _?:
            // A leaf's empty children hold no copy of its node.
            let count = box?.node.childCount ?? 0
            return count == 0 ? Children(array: []) : Children(box: box!, range: 0..<count)
        }
    }

    /// A mirror of the subject's superclass, or `nil` when the subject is not a class instance
    /// or its class has no superclass.
    public var superclassMirror: RuntimeMirror? {
        switch nodeStyle {
        case nil:
            return givenSuperclassMirror()
        case .class?:
            let hierarchy = box!.node.classHierarchy
            guard hierarchy.count > level + 1 else { return nil }
            // `other` tested first: an optional `Mirror` costs value-witness calls even when empty.
            if let other, let ancestor = Self.customAncestor(in: other, standingFor: hierarchy[level + 1]) {
                return ancestor
            }
            return RuntimeMirror(box: box!, level: level + 1, other: other)
        case _?:
            return nil
        }
    }

    /// The children of a mirror that is not a node's: a wrapped standard mirror's, or an
    /// explicit initializer's. Out of line, so that ``children`` does not load `Mirror`'s
    /// metadata for a node's mirror (see `customMirror(of:)`).
    @inline(never)
    private func givenChildren() -> Children {
        Children(array: other?.children ?? other?.standard.map { Array($0.children) } ?? [])
    }

    /// The superclass mirror of a mirror that is not a node's. Out of line, for the reason
    /// `givenChildren()` is.
    @inline(never)
    private func givenSuperclassMirror() -> RuntimeMirror? {
        if let standard = other?.standard { return standard.superclassMirror.map(RuntimeMirror.init) }
        return other?.superclass?()
    }

    /// The mirror of a node's custom ancestor when it stands for `type`: the custom ancestor
    /// stands for its own class, and for every class above this one when it was made for a
    /// `CustomLeafReflectable` subject, as `Mirror`'s chain stops. Out of line, for the reason
    /// `givenChildren()` is.
    /// - Parameters:
    ///   - other: The node's other source.
    ///   - type: The class one level up.
    /// - Returns: The ancestor's mirror, or `nil` when there is none for `type`.
    @inline(never)
    private static func customAncestor(in other: OtherSource, standingFor type: TypeMetadata) -> RuntimeMirror? {
        guard let ancestor = other.ancestor,
            type == TypeMetadata(ancestor.subjectType) || suppressesDescendants(ancestor)
        else { return nil }
        return RuntimeMirror(ancestor)
    }

    /// The value at a path of children, as `Mirror.descendant(_:_:)` finds it: each element of
    /// the path a child's label (a `String`) or its position (an `Int`).
    ///
    /// ```swift
    /// RuntimeMirror(reflecting: order).descendant("lines", 0, "quantity") as? Int
    /// ```
    /// - Parameters:
    ///   - first: The first element of the path.
    ///   - rest: The rest of the path.
    /// - Returns: The value, or `nil` when an element of the path names no child.
    public func descendant(_ first: any MirrorPath, _ rest: any MirrorPath...) -> Any? {
        var mirror = self
        var result: Any?
        for (position, element) in ([first] + rest).enumerated() {
            if position > 0, let current = result { mirror = RuntimeMirror(reflecting: current) }
            let children = mirror.children
            let match: Int?
            if let label = element as? String {
                match = children.firstIndex { $0.label == label }
            } else if let offset = element as? Int {
                match = children.indices.contains(offset) ? offset : nil
            } else {
                match = nil
            }
            guard let match else { return nil }
            result = children[match].value
        }
        return result
    }

    /// The subject's type as `Mirror` reports it: the standard library's text types whose
    /// custom mirrors reflect a `String` report `String`.
    private static func mirroredType(of metadata: TypeMetadata, value: borrowing Any) -> Any.Type {
        guard let type = metadata.type else { return Any.self }
        if type == Substring.self || type == StaticString.self { return String.self }
        // A metatype reports the metatype of the type it holds, as `type(of:)` does: an
        // existential metatype (`Any.Type`) holding `Int.self` is `Int.Type`, and a class's
        // metatype (`A.Type`) holding a subclass `C.self` is `C.Type`.
        if metadata.kind == .existentialMetatype || metadata.kind == .metatype, let metatype = copy value as? Any.Type {
            return Swift.type(of: metatype)
        }
        return type
    }

    /// The display style `Mirror` gives a value the walker reports with a style, of a type.
    private static func style(of style: ValueNode.Style, type: TypeMetadata) -> StyleCode {
        switch style {
        case .struct: return .struct
        case .class: return .class
        case .enum: return .enum
        case .tuple: return .tuple
        case .optional: return .optional
        case .collection: return .collection
        case .dictionary: return .dictionary
        case .set: return .set
        case .leaf, .custom:
            // A struct or enum without parts the walker reports as a leaf is still a struct or
            // an enum to `Mirror`; numbers, strings, functions and metatypes have no style.
            switch type.kind {
            case .struct where !type.isStandardMirrorLeaf: return .struct
            case .enum where !type.isStandardMirrorLeaf: return .enum
            default: return .none
            }
        }
    }

    /// How an explicit initializer's subject's superclass is represented, as `Mirror` makes it:
    /// from the static type's superclass, generated, a custom ancestor (levels between it and
    /// the superclass generated), or suppressed.
    private static func superclass<Subject>(
        of subject: Subject,
        _: Subject.Type,
        _ representation: AncestorRepresentation
    ) -> () -> RuntimeMirror? {
        guard let subjectClass = Subject.self as? AnyClass, let superclass = _getSuperclass(subjectClass) else {
            return { nil }
        }
        switch representation {
        case .suppressed:
            return { nil }
        case .generated:
            return { RuntimeMirror(reflecting: subject, level: superclass, ancestor: nil) }
        case .customized(let makeAncestor):
            return {
                let ancestor = makeAncestor()
                if ancestor.subjectType == superclass || suppressesDescendants(ancestor) {
                    return RuntimeMirror(ancestor)
                }
                return RuntimeMirror(reflecting: subject, level: superclass, ancestor: ancestor)
            }
        @unknown default:
            return { nil }
        }
    }

    /// `Mirror`'s record of whether a mirror was made for a `CustomLeafReflectable` subject,
    /// whose mirror stands for every class above its descendants (`_defaultDescendantRepresentation`
    /// in the standard library's Mirror.swift, read through this library's own fields).
    private static let descendantRepresentation = try? TypeMetadata(Mirror.self).field(
        named: "_defaultDescendantRepresentation"
    )

    /// Whether a custom ancestor was made for a `CustomLeafReflectable` subject, so that
    /// `Mirror` returns it as the superclass mirror of every generated level below it
    /// (`_superclassIterator` in the standard library's Mirror.swift).
    /// - Parameter ancestor: The custom ancestor.
    /// - Returns: Whether descendants' mirrors stop at it.
    static func suppressesDescendants(_ ancestor: Mirror) -> Bool {
        if let field = descendantRepresentation, let type = field.type, let value = try? field.value(in: ancestor),
            let representation = try? type.enumCase(of: value)
        {
            return representation.name == "suppressed"
        }
        // Without the standard library's field record: what `Mirror` tests to set it.
        return ancestor.subjectType is any CustomLeafReflectable.Type
    }

    /// The generated mirror of one class of a class instance's hierarchy, whose levels above
    /// are generated up to the class a custom ancestor stands for.
    private init(reflecting subject: Any, level: AnyClass, ancestor: Mirror?) {
        var node = ValueWalker().node(for: subject)
        node.handsOutFunctions = true
        let index = node.classHierarchy.firstIndex { $0 == TypeMetadata(level) } ?? node.classHierarchy.count
        self.init(node: node, level: index, other: ancestor.map { OtherSource(ancestor: $0) })
    }
}

extension RuntimeMirror: CustomStringConvertible {
    /// `Mirror for` and the subject's type, as `Mirror` describes itself.
    public var description: String { "Mirror for \(subjectType)" }
}

extension RuntimeMirror: CustomReflectable {
    /// A mirror without children, as `Mirror`'s own.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

/// What a mirror that is not a walker node's holds: a standard mirror, or an explicit
/// initializer's children and superclass; or, for a node's mirror, the custom ancestor that
/// stands for a class further up.
private final class OtherSource {
    /// A wrapped standard mirror.
    let standard: Mirror?
    /// The display style of a standard mirror or an explicit initializer.
    let displayStyle: Mirror.DisplayStyle?
    /// An explicit initializer's children.
    let children: [Mirror.Child]?
    /// An explicit initializer's superclass mirror.
    let superclass: (() -> RuntimeMirror?)?
    /// A custom ancestor (`AncestorRepresentation.customized`).
    let ancestor: Mirror?

    init(standard: Mirror) {
        self.standard = standard
        displayStyle = standard.displayStyle
        children = nil
        superclass = nil
        ancestor = nil
    }

    init(children: [Mirror.Child], superclass: @escaping () -> RuntimeMirror?, displayStyle: Mirror.DisplayStyle?) {
        standard = nil
        self.displayStyle = displayStyle
        self.children = children
        self.superclass = superclass
        ancestor = nil
    }

    init(ancestor: Mirror) {
        standard = nil
        displayStyle = nil
        children = nil
        superclass = nil
        self.ancestor = ancestor
    }
}

/// A walker node shared by a mirror, its superclass mirrors and its children.
@usableFromInline
final class NodeBox {
    /// The node.
    @usableFromInline
    let node: ValueNode

    init(_ node: consuming ValueNode) {
        self.node = node
    }

    /// The child at a position of the node, as ``RuntimeMirror/Children`` hands it out, read
    /// where the box holds the node: a stored property's or tuple element's label and value,
    /// without a copy of the node or a ``ValueChild`` with its declared types.
    /// - Parameter index: The child's position in the node.
    /// - Returns: The child; `nil` outside the node's children and for a child without a value
    ///   (a noncopyable part, a withheld function), which the caller reads as a ``ValueChild``.
    @usableFromInline
    func mirrorChild(at index: Int) -> Mirror.Child? {
        switch node.style {
        case .struct, .class, .tuple:
            guard let value = node.childValue(at: index) else { return nil }
            return (label: node.label(ofChildAt: index), value: value)
        default:
            guard let child = node.child(at: index), let value = child.value else { return nil }
            return (label: child.label, value: value)
        }
    }
}
