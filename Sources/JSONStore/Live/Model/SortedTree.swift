/// A persistent sorted map with positions: a treap whose nodes are never changed after
/// they are made, so a copy is O(1) and an edit copies only the path it touches.
///
/// This is what keeps live results cheap: every published snapshot shares all but
/// O(log n) nodes with the one before it, and a query finds an item's index by its rank.
///
/// - Complexity: Lookup, rank, element at an index, insertion and removal are O(log n)
///   expected; iteration is O(n).
struct SortedTree<Key: Comparable & Hashable & Sendable, Value: Sendable>: Sendable {
    final class Node: Sendable {
        let key: Key
        let value: Value
        // Priority and size share a word (a node is made for every element of every
        // version, so its size is the store's footprint): 32 bits of priority keep a
        // treap of millions balanced, and no store has 2^32 items.
        private let priorityAndCount: UInt64
        let left: Node?
        let right: Node?

        var priority: UInt32 { UInt32(truncatingIfNeeded: priorityAndCount >> 32) }
        var count: Int { Int(truncatingIfNeeded: priorityAndCount & 0xFFFF_FFFF) }

        init(key: Key, value: Value, priority: UInt32, left: Node?, right: Node?) {
            self.key = key
            self.value = value
            self.left = left
            self.right = right
            let count = 1 + (left?.count ?? 0) + (right?.count ?? 0)
            priorityAndCount = UInt64(priority) << 32 | UInt64(count)
        }

        func with(left: Node?, right: Node?) -> Node {
            Node(key: key, value: value, priority: priority, left: left, right: right)
        }
    }

    private(set) var root: Node?

    init() {}

    private init(root: Node?) {
        self.root = root
    }

    /// The number of elements.
    var count: Int { root?.count ?? 0 }

    var isEmpty: Bool { root == nil }

    /// The value for `key`. O(log n).
    subscript(key: Key) -> Value? {
        var node = root
        while let n = node {
            if key < n.key {
                node = n.left
            } else if n.key < key {
                node = n.right
            } else {
                return n.value
            }
        }
        return nil
    }

    /// The position `key` has, or would have if inserted. O(log n).
    func rank(of key: Key) -> Int {
        var node = root
        var rank = 0
        while let n = node {
            if key < n.key {
                node = n.left
            } else if n.key < key {
                rank += (n.left?.count ?? 0) + 1
                node = n.right
            } else {
                return rank + (n.left?.count ?? 0)
            }
        }
        return rank
    }

    /// The element at `index` in key order. O(log n).
    func element(at index: Int) -> (key: Key, value: Value) {
        precondition(index >= 0 && index < count, "index \(index) out of range 0..<\(count)")
        var node = root!
        var index = index
        while true {
            let leftCount = node.left?.count ?? 0
            if index < leftCount {
                node = node.left!
            } else if index == leftCount {
                return (node.key, node.value)
            } else {
                index -= leftCount + 1
                node = node.right!
            }
        }
    }

    /// Inserts or replaces the value for `key`; returns the old value. O(log n).
    @discardableResult
    mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        let (less, equal, greater) = Self.split(root, at: key)
        let node = Node(
            key: key, value: value, priority: Self.priority(of: key), left: nil, right: nil)
        root = Self.merge(Self.merge(less, node), greater)
        return equal?.value
    }

    /// Removes `key`; returns its value. O(log n).
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        guard self[key] != nil else { return nil }
        let (less, equal, greater) = Self.split(root, at: key)
        root = Self.merge(less, greater)
        return equal?.value
    }

    /// Splits into keys below, equal to, and above `key`.
    private static func split(_ node: Node?, at key: Key) -> (Node?, Node?, Node?) {
        guard let node else { return (nil, nil, nil) }
        if key < node.key {
            let (less, equal, greater) = split(node.left, at: key)
            return (less, equal, node.with(left: greater, right: node.right))
        } else if node.key < key {
            let (less, equal, greater) = split(node.right, at: key)
            return (node.with(left: node.left, right: less), equal, greater)
        } else {
            return (node.left, node, node.right)
        }
    }

    /// Joins two trees where every key of `a` is below every key of `b`.
    private static func merge(_ a: Node?, _ b: Node?) -> Node? {
        guard let a else { return b }
        guard let b else { return a }
        if a.priority > b.priority {
            return a.with(left: a.left, right: merge(a.right, b))
        } else {
            return b.with(left: merge(a, b.left), right: b.right)
        }
    }

    /// Builds a tree from elements whose keys are ascending and distinct.
    ///
    /// - Complexity: O(n): the treap of sorted keys is their Cartesian tree by priority,
    ///   built with one stack pass, then its nodes are made bottom-up.
    init(sortedDistinct elements: [(Key, Value)]) {
        self.init(
            sortedDistinctCount: elements.count, key: { elements[$0].0 }, value: { elements[$0].1 })
    }

    /// Builds a tree from `count` elements given by position, whose keys are ascending
    /// and distinct, with no array of the elements in between.
    init(sortedDistinctCount n: Int, key: (Int) -> Key, value: (Int) -> Value) {
        guard n > 0 else {
            self.init()
            return
        }
        let priorities = (0..<n).map { Self.priority(of: key($0)) }
        var left = [Int32](repeating: -1, count: n)
        var right = [Int32](repeating: -1, count: n)
        var stack: [Int] = []
        for i in 0..<n {
            var last = -1
            while let top = stack.last, priorities[top] < priorities[i] {
                last = stack.removeLast()
            }
            left[i] = Int32(last)
            if let top = stack.last { right[top] = Int32(i) }
            stack.append(i)
        }
        func build(_ i: Int32) -> Node? {
            guard i >= 0 else { return nil }
            let i = Int(i)
            return Node(
                key: key(i), value: value(i), priority: priorities[i],
                left: build(left[i]), right: build(right[i]))
        }
        self.init(root: build(Int32(stack[0])))
    }

    /// The tree of `transform`'s result for each element that has one, built on this
    /// tree's shape: no sort, no arrays, no rebuilt priorities.
    ///
    /// `transform` must keep the key order and the key's hash (so its priority): a treap is
    /// the one tree of its keys and priorities, so the shape carries over, and a dropped
    /// element is a treap removal (its children merged).
    ///
    /// - Complexity: O(n) for the walk, plus O(log n) expected for each dropped element.
    func compactMap<K: Comparable & Hashable & Sendable, V: Sendable>(
        _ transform: (Key, Value) throws -> (K, V)?
    ) rethrows -> SortedTree<K, V> {
        func map(_ node: Node?) throws -> SortedTree<K, V>.Node? {
            guard let node else { return nil }
            let left = try map(node.left)
            let mapped = try transform(node.key, node.value)
            let right = try map(node.right)
            guard let (key, value) = mapped else { return SortedTree<K, V>.merge(left, right) }
            assert(
                SortedTree<K, V>.priority(of: key) == node.priority,
                "compactMap changed a key's hash")
            return SortedTree<K, V>.Node(
                key: key, value: value, priority: node.priority, left: left, right: right)
        }
        return SortedTree<K, V>(root: try map(root))
    }

    private static func priority(of key: Key) -> UInt32 {
        var hasher = Hasher()
        hasher.combine(key)
        return UInt32(truncatingIfNeeded: hasher.finalize())
    }

    /// Calls `body` with every node, in no particular order (to count them).
    func forEachNode(_ body: (Node) -> Void) {
        var stack: [Node] = root.map { [$0] } ?? []
        while let node = stack.popLast() {
            body(node)
            if let left = node.left { stack.append(left) }
            if let right = node.right { stack.append(right) }
        }
    }

    /// Calls `body` with every element in key order.
    func forEach(_ body: (Key, Value) throws -> Void) rethrows {
        var stack: [Node] = []
        var node = root
        while node != nil || !stack.isEmpty {
            while let n = node {
                stack.append(n)
                node = n.left
            }
            let n = stack.removeLast()
            try body(n.key, n.value)
            node = n.right
        }
    }

    /// Walks the elements in key order, O(1) amortized a step.
    struct Iterator: IteratorProtocol {
        private var stack: [Node] = []

        init(_ root: Node?) {
            descend(root)
        }

        private mutating func descend(_ node: Node?) {
            var node = node
            while let n = node {
                stack.append(n)
                node = n.left
            }
        }

        mutating func next() -> (key: Key, value: Value)? {
            guard let node = stack.popLast() else { return nil }
            descend(node.right)
            return (node.key, node.value)
        }
    }

    func makeIterator() -> Iterator { Iterator(root) }

    /// Checks the ordering, heap and count invariants. Debug builds and tests only.
    func _checkInvariants() {
        func check(_ node: Node?, lower: Key?, upper: Key?) -> Int {
            guard let node else { return 0 }
            if let lower { precondition(lower < node.key, "order violated") }
            if let upper { precondition(node.key < upper, "order violated") }
            if let l = node.left { precondition(l.priority <= node.priority, "heap violated") }
            if let r = node.right { precondition(r.priority <= node.priority, "heap violated") }
            let count =
                1 + check(node.left, lower: lower, upper: node.key)
                + check(node.right, lower: node.key, upper: upper)
            precondition(count == node.count, "count violated")
            return count
        }
        _ = check(root, lower: nil, upper: nil)
    }
}
