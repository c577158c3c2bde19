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
public struct RuntimeMirror {
    /// A child: an optional label and a value, `Mirror`'s own type.
    public typealias Child = Mirror.Child

    /// How a mirror is displayed by debuggers and playgrounds, `Mirror`'s own type.
    public typealias DisplayStyle = Mirror.DisplayStyle

    /// How a mirror made with an explicit initializer represents the subject's superclass,
    /// `Mirror`'s own type.
    public typealias AncestorRepresentation = Mirror.AncestorRepresentation

    /// Where the mirror's answers come from.
    private enum Source {
        /// The walker's node of the value; for a class instance, one level of its hierarchy
        /// (0 is the instance's own class), and the custom mirror that stands for a class
        /// further up (`AncestorRepresentation.customized`).
        case node(ValueNode, level: Int, ancestor: Mirror?)
        /// A standard library mirror: a custom mirror, or one a caller wrapped.
        case standard(Mirror)
        /// Children given to an explicit initializer, and how its superclass is represented.
        case explicit([Child], superclass: () -> RuntimeMirror?)
    }

    private let source: Source

    /// The static type of the subject, or its dynamic type for ``init(reflecting:)``.
    public let subjectType: Any.Type

    /// How the subject is displayed, or `nil` for a value shown without structure.
    public let displayStyle: DisplayStyle?

    /// Creates a mirror of a value, as `Mirror(reflecting:)` does: the value's `customMirror`
    /// when it is `CustomReflectable`, its structure otherwise.
    /// - Parameter subject: The value.
    public init(reflecting subject: Any) {
        let node = ValueWalker(honorsCustomReflectable: true).node(for: subject)
        if node.style == .custom, let mirror = node.customMirror {
            self.init(mirror)
            return
        }
        self.init(node: node, level: 0, ancestor: nil)
    }

    /// The mirror of one level of a node.
    private init(node: ValueNode, level: Int, ancestor: Mirror?) {
        source = .node(node, level: level, ancestor: ancestor)
        let hierarchy = node.style == .class ? node.classHierarchy : []
        subjectType =
            hierarchy.indices.contains(level) ? (hierarchy[level].type ?? Any.self) : Self.mirroredType(of: node)
        displayStyle = Self.displayStyle(of: node)
    }

    /// Wraps a standard library mirror, such as a type's `customMirror`.
    /// - Parameter mirror: The mirror.
    public init(_ mirror: Mirror) {
        source = .standard(mirror)
        subjectType = mirror.subjectType
        displayStyle = mirror.displayStyle
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
        source = .explicit(
            Array(children),
            superclass: Self.superclass(of: subject, Subject.self, ancestorRepresentation)
        )
        subjectType = Subject.self
        self.displayStyle = displayStyle
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

    /// The subject's children, computed when read.
    public var children: Children {
        switch source {
        case .node(let node, let level, _):
            if node.style == .class {
                let hierarchy = node.classHierarchy
                guard hierarchy.indices.contains(level) else { return Children(storage: .array([])) }
                return Children(storage: .node(node, node.childIndices(declaredBy: hierarchy[level])))
            }
            return Children(storage: .node(node, 0..<node.childCount))
        case .standard(let mirror):
            return Children(storage: .array(Array(mirror.children)))
        case .explicit(let children, _):
            return Children(storage: .array(children))
        }
    }

    /// A mirror of the subject's superclass, or `nil` when the subject is not a class instance
    /// or its class has no superclass.
    public var superclassMirror: RuntimeMirror? {
        switch source {
        case .node(let node, let level, let ancestor):
            let hierarchy = node.classHierarchy
            guard node.style == .class, hierarchy.count > level + 1 else { return nil }
            if let ancestor, hierarchy[level + 1] == TypeMetadata(ancestor.subjectType) {
                return RuntimeMirror(ancestor)
            }
            return RuntimeMirror(node: node, level: level + 1, ancestor: ancestor)
        case .standard(let mirror):
            return mirror.superclassMirror.map(RuntimeMirror.init)
        case .explicit(_, let superclass):
            return superclass()
        }
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
    private static func mirroredType(of node: ValueNode) -> Any.Type {
        guard let type = node.type.type else { return Any.self }
        if type == Substring.self || type == StaticString.self { return String.self }
        // An existential metatype (`Any.Type`) reports the metatype it holds, `Int.Type`.
        if node.type.kind == .existentialMetatype, let metatype = node.value as? Any.Type {
            return Swift.type(of: metatype)
        }
        return type
    }

    /// The display style `Mirror` gives a node's value.
    private static func displayStyle(of node: ValueNode) -> DisplayStyle? {
        switch node.style {
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
            switch node.type.kind {
            case .struct where !isStandardLeaf(node.type.type): return .struct
            case .enum where !isStandardLeaf(node.type.type): return .enum
            default: return nil
            }
        }
    }

    /// Whether a type is one of the standard library's values that `Mirror` shows without
    /// structure (its custom mirror has no children and no style).
    private static func isStandardLeaf(_ type: Any.Type?) -> Bool {
        guard let type else { return false }
        return type is any Numeric.Type || type == Bool.self || type == String.self || type == Substring.self
            || type == Character.self || type == StaticString.self || type == Unicode.Scalar.self
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
                if ancestor.subjectType == superclass { return RuntimeMirror(ancestor) }
                return RuntimeMirror(reflecting: subject, level: superclass, ancestor: ancestor)
            }
        @unknown default:
            return { nil }
        }
    }

    /// The generated mirror of one class of a class instance's hierarchy, whose levels above
    /// are generated up to the class a custom ancestor stands for.
    private init(reflecting subject: Any, level: AnyClass, ancestor: Mirror?) {
        let node = ValueWalker().node(for: subject)
        let index = node.classHierarchy.firstIndex { $0 == TypeMetadata(level) } ?? node.classHierarchy.count
        self.init(node: node, level: index, ancestor: ancestor)
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
