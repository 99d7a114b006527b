/// One id's entry before and after a batch.
struct EntryChange: Sendable {
    let id: String
    let old: Entry?
    let new: Entry?

    /// The items before and after.
    var oldItem: Item? { old?.item(id: id) }
    var newItem: Item? { new?.item(id: id) }
}

extension Results {
    /// The results of `query` over `snapshot`, built from scratch: every item is decoded
    /// once (for typed results).
    ///
    /// - Complexity: O(n log n) to sort; O(n) when sorted by id.
    static func initial(_ query: Query, _ snapshot: StoreSnapshot, coder: ElementCoder<Element>)
        -> Results
    {
        var failures: [(UTF8Key, DecodeFailure)] = []
        var keys: [(UTF8Key, SortKey)] = []
        func element(_ id: UTF8Key, _ entry: Entry) -> (SortKey, Element)? {
            guard let item = entry.item(id: id.string) else { return nil }
            switch coder.decode(item) {
            case .success(let element):
                let decoded: (any Sendable)? = coder.isItem ? nil : element
                guard query.includes(item, decoded: decoded) else { return nil }
                let key = query.sortKey(item, decoded: decoded)
                if query.ordersByDecodedValue { keys.append((id, key)) }
                return (key, element)
            case .failure(let error):
                failures.append((id, DecodeFailure(error: error, key: nil)))
                return nil
            }
        }
        let tree: SortedTree<SortKey, Element>
        var groups: GroupIndex?
        if query.selectsEveryItemByID, let shared = ResultsTree<Element>(entriesOf: snapshot) {
            return Results(tree: shared, snapshot: snapshot, query: query, coder: coder)
        } else if query.ordersByValue {
            var elements: [(SortKey, Element)] = []
            elements.reserveCapacity(snapshot.entries.count)
            snapshot.entries.forEach { id, entry in
                // In grouped results, a row for each section the item is in.
                if let (key, value) = element(id, entry) {
                    key.forEachRow { elements.append(($0, value)) }
                }
            }
            elements.sort { $0.0 < $1.0 }
            tree = SortedTree(sortedDistinct: elements)
            if let grouping = query.grouping {
                groups = GroupIndex(
                    keys: elements.lazy.map(\.0), descending: grouping.descending,
                    aggregated: grouping.aggregated.count)
            }
        } else if coder.isItem {
            // Items need no decoding: a walk built for them, with no generic step per item.
            tree = snapshot.itemsInIDOrder(query) as! SortedTree<SortKey, Element>
        } else {
            // In id order the keys keep the entries' order: the results are built a leaf at
            // a time as the entries are walked, with no array of the whole store between.
            tree = snapshot.entries.compactMap(element)
        }
        return Results(
            tree: ResultsTree(tree), snapshot: snapshot, query: query, coder: coder,
            failures: SortedTree(sortedDistinct: failures), keys: SortedTree(sortedDistinct: keys),
            groups: groups)
    }

    /// The results after `changes` (and changes to the invalid files `names`), and the
    /// change set that leads there.
    ///
    /// Only the changed ids are looked at, each decoded once: a few O(log n) rank lookups
    /// and tree edits each, so an edit costs the same in a store of 100 items as in one of
    /// 100,000.
    ///
    /// - Parameter watched: the members an observation cares about (JSON Pointers); an item
    ///   that stays in place with none of them changed is updated in the results but is no
    ///   modification. `nil` for every member.
    /// - Complexity: O(k log n) for k changed ids.
    /// - Note: Made once more for untyped results (`Item`, the command's and every
    ///   untyped observer's): the generic code looks up its tuples' metadata at each step.
    @_specialize(where Element == Item)
    func applying(
        _ changes: [EntryChange], names: Set<UTF8Key>, snapshot newSnapshot: StoreSnapshot,
        watched: [String]? = nil
    )
        -> (Results, ChangeSet<Element>)
    {
        var update = ResultsUpdate(self)
        var candidates = names
        for change in changes {
            if apply(change, to: &update, watched: watched) {
                candidates.insert(UTF8Key(ItemID.fileName(change.id)))
            }
        }
        for entering in update.added + update.moved.map({ ($0.key, $0.new) }) {
            update.tree.updateValue(entering.1, forKey: entering.0)
        }
        if query.selectsEveryItemByID && coder.isItem {
            if let shared = ResultsTree<Element>(entriesOf: newSnapshot) { update.tree = shared }
        }
        let next = Results(
            tree: update.tree, snapshot: newSnapshot, query: query, coder: coder,
            failures: update.failures, keys: update.keys, groups: update.groups)

        var invalid: [InvalidFile] = []
        var resolved: [String] = []
        var conflicts: [Conflict] = []
        var ended: [Conflict] = []
        for name in names {
            let before = snapshot.conflicts[name]
            if let after = newSnapshot.conflicts[name] {
                if before != after { conflicts.append(after) }
            } else if let before {
                ended.append(before)
            }
        }
        for name in candidates.sorted() {
            let before = invalidFile(named: name)
            if let after = next.invalidFile(named: name) {
                if before?.error != after.error { invalid.append(after) }
            } else if before != nil {
                resolved.append(name.string)
            }
        }
        var changes = update.changeSet(
            from: self, version: newSnapshot.version, invalid: invalid, resolved: resolved)
        changes.conflicts = conflicts.sorted(by: Conflict.ordered)
        changes.resolvedConflicts = ended.sorted(by: Conflict.ordered)
        return (next, changes)
    }

    /// Applies one id's change to `update`; returns whether its decoding failure changed.
    private func apply(
        _ change: EntryChange, to update: inout ResultsUpdate<Element>, watched: [String]?
    ) -> Bool {
        let id = UTF8Key(change.id)
        let oldKey = key(of: id)
        let oldElement = oldKey.flatMap { tree[$0] }
        let hadFailure = failures[id] != nil

        // What the element is now, and where.
        var newElement: Element?
        var newKey: SortKey?
        var visible = true  // whether an observer can see a change of a staying element
        if let item = change.newItem {
            if let oldItem = change.oldItem, oldItem.fingerprint == item.fingerprint {
                // The same item: only the file's validity changed.
                (newElement, newKey) = (oldElement, oldKey)
                visible = !(change.old.map { $0.sameAs(change.new!, id: change.id) } ?? false)
            } else {
                switch coder.decode(item) {
                case .success(let element):
                    update.failures.removeValue(forKey: id)
                    let decoded: (any Sendable)? = coder.isItem ? nil : element
                    if query.includes(item, decoded: decoded) {
                        (newElement, newKey) = (element, query.sortKey(item, decoded: decoded))
                    }
                case .failure(let error):
                    // It keeps its last element, where it was, flagged.
                    let kept = oldElement == nil ? nil : oldKey
                    update.failures.updateValue(DecodeFailure(error: error, key: kept), forKey: id)
                    (newElement, newKey) = (oldElement, kept)
                }
            }
        } else {
            update.failures.removeValue(forKey: id)
        }
        if query.ordersByDecodedValue {
            if let newKey, newElement != nil {
                update.keys.updateValue(newKey, forKey: id)
            } else {
                update.keys.removeValue(forKey: id)
            }
        }

        update.regroup(
            from: oldElement == nil ? nil : oldKey, to: newElement == nil ? nil : newKey)
        switch (oldElement, newElement) {
        case (let old?, nil):
            oldKey!.forEachRow { row in
                update.deleted.append((tree.rank(of: row), old, row))
                update.tree.removeValue(forKey: row)
            }
        case (nil, let new?):
            newKey!.forEachRow { update.added.append(($0, new)) }
        case (let old?, let new?):
            guard visible else { break }
            update.change(
                old, to: new, rows: (oldKey!.rows, newKey!.rows),
                members: Self.memberChanges(change),
                watched: watched, in: tree)
        case (nil, nil):
            break
        }
        return hadFailure || update.failures[id] != nil
    }
}

extension Results {
    /// The members of `change`'s item that changed: only modified items are diffed, in
    /// time linear in their size, and not at all when the bytes are the same (only the
    /// file's validity changed).
    fileprivate static func memberChanges(_ change: EntryChange) -> [MemberChange] {
        guard MemberChange.diffsModifications, let old = change.oldItem,
            let new = change.newItem, old.fingerprint != new.fingerprint
        else { return [] }
        return MemberChange.between(old.members, new.members)
    }
}

extension StoreSnapshot {
    /// The items `query` includes, in id order, as untyped results in id order hold them:
    /// `Results.initial`'s walk written for `Item`, so the compiler makes it for that type
    /// alone (the generic one looks up its types' metadata at every node).
    fileprivate func itemsInIDOrder(_ query: Query) -> SortedTree<SortKey, Item> {
        entries.compactMap { id, entry in
            guard let item = entry.item(id: id.string), query.includes(item, decoded: nil)
            else { return nil }
            return (query.sortKey(item, decoded: nil), item)
        }
    }
}
