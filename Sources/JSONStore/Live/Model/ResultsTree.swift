/// The elements of live results in order, with positions.
///
/// Results keep a tree of their own, keyed by sort key, unless they are every item of the
/// store in id order (the default query, untyped): those are exactly the snapshot's
/// entries while every entry has an item, so they use the snapshot's tree and the store
/// is not indexed twice. A file invalid since it appeared (an entry with no item) turns
/// such results into a tree of their own until it goes.
struct ResultsTree<Element: Sendable>: Sendable {
    private enum Storage: Sendable {
        case own(SortedTree<SortKey, Element>)
        /// The snapshot's entries, every one with an item; only when `Element` is `Item`.
        case entries(SortedTree<UTF8Key, Entry>)
    }

    private var storage: Storage

    init(_ tree: SortedTree<SortKey, Element>) {
        storage = .own(tree)
    }

    /// The snapshot's entries as the results of every item in id order; `nil` while an
    /// entry has no item, or when the elements are not items.
    init?(entriesOf snapshot: StoreSnapshot) {
        guard Element.self == Item.self, snapshot.itemless == 0 else { return nil }
        storage = .entries(snapshot.entries)
    }

    /// Whether these are the snapshot's entries rather than a tree of their own.
    var sharesEntries: Bool {
        if case .entries = storage { return true }
        return false
    }

    var count: Int {
        switch storage {
        case .own(let tree): tree.count
        case .entries(let entries): entries.count
        }
    }

    /// The element at `index`. O(log n).
    func element(at index: Int) -> Element {
        switch storage {
        case .own(let tree): return tree.element(at: index).value
        case .entries(let entries):
            let (id, entry) = entries.element(at: index)
            return Self.element(id, entry)
        }
    }

    /// The element with `key`, if it is in the results. O(log n).
    subscript(key: SortKey) -> Element? {
        switch storage {
        case .own(let tree): return tree[key]
        case .entries(let entries):
            let id = UTF8Key(key.id)
            return entries[id].map { Self.element(id, $0) }
        }
    }

    /// The position of `key` among the keys in the results (where it would go, if it is
    /// not one of them). O(log n).
    func rank(of key: SortKey) -> Int {
        switch storage {
        case .own(let tree): tree.rank(of: key)
        case .entries(let entries): entries.rank(of: UTF8Key(key.id))
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
        storage = .entries(SortedTree())  // let go of the tree, so the edit copies nothing
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
                return iterator.next().map { ResultsTree.element($0.key, $0.value) }
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
        case .entries(let entries): entries.forEach { id, entry in body(Self.element(id, entry)) }
        }
    }

    func makeIterator() -> Iterator {
        switch storage {
        case .own(let tree): Iterator(base: .own(tree.makeIterator()))
        case .entries(let entries): Iterator(base: .entries(entries.makeIterator()))
        }
    }

    /// A shared entry as an element: its item (shared entries all have one, and are
    /// shared only when `Element` is `Item`).
    private static func element(_ id: UTF8Key, _ entry: Entry) -> Element {
        entry.item(id: id.string)! as! Element
    }
}
