/// The groups of grouped results, in section order, each with its summary: a persistent
/// tree, so every version of the results shares all but the groups a change touched.
struct GroupIndex: Sendable {
    private(set) var tree = SortedTree<GroupKey, GroupSummary>()
    let descending: Bool
    /// How many members each group aggregates.
    let aggregated: Int

    init(descending: Bool, aggregated: Int) {
        self.descending = descending
        self.aggregated = aggregated
    }

    /// The groups of results whose keys, in order, are `keys`.
    ///
    /// - Complexity: O(n log n) for the aggregates, O(n) without.
    init<S: Sequence<SortKey>>(keys: S, descending: Bool, aggregated: Int) {
        self.init(descending: descending, aggregated: aggregated)
        var groups: [(GroupKey, GroupSummary)] = []
        for key in keys {
            let group = GroupKey(key.group!.group, descending: descending)
            if groups.last?.0 != group {
                groups.append((group, GroupSummary(aggregating: aggregated)))
            }
            groups[groups.count - 1].1.add(key.group!, id: key.id)
        }
        tree = SortedTree(sortedDistinct: groups)
    }

    /// The number of groups.
    var count: Int { tree.count }

    /// The group at `index` in section order: its value and summary. O(log g).
    func group(at index: Int) -> (value: JSONValue?, summary: GroupSummary) {
        let (key, summary) = tree.element(at: index)
        return (key.value, summary)
    }

    /// The section index of the group `value`, if there is one. O(log g).
    func index(of value: JSONValue?) -> Int? {
        let key = GroupKey(value, descending: descending)
        return tree[key] == nil ? nil : tree.rank(of: key)
    }

    /// The summary of the group `value`, if there is one.
    func summary(of value: JSONValue?) -> GroupSummary? {
        tree[GroupKey(value, descending: descending)]
    }

    /// Counts in the element of `key`.
    mutating func add(_ key: SortKey) {
        let group = GroupKey(key.group!.group, descending: descending)
        var summary = tree[group] ?? GroupSummary(aggregating: aggregated)
        summary.add(key.group!, id: key.id)
        tree.updateValue(summary, forKey: group)
    }

    /// Takes out the element of `key`; a group left empty goes.
    mutating func remove(_ key: SortKey) {
        let group = GroupKey(key.group!.group, descending: descending)
        guard var summary = tree[group] else { return }
        summary.remove(key.group!, id: key.id)
        if summary.count == 0 {
            tree.removeValue(forKey: group)
        } else {
            tree.updateValue(summary, forKey: group)
        }
    }
}

/// A group's value as the groups are ordered: by `JSONOrdering`, equal values one group.
struct GroupKey: Comparable, Hashable, Sendable {
    let value: JSONValue?
    let descending: Bool

    init(_ value: JSONValue?, descending: Bool) {
        self.value = value
        self.descending = descending
    }

    static func < (a: GroupKey, b: GroupKey) -> Bool {
        JSONOrdering.compare(a.value, b.value) == (a.descending ? .greater : .less)
    }

    static func == (a: GroupKey, b: GroupKey) -> Bool {
        JSONOrdering.compare(a.value, b.value) == .equal
    }

    /// Equal values hash alike: `2` and `2.0` are one group.
    func hash(into hasher: inout Hasher) {
        switch value {
        case nil: hasher.combine(0)
        case .null?: hasher.combine(1)
        case .bool(let b)?: hasher.combine(b)
        case .number(let n)?: hasher.combine(n.doubleValue)
        case .string(let s)?: hasher.combine(UTF8Key(s))
        case .array?: hasher.combine(5)
        case .object(let o)?: hasher.combine(o.description)
        }
    }
}
