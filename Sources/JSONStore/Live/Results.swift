/// A live query's results at one version: the matching items in order.
///
/// An immutable snapshot, safe to pass between threads and to keep. Indexing is
/// O(log n), so a view can show any window of a large store without copying it.
///
/// For example:
///
/// ```swift
/// for item in results.prefix(20) { print(item.id) }
/// if let error = results.error(for: "tea") { print("tea.json is invalid: \(error)") }
/// ```
public struct Results: RandomAccessCollection, Sendable {
    let tree: SortedTree<SortKey, Item>
    let snapshot: StoreSnapshot
    let query: Query

    init(tree: SortedTree<SortKey, Item>, snapshot: StoreSnapshot, query: Query) {
        self.tree = tree
        self.snapshot = snapshot
        self.query = query
    }

    /// Empty results, before anything is loaded.
    public init() {
        self.init(tree: SortedTree(), snapshot: StoreSnapshot(), query: .all)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { tree.count }

    /// The item at `position`. O(log n).
    public subscript(position: Int) -> Item { tree.element(at: position).value }

    /// Iterates in order in O(n) for the whole walk, rather than O(log n) an element.
    public struct Iterator: IteratorProtocol {
        var base: SortedTree<SortKey, Item>.Iterator

        public mutating func next() -> Item? { base.next()?.value }
    }

    public func makeIterator() -> Iterator { Iterator(base: tree.makeIterator()) }

    /// The version of the store these results show.
    public var version: Int { snapshot.version }

    /// The position of the item `id`, if it is in the results. O(log n).
    public func index(ofID id: String) -> Int? {
        guard let item = snapshot.entries[UTF8Key(id)]?.item, query.includes(item) else { return nil }
        let key = query.sortKey(item)
        guard tree[key] != nil else { return nil }
        return tree.rank(of: key)
    }

    /// Why the file of item `id` is invalid, if it is. Its last valid value stays in the
    /// results, flagged by this error, until the file is fixed or removed.
    public func error(for id: String) -> StoreError? {
        snapshot.entries[UTF8Key(id)]?.error
    }

    /// Every invalid file in the store, sorted by name (not only those in these results).
    public var invalid: [InvalidFile] { snapshot.invalidFiles }
}
