/// What the store knows about one id: the parts of its last valid item, and why its file
/// is invalid when it is.
///
/// The id is not kept here: it is the key the entry is stored under, and the item is
/// made with it on access (`item(id:)`), so a million entries do not hold their ids twice.
struct Entry: Sendable {
    /// The last valid value's bytes, fingerprint and revision; kept while the file is
    /// invalid.
    private var stored: Stored?
    /// Why the file is invalid now, if it is: boxed, because it is rare and four times
    /// the size of the rest of the entry, which every id of the store has.
    private var errorBox: ErrorBox?

    private struct Stored: Sendable {
        let bytes: ItemBytes
        let fingerprint: Fingerprint
        let revision: Int64
    }

    var error: StoreError? {
        get { errorBox?.error }
        set { errorBox = newValue.map(ErrorBox.init) }
    }

    /// `item` is the item of the id this entry is stored under.
    init(item: Item?, error: StoreError?) {
        stored = item.map {
            Stored(bytes: $0.bytes, fingerprint: $0.fingerprint, revision: $0.revision)
        }
        errorBox = error.map(ErrorBox.init)
    }

    /// The entry of a valid item of `bytes`, with no revision: a start cache's.
    init(bytes: ItemBytes, fingerprint: Fingerprint) {
        stored = Stored(bytes: bytes, fingerprint: fingerprint, revision: 0)
        errorBox = nil
    }

    private final class ErrorBox: Sendable {
        let error: StoreError
        init(_ error: StoreError) { self.error = error }
    }

    /// Whether there is a last valid value.
    var hasItem: Bool { stored != nil }

    /// The last valid value, as the item `id` (the key this entry is stored under).
    func item(id: String) -> Item? {
        stored.map {
            Item(id: id, bytes: $0.bytes, fingerprint: $0.fingerprint, revision: $0.revision)
        }
    }

    /// The last valid value's bytes where they are (`ItemBytes.unsafeText`): valid only
    /// while the tree holding this entry is kept. `nil` when there is no such value.
    var unsafeItemText: UnsafeRawBufferPointer? {
        guard let stored else { return nil }
        return stored.bytes.unsafeText
    }

    /// The last valid value's fingerprint.
    var fingerprint: Fingerprint? { stored?.fingerprint }

    /// Whether this entry shows the same thing as `other`, both of `id`, to an observer.
    func sameAs(_ other: Entry, id: String) -> Bool {
        item(id: id) == other.item(id: id) && error == other.error
    }
}

/// The whole store at one version: an immutable value, shared between versions except for
/// the O(log n) nodes an edit touched.
struct StoreSnapshot: Sendable {
    /// The version: one more for every delivered batch of changes.
    var version = 0
    /// The follower these versions belong to (a directory's tokens name it); "" on etcd.
    var origin = ""
    /// The store's own revision of this state (etcd's); 0 for a directory.
    var revision: Int64 = 0
    /// A directory's journal revision that records exactly this state, once the history's
    /// recorder has found it (`HistoryRecorder`); `nil` before, or without a journal.
    var stamp: JournalStamp?
    /// Every id with a file, valid or not, by the id's bytes.
    private(set) var entries = SortedTree<UTF8Key, Entry>()
    /// The ids of the entries with no item: files invalid since they appeared (few, as a
    /// rule; each value is `true`). Results of every item in id order are `entries` less
    /// these, so the store is not indexed twice (`ResultsTree`).
    private(set) var itemless = SortedTree<UTF8Key, Bool>()
    /// Every invalid file by its name's bytes: items whose file is invalid, and names that
    /// give no valid id. Small, so a plain dictionary.
    var invalid: [UTF8Key: InvalidFile] = [:]
    /// Every conflict's kept version by its file's name (`ConflictName`): few, so a plain
    /// dictionary too. Their names travel with the invalid files' in a publication.
    var conflicts: [UTF8Key: Conflict] = [:]

    init() {}

    init(version: Int, entries: SortedTree<UTF8Key, Entry>, invalid: [UTF8Key: InvalidFile]) {
        self.version = version
        self.entries = entries
        self.invalid = invalid
        var holes = SortedTree<UTF8Key, Bool>.Builder()
        entries.forEach { id, entry in if !entry.hasItem { holes.append(id, true) } }
        itemless = holes.finish()
    }

    /// Sets (or, with `nil`, removes) the entry of `id`. O(log n).
    mutating func setEntry(_ entry: Entry?, for id: UTF8Key) {
        let old =
            entry.map { entries.updateValue($0, forKey: id) } ?? entries.removeValue(forKey: id)
        if let old, !old.hasItem { itemless.removeValue(forKey: id) }
        if let entry, !entry.hasItem { itemless.updateValue(true, forKey: id) }
    }

    /// This state's revision token: etcd's revision, the journal's, or (before the
    /// journal has recorded it) the follower and version.
    var token: StoreRevision {
        if let stamp { return StoreRevision(stamp.description) }
        return StoreRevision(revision > 0 ? String(revision) : "\(origin):\(version)")
    }

    /// The ids and invalid-file names whose entries differ between `self` and `other`.
    ///
    /// - Complexity: O(n log n) in the entries of both.
    func differences(from other: StoreSnapshot) -> (ids: Set<UTF8Key>, names: Set<UTF8Key>) {
        var ids: Set<UTF8Key> = []
        entries.forEach { id, entry in
            if let old = other.entries[id], old.sameAs(entry, id: id.string) { return }
            ids.insert(id)
        }
        other.entries.forEach { id, _ in if entries[id] == nil { ids.insert(id) } }
        var names: Set<UTF8Key> = []
        for (name, file) in invalid
        where other.invalid[name]?.error != file.error {
            names.insert(name)
        }
        for name in other.invalid.keys where invalid[name] == nil { names.insert(name) }
        for (name, conflict) in conflicts where other.conflicts[name] != conflict {
            names.insert(name)
        }
        for name in other.conflicts.keys where conflicts[name] == nil { names.insert(name) }
        return (ids, names)
    }

    /// The conflicts by item id, then by file.
    var conflictList: [Conflict] {
        conflicts.values.sorted(by: Conflict.ordered)
    }

    /// The invalid files sorted by name (by bytes).
    var invalidFiles: [InvalidFile] {
        invalid.sorted { $0.key < $1.key }.map(\.value)
    }
}
