/// What the store knows about one id.
struct Entry: Sendable {
    /// The last valid value; kept while the file is invalid.
    var item: Item?
    /// Why the file is invalid now, if it is: boxed, because it is rare and four times
    /// the size of the rest of the entry, which every id of the store has.
    private var errorBox: ErrorBox?

    var error: StoreError? {
        get { errorBox?.error }
        set { errorBox = newValue.map(ErrorBox.init) }
    }

    init(item: Item?, error: StoreError?) {
        self.item = item
        errorBox = error.map(ErrorBox.init)
    }

    private final class ErrorBox: Sendable {
        let error: StoreError
        init(_ error: StoreError) { self.error = error }
    }

    /// Whether this entry shows the same thing as `other` to an observer.
    func sameAs(_ other: Entry) -> Bool {
        item == other.item && error == other.error
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
    /// How many entries have no item: files invalid since they appeared. While there are
    /// none, results of every item in id order are `entries` itself.
    private(set) var itemless = 0
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
        entries.forEach { _, entry in if entry.item == nil { itemless += 1 } }
    }

    /// Sets (or, with `nil`, removes) the entry of `id`. O(log n).
    mutating func setEntry(_ entry: Entry?, for id: UTF8Key) {
        let old =
            entry.map { entries.updateValue($0, forKey: id) } ?? entries.removeValue(forKey: id)
        if let old, old.item == nil { itemless -= 1 }
        if let entry, entry.item == nil { itemless += 1 }
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
            if let old = other.entries[id], old.sameAs(entry) { return }
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
