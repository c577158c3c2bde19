// Diff.swift
//
// The differences between two values, found with RuntimeMetadata's walker: each subtree is
// first compared whole with `TypeMetadata.layoutEquals` (a type's own `==` where it has one),
// so that equal parts cost one comparison and are never walked, and only unequal ones are
// walked further: stored properties, tuple elements and payloads by label, arrays aligned by
// a shortest edit script (ArrayAlignment.swift; by `id` when their elements are
// `Identifiable`), dictionaries by key, sets by element. Class instances are equal when they are
// the same object, and a pair of objects met again on the way (a cycle) is not walked twice.

internal import RuntimeMetadata

/// The differences between two values, one per changed path, in the order of the values'
/// parts.
///
/// A diff is empty exactly when the values are equal by `TypeMetadata.layoutEquals`, which
/// calls a type's own `==` where the type has one: equal subtrees are skipped whole.
/// Otherwise each part is walked, and where the walk cannot tell the parts apart further (a
/// leaf, a change of enum case or of dynamic type, a type whose `==` sees a difference its
/// stored parts do not show) the part is reported with its old and new value.
///
/// - Arrays are aligned by a shortest edit script, as `difference(from:)` aligns them: an
///   element inserted is reported at its index in the new array with `old` `nil`, one removed
///   at its index in the old array with `new` `nil`, and one changed where it is
///   (`.lines[2].quantity`). Arrays that need more than 128 insertions and removals to align,
///   besides their common prefix and suffix, are compared by position there. Elements that are
///   `Identifiable`, with distinct ids on each side, are matched by `id` (`.items[id: 7]`), a
///   change of order reported once.
/// - Dictionaries are compared by key, sets by element; entries only on one side are
///   reported with `old` or `new` `nil`.
/// - Class instances are compared by identity first: the same object is equal to itself, and
///   a pair of objects already compared on the way is not walked again, so cycles end.
/// - The walk goes 32 levels deep (an optional and a property are a level each), on the
///   calling thread's stack; an unequal part deeper than that (in a long linked list) is
///   reported whole, there. Reported values are written 12 levels deep, deeper parts
///   collapsed as `Swift.dump`'s `maxDepth` writes them.
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
    /// How many times each path made from a key's or an id's text was given out.
    var issuedSteps: [String: Int] = [:]
    let walker = ValueWalker(honorsCustomReflectable: true)

    /// A pair of objects, old and new.
    struct ObjectPair: Hashable {
        let old: ObjectIdentifier
        let new: ObjectIdentifier
    }

    /// The deepest the walk goes: each level is a few calls on the thread's stack (2-3 KiB in
    /// a debug build), and a thread may have 512 KiB, of which sanitizers take more. Deeper
    /// unequal parts are reported whole, at this depth.
    static let maximumDepth = 32

    /// The deepest a reported value is written (``DumpOptions/stable``'s dump, `maxDepth`):
    /// deeper parts are written collapsed, as `Swift.dump` writes them past its `maxDepth`,
    /// so that a long linked list reported whole stays a few lines.
    static let maximumDescribedDepth = 12

    /// `Identifiable`, for arrays compared by id.
    static let identifiable = try? ProtocolDescriptor((any Identifiable).self)

    /// A path for a part named by a key's or an id's dumped text, unique in this diff: two keys
    /// whose texts are alike (two NaN keys, or `1` and `"1"` in one `[AnyHashable: …]`) would
    /// otherwise share a path. The first keeps its text; later ones are numbered, `[nan #2]`.
    /// - Parameter path: The path made from the text, ending in `]`.
    /// - Returns: The path, numbered when it was given out before.
    mutating func uniqueStep(_ path: String) -> String {
        var number = issuedSteps[path, default: 0] + 1
        issuedSteps[path] = number
        guard number > 1 else { return path }
        var numbered: String
        repeat {
            numbered = String(path.dropLast()) + " #\(number)]"
            number += 1
        } while issuedSteps[numbered] != nil
        issuedSteps[numbered] = 1
        return numbered
    }

    /// Compares two parts that the caller found unequal by layout, at a path, and records what
    /// differs. Every caller compares a pair whole first, to skip it when equal; comparing
    /// again here would run each unequal subtree's comparison twice per level.
    /// - Returns: Whether the comparison was left to another further up: the parts are a pair
    ///   of objects already being compared (a cycle), and record nothing here.
    @discardableResult
    mutating func compare(_ lhs: Any, _ rhs: Any, path: String, depth: Int) -> Bool {
        guard TypeMetadata(type(of: lhs)) == TypeMetadata(type(of: rhs)) else {
            record(path, old: lhs, new: rhs)
            return false
        }
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
                let oldValue = oldPayload.value, let newValue = newPayload.value,
                !TypeMetadata.layoutEquals(oldValue, newValue)
            else { break }
            let step = old.style == .optional ? "?" : "." + (old.caseName ?? "")
            deferred = compare(oldValue, newValue, path: path + step, depth: depth + 1)
        case .collection:
            compareElements(old, new, path: path, depth: depth)
            // Every pair of elements was compared: when none differs the arrays are equal,
            // though unequal by layout, which compares an array of elements that are not
            // `Equatable` (`[Any]`) by its storage's identity.
            return false
        case .dictionary:
            compareEntries(old, new, path: path, depth: depth)
            // As for arrays: every key was matched and every value compared.
            return false
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
            if let oldValue = oldChild?.value, let newValue = newChild?.value,
                TypeMetadata.layoutEquals(oldValue, newValue)
            {
                continue
            }
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
    /// ids, otherwise aligned by a shortest edit script.
    private mutating func compareElements(_ old: ValueNode, _ new: ValueNode, path: String, depth: Int) {
        if compareIdentifiedArrays(old, new, path: path, depth: depth) { return }
        let oldElements = old.children.compactMap(\.value)
        let newElements = new.children.compactMap(\.value)
        var commonEnds: (prefix: Int, suffix: Int)?
        if oldElements.count == newElements.count {
            switch compareInPlace(oldElements, newElements, path: path, depth: depth) {
            case .compared:
                return
            case .unidentified(let firstUnequal, let lastUnequal):
                commonEnds = (firstUnequal, oldElements.count - 1 - lastUnequal)
            case .identifiedApart:
                break
            }
        }
        if commonEnds == nil, let oldIDs = Self.ids(of: oldElements), let newIDs = Self.ids(of: newElements) {
            return compareIdentified(oldElements, oldIDs, newElements, newIDs, path: path, depth: depth)
        }
        compareAligned(oldElements, newElements, commonEnds: commonEnds, path: path, depth: depth)
    }

    /// Two arrays of one `Identifiable` element type (`[Todo]`, not `[Any]`), compared typed
    /// as ``compareInPlace(_:_:path:depth:)`` and ``compareIdentified(_:_:_:_:path:depth:)``
    /// compare elements held as `Any`, with the same differences at the same paths: without
    /// a copy of every element into an `Any`, and with the ids hashed as their own type rather
    /// than as `AnyHashable`.
    /// - Returns: Whether the arrays were compared; `false`, with nothing recorded, when their
    ///   element type is not `Identifiable`, when they are of different types, and when they
    ///   are aligned instead (an empty side, or an id that two elements of one side share).
    private mutating func compareIdentifiedArrays(_ old: ValueNode, _ new: ValueNode, path: String, depth: Int) -> Bool
    {
        // The declared element type first: an array of another element type is not read.
        guard let identifiable = Self.identifiable,
            let elementType = old.declaredType(ofChildAt: 0) ?? new.declaredType(ofChildAt: 0),
            identifiable.isConformed(by: elementType),
            let sample = old.child(at: 0)?.value ?? new.child(at: 0)?.value
        else { return false }
        return identifiable.withOpened(sample, as: (any Identifiable).self) { sample in
            compareIdentifiedArrays(of: sample, old.value, new.value, path: path, depth: depth)
        } ?? false
    }

    /// ``compareIdentifiedArrays(_:_:path:depth:)`` for arrays of `sample`'s type.
    private mutating func compareIdentifiedArrays<Element: Identifiable>(
        of sample: Element,
        _ oldValue: Any,
        _ newValue: Any,
        path: String,
        depth: Int
    ) -> Bool {
        // The arrays' own type, exactly: an `[any Identifiable]` would cast by converting.
        guard type(of: oldValue) == [Element].self, type(of: newValue) == [Element].self,
            let old = oldValue as? [Element], let new = newValue as? [Element]
        else { return false }
        if old.count == new.count {
            var unequal: [Int] = []
            for index in old.indices where !TypeMetadata.layoutEquals(old[index], new[index]) {
                unequal.append(index)
            }
            guard !unequal.isEmpty else { return true }
            // As `compareInPlace`: every unequal pair keeps one id, and no two pairs share it.
            var named = Set<Element.ID>(minimumCapacity: unequal.count)
            let inPlace = unequal.allSatisfy { index in
                let id = old[index].id
                return id == new[index].id && named.insert(id).inserted
            }
            if inPlace {
                let steps = unequal.map { uniqueStep(path + "[id: \(Self.describe(id: old[$0].id))]") }
                for (index, step) in zip(unequal, steps) {
                    compare(old[index], new[index], path: step, depth: depth + 1)
                }
                return true
            }
        }
        // As `ids(of:)`: matched by id only when neither side is empty and each side's ids are
        // distinct. The code is generic over a type opened at run time, so not specialized:
        // each id is read once, and the loops are plain, without lazy sequences or key paths,
        // whose generic types would be made at run time.
        guard !old.isEmpty, !new.isEmpty else { return false }
        let oldIDs = old.map { $0.id }
        let newIDs = new.map { $0.id }
        guard let oldIndex = Self.positions(of: oldIDs), let newIndex = Self.positions(of: newIDs) else { return false }
        for position in old.indices {
            let id = oldIDs[position]
            let match = newIndex[id]
            if let match, TypeMetadata.layoutEquals(old[position], new[match]) { continue }
            let step = uniqueStep(path + "[id: \(Self.describe(id: id))]")
            if let match {
                compare(old[position], new[match], path: step, depth: depth + 1)
            } else {
                record(step, old: old[position], new: nil)
            }
        }
        for position in new.indices where oldIndex[newIDs[position]] == nil {
            record(uniqueStep(path + "[id: \(Self.describe(id: newIDs[position]))]"), old: nil, new: new[position])
        }
        // The ids both sides have, in the old order and in the new.
        var keptOld: [Element.ID] = []
        for id in oldIDs where newIndex[id] != nil { keptOld.append(id) }
        var keptNew: [Element.ID] = []
        for id in newIDs where oldIndex[id] != nil { keptNew.append(id) }
        if keptOld != keptNew {
            found.append(
                ValueDifference(
                    path: path + " (order)",
                    old: keptOld.map { Self.describe(id: $0) }.joined(separator: ", "),
                    new: keptNew.map { Self.describe(id: $0) }.joined(separator: ", ")
                )
            )
        }
        return true
    }

    /// Each id's position, or `nil` when two are equal.
    private static func positions<ID: Hashable>(of ids: [ID]) -> [ID: Int]? {
        var positions = [ID: Int](minimumCapacity: ids.count)
        for position in ids.indices {
            guard positions.updateValue(position, forKey: ids[position]) == nil else { return nil }
        }
        return positions
    }

    /// An id's text in a path, as ``compareIdentified(_:_:_:_:path:depth:)`` writes an
    /// `AnyHashable` id's: the value it holds, which an `AnyHashable` id itself unwraps to.
    private static func describe<ID: Hashable>(id: ID) -> String {
        describe(AnyHashable(id).base)
    }

    /// Elements that are not `Identifiable`, aligned by a shortest edit script
    /// (``ArrayAlignment``): an element removed from the old array is reported at its old index
    /// with `new` `nil`, one inserted at its new index with `old` `nil`, and a removal and an
    /// insertion at the same index are compared as one element changed there. When no script
    /// of ``ArrayAlignment/maximumEdits`` edits aligns them, the elements between the common
    /// prefix and suffix are compared by position.
    private mutating func compareAligned(
        _ oldElements: [Any],
        _ newElements: [Any],
        commonEnds: (prefix: Int, suffix: Int)?,
        path: String,
        depth: Int
    ) {
        let equal = { (old: Int, new: Int) in TypeMetadata.layoutEquals(oldElements[old], newElements[new]) }
        let ends =
            commonEnds
            ?? ArrayAlignment.commonEnds(oldCount: oldElements.count, newCount: newElements.count, equal: equal)
        guard
            let alignment = ArrayAlignment.align(
                oldCount: oldElements.count,
                newCount: newElements.count,
                commonEnds: ends,
                equal: equal
            )
        else { return comparePositions(oldElements, newElements, commonEnds: ends, path: path, depth: depth) }
        var removed = alignment.removed[...]
        var inserted = alignment.inserted[...]
        while !removed.isEmpty || !inserted.isEmpty {
            let index = min(removed.first ?? .max, inserted.first ?? .max)
            let isRemoved = removed.first == index
            let isInserted = inserted.first == index
            if isRemoved { removed.removeFirst() }
            if isInserted { inserted.removeFirst() }
            let step = path + "[\(index)]"
            if isRemoved, isInserted, !TypeMetadata.layoutEquals(oldElements[index], newElements[index]) {
                compare(oldElements[index], newElements[index], path: step, depth: depth + 1)
                continue
            }
            if isRemoved { record(step, old: oldElements[index], new: nil) }
            if isInserted { record(step, old: nil, new: newElements[index]) }
        }
    }

    /// Elements between the common prefix and suffix compared by position: each pair where both
    /// arrays have one, then the elements only one array has, each at its own index.
    private mutating func comparePositions(
        _ oldElements: [Any],
        _ newElements: [Any],
        commonEnds: (prefix: Int, suffix: Int),
        path: String,
        depth: Int
    ) {
        let oldEnd = oldElements.count - commonEnds.suffix
        let newEnd = newElements.count - commonEnds.suffix
        for index in commonEnds.prefix..<max(oldEnd, newEnd) {
            if index < oldEnd, index < newEnd, TypeMetadata.layoutEquals(oldElements[index], newElements[index]) {
                continue
            }
            let step = path + "[\(index)]"
            if index < oldEnd, index < newEnd {
                compare(oldElements[index], newElements[index], path: step, depth: depth + 1)
            } else if index < oldEnd {
                record(step, old: oldElements[index], new: nil)
            } else {
                record(step, old: nil, new: newElements[index])
            }
        }
    }

    /// What comparing arrays of one length by position decided.
    private enum InPlaceOutcome {
        /// Every unequal pair had one id on both sides: compared at its id's path.
        case compared
        /// No unequal pair is `Identifiable`: to be aligned, between the first and the last
        /// unequal position.
        case unidentified(firstUnequal: Int, lastUnequal: Int)
        /// Some unequal pair has different ids, or ids on one side only: to be matched by id.
        case identifiedApart
    }

    /// Arrays of one length whose unequal `Identifiable` elements keep their ids in place: each
    /// compared where it is, at its id's path, without matching every element by id.
    /// - Returns: Whether the arrays were compared, or what the caller does instead.
    private mutating func compareInPlace(
        _ oldElements: [Any],
        _ newElements: [Any],
        path: String,
        depth: Int
    ) -> InPlaceOutcome {
        var unequal: [Int] = []
        for index in oldElements.indices where !TypeMetadata.layoutEquals(oldElements[index], newElements[index]) {
            unequal.append(index)
        }
        guard let first = unequal.first, let last = unequal.last else { return .compared }
        // Decided before any path is given out, so that a path is never issued twice.
        var ids: [AnyHashable] = []
        ids.reserveCapacity(unequal.count)
        var named = Set<AnyHashable>()
        var unidentified = 0
        for index in unequal {
            switch (Self.id(of: oldElements[index]), Self.id(of: newElements[index])) {
            case (let oldID?, let newID?) where oldID == newID:
                // Two changed elements with one id would share a path: matched by id instead.
                guard named.insert(oldID).inserted else { return .identifiedApart }
                ids.append(oldID)
            case (nil, nil):
                unidentified += 1
            default:
                return .identifiedApart
            }
        }
        if unidentified == unequal.count { return .unidentified(firstUnequal: first, lastUnequal: last) }
        guard unidentified == 0 else { return .identifiedApart }
        let steps = ids.map { uniqueStep(path + "[id: \(Self.describe($0.base))]") }
        for (index, step) in zip(unequal, steps) {
            compare(oldElements[index], newElements[index], path: step, depth: depth + 1)
        }
        return .compared
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
            let match = newIndex[id]
            if let match, TypeMetadata.layoutEquals(oldElements[position], newElements[match]) { continue }
            // The path's text only for an element that differs: it dumps the id.
            let step = uniqueStep(path + "[id: \(Self.describe(id.base))]")
            if let match {
                compare(oldElements[position], newElements[match], path: step, depth: depth + 1)
            } else {
                record(step, old: oldElements[position], new: nil)
            }
        }
        for (position, id) in newIDs.enumerated() where oldIndex[id] == nil {
            record(uniqueStep(path + "[id: \(Self.describe(id.base))]"), old: nil, new: newElements[position])
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
        guard !elements.isEmpty else { return nil }
        var ids: [AnyHashable] = []
        ids.reserveCapacity(elements.count)
        for element in elements {
            guard let id = id(of: element) else { return nil }
            ids.append(id)
        }
        return Set(ids).count == ids.count ? ids : nil
    }

    /// An element's `id`, or `nil` when it is not `Identifiable`.
    private static func id(of element: Any) -> AnyHashable? {
        identifiable?.withOpened(element, as: (any Identifiable).self) { hashableID(of: $0) }
    }

    /// An element's `id`, hashable.
    private static func hashableID<Element: Identifiable>(of element: Element) -> AnyHashable {
        AnyHashable(element.id)
    }

    /// Dictionary entries by key.
    private mutating func compareEntries(_ old: ValueNode, _ new: ValueNode, path: String, depth: Int) {
        let oldEntries = entries(of: old)
        let newEntries = entries(of: new)
        let newByKey = Dictionary(newEntries.map { ($0.hashable, $0) }, uniquingKeysWith: { first, _ in first })
        let oldByKey = Dictionary(oldEntries.map { ($0.hashable, $0) }, uniquingKeysWith: { first, _ in first })
        // Only the entries that differ, in the order of their keys' dumped text, as the stable
        // dump writes them (alike texts in the order found, old entries first): a key is dumped
        // only when its entry is reported.
        var changed: [(text: String, old: Any?, new: Any?)] = []
        for entry in oldEntries {
            if let match = newByKey[entry.hashable] {
                if TypeMetadata.layoutEquals(entry.value, match.value) { continue }
                changed.append((Self.describe(entry.key), entry.value, match.value))
            } else {
                changed.append((Self.describe(entry.key), entry.value, nil))
            }
        }
        for entry in newEntries where oldByKey[entry.hashable] == nil {
            changed.append((Self.describe(entry.key), nil, entry.value))
        }
        let ordered = changed.enumerated().sorted { ($0.element.text, $0.offset) < ($1.element.text, $1.offset) }
        for entry in ordered.map(\.element) {
            let step = uniqueStep(path + "[\(entry.text)]")
            if let oldValue = entry.old, let newValue = entry.new {
                compare(oldValue, newValue, path: step, depth: depth + 1)
            } else {
                record(step, old: entry.old, new: entry.new)
            }
        }
    }

    /// A dictionary's entries: each key, as it is and hashable, with its value.
    private func entries(of node: ValueNode) -> [(key: Any, hashable: AnyHashable, value: Any)] {
        node.children.compactMap { child in
            guard let pair = child.value else { return nil }
            let entry = walker.node(for: pair)
            guard let key = entry.child(at: 0)?.value, let value = entry.child(at: 1)?.value,
                let hashable = key as? AnyHashable
            else { return nil }
            return (key, hashable, value)
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
        dump(value, to: &text, maxDepth: maximumDescribedDepth, options: .stable)
        // Without an empty line, the lines are the text less its first bullet and its last
        // newline: kept as one piece rather than split and joined again.
        if !Self.hasEmptyLine(text) {
            var body = text.dropFirst(2)
            while body.last == "\n" { body = body.dropLast() }
            return String(body)
        }
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            lines.append(lines.isEmpty ? line.dropFirst(2) : line)
        }
        return lines.joined(separator: "\n")
    }

    /// Whether a text has two newlines in a row, an empty line that ``describe(_:)`` drops.
    private static func hasEmptyLine(_ text: String) -> Bool {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "\n"), previous == byte { return true }
            previous = byte
        }
        return false
    }
}
