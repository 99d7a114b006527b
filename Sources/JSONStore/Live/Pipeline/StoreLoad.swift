/// A first load's snapshot built while its files are read: each file's outcome is taken
/// in the order of the ids' bytes and goes straight into the tree, so a load holds the
/// outcomes of one block of files beside the tree, never an array of the whole store's
/// (at a million items, 64 MB of outcomes and 8 MB of positions).
///
/// `StoreReducer.load` takes it when every file is in.
struct StoreLoad: Sendable {
    private var builder = SortedTree<UTF8Key, Entry>.Builder()
    private var last: UTF8Key?
    /// The files that are not items: the bad names the load began with, and every item
    /// file found invalid.
    private(set) var invalid: [UTF8Key: InvalidFile]
    /// How many ids are in the tree.
    private(set) var count = 0

    /// A load of a store whose names that give no id are `badNames`.
    init(badNames: [UTF8Key: InvalidFile]) {
        invalid = badNames
    }

    /// The file of `id` holds `outcome`; `id` is above every id added before, by its
    /// bytes. An invalid file keeps `lastValid` beside its error, as a follower keeps an
    /// item's last valid value; a missing one is left out.
    mutating func add(_ id: String, _ outcome: ItemFile.Outcome, lastValid: Item? = nil) {
        switch outcome {
        case .item(let item):
            add(UTF8Key(id), entry: Entry(item: item, error: nil))
        case .invalid(let error):
            let file = InvalidFile(itemID: id, error: error)
            add(UTF8Key(id), entry: Entry(item: lastValid, error: error))
            invalid[UTF8Key(file.name)] = file
        case .missing:
            return
        }
    }

    /// The file of `key` holds `entry`, moved into the tree; `key` is above every id added
    /// before, by its bytes.
    mutating func add(_ key: UTF8Key, entry: consuming Entry) {
        precondition(last.map { $0 < key } ?? true, "a load's ids must come in byte order")
        builder.append(key, entry)
        last = key
        count += 1
    }

    /// The tree of every id added.
    consuming func finish() -> (
        entries: SortedTree<UTF8Key, Entry>, invalid: [UTF8Key: InvalidFile]
    ) {
        (builder.finish(), invalid)
    }
}
