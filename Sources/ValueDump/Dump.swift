// Dump.swift
//
// A `dump` written on RuntimeMetadata's value walker, producing the text the standard library's
// Mirror-based `dump(_:)` produces (stdlib/public/core/Dump.swift: the bullets, the element
// counts of tuples and collections, `super:` sections, ` #N` identities of objects and
// metatypes, and the `maxDepth` and `maxItems` cut-offs), from the walker's cached per-type plans
// instead of a `Mirror` per value. The walk keeps its own stack, so any depth of nesting dumps
// without running out of the thread's stack.

internal import RuntimeMetadata

/// Dumps a value's contents to a stream, as the standard library's `dump(_:to:)` does, read
/// through RuntimeMetadata's `ValueWalker` instead of `Mirror`.
///
/// The output is the standard library's, character for character: custom mirrors
/// (`CustomReflectable`, as `Date`, `URL` and `Data` have) are honoured, as `Mirror` honours
/// them, and descriptions come from `CustomDebugStringConvertible`, `CustomStringConvertible`
/// and `TextOutputStreamable` in that order. Two differences remain, both for values `Mirror`
/// itself handles unsafely: a function stored at its declaration's abstraction prints as
/// `(Function)` without being copied, and a value nested deeper than the thread's stack
/// allows is dumped where `Mirror`'s recursion would crash.
///
/// ```swift
/// var text = ""
/// ValueDump.dump(order, to: &text)
/// ```
/// - Parameters:
///   - value: The value to dump.
///   - target: The stream to write to.
///   - name: A label for the value.
///   - indent: The number of spaces to indent every line with.
///   - maxDepth: The deepest level whose children are listed.
///   - maxItems: The most lines to write before eliding the rest.
/// - Returns: `value`, unchanged.
@discardableResult
public func dump<T, TargetStream: TextOutputStream>(
    _ value: T,
    to target: inout TargetStream,
    name: String? = nil,
    indent: Int = 0,
    maxDepth: Int = .max,
    maxItems: Int = .max
) -> T {
    var dumper = Dumper(maxItems: maxItems)
    dumper.dump(value, name: name, indent: indent, maxDepth: maxDepth, to: &target)
    return value
}

/// Dumps a value's contents to standard output, as the standard library's `dump(_:)` does.
///
/// As ``dump(_:to:name:indent:maxDepth:maxItems:)``, written to standard output.
/// - Parameters:
///   - value: The value to dump.
///   - name: A label for the value.
///   - indent: The number of spaces to indent every line with.
///   - maxDepth: The deepest level whose children are listed.
///   - maxItems: The most lines to write before eliding the rest.
/// - Returns: `value`, unchanged.
@discardableResult
public func dump<T>(
    _ value: T,
    name: String? = nil,
    indent: Int = 0,
    maxDepth: Int = .max,
    maxItems: Int = .max
) -> T {
    var text = ""
    dump(value, to: &text, name: name, indent: indent, maxDepth: maxDepth, maxItems: maxItems)
    print(text, terminator: "")
    return value
}

/// One dump: its item budget, the identities it has numbered, and its work stack.
private struct Dumper {
    /// A pending piece of output.
    enum Work {
        /// A value's line and, below it, its parts.
        case value(Any, name: String?, indent: Int, maxDepth: Int)
        /// The `super:` section of a class level: `level` indexes the node's class hierarchy.
        case superclass(ValueNode, level: Int, indent: Int, maxDepth: Int)
        /// The `super:` section of a custom mirror.
        case mirrorSuperclass(Mirror, indent: Int, maxDepth: Int)
        /// Children still to write, from `next` on.
        case children([Part], next: Int, indent: Int, maxDepth: Int)
    }

    var maxItemCounter: Int
    var visitedItems: [ObjectIdentifier: Int] = [:]
    var stack: [Work] = []
    let walker = ValueWalker(honorsCustomReflectable: true)

    init(maxItems: Int) {
        maxItemCounter = maxItems
    }

    mutating func dump<TargetStream: TextOutputStream>(
        _ value: Any,
        name: String?,
        indent: Int,
        maxDepth: Int,
        to target: inout TargetStream
    ) {
        stack.append(.value(value, name: name, indent: indent, maxDepth: maxDepth))
        while let work = stack.popLast() {
            switch work {
            case .value(let value, let name, let indent, let maxDepth):
                writeValue(value, name: name, indent: indent, maxDepth: maxDepth, to: &target)
            case .superclass(let node, let level, let indent, let maxDepth):
                writeSuperclass(of: node, level: level, indent: indent, maxDepth: maxDepth, to: &target)
            case .mirrorSuperclass(let mirror, let indent, let maxDepth):
                writeMirrorSuperclass(mirror, indent: indent, maxDepth: maxDepth, to: &target)
            case .children(let children, let next, let indent, let maxDepth):
                writeChild(of: children, at: next, indent: indent, maxDepth: maxDepth, to: &target)
            }
        }
    }

    /// One value's line; its parts are queued.
    private mutating func writeValue<TargetStream: TextOutputStream>(
        _ value: Any,
        name: String?,
        indent: Int,
        maxDepth: Int,
        to target: inout TargetStream
    ) {
        guard maxItemCounter > 0 else { return }
        maxItemCounter -= 1
        let node = walker.node(for: value)
        let children = ownChildren(of: node)
        writeIndent(indent, to: &target)
        target.write(children.count == 0 ? "-" : maxDepth <= 0 ? "▹" : "▿")
        target.write(" ")
        if let name {
            target.write(name)
            target.write(": ")
        }
        Summary.write(node, childCount: children.count, to: &target)
        if let identifier = node.objectIdentifier {
            target.write(" #")
            if let previous = visitedItems[identifier] {
                target.write(String(previous))
                target.write("\n")
                return
            }
            let number = visitedItems.count
            visitedItems[identifier] = number
            target.write(String(number))
        }
        target.write("\n")
        guard maxDepth > 0 else { return }
        // Work is popped last-in first-out: the children first, then the superclass above them.
        stack.append(.children(children, next: 0, indent: indent + 2, maxDepth: maxDepth - 1))
        if node.style == .custom, let superclass = node.customMirror?.superclassMirror {
            stack.append(.mirrorSuperclass(superclass, indent: indent + 2, maxDepth: maxDepth - 1))
        } else if node.style == .class, node.classHierarchy.count > 1 {
            stack.append(.superclass(node, level: 1, indent: indent + 2, maxDepth: maxDepth - 1))
        }
    }

    /// A class level's `super:` line; its parts and the level above it are queued.
    private mutating func writeSuperclass<TargetStream: TextOutputStream>(
        of node: ValueNode,
        level: Int,
        indent: Int,
        maxDepth: Int,
        to target: inout TargetStream
    ) {
        guard maxItemCounter > 0 else { return }
        maxItemCounter -= 1
        let hierarchy = node.classHierarchy
        let children = declaredChildren(of: node, by: hierarchy[level])
        writeIndent(indent, to: &target)
        target.write(children.count == 0 ? "-" : maxDepth <= 0 ? "▹" : "▿")
        target.write(" super: ")
        target.write(hierarchy[level].name)
        target.write("\n")
        guard maxDepth > 0 else { return }
        stack.append(.children(children, next: 0, indent: indent + 2, maxDepth: maxDepth - 1))
        if level + 1 < hierarchy.count {
            stack.append(.superclass(node, level: level + 1, indent: indent + 2, maxDepth: maxDepth - 1))
        }
    }

    /// A custom mirror's `super:` line; its parts and the level above it are queued.
    private mutating func writeMirrorSuperclass<TargetStream: TextOutputStream>(
        _ mirror: Mirror,
        indent: Int,
        maxDepth: Int,
        to target: inout TargetStream
    ) {
        guard maxItemCounter > 0 else { return }
        maxItemCounter -= 1
        let children = mirror.children.map { Part(label: $0.label, value: $0.value) }
        writeIndent(indent, to: &target)
        target.write(children.count == 0 ? "-" : maxDepth <= 0 ? "▹" : "▿")
        target.write(" super: ")
        target.write(TypeMetadata(mirror.subjectType).name)
        target.write("\n")
        guard maxDepth > 0 else { return }
        stack.append(.children(children, next: 0, indent: indent + 2, maxDepth: maxDepth - 1))
        if let superclass = mirror.superclassMirror {
            stack.append(.mirrorSuperclass(superclass, indent: indent + 2, maxDepth: maxDepth - 1))
        }
    }

    /// The next child, or the count of those the item budget leaves out.
    private mutating func writeChild<TargetStream: TextOutputStream>(
        of children: [Part],
        at index: Int,
        indent: Int,
        maxDepth: Int,
        to target: inout TargetStream
    ) {
        guard index < children.count else { return }
        if maxItemCounter <= 0 {
            // The standard library indents the elision two more spaces than the children.
            writeIndent(indent + 2, to: &target)
            let remainder = children.count - index
            target.write("(")
            target.write(String(remainder))
            if index > 0 { target.write(" more") }
            target.write(remainder == 1 ? " child)\n" : " children)\n")
            return
        }
        stack.append(.children(children, next: index + 1, indent: indent, maxDepth: maxDepth))
        let child = children[index]
        guard let value = child.value else {
            writeWithheldFunction(child, indent: indent, maxDepth: maxDepth, to: &target)
            return
        }
        stack.append(.value(value, name: child.label, indent: indent, maxDepth: maxDepth))
    }

    /// A function part that cannot be copied: `Mirror` would copy it and print `(Function)`,
    /// or `Optional((Function))` with a `some` line for an optional holding one.
    private mutating func writeWithheldFunction<TargetStream: TextOutputStream>(
        _ child: Part,
        indent: Int,
        maxDepth: Int,
        to target: inout TargetStream
    ) {
        guard maxItemCounter > 0 else { return }
        maxItemCounter -= 1
        let isOptional = child.declaredType?.kind == .optional
        writeIndent(indent, to: &target)
        target.write(isOptional ? (maxDepth <= 0 ? "▹ " : "▿ ") : "- ")
        if let label = child.label {
            target.write(label)
            target.write(": ")
        }
        target.write(isOptional ? "Optional((Function))\n" : "(Function)\n")
        guard isOptional, maxDepth > 0, maxItemCounter > 0 else { return }
        maxItemCounter -= 1
        writeIndent(indent + 2, to: &target)
        target.write("- some: (Function)\n")
    }

    /// The children the node's own line counts: a class instance's own class's properties,
    /// whose superclasses' properties go under their `super:` lines.
    private func ownChildren(of node: ValueNode) -> [Part] {
        guard node.style == .class, let own = node.classHierarchy.first else {
            var children: [Part] = []
            node.forEachChild { children.append(Part($0)) }
            return children
        }
        return declaredChildren(of: node, by: own)
    }

    private func declaredChildren(of node: ValueNode, by type: TypeMetadata) -> [Part] {
        var children: [Part] = []
        node.forEachChild { if $0.declaringType == type { children.append(Part($0)) } }
        return children
    }

    private func writeIndent<TargetStream: TextOutputStream>(_ count: Int, to target: inout TargetStream) {
        guard count > 0 else { return }
        target.write(count <= Self.spaces.count ? Self.spaces[count - 1] : String(repeating: " ", count: count))
    }

    /// Indentation strings, shared.
    private static let spaces: [String] = (1...64).map { String(repeating: " ", count: $0) }
}

/// One child to write: a walker's child or a custom mirror's.
private struct Part {
    let label: String?
    /// `nil` for a function the walker withholds.
    let value: Any?
    let declaredType: TypeMetadata?

    init(_ child: ValueChild) {
        (label, value, declaredType) = (child.label, child.value, child.declaredType)
    }

    init(label: String?, value: Any) {
        (self.label, self.value, self.declaredType) = (label, value, nil)
    }
}
