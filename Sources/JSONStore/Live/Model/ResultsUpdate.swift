/// The work of one `Results.applying`: the new trees, and what happened to whom.
struct ResultsUpdate<Element: Sendable> {
    typealias Changed = (
        from: Int, old: Element, new: Element, oldKey: SortKey, key: SortKey,
        changes: [MemberChange]
    )

    var tree: ResultsTree<Element>
    var failures: SortedTree<UTF8Key, DecodeFailure>
    var keys: SortedTree<UTF8Key, SortKey>
    /// The groups of grouped results, and the groups this update touched.
    var groups: GroupIndex?
    var touched: Set<GroupKey> = []
    var deleted: [(index: Int, element: Element, key: SortKey)] = []
    /// Changed in place (`from` is the index before, `key` the same place as `oldKey`).
    var modified: [Changed] = []
    var added: [(key: SortKey, element: Element)] = []
    /// Changed and moved, because the sort value (or the group) changed.
    var moved: [Changed] = []

    init(_ results: Results<Element>) {
        tree = results.tree
        failures = results.failures
        keys = results.keys
        groups = results.groups
    }

    /// Moves the element of `oldKey` (if it was in the results) to `newKey` (if it is
    /// now) in the groups' counts and aggregates.
    mutating func regroup(from oldKey: SortKey?, to newKey: SortKey?) {
        guard groups != nil else { return }
        if let oldKey {
            groups!.remove(oldKey)
            touched.insert(GroupKey(oldKey.group!.group, descending: groups!.descending))
        }
        if let newKey {
            groups!.add(newKey)
            touched.insert(GroupKey(newKey.group!.group, descending: groups!.descending))
        }
    }

    /// The change set from `before`, once `tree` is the new tree.
    func changeSet(
        from before: Results<Element>, version: Int, invalid: [InvalidFile], resolved: [String]
    ) -> ChangeSet<Element> {
        let deleted = deleted.sorted { $0.index < $1.index }
        let modified = modified.map { ($0, to: tree.rank(of: $0.key)) }.sorted {
            $0.0.from < $1.0.from
        }
        let inserted = added.map { (index: tree.rank(of: $0.key), element: $0.element, $0.key) }
            .sorted { $0.index < $1.index }
        let moved = moved.map { ($0, to: tree.rank(of: $0.key)) }.sorted { $0.0.from < $1.0.from }
        let sections = sectionChanges(
            from: before,
            deleted: deleted.map { ($0.index, $0.key) } + moved.map { ($0.0.from, $0.0.oldKey) },
            inserted: inserted.map { ($0.index, $0.2) } + moved.map { ($0.to, $0.0.key) },
            modified: modified.map { ($0.0.from, $0.to, $0.0.key) })
        func modification(_ changed: Changed) -> ChangeSet<Element>.Modification {
            ChangeSet.Modification(old: changed.old, new: changed.new, changes: changed.changes)
        }
        return ChangeSet(
            version: version,
            deletions: (deleted.map(\.index) + moved.map(\.0.from)).sorted(),
            insertions: (inserted.map(\.index) + moved.map(\.to)).sorted(),
            modifications: modified.map(\.0.from),
            modificationsNew: modified.map(\.to),
            moves: moved.map { ChangeSet.Move(from: $0.0.from, to: $0.to) },
            inserted: inserted.map(\.element),
            modified: modified.map { modification($0.0) } + moved.map { modification($0.0) },
            deleted: deleted.map(\.element),
            invalid: invalid,
            resolved: resolved,
            sections: sections)
    }

    /// The rows and sections of grouped results that changed, from their flat indices
    /// and keys: a section's index is its group's rank, a row's the rank of its key less
    /// that of its group's start.
    private func sectionChanges(
        from before: Results<Element>, deleted: [(Int, SortKey)], inserted: [(Int, SortKey)],
        modified: [(Int, Int, SortKey)]
    ) -> SectionChanges {
        guard let groups, let old = before.groups else { return .none }
        var (removed, added, recounted) = (Set<Int>(), Set<Int>(), [Int]())
        for group in touched {
            switch (old.summary(of: group.value), groups.summary(of: group.value)) {
            case (nil, _?): added.insert(groups.index(of: group.value)!)
            case (_?, nil): removed.insert(old.index(of: group.value)!)
            case (let a?, let b?) where !a.sameFigures(as: b):
                recounted.append(groups.index(of: group.value)!)
            default: break
            }
        }
        func path(_ index: Int, _ key: SortKey, _ tree: ResultsTree<Element>, _ groups: GroupIndex)
            -> RowPath
        {
            let place = key.group!
            let start = SortKey.start(ofGroup: place.group, descending: place.descending)
            return RowPath(
                section: groups.index(of: place.group)!, row: index - tree.rank(of: start))
        }
        let deletions = deleted.map { path($0.0, $0.1, before.tree, old) }
            .filter { !removed.contains($0.section) }
        let insertions = inserted.map { path($0.0, $0.1, tree, groups) }
            .filter { !added.contains($0.section) }
        return SectionChanges(
            deletions: deletions.sorted(), insertions: insertions.sorted(),
            modifications: modified.map { path($0.0, $0.2, before.tree, old) },
            modificationsNew: modified.map { path($0.1, $0.2, tree, groups) },
            sectionsToInsert: added.sorted(), sectionsToDelete: removed.sorted(),
            recounted: recounted.sorted())
    }
}
