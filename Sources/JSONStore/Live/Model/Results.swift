/// A live query's results at one version: its elements in order.
///
/// `Results<Item>` holds the store's items as they are; `Results<Todo>` the items decoded
/// as your `Decodable` type, decoded once on the store's queue. An immutable snapshot,
/// safe to pass between threads and to keep. Indexing is O(log n), so a view can show any
/// window of a large store without copying it.
///
/// For example:
///
/// ```swift
/// for task in results.prefix(20) { print(task.title) }
/// if let error = results.error(for: "tea") { print("tea.json is invalid: \(error)") }
/// ```
public struct Results<Element: Sendable>: RandomAccessCollection, Sendable {
    let tree: ResultsTree<Element>
    let snapshot: StoreSnapshot
    let query: Query
    let coder: ElementCoder<Element>
    /// Ids whose item does not decode as `Element`: why, and the key of the last element
    /// that did, if it is still in the results. Empty for `Results<Item>`.
    let failures: SortedTree<UTF8Key, DecodeFailure>
    /// Each element's key, when the order depends on the decoded element (and cannot be
    /// worked out from the item); empty otherwise.
    let keys: SortedTree<UTF8Key, SortKey>
    /// The groups of grouped results (`Query.grouped(by:)`), `nil` for others.
    let groups: GroupIndex?
    /// How the observation began, on the first results of one that asked to start from a
    /// revision (`observe(_:since:on:_:)`); `nil` on every other.
    public internal(set) var resumption: Resumption?

    init(
        tree: ResultsTree<Element>, snapshot: StoreSnapshot, query: Query,
        coder: ElementCoder<Element>, failures: SortedTree<UTF8Key, DecodeFailure> = SortedTree(),
        keys: SortedTree<UTF8Key, SortKey> = SortedTree(), groups: GroupIndex? = nil
    ) {
        self.tree = tree
        self.snapshot = snapshot
        self.query = query
        self.coder = coder
        self.failures = failures
        self.keys = keys
        self.groups = groups
    }

    /// Empty results, before anything is loaded.
    public init() {
        self.init(
            tree: ResultsTree(SortedTree()), snapshot: StoreSnapshot(), query: .all, coder: .empty)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { tree.count }

    /// The element at `position`. O(log n).
    public subscript(position: Int) -> Element { tree.element(at: position) }

    /// Iterates in order in O(n) for the whole walk, rather than O(log n) an element.
    public struct Iterator: IteratorProtocol {
        var base: ResultsTree<Element>.Iterator

        public mutating func next() -> Element? { base.next() }
    }

    public func makeIterator() -> Iterator { Iterator(base: tree.makeIterator()) }

    /// The version of the store these results show.
    public var version: Int { snapshot.version }

    /// The revision of the store these results show: a token to resume an observation
    /// from (`observe(_:since:on:_:)`).
    public var revision: StoreRevision { snapshot.token }

    /// How many items the whole store has, whatever the query keeps of them (the list
    /// view's `6 of 25 items`). O(1).
    package var storeItemCount: Int { snapshot.entries.count - snapshot.itemless.count }

    /// The position of the item `id`, if it is in the results. O(log n).
    ///
    /// In results grouped by a member holding an array (`Query.grouped(by:)`), an item is
    /// a row of each section it is in: this is its first place.
    public func index(ofID id: String) -> Int? {
        guard let key = key(of: UTF8Key(id)), tree[key] != nil else { return nil }
        return tree.rank(of: key)
    }

    /// Why the file of item `id` is invalid, or does not decode as `Element`, if it is or
    /// does not. Its last valid element stays in the results, flagged by this error, until
    /// the file is fixed or removed.
    public func error(for id: String) -> StoreError? {
        let key = UTF8Key(id)
        return snapshot.entries[key]?.error ?? failures[key]?.error
    }

    /// Every conflict in the store (not only of items in these results), by item id then
    /// file: other versions of items, kept beside them (see `Conflict`).
    public var conflicts: [Conflict] { snapshot.conflictList }

    /// The conflicts of the item `id`.
    public func conflicts(of id: String) -> [Conflict] {
        snapshot.conflicts.values.filter { UTF8Key.equal($0.id, id) }.sorted(by: Conflict.ordered)
    }

    /// Every invalid file in the store, sorted by name (not only those in these results),
    /// and every item that does not decode as `Element`.
    public var invalid: [InvalidFile] {
        guard !failures.isEmpty else { return snapshot.invalidFiles }
        var files = snapshot.invalid
        failures.forEach { id, failure in
            let name = UTF8Key(ItemID.fileName(id.string))
            if files[name] == nil {
                files[name] = InvalidFile(itemID: id.string, error: failure.error)
            }
        }
        return files.sorted { $0.key < $1.key }.map(\.value)
    }

    /// The invalid file `name` as these results see it: the file's own error, else its
    /// item's decoding error.
    func invalidFile(named name: UTF8Key) -> InvalidFile? {
        if let file = snapshot.invalid[name] { return file }
        guard !failures.isEmpty, case .item(let id) = EntryName(name.string) else { return nil }
        return failures[UTF8Key(id)].map { InvalidFile(itemID: id, error: $0.error) }
    }

    /// The key the element of `id` has in `tree`, if it has one.
    func key(of id: UTF8Key) -> SortKey? {
        if let failure = failures[id] { return failure.key }
        if query.ordersByDecodedValue { return keys[id] }
        return snapshot.entries[id]?.item(id: id.string).map { query.sortKey($0) }
    }
}

/// An item that does not decode as a typed observation's element type.
struct DecodeFailure: Sendable {
    let error: StoreError
    /// The key of its last decoded element, if that is still in the results.
    let key: SortKey?
}

extension Results {
    /// Counts the trees of their own these results keep (`MemoryUsage.results`).
    func countOwnMemory(into usage: inout MemoryUsage) {
        tree.countOwnNodes(into: &usage)
        usage.addResults(failures)
        usage.addResults(keys)
    }
}

extension Results where Element == Item {
    /// Calls `body` with every item in order, in one walk made for `Item`: how the command
    /// writes whole results (its iterator, called from another module, is a generic call
    /// an item).
    package func forEachItem(_ body: (Item) -> Void) { tree.forEach(body) }

    /// Calls `body` with the items at `positions`, in order: a run of a listing, walked
    /// once rather than looked up an item at a time.
    package func forEachItem(in positions: Range<Int>, _ body: (Item) -> Void) {
        tree.forEach(in: positions, body)
    }

    /// Calls `body` with the id and the file's bytes of each item at `positions`, in
    /// order, the bytes borrowed where they are: no item is made. Runs of a large listing
    /// written side by side would otherwise take and give back a count on the chunk their
    /// items share, from every core at once.
    package func forEachItemText(
        in positions: Range<Int>, _ body: (String, UnsafeRawBufferPointer) -> Void
    ) {
        tree.forEachText(in: positions, body)
    }
}
