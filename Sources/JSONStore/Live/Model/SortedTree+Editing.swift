extension SortedTree {
    /// Inserts or replaces the value for `key`; returns the old value. O(log n).
    @discardableResult
    mutating func updateValue(_ value: Value, forKey key: Key) -> Value? {
        guard let root else {
            self = SortedTree(root: Node(elements: [(key, value)]))
            return nil
        }
        var old: Value?
        let nodes = Self.setting(value, for: key, in: root, old: &old)
        self = SortedTree(root: nodes.count == 1 ? nodes[0] : Node(children: nodes))
        return old
    }

    /// Removes `key`; returns its value. O(log n).
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let root, let (node, old) = Self.removing(key, from: root) else { return nil }
        var top = node
        while let inner = top, !inner.isLeaf, inner.children.count == 1 { top = inner.children[0] }
        self = SortedTree(root: top)
        return old
    }

    /// `node` with `value` set for `key`: one node, or two when it grew too wide.
    private static func setting(
        _ value: Value, for key: Key, in node: Node, old: inout Value?
    ) -> [Node] {
        if node.isLeaf {
            let i = node.elementIndex(for: key)
            let found = i < node.elements.count && node.elements[i].key == key
            if found { old = node.elements[i].value }
            let replaced = found ? i..<i + 1 : i..<i
            return leaves(node.elements.replacing(replaced, with: [(key, value)]))
        }
        let i = min(node.childIndex(for: key), node.children.count - 1)
        let children = setting(value, for: key, in: node.children[i], old: &old)
        return inner(node.children.replacing(i..<i + 1, with: children))
    }

    /// `node` without `key` (`nil` for none left) and the value it had, or `nil` when
    /// `key` is not under it.
    private static func removing(_ key: Key, from node: Node) -> (Node?, Value)? {
        if node.isLeaf {
            let i = node.elementIndex(for: key)
            guard i < node.elements.count, node.elements[i].key == key else { return nil }
            let old = node.elements[i].value
            guard node.elements.count > 1 else { return (nil, old) }
            return (Node(elements: node.elements.replacing(i..<i + 1, with: [])), old)
        }
        let i = node.childIndex(for: key)
        guard i < node.children.count, let (child, old) = removing(key, from: node.children[i])
        else { return nil }
        guard let child else {
            guard node.children.count > 1 else { return (nil, old) }
            return (Node(children: node.children.replacing(i..<i + 1, with: [])), old)
        }
        let capacity = child.isLeaf ? leafCapacity : innerCapacity
        guard child.width < capacity / 4, node.children.count > 1 else {
            return (Node(children: node.children.replacing(i..<i + 1, with: [child])), old)
        }
        // Too narrow: joined with a neighbour, split again evenly if that is too wide.
        let start = i > 0 ? i - 1 : i
        let pair =
            i > 0 ? joined(node.children[i - 1], child) : joined(child, node.children[i + 1])
        return (Node(children: node.children.replacing(start..<start + 2, with: pair)), old)
    }

    /// The nodes holding what `a` and then `b` hold (neighbours at one depth).
    private static func joined(_ a: Node, _ b: Node) -> [Node] {
        a.isLeaf ? leaves(a.elements + b.elements) : inner(a.children + b.children)
    }

    /// One leaf of `elements`, or two of half each when they are too many for one.
    private static func leaves(_ elements: [Element]) -> [Node] {
        guard elements.count > leafCapacity else { return [Node(elements: elements)] }
        let half = elements.count / 2
        return [Node(elements: Array(elements[..<half])), Node(elements: Array(elements[half...]))]
    }

    /// One inner node of `children`, or two of half each when they are too many for one.
    private static func inner(_ children: [Node]) -> [Node] {
        guard children.count > innerCapacity else { return [Node(children: children)] }
        let half = children.count / 2
        return [Node(children: Array(children[..<half])), Node(children: Array(children[half...]))]
    }

    /// Checks the order, count, bound and depth invariants. Debug builds and tests only.
    func _checkInvariants() {
        func check(_ node: Node, lower: Key?) -> (count: Int, depth: Int) {
            precondition(node.width > 0, "empty node")
            if node.isLeaf {
                var previous = lower
                for element in node.elements {
                    if let previous { precondition(previous < element.key, "order violated") }
                    previous = element.key
                }
                precondition(node.elements.count <= Self.leafCapacity, "leaf too wide")
                return (node.elements.count, 0)
            }
            precondition(node.children.count <= Self.innerCapacity, "inner node too wide")
            var (total, depth, previous) = (0, -1, lower)
            for (i, child) in node.children.enumerated() {
                let (count, childDepth) = check(child, lower: previous)
                precondition(depth == -1 || depth == childDepth, "leaves at different depths")
                precondition(node.lastKeys[i] == child.lastKey, "bound violated")
                total += count
                precondition(node.ends[i] == total, "count violated")
                (depth, previous) = (childDepth, child.lastKey)
            }
            return (total, depth + 1)
        }
        if let root { _ = check(root, lower: nil) }
    }
}

extension Array {
    /// A copy with `range` replaced by `elements`, of exactly the capacity it needs (a
    /// copy-on-write insertion would double it, in every node an edit copies).
    fileprivate func replacing(_ range: Range<Int>, with elements: [Element]) -> [Element] {
        var copy: [Element] = []
        copy.reserveCapacity(count - range.count + elements.count)
        copy.append(contentsOf: self[..<range.lowerBound])
        copy.append(contentsOf: elements)
        copy.append(contentsOf: self[range.upperBound...])
        return copy
    }
}
