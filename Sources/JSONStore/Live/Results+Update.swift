/// One id's entry before and after a batch.
struct EntryChange: Sendable {
    let id: String
    let old: Entry?
    let new: Entry?
}

extension Results {
    /// The results of `query` over `snapshot`, built from scratch.
    ///
    /// - Complexity: O(n log n) to sort; O(n) when sorted by id.
    static func initial(_ query: Query, _ snapshot: StoreSnapshot) -> Results {
        var elements: [(SortKey, Item)] = []
        elements.reserveCapacity(snapshot.entries.count)
        snapshot.entries.forEach { _, entry in
            if let item = entry.item, query.includes(item) {
                elements.append((query.sortKey(item), item))
            }
        }
        if query.order != .id { elements.sort { $0.0 < $1.0 } }
        return Results(tree: SortedTree(sortedDistinct: elements), snapshot: snapshot, query: query)
    }

    /// The results after `changes`, and the change set that leads there.
    ///
    /// Only the changed ids are looked at: each costs a few O(log n) rank lookups and
    /// tree edits, so an edit costs the same in a store of 100 items as in one of 100,000.
    ///
    /// - Complexity: O(k log n) for k changed ids.
    func applying(
        _ changes: [EntryChange], snapshot newSnapshot: StoreSnapshot, invalid: [InvalidFile],
        resolved: [String]
    ) -> (Results, ChangeSet) {
        var tree = self.tree
        var deleted: [(index: Int, item: Item)] = []
        var modified: [(index: Int, old: Item, new: Item, key: SortKey)] = []
        var added: [(key: SortKey, item: Item)] = []
        var moved: [(from: Int, key: SortKey)] = []

        for change in changes {
            let oldItem = change.old?.item
            let oldKey = oldItem.map(query.sortKey)
            let wasIn = oldKey.map { self.tree[$0] != nil } ?? false
            let newItem = change.new?.item.flatMap { query.includes($0) ? $0 : nil }
            let newKey = newItem.map(query.sortKey)
            switch (wasIn, newItem) {
            case (true, nil):
                deleted.append((self.tree.rank(of: oldKey!), oldItem!))
                tree.removeValue(forKey: oldKey!)
            case (false, let item?):
                added.append((newKey!, item))
            case (true, let item?):
                let from = self.tree.rank(of: oldKey!)
                if oldKey == newKey {
                    // Same place: a modification if anything an observer sees changed.
                    guard let old = change.old, let new = change.new, !old.sameAs(new) else { continue }
                    modified.append((from, oldItem!, item, newKey!))
                    tree.updateValue(item, forKey: newKey!)
                } else {
                    // The sort value changed: a deletion plus an insertion, and a move.
                    deleted.append((from, oldItem!))
                    tree.removeValue(forKey: oldKey!)
                    added.append((newKey!, item))
                    moved.append((from, newKey!))
                }
            case (false, nil):
                continue
            }
        }
        for (key, item) in added { tree.updateValue(item, forKey: key) }

        deleted.sort { $0.index < $1.index }
        modified.sort { $0.index < $1.index }
        let insertions = added.map { (index: tree.rank(of: $0.key), item: $0.item) }
            .sorted { $0.index < $1.index }
        let moves = moved.map { ChangeSet.Move(from: $0.from, to: tree.rank(of: $0.key)) }
            .sorted { $0.from < $1.from }
        let changeSet = ChangeSet(
            version: newSnapshot.version,
            deletions: deleted.map(\.index),
            insertions: insertions.map(\.index),
            modifications: modified.map(\.index),
            modificationsNew: modified.map { tree.rank(of: $0.key) },
            moves: moves,
            inserted: insertions.map(\.item),
            modified: modified.map { ChangeSet.Modification(old: $0.old, new: $0.new) },
            deleted: deleted.map(\.item),
            invalid: invalid,
            resolved: resolved)
        return (Results(tree: tree, snapshot: newSnapshot, query: query), changeSet)
    }
}
