// ValueWalker.swift
//
// The value walker: one entry point that reports how a value is built, one level at a time,
// with each part typed as far as the runtime knows it. Parts are copied from their offsets
// through the per-type plan (WalkPlan.swift), without a `Mirror`.

/// Reports the structure of values: their fields, enum cases and payloads, tuple elements,
/// optionals, collection elements, and class instances with their identity.
///
/// ```swift
/// let walker = ValueWalker()
/// let node = walker.node(for: person)
/// node.forEachChild { child in
///     print(child.label ?? "-", child.declaredType?.name ?? "?")
/// }
/// ```
///
/// The walker answers from the same per-type caches as the rest of the library: after the first
/// value of a type, a node costs a cache lookup, and each part one copy from its offset. It
/// follows `Mirror`'s view of a value where the two meet, so that tools built on `Mirror`
/// output (dumps, snapshot tests) can move to it:
/// - the standard library's numbers, `Bool`, strings and characters are leaves;
/// - `Array`, `ArraySlice`, `ContiguousArray`, `Set` and `Dictionary` list their elements,
///   a dictionary's as `(key:value:)` tuples, read through the `Collection` conformance;
/// - a class instance lists the stored properties of its class and superclasses, each with
///   the class that declares it (``ValueChild/declaringType``);
/// - an enum lists its payload under its case's name, an optional its wrapped value as `some`;
/// - an existential part (`Any`, `any P`) is reported as the value it holds, with its declared
///   type kept in ``ValueChild/declaredType``.
///
/// A type's `CustomReflectable` mirror replaces its stored structure only when the walker is
/// made with `honorsCustomReflectable`, as `Mirror` always does; the standard library's own
/// mirrors for the types above are not needed, as they show what the walker shows.
public struct ValueWalker: Sendable {
    /// Whether a `CustomReflectable` type is walked through its custom mirror, as `Mirror`
    /// walks it (`Date`, `URL` and `Data` show their custom children), rather than its storage.
    public var honorsCustomReflectable: Bool

    /// Creates a walker.
    /// - Parameter honorsCustomReflectable: Whether custom mirrors replace stored structure.
    public init(honorsCustomReflectable: Bool = false) {
        self.honorsCustomReflectable = honorsCustomReflectable
    }

    /// Reports how a value is built, one level deep.
    ///
    /// The node holds the value: passed as its last use, the value is moved into it rather than
    /// copied.
    /// - Parameter value: Any value; an existential is looked through to the value it holds.
    /// - Returns: The value's node.
    public func node(for value: consuming Any) -> ValueNode {
        let stored = BorrowedExistential.dynamicType(of: value)
        if stored.rawKind == MetadataKind.existential.rawValue
            || stored.rawKind == MetadataKind.extendedExistential.rawValue
        {
            return node(forContainer: value)
        }
        return node(for: value, type: TypeMetadata(stored))
    }

    /// The dynamic type of a value that the walker reports as a leaf (a number, a string, a
    /// function, a metatype), read without copying the value, or `nil` for any other value and
    /// for an `Any` holding an existential: a mirror of a leaf needs its type, not a node.
    /// - Parameter value: The value.
    /// - Returns: The leaf's type, or `nil`.
    static func leafType(of value: borrowing Any) -> TypeMetadata? {
        let stored = BorrowedExistential.dynamicType(of: value)
        guard stored.rawKind != MetadataKind.existential.rawValue,
            stored.rawKind != MetadataKind.extendedExistential.rawValue
        else { return nil }
        let type = TypeMetadata(stored)
        return type.walkPlan.withObject { $0.value.style == .leaf } ? type : nil
    }

    /// ``node(for:)`` for an `Any` holding an existential, as generic code makes one from
    /// `T == Any`, or a constrained one (`any Sequence<Int>`): the node of the value inside, as
    /// `as?` and `Mirror` see it. Out of line, so that the common path neither copies its value
    /// nor keeps room for these.
    /// - Parameter value: An `Any` whose stored type is an existential.
    /// - Returns: The node of the value it holds.
    @inline(never)
    private func node(forContainer value: consuming Any) -> ValueNode {
        var value = OpaqueValueAccess.projectedCopy(of: value)
        var stored = BorrowedExistential.dynamicType(of: value)
        if stored.rawKind == MetadataKind.extendedExistential.rawValue {
            // A constrained existential stored as a metatype or with an explicit layout: the
            // runtime's cast opens it.
            func open<T>(_: T.Type) -> Any? { value as? T }
            if let inner = _openExistential(Swift.type(of: value), do: open) {
                value = inner
                stored = BorrowedExistential.dynamicType(of: value)
            }
        }
        return node(for: value, type: TypeMetadata(stored))
    }

    /// The node of a value that is not an existential container, of its dynamic type.
    /// - Parameters:
    ///   - value: The value, moved into the node.
    ///   - type: Its dynamic type.
    /// - Returns: The node.
    @inline(__always)
    private func node(for value: consuming Any, type: TypeMetadata) -> ValueNode {
        let plan = type.walkPlan
        let (style, isCustomReflectable) = plan.withObject { ($0.value.style, $0.value.isCustomReflectable) }
        if honorsCustomReflectable, isCustomReflectable, style != .leaf, style != .collection, style != .set,
            style != .dictionary
        {
            return customNode(for: value, type: type, plan: plan)
        }
        // No `Mirror?` on this path: `Mirror` is resilient, so each operation on an optional one
        // would go through its value witnesses.
        var node = ValueNode(value: value, type: type, style: style, plan: plan, mirrorBox: nil)
        node.readCaseTag()
        return node
    }

    /// The node of a `CustomReflectable` value, walked through its custom mirror. Out of line,
    /// as `Mirror` is resilient: a function holding one sizes its frame at run time.
    @inline(never)
    private func customNode(
        for value: consuming Any,
        type: TypeMetadata,
        plan: ImmortalReference<WalkPlanBox>
    ) -> ValueNode {
        let mirror = MirrorBox(Mirror(reflecting: copy value))
        return ValueNode(value: value, type: type, style: .custom, plan: plan, mirrorBox: mirror)
    }

    /// The node of a node's child: the child's value read from where its parent holds it and
    /// moved into a node of its own, without the ``ValueChild`` that ``ValueNode/child(at:)``
    /// makes.
    ///
    /// A walk that descends a level at a time, keeping its place in each node as a position,
    /// reads each child this way and its label and declared type from the parent
    /// (``ValueNode/label(ofChildAt:)``, ``ValueNode/declaredType(ofChildAt:)``):
    ///
    /// ```swift
    /// let walker = ValueWalker()
    /// let parent = walker.node(for: order)
    /// for index in 0..<parent.childCount {
    ///     if let child = walker.node(forChildAt: index, of: parent) {
    ///         print(parent.label(ofChildAt: index) ?? "-", child.type.name)
    ///     }
    /// }
    /// ```
    /// - Parameters:
    ///   - index: The child's position, in `0..<parent.childCount`.
    ///   - parent: The node whose child to read.
    /// - Returns: The child's node, as ``node(for:)`` makes it from the child's value; `nil`
    ///   outside `0..<parent.childCount`, and for a function stored at its declaration's
    ///   abstraction, whose ``ValueChild/value`` is `nil`.
    public func node(forChildAt index: Int, of parent: borrowing ValueNode) -> ValueNode? {
        guard let value = parent.childValue(at: index) else { return nil }
        return node(for: consume value)
    }

    /// What ``walk(_:_:)`` does after a visit.
    public enum Decision: Sendable {
        /// Visit the node's children next.
        case visitChildren
        /// Go on with the node's next sibling.
        case skipChildren
        /// End the walk.
        case stop
    }

    /// One visit of ``walk(_:_:)``.
    public struct Visit {
        /// The label the node has in its parent, or `nil` for the root and unlabelled parts.
        public let label: String?
        /// The node's depth: 0 for the root.
        public let depth: Int
        /// The node.
        public let node: ValueNode
        /// Whether the node is a class instance already visited in this walk: its children
        /// are not visited again, so cycles end.
        public let isRevisit: Bool
    }

    /// Visits a value and its parts depth-first, parents before children, in the order
    /// ``ValueNode/forEachChild(_:)`` reports them.
    ///
    /// The walk keeps its own stack, so a value nested a million levels deep (a long linked
    /// list) is walked without running out of the thread's stack. A class instance met again is
    /// visited with ``Visit/isRevisit`` set and its children skipped. Withheld parts (a function
    /// stored at its declaration's abstraction) are not visited.
    /// - Parameters:
    ///   - value: The root value.
    ///   - visit: Called once per node; its decision steers the walk.
    public func walk(_ value: Any, _ visit: (Visit) throws -> Decision) rethrows {
        var seen: Set<ObjectIdentifier> = []
        var stack: [(label: String?, depth: Int, value: Any)] = [(nil, 0, value)]
        while let (label, depth, current) = stack.popLast() {
            let node = node(for: current)
            var isRevisit = false
            if node.style == .class, let identifier = node.objectIdentifier {
                isRevisit = !seen.insert(identifier).inserted
            }
            switch try visit(Visit(label: label, depth: depth, node: node, isRevisit: isRevisit)) {
            case .stop:
                return
            case .skipChildren:
                continue
            case .visitChildren:
                guard !isRevisit else { continue }
                let start = stack.count
                node.forEachChild { child in
                    if let value = child.value { stack.append((child.label, depth + 1, value)) }
                }
                stack[start...].reverse()
            }
        }
    }
}

/// A custom mirror, boxed.
final class MirrorBox {
    let mirror: Mirror
    init(_ mirror: Mirror) { self.mirror = mirror }
}

extension ValueChild {
    /// A stored property or tuple element, described by its type's plan.
    /// (The plan is read through its box, in place: passed as a `WalkPlan`, it would be copied
    /// with all its arrays.)
    @inline(__always)
    init(part index: Int, of box: WalkPlanBox, value: consuming Any?) {
        self.label = box.value.labels[index]
        self.value = value
        self.declaredType = box.value.partTypes[index]
        self.declaringType = box.value.declaringTypes.isEmpty ? nil : box.value.declaringTypes[index]
    }

    /// A stored property or tuple element, described by its type's plan, reached through its
    /// unretained reference.
    @inline(__always)
    init(part index: Int, of plan: ImmortalReference<WalkPlanBox>, value: consuming Any?) {
        (label, declaredType, declaringType) = plan.withObject { box in
            (
                box.value.labels[index], box.value.partTypes[index],
                box.value.declaringTypes.isEmpty ? nil : box.value.declaringTypes[index]
            )
        }
        self.value = value
    }
}

@available(*, unavailable)
extension ValueNode: Sendable {}

@available(*, unavailable)
extension ValueChild: Sendable {}

@available(*, unavailable)
extension ValueWalker.Visit: Sendable {}
