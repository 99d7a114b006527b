/// The elements of live results in order, with positions.
///
/// Results keep a tree of their own, keyed by sort key, unless they are every item of the
/// store in id order (the default query, untyped): those are the snapshot's entries less
/// the few with no item (files invalid since they appeared, `StoreSnapshot.itemless`), so
/// they use the snapshot's tree and the store is not indexed twice. A position among the
/// items is found past the holes before it, by bisection over the holes' ranks.
struct ResultsTree<Element: Sendable>: Sendable {
    fileprivate enum Storage: Sendable {
        case own(SortedTree<SortKey, Element>)
        /// The snapshot's entries and the ids of those with no item, which are skipped;
        /// only when `Element` is `Item`.
        case entries(SortedTree<UTF8Key, Entry>, holes: SortedTree<UTF8Key, Bool>)
    }

    fileprivate var storage: Storage

    init(_ tree: SortedTree<SortKey, Element>) {
        storage = .own(tree)
    }

    /// The snapshot's entries as the results of every item in id order; `nil` when the
    /// elements are not items.
    init?(entriesOf snapshot: StoreSnapshot) {
        guard Element.self == Item.self else { return nil }
        storage = .entries(snapshot.entries, holes: snapshot.itemless)
    }

    var count: Int {
        switch storage {
        case .own(let tree): tree.count
        case .entries(let entries, let holes): entries.count - holes.count
        }
    }

    /// The element at `index`. O(log n).
    func element(at index: Int) -> Element {
        switch storage {
        case .own(let tree): return tree.element(at: index).value
        case .entries(let entries, let holes):
            let (id, entry) = entries.element(
                at: index + Self.skipped(before: index, entries, holes))
            return Self.element(id, entry)!
        }
    }

    /// The element with `key`, if it is in the results. O(log n).
    subscript(key: SortKey) -> Element? {
        switch storage {
        case .own(let tree): return tree[key]
        case .entries(let entries, _):
            let id = UTF8Key(key.id)
            return entries[id].flatMap { Self.element(id, $0) }
        }
    }

    /// The position of `key` among the keys in the results (where it would go, if it is
    /// not one of them). O(log n).
    func rank(of key: SortKey) -> Int {
        switch storage {
        case .own(let tree): return tree.rank(of: key)
        case .entries(let entries, let holes):
            let id = UTF8Key(key.id)
            return entries.rank(of: id) - holes.rank(of: id)
        }
    }

    /// Sets the element of `key`. Shared entries are left as they are: the results that
    /// share them take the next snapshot's entries whole (see `Results.applying`).
    mutating func updateValue(_ element: Element, forKey key: SortKey) {
        editOwnTree { $0.updateValue(element, forKey: key) }
    }

    /// Removes the element of `key`, as `updateValue` sets one.
    mutating func removeValue(forKey key: SortKey) {
        editOwnTree { $0.removeValue(forKey: key) }
    }

    private mutating func editOwnTree(_ edit: (inout SortedTree<SortKey, Element>) -> Void) {
        guard case .own(var tree) = storage else { return }
        // Let go of the tree, so the edit copies nothing.
        storage = .entries(SortedTree(), holes: SortedTree())
        edit(&tree)
        storage = .own(tree)
    }

    /// Iterates in order in O(n) for the whole walk.
    struct Iterator: IteratorProtocol {
        fileprivate enum Base {
            case own(SortedTree<SortKey, Element>.Iterator)
            case entries(SortedTree<UTF8Key, Entry>.Iterator)
            case moving  // while a step has the iterator out, so it is not copied
        }

        fileprivate var base: Base

        mutating func next() -> Element? {
            switch base {
            case .own(var iterator):
                base = .moving
                defer { base = .own(iterator) }
                return iterator.next()?.value
            case .entries(var iterator):
                base = .moving
                defer { base = .entries(iterator) }
                while let (id, entry) = iterator.next() {
                    if let element = ResultsTree.element(id, entry) { return element }
                }
                return nil
            case .moving:
                preconditionFailure("unreachable: a step is in progress")
            }
        }
    }

    /// Counts the nodes of the tree of their own these results have, if they have one.
    func countOwnNodes(into usage: inout MemoryUsage) {
        if case .own(let tree) = storage { usage.addResults(tree) }
    }

    /// Calls `body` with every element in order: one walk, where an iterator is called
    /// once an element.
    func forEach(_ body: (Element) -> Void) {
        switch storage {
        case .own(let tree): tree.forEach { _, element in body(element) }
        case .entries(let entries, _):
            entries.forEach { id, entry in Self.element(id, entry).map(body) }
        }
    }

    /// Calls `body` with the elements at `positions`, in order: one descent, then a walk.
    func forEach(in positions: Range<Int>, _ body: (Element) -> Void) {
        guard !positions.isEmpty else { return }
        var left = positions.count
        /// Hands on `element`; whether the walk goes on.
        func take(_ element: Element) -> Bool {
            body(element)
            left -= 1
            return left > 0
        }
        switch storage {
        case .own(let tree):
            tree.forEach(from: positions.lowerBound) { _, element in take(element) }
        case .entries(let entries, let holes):
            let start =
                positions.lowerBound + Self.skipped(before: positions.lowerBound, entries, holes)
            entries.forEach(from: start) { id, entry in Self.element(id, entry).map(take) ?? true }
        }
    }

    /// How many holes come before the item at `index`: the items ahead of hole k are its
    /// rank less the k holes before it, so the item is past every hole with at most
    /// `index` items ahead of it.
    fileprivate static func skipped(
        before index: Int, _ entries: SortedTree<UTF8Key, Entry>, _ holes: SortedTree<UTF8Key, Bool>
    ) -> Int {
        Bisection.first(of: holes.count) { k in
            entries.rank(of: holes.element(at: k).key) - k > index
        }
    }

    func makeIterator() -> Iterator {
        switch storage {
        case .own(let tree): Iterator(base: .own(tree.makeIterator()))
        case .entries(let entries, _): Iterator(base: .entries(entries.makeIterator()))
        }
    }

    /// A shared entry as an element: its item, `nil` for a hole (entries are shared only
    /// when `Element` is `Item`).
    private static func element(_ id: UTF8Key, _ entry: Entry) -> Element? {
        entry.item(id: id.string).map { $0 as! Element }
    }
}

extension ResultsTree where Element == Item {
    /// `forEach(in:_:)` handing each item's id and bytes where they are, valid during the
    /// call: no item is made, and no count is taken on the bytes' chunk.
    func forEachText(
        in positions: Range<Int>, _ body: (String, UnsafeRawBufferPointer) -> Void
    ) {
        guard !positions.isEmpty else { return }
        var left = positions.count
        switch storage {
        case .own(let tree):
            tree.forEach(from: positions.lowerBound) { _, item in
                body(item.id, item.bytes.unsafeText)
                left -= 1
                return left > 0
            }
        case .entries(let entries, let holes):
            let start =
                positions.lowerBound + Self.skipped(before: positions.lowerBound, entries, holes)
            // The entries' bytes are the tree's, held for the walk: no count is taken.
            entries.forEachInPlace(from: start) { element in
                guard let text = element.pointee.value.unsafeItemText else { return true }
                body(element.pointee.key.string, text)
                left -= 1
                return left > 0
            }
        }
    }
}
