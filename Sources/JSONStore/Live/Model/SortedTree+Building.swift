extension SortedTree {
    /// Builds a tree from elements whose keys are ascending and distinct. O(n).
    init(sortedDistinct elements: [(Key, Value)]) {
        self.init(
            sortedDistinctCount: elements.count, key: { elements[$0].0 }, value: { elements[$0].1 })
    }

    /// Builds a tree from `count` elements given by position, whose keys are ascending
    /// and distinct, with no array of the elements in between. O(n).
    init(sortedDistinctCount n: Int, key: (Int) -> Key, value: (Int) -> Value) {
        var builder = Builder()
        for i in 0..<n { builder.append(key(i), value(i)) }
        self = builder.finish()
    }

    /// The tree of `transform`'s result for each element that has one, which must keep
    /// the keys' order. O(n), with no array of the elements in between.
    func compactMap<K: Comparable & Hashable & Sendable, V: Sendable>(
        _ transform: (Key, Value) throws -> (K, V)?
    ) rethrows -> SortedTree<K, V> {
        var builder = SortedTree<K, V>.Builder()
        try forEach { key, value in
            if let (key, value) = try transform(key, value) { builder.append(key, value) }
        }
        return builder.finish()
    }

    /// Makes a tree from elements handed in key order: each leaf filled before the next
    /// is begun, and each inner node made as soon as it has all its children, so nothing
    /// but the open leaf and one open node a level is held beside the tree.
    struct Builder {
        private var leaf: [Element] = []
        /// The finished nodes of each height not yet given a parent.
        private var open: [[Node]] = []

        init() {
            leaf.reserveCapacity(SortedTree.leafCapacity)
        }

        /// Adds an element whose key is above every key added before.
        mutating func append(_ key: consuming Key, _ value: consuming Value) {
            assert(leaf.last.map { $0.key < key } ?? true, "keys handed out of order")
            leaf.append((key, value))
            guard leaf.count == SortedTree.leafCapacity else { return }
            close(Node(elements: leaf), height: 0)
            leaf = []
            leaf.reserveCapacity(SortedTree.leafCapacity)
        }

        private mutating func close(_ node: Node, height: Int) {
            if open.count == height { open.append([]) }
            open[height].append(node)
            guard open[height].count == SortedTree.innerCapacity else { return }
            let parent = Node(children: open[height])
            open[height] = []
            close(parent, height: height + 1)
        }

        /// The tree of every element added. The last node of each height may be narrower
        /// than the others; nothing else is.
        consuming func finish() -> SortedTree {
            if !leaf.isEmpty { close(Node(elements: Array(leaf)), height: 0) }
            var carried: Node?
            for height in open.indices {
                var nodes = open[height]
                if let carried { nodes.append(carried) }
                carried = nil
                if nodes.count == 1, height == open.count - 1 { return SortedTree(root: nodes[0]) }
                if !nodes.isEmpty { carried = Node(children: nodes) }
            }
            return SortedTree(root: carried)
        }
    }
}
