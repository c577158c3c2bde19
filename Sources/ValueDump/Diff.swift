// Diff.swift
//
// The differences between two values, found with RuntimeMetadata's walker: each subtree is
// first compared whole with `TypeMetadata.layoutEquals` (a type's own `==` where it has one),
// so that equal parts cost one comparison and are never walked, and only unequal ones are
// walked further: stored properties, tuple elements and payloads by label, arrays by position
// (or by `id` when their elements are `Identifiable`), dictionaries by key, sets by element.
// Class instances are equal when they are the same object, and a pair of objects met again on
// the way (a cycle) is not walked twice.

internal import RuntimeMetadata

/// One difference between two values: where it is, and what each value holds there.
public struct ValueDifference: Hashable, Sendable {
    /// The path from the root to the part that differs: `.lines[2].quantity`, `.status`,
    /// `.scores["ada"]`, `.items[id: 7]`, or `` for the root itself.
    public let path: String
    /// The old value's part, dumped; `nil` when the part is only in the new value.
    public let old: String?
    /// The new value's part, dumped; `nil` when the part is only in the old value.
    public let new: String?

    /// A difference, as a test expects it.
    /// - Parameters:
    ///   - path: The path to the part.
    ///   - old: The old value's part, dumped, or `nil`.
    ///   - new: The new value's part, dumped, or `nil`.
    public init(path: String, old: String?, new: String?) {
        self.path = path
        self.old = old
        self.new = new
    }
}

/// The differences between two values, one per changed path, in the order of the values'
/// parts.
///
/// A diff is empty exactly when the values are equal by `TypeMetadata.layoutEquals`, which
/// calls a type's own `==` where the type has one: equal subtrees are skipped whole.
/// Otherwise each part is walked, and where the walk cannot tell the parts apart further (a
/// leaf, a change of enum case or of dynamic type, a type whose `==` sees a difference its
/// stored parts do not show) the part is reported with its old and new value.
///
/// - Arrays are compared by position; elements that are `Identifiable`, with distinct ids on
///   each side, by `id` (`.items[id: 7]`), a change of order reported once.
/// - Dictionaries are compared by key, sets by element; entries only on one side are
///   reported with `old` or `new` `nil`.
/// - Class instances are compared by identity first: the same object is equal to itself, and
///   a pair of objects already compared on the way is not walked again, so cycles end.
///
/// ```swift
/// for difference in ValueDump.differences(before, after) {
///     print(difference.path)   // ".lines[2].quantity"
/// }
/// ```
/// - Parameters:
///   - lhs: The old value.
///   - rhs: The new value.
/// - Returns: The differences; empty when the values are equal.
public func differences<T>(_ lhs: T, _ rhs: T) -> [ValueDifference] {
    // Equal values: one comparison, nothing walked.
    if TypeMetadata.layoutEquals(lhs, rhs) { return [] }
    var differ = Differ()
    differ.compare(lhs, rhs, path: "", depth: 0)
    return differ.found
}

/// The differences between two values as text, or `nil` when they are equal: each changed
/// path, then the old value's lines marked `-` and the new value's marked `+`, dumped with
/// ``DumpOptions/stable`` so that the text is the same in every process.
///
/// ```swift
/// if let text = ValueDump.diff(before, after) { print(text) }
/// // .lines[2].quantity
/// //   - 2
/// //   + 3
/// ```
/// - Parameters:
///   - lhs: The old value.
///   - rhs: The new value.
/// - Returns: The text, or `nil` when ``differences(_:_:)`` finds none.
public func diff<T>(_ lhs: T, _ rhs: T) -> String? {
    let found = differences(lhs, rhs)
    guard !found.isEmpty else { return nil }
    var text = ""
    for difference in found {
        text += difference.path.isEmpty ? "(root)" : difference.path
        text += "\n"
        for line in (difference.old ?? "").split(separator: "\n", omittingEmptySubsequences: true) {
            text += "  - " + line + "\n"
        }
        for line in (difference.new ?? "").split(separator: "\n", omittingEmptySubsequences: true) {
            text += "  + " + line + "\n"
        }
    }
    return text
}

/// One diff's walk.
private struct Differ {
    /// The differences found, in order.
    var found: [ValueDifference] = []
    /// The pairs of objects compared so far, so that a cycle is walked once.
    var comparedObjects: Set<ObjectPair> = []
    let walker = ValueWalker(honorsCustomReflectable: true)

    /// A pair of objects, old and new.
    struct ObjectPair: Hashable {
        let old: ObjectIdentifier
        let new: ObjectIdentifier
    }

    /// The deepest the walk goes; deeper unequal parts are reported whole.
    static let maximumDepth = 10_000

    /// `Identifiable`, for arrays compared by id.
    static let identifiable = try? ProtocolDescriptor((any Identifiable).self)

    /// Compares two parts at a path, and records what differs.
    /// - Returns: Whether the comparison was left to another further up: the parts are a pair
    ///   of objects already being compared (a cycle), and record nothing here.
    @discardableResult
    mutating func compare(_ lhs: Any, _ rhs: Any, path: String, depth: Int) -> Bool {
        guard TypeMetadata(type(of: lhs)) == TypeMetadata(type(of: rhs)) else {
            record(path, old: lhs, new: rhs)
            return false
        }
        if TypeMetadata.layoutEquals(lhs, rhs) { return false }
        guard depth < Self.maximumDepth else {
            record(path, old: lhs, new: rhs)
            return false
        }
        let old = walker.node(for: lhs)
        let new = walker.node(for: rhs)
        if let oldObject = old.objectIdentifier, let newObject = new.objectIdentifier {
            if oldObject == newObject { return false }
            guard comparedObjects.insert(ObjectPair(old: oldObject, new: newObject)).inserted else { return true }
        }
        let before = found.count
        var deferred = false
        switch old.style {
        case .struct, .class, .tuple, .custom:
            deferred = compareParts(old, new, path: path, depth: depth)
        case .enum, .optional:
            guard old.caseName == new.caseName, let oldPayload = old.child(at: 0), let newPayload = new.child(at: 0),
                let oldValue = oldPayload.value, let newValue = newPayload.value
            else { break }
            let step = old.style == .optional ? "?" : "." + (old.caseName ?? "")
            deferred = compare(oldValue, newValue, path: path + step, depth: depth + 1)
        case .collection:
            compareElements(old, new, path: path, depth: depth)
        case .dictionary:
            compareEntries(old, new, path: path, depth: depth)
        case .set:
            compareMembers(old, new, path: path)
        case .leaf:
            break
        }
        // Unequal, yet nothing below told them apart (a leaf, another case, an `==` that sees
        // what the parts do not show): the part itself is the difference. A part that only led
        // back to objects compared further up leaves the difference to them.
        if found.count == before && !deferred { record(path, old: lhs, new: rhs) }
        return false
    }

    /// Stored properties, tuple elements or mirror children, by position and label.
    /// - Returns: Whether some part's comparison was left to one further up.
    private mutating func compareParts(_ old: ValueNode, _ new: ValueNode, path: String, depth: Int) -> Bool {
        var deferred = false
        let count = max(old.childCount, new.childCount)
        for index in 0..<count {
            let oldChild = old.child(at: index)
            let newChild = new.child(at: index)
            let label = oldChild?.label ?? newChild?.label ?? String(index)
            let step = path + (label.hasPrefix(".") ? label : "." + label)
            switch (oldChild?.value, newChild?.value) {
            case (let oldValue?, let newValue?):
                if compare(oldValue, newValue, path: step, depth: depth + 1) { deferred = true }
            case (let oldValue?, nil): record(step, old: oldValue, new: nil)
            case (nil, let newValue?): record(step, old: nil, new: newValue)
            case (nil, nil): break
            }
        }
        return deferred
    }

    /// Array elements: by `id` when every element on both sides is `Identifiable` with distinct
    /// ids, otherwise by position.
    private mutating func compareElements(_ old: ValueNode, _ new: ValueNode, path: String, depth: Int) {
        let oldElements = old.children.compactMap(\.value)
        let newElements = new.children.compactMap(\.value)
        if let oldIDs = Self.ids(of: oldElements), let newIDs = Self.ids(of: newElements) {
            return compareIdentified(oldElements, oldIDs, newElements, newIDs, path: path, depth: depth)
        }
        for index in 0..<max(oldElements.count, newElements.count) {
            let step = path + "[\(index)]"
            if index < oldElements.count, index < newElements.count {
                compare(oldElements[index], newElements[index], path: step, depth: depth + 1)
            } else if index < oldElements.count {
                record(step, old: oldElements[index], new: nil)
            } else {
                record(step, old: nil, new: newElements[index])
            }
        }
    }

    /// Elements matched by id: removed, changed and added ones, and a change of order among
    /// the ids both sides have.
    private mutating func compareIdentified(
        _ oldElements: [Any],
        _ oldIDs: [AnyHashable],
        _ newElements: [Any],
        _ newIDs: [AnyHashable],
        path: String,
        depth: Int
    ) {
        let newIndex = Dictionary(uniqueKeysWithValues: newIDs.enumerated().map { ($1, $0) })
        let oldIndex = Dictionary(uniqueKeysWithValues: oldIDs.enumerated().map { ($1, $0) })
        for (position, id) in oldIDs.enumerated() {
            let step = path + "[id: \(Self.describe(id.base))]"
            if let match = newIndex[id] {
                compare(oldElements[position], newElements[match], path: step, depth: depth + 1)
            } else {
                record(step, old: oldElements[position], new: nil)
            }
        }
        for (position, id) in newIDs.enumerated() where oldIndex[id] == nil {
            record(path + "[id: \(Self.describe(id.base))]", old: nil, new: newElements[position])
        }
        let keptOld = oldIDs.filter { newIndex[$0] != nil }
        let keptNew = newIDs.filter { oldIndex[$0] != nil }
        if keptOld != keptNew {
            found.append(
                ValueDifference(
                    path: path + " (order)",
                    old: keptOld.map { Self.describe($0.base) }.joined(separator: ", "),
                    new: keptNew.map { Self.describe($0.base) }.joined(separator: ", ")
                )
            )
        }
    }

    /// Each element's `id`, or `nil` when an element is not `Identifiable` or two share an id.
    private static func ids(of elements: [Any]) -> [AnyHashable]? {
        guard !elements.isEmpty, let identifiable else { return nil }
        var ids: [AnyHashable] = []
        ids.reserveCapacity(elements.count)
        for element in elements {
            guard let id = identifiable.withOpened(element, as: (any Identifiable).self, { hashableID(of: $0) })
            else { return nil }
            ids.append(id)
        }
        return Set(ids).count == ids.count ? ids : nil
    }

    /// An element's `id`, hashable.
    private static func hashableID<Element: Identifiable>(of element: Element) -> AnyHashable {
        AnyHashable(element.id)
    }

    /// Dictionary entries by key.
    private mutating func compareEntries(_ old: ValueNode, _ new: ValueNode, path: String, depth: Int) {
        let oldEntries = entries(of: old)
        let newEntries = entries(of: new)
        let newByKey = Dictionary(newEntries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let oldByKey = Dictionary(oldEntries.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        // In the order of the keys' dumped text, as the stable dump writes them.
        for entry in oldEntries.sorted(by: { $0.text < $1.text }) {
            let step = path + "[\(entry.text)]"
            if let match = newByKey[entry.key] {
                compare(entry.value, match.value, path: step, depth: depth + 1)
            } else {
                record(step, old: entry.value, new: nil)
            }
        }
        for entry in newEntries.sorted(by: { $0.text < $1.text }) where oldByKey[entry.key] == nil {
            record(path + "[\(entry.text)]", old: nil, new: entry.value)
        }
    }

    /// A dictionary's entries: each key, hashable, with its text and value.
    private func entries(of node: ValueNode) -> [(key: AnyHashable, text: String, value: Any)] {
        node.children.compactMap { child in
            guard let pair = child.value else { return nil }
            let entry = walker.node(for: pair)
            guard let key = entry.child(at: 0)?.value, let value = entry.child(at: 1)?.value,
                let hashable = key as? AnyHashable
            else { return nil }
            return (hashable, Self.describe(key), value)
        }
    }

    /// Set elements: those only in the old set and those only in the new one, as one
    /// difference.
    private mutating func compareMembers(_ old: ValueNode, _ new: ValueNode, path: String) {
        let oldMembers = old.children.compactMap { $0.value as? AnyHashable }
        let newMembers = new.children.compactMap { $0.value as? AnyHashable }
        let removed = Set(oldMembers).subtracting(newMembers).map { Self.describe($0.base) }.sorted()
        let added = Set(newMembers).subtracting(oldMembers).map { Self.describe($0.base) }.sorted()
        guard !removed.isEmpty || !added.isEmpty else { return }
        found.append(
            ValueDifference(
                path: path,
                old: removed.isEmpty ? nil : removed.joined(separator: "\n"),
                new: added.isEmpty ? nil : added.joined(separator: "\n")
            )
        )
    }

    /// Records a part that differs.
    private mutating func record(_ path: String, old: Any?, new: Any?) {
        found.append(ValueDifference(path: path, old: old.map(Self.describe), new: new.map(Self.describe)))
    }

    /// A value's dump, stable, without the bullet of its first line; the lines of its parts
    /// keep their indentation under it.
    static func describe(_ value: Any) -> String {
        var text = ""
        dump(value, to: &text, options: .stable)
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            lines.append(lines.isEmpty ? line.dropFirst(2) : line)
        }
        return lines.joined(separator: "\n")
    }
}
