/// A persistent sorted map with positions: a B+ tree whose nodes are never changed after
/// they are made, so a copy is O(1) and an edit copies only the nodes on its path.
///
/// This is what keeps live results cheap: every published snapshot shares all but
/// O(log n) nodes with the one before it, and a query finds an item's index by its rank.
/// The elements sit side by side in the leaves, up to `leafCapacity` in one array, so a
/// store of a million items costs an element's own size and a byte or two more for each
/// (a node of its own for each element, as a binary tree has, cost 48 more: issue 28).
///
/// - Complexity: Lookup, rank, element at an index, insertion and removal are O(log n);
///   an edit copies O(log n) nodes of up to `leafCapacity` elements; iteration is O(n).
struct SortedTree<Key: Comparable & Hashable & Sendable, Value: Sendable>: Sendable {
    typealias Element = (key: Key, value: Value)

    /// A leaf (elements, no children) or an inner node (children, no elements). Every
    /// leaf is at the same depth, and no node is empty.
    final class Node: Sendable {
        /// A leaf's elements in key order; empty in an inner node.
        let elements: [Element]
        /// An inner node's children in key order; empty in a leaf.
        let children: [Node]
        /// An inner node's bounds: the greatest key under each child.
        let lastKeys: [Key]
        /// An inner node's running counts: the elements under children 0 through i.
        let ends: [Int]

        init(elements: [Element]) {
            assert(!elements.isEmpty, "a leaf holds an element")
            self.elements = elements
            (children, lastKeys, ends) = ([], [], [])
        }

        init(children: [Node]) {
            assert(!children.isEmpty, "an inner node holds a child")
            self.children = children
            elements = []
            var lastKeys: [Key] = []
            var ends: [Int] = []
            lastKeys.reserveCapacity(children.count)
            ends.reserveCapacity(children.count)
            var total = 0
            for child in children {
                lastKeys.append(child.lastKey)
                total += child.count
                ends.append(total)
            }
            (self.lastKeys, self.ends) = (lastKeys, ends)
        }

        var isLeaf: Bool { children.isEmpty }

        /// The number of elements under this node.
        var count: Int { isLeaf ? elements.count : ends[ends.count - 1] }

        /// The greatest key under this node.
        var lastKey: Key {
            isLeaf ? elements[elements.count - 1].key : lastKeys[lastKeys.count - 1]
        }

        /// The elements (in a leaf) or children (in an inner node) it holds.
        var width: Int { isLeaf ? elements.count : children.count }

        /// The child whose keys take `key`: the first whose greatest key is not below it
        /// (`children.count` when `key` is above them all).
        func childIndex(for key: Key) -> Int {
            Bisection.first(of: lastKeys.count) { !(lastKeys[$0] < key) }
        }

        /// The position in a leaf of the first key not below `key`.
        func elementIndex(for key: Key) -> Int {
            Bisection.first(of: elements.count) { !(elements[$0].key < key) }
        }

        /// The child holding the element at `index` under this inner node.
        func childIndex(holding index: Int) -> Int {
            Bisection.first(of: ends.count) { ends[$0] > index }
        }

        /// The elements under the children before `index`.
        func elementsBefore(child index: Int) -> Int { index == 0 ? 0 : ends[index - 1] }
    }

    /// The most elements a leaf holds, and children an inner node has: an edit copies a
    /// leaf, so a wider one would make edits dearer for little memory.
    static var leafCapacity: Int { 64 }
    static var innerCapacity: Int { 32 }

    private(set) var root: Node?

    init() {}

    init(root: Node?) {
        self.root = root
    }

    /// The number of elements.
    var count: Int { root?.count ?? 0 }

    var isEmpty: Bool { root == nil }

    /// The value for `key`. O(log n).
    subscript(key: Key) -> Value? {
        guard var node = root else { return nil }
        while !node.isLeaf {
            let i = node.childIndex(for: key)
            guard i < node.children.count else { return nil }
            node = node.children[i]
        }
        let i = node.elementIndex(for: key)
        guard i < node.elements.count, node.elements[i].key == key else { return nil }
        return node.elements[i].value
    }

    /// The position `key` has, or would have if inserted. O(log n).
    func rank(of key: Key) -> Int {
        guard var node = root else { return 0 }
        var rank = 0
        while !node.isLeaf {
            let i = node.childIndex(for: key)
            guard i < node.children.count else { return rank + node.count }
            rank += node.elementsBefore(child: i)
            node = node.children[i]
        }
        return rank + node.elementIndex(for: key)
    }

    /// The position of `key` and its value, when it is there: one descent where `rank(of:)`
    /// and the subscript take one each. O(log n).
    func find(_ key: Key) -> (rank: Int, value: Value)? {
        guard var node = root else { return nil }
        var rank = 0
        while !node.isLeaf {
            let i = node.childIndex(for: key)
            guard i < node.children.count else { return nil }
            rank += node.elementsBefore(child: i)
            node = node.children[i]
        }
        let i = node.elementIndex(for: key)
        guard i < node.elements.count, node.elements[i].key == key else { return nil }
        return (rank + i, node.elements[i].value)
    }

    /// Whether `other` is this very tree (the same nodes), not one equal to it.
    func isSame(as other: SortedTree) -> Bool { root === other.root }

    /// The element at `index` in key order. O(log n).
    func element(at index: Int) -> Element {
        precondition(index >= 0 && index < count, "index \(index) out of range 0..<\(count)")
        var node = root!
        var index = index
        while !node.isLeaf {
            let i = node.childIndex(holding: index)
            index -= node.elementsBefore(child: i)
            node = node.children[i]
        }
        return node.elements[index]
    }

    /// Calls `body` with every node, in no particular order (to count them).
    func forEachNode(_ body: (Node) -> Void) {
        var stack: [Node] = root.map { [$0] } ?? []
        while let node = stack.popLast() {
            body(node)
            stack.append(contentsOf: node.children)
        }
    }

    /// Calls `body` with every element in key order.
    func forEach(_ body: (Key, Value) throws -> Void) rethrows {
        func walk(_ node: Node) throws {
            if node.isLeaf {
                for element in node.elements { try body(element.key, element.value) }
            } else {
                for child in node.children { try walk(child) }
            }
        }
        if let root { try walk(root) }
    }

    /// Calls `body` with the elements in key order from position `start` on, until it
    /// returns `false`: one descent to `start`, then a walk, where `element(at:)` would
    /// descend for each.
    func forEach(from start: Int, while body: (Key, Value) -> Bool) {
        // Each element borrowed where it is, not copied out and destroyed again.
        forEachInPlace(from: start) { body($0.pointee.key, $0.pointee.value) }
    }

    /// `forEach(from:while:)` handing each element where it is, valid during the call: a
    /// walk that reads a part of each takes no copy of the whole across its own calls (a
    /// count on everything the element holds, taken and given back).
    func forEachInPlace(from start: Int, while body: (UnsafePointer<Element>) -> Bool) {
        /// Whether the walk goes on after `node`, whose first element is at `offset`.
        func walk(_ node: Node, _ offset: Int) -> Bool {
            if node.isLeaf {
                return node.elements.withUnsafeBufferPointer { elements in
                    for k in max(0, start - offset)..<elements.count {
                        guard body(elements.baseAddress! + k) else { return false }
                    }
                    return true
                }
            }
            var first = offset
            for (i, child) in node.children.enumerated() {
                let end = offset + node.ends[i]
                if end > start, !walk(child, first) { return false }
                first = end
            }
            return true
        }
        if let root, start < count { _ = walk(root, 0) }
    }

    /// Walks the elements in key order, O(1) amortized a step.
    struct Iterator: IteratorProtocol {
        /// The nodes from the root down to the current leaf, each with its next position.
        private var path: [(node: Node, next: Int)] = []

        init(_ root: Node?) {
            if let root { descend(from: root) }
        }

        private mutating func descend(from node: Node) {
            var node = node
            path.append((node, 0))
            while !node.isLeaf {
                path[path.count - 1].next = 1
                node = node.children[0]
                path.append((node, 0))
            }
        }

        mutating func next() -> Element? {
            while let (node, next) = path.last {
                if node.isLeaf, next < node.elements.count {
                    path[path.count - 1].next = next + 1
                    return node.elements[next]
                }
                if !node.isLeaf, next < node.children.count {
                    path[path.count - 1].next = next + 1
                    descend(from: node.children[next])
                    continue
                }
                path.removeLast()
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(root) }
}
