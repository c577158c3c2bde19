// RuntimeMirror+Children.swift
//
// The children of a RuntimeMirror: a random-access collection of `Mirror.Child`, each read
// from the walker's node when it is accessed. Its members are inlinable, so that a loop over
// a mirror's children in a client is one call of the node's `child(at:)` per child.

extension RuntimeMirror {
    /// A mirror's children, in order, each computed when it is read.
    public struct Children: RandomAccessCollection {
        /// The node whose children these are, or `nil` for children given as an array.
        @usableFromInline
        let box: NodeBox?
        /// The position of the first child in the node's children.
        @usableFromInline
        let base: Int
        /// The number of children.
        @usableFromInline
        let childCount: Int
        /// Children given, or read from a standard mirror.
        @usableFromInline
        let array: [Mirror.Child]

        /// A range of a walker node's children.
        init(box: NodeBox, range: Range<Int>) {
            self.box = box
            base = range.lowerBound
            childCount = range.count
            array = []
        }

        /// Children given, or read from a standard mirror.
        init(array: [Mirror.Child]) {
            box = nil
            base = 0
            childCount = array.count
            self.array = array
        }

        /// Children from a collection of them, as `Mirror.Children` is made from one.
        ///
        /// The children are copied once, into an array that every later read indexes directly:
        /// no type-erased wrapper stands between a read and its child. `Mirror.Children` is
        /// `AnyCollection<Mirror.Child>`, indexed by `AnyIndex`; these children are indexed by
        /// `Int`, from 0 (the DocC article "Switching from Mirror").
        ///
        /// ```swift
        /// let sorted = RuntimeMirror.Children(mirror.children.sorted { ($0.label ?? "") < ($1.label ?? "") })
        /// ```
        /// - Parameter children: The children, in order.
        public init<C: Collection>(_ children: C) where C.Element == Mirror.Child {
            self.init(array: Array(children))
        }

        /// The position of the first child.
        @inlinable
        public var startIndex: Int { 0 }

        /// The position after the last child.
        @inlinable
        public var endIndex: Int { childCount }

        /// The child at a position.
        /// - Parameter position: A position below ``endIndex``.
        @inlinable
        public subscript(position: Int) -> Mirror.Child {
            precondition(position >= 0 && position < childCount, "RuntimeMirror.Children: index out of range")
            guard let box else { return array[position] }
            if let child = box.mirrorChild(at: base &+ position) { return child }
            guard let child = box.node.child(at: base &+ position) else { return (label: nil, value: ()) }
            if let value = child.value { return (label: child.label, value: value) }
            return Self.unavailable(child)
        }

        /// Iterates over the children in order, each read when it is reached.
        ///
        /// The collection's own iterator rather than `IndexingIterator`: code generic over a
        /// mirror that the compiler does not specialize (a framework's reflection code, called
        /// from another module) calls `next()` once per child, where `IndexingIterator` calls
        /// the collection's index, comparison and subscript requirements through the witness
        /// table for each.
        public struct Iterator: IteratorProtocol {
            @usableFromInline
            let children: Children
            @usableFromInline
            var position = 0

            @usableFromInline
            init(children: Children) {
                self.children = children
            }

            /// The next child, or `nil` after the last.
            @inlinable
            public mutating func next() -> Mirror.Child? {
                guard position < children.childCount else { return nil }
                defer { position &+= 1 }
                return children[position]
            }
        }

        /// An iterator over the children, from the first.
        @inlinable
        public func makeIterator() -> Iterator {
            Iterator(children: self)
        }

        /// A child without a value: a noncopyable part, which has no copy, or, where no stand-in
        /// can be made for a function stored at its declaration's abstraction (signed function
        /// pointers), that function, withheld (the DocC article "Switching from Mirror").
        @usableFromInline
        static func unavailable(_ child: ValueChild) -> Mirror.Child {
            // The walker's own test of a withheld function (FunctionAbstraction.swift): an
            // optional of a noncopyable type is not one.
            let isFunction = child.declaredType?.containsStructuralFunction ?? false
            return (label: child.label, value: isFunction ? WithheldFunction() as Any : ())
        }
    }
}
