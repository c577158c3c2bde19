// RuntimeMirror+Children.swift
//
// The children of a RuntimeMirror: a random-access collection of `Mirror.Child`, each read
// from the walker's node when it is accessed.

extension RuntimeMirror {
    /// A mirror's children, in order, each computed when it is read.
    public struct Children: RandomAccessCollection {
        /// Where the children come from.
        enum Storage {
            /// A range of a walker node's children.
            case node(ValueNode, Range<Int>)
            /// Children given, or read from a standard mirror.
            case array([Mirror.Child])
        }

        let storage: Storage

        /// The position of the first child.
        public var startIndex: Int { 0 }

        /// The position after the last child.
        public var endIndex: Int {
            switch storage {
            case .node(_, let range): range.count
            case .array(let children): children.count
            }
        }

        /// The child at a position.
        /// - Parameter position: A position below ``endIndex``.
        public subscript(position: Int) -> Mirror.Child {
            precondition(position >= 0 && position < endIndex, "RuntimeMirror.Children: index out of range")
            switch storage {
            case .node(let node, let range):
                let index = range.lowerBound + position
                guard let child = node.child(at: index) else { return (label: nil, value: ()) }
                if let value = child.value { return (label: child.label, value: value) }
                // A function stored at its declaration's abstraction is withheld (the DocC
                // article "Switching from Mirror"); a noncopyable part has no copy.
                let isFunction = child.declaredType.map { $0.kind == .function || $0.kind == .optional } ?? false
                return (label: child.label, value: isFunction ? WithheldFunction() as Any : ())
            case .array(let children):
                return children[position]
            }
        }
    }
}
