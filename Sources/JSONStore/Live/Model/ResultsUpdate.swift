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
    /// now) in the groups' counts and aggregates: out of each group it was in, into each
    /// it is in.
    mutating func regroup(from oldKey: SortKey?, to newKey: SortKey?) {
        guard groups != nil else { return }
        oldKey?.forEachRow { row in
            groups!.remove(row)
            touched.insert(GroupKey(row.group!.group, descending: groups!.descending))
        }
        newKey?.forEachRow { row in
            groups!.add(row)
            touched.insert(GroupKey(row.group!.group, descending: groups!.descending))
        }
    }

    /// Records an element that stays in the results and changed from `old` to `new`: its
    /// rows' keys (one per section it is in, for grouped results) were `rows.old` and are
    /// `rows.new`, each in order; `before` is the tree before the update.
    ///
    /// A row in the same section as before changes in place if its key is the same (a
    /// modification if a `watched` member changed, every member if `nil`), else it moves.
    /// The rows that left a section are paired in order with those that entered one, as
    /// moves (a non-array value changed); the rest are deletions of `old` or insertions
    /// of `new`, for an array that lost or gained elements.
    mutating func change(
        _ old: Element, to new: Element, rows: (old: [SortKey], new: [SortKey]),
        members: [MemberChange], watched: [String]?, in before: ResultsTree<Element>
    ) {
        let descending = groups?.descending ?? false
        func group(_ key: SortKey) -> GroupKey? {
            key.group.map { GroupKey($0.group, descending: descending) }
        }
        var (pairs, leaving, entering) = ([(SortKey, SortKey)](), [SortKey](), [SortKey]())
        var (i, j) = (0, 0)
        while i < rows.old.count, j < rows.new.count {
            let (a, b) = (group(rows.old[i]), group(rows.new[j]))
            if a == b {
                pairs.append((rows.old[i], rows.new[j]))
                (i, j) = (i + 1, j + 1)
            } else if a! < b! {
                leaving.append(rows.old[i])
                i += 1
            } else {
                entering.append(rows.new[j])
                j += 1
            }
        }
        leaving += rows.old[i...]
        entering += rows.new[j...]
        let paired = min(leaving.count, entering.count)
        pairs += zip(leaving, entering)
        for (oldKey, newKey) in pairs {
            if oldKey == newKey {
                tree.updateValue(new, forKey: newKey)
                // Current values in the results; a modification only if a watched member
                // changed (a member the query filters or sorts by moves or leaves instead).
                if let watched, !watched.contains(where: { MemberChange.touched(members, $0) }) {
                    continue
                }
                modified.append((before.rank(of: oldKey), old, new, oldKey, newKey, members))
            } else {
                // A deletion plus an insertion in the index arrays, a modification in the
                // element lists, and a move.
                let from = before.rank(of: oldKey)
                tree.removeValue(forKey: oldKey)
                moved.append((from, old, new, oldKey, newKey, members))
            }
        }
        for key in leaving.dropFirst(paired) {
            deleted.append((before.rank(of: key), old, key))
            tree.removeValue(forKey: key)
        }
        for key in entering.dropFirst(paired) { added.append((key, new)) }
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
        // Closures, not key paths: a key path into these tuples, in a generic function, is
        // made again at run time on every call, its types demangled (0.6 % of a follower's
        // samples over 2,000 edits by `perf`, the edit path's one use of the demangler).
        return ChangeSet(
            version: version,
            deletions: (deleted.map { $0.index } + moved.map { $0.0.from }).sorted(),
            insertions: (inserted.map { $0.index } + moved.map { $0.to }).sorted(),
            modifications: modified.map { $0.0.from },
            modificationsNew: modified.map { $0.to },
            moves: moved.map { ChangeSet.Move(from: $0.0.from, to: $0.to) },
            inserted: inserted.map { $0.element },
            modified: modified.map { modification($0.0) } + moved.map { modification($0.0) },
            deleted: deleted.map { $0.element },
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
