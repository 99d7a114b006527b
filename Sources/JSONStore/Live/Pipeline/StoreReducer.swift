/// What the store's files hold and what observers have been told: the pure part of the
/// live pipeline.
///
/// The driver (`LiveEngine`) does the I/O and the timers and feeds this value what it
/// read, with the time; the reducer decides what changed, what waits, and when a new
/// version is cut. No file system, no clock, no queue: tests drive it with tables of
/// file outcomes and made-up times.
///
/// Ids and file names are keyed by their bytes (see `UTF8Key`).
struct StoreReducer: Sendable {
    /// How long things wait, in seconds.
    struct Timing: Sendable {
        /// How long a file must stay missing before it counts as deleted.
        var deletionGrace: Double
        /// How long to wait before reading a file whose writer may not be done.
        var fallbackDelay: Double
    }

    /// What `publish(at:)` decided.
    enum Publication: Sendable {
        /// Nothing to publish now.
        case none
        /// Changes wait for a pending deletion: call `publish(at:)` again at this time.
        case wait(until: Double)
        /// A new version: `ids` and the invalid files `names` changed in `snapshot`.
        case publish(StoreSnapshot, ids: Set<UTF8Key>, names: Set<UTF8Key>)
    }

    let timing: Timing
    /// The newest state of the files, published or not.
    private(set) var working = StoreSnapshot()
    /// The last version handed to observers.
    private(set) var published = StoreSnapshot()
    /// Whether the first load is done.
    private(set) var isLoaded = false
    private(set) var deadlines = Deadlines()
    /// The follower's name, stamped on every version it cuts (a directory's tokens).
    let origin: String
    /// The store's revision the next version shows (etcd's; 0 for a directory), reached
    /// with `advance(to:)` before what changed at that revision is fed.
    private(set) var revision: Int64 = 0
    private var changedIDs: Set<UTF8Key> = []
    private var changedInvalid: Set<UTF8Key> = []

    init(timing: Timing, origin: String = "") {
        self.timing = timing
        self.origin = origin
    }

    /// The store is at `revision` now (a remote store's changes or its progress):
    /// what is fed next, and the versions cut from it, show it. An older revision (a
    /// late progress report) is ignored; whether it was newer.
    @discardableResult
    mutating func advance(to revision: Int64) -> Bool {
        guard revision >= self.revision else { return false }
        self.revision = revision
        working.revision = revision
        return true
    }

    /// The journal recorded the published version, `version`, exactly at `stamp`; whether
    /// it is still the published one.
    mutating func stamp(_ stamp: JournalStamp, version: Int) -> Bool {
        guard published.version == version else { return false }
        published.stamp = stamp
        return true
    }

    /// Whether there are changes not yet published.
    var hasUnpublishedChanges: Bool { !changedIDs.isEmpty || !changedInvalid.isEmpty }

    /// Whether everything read has been published and nothing waits.
    var isSettled: Bool { deadlines.isEmpty && changedIDs.isEmpty && changedInvalid.isEmpty }

    // MARK: Whole listings

    /// The first load: every item file's outcome and the bad names, listed at `revision`
    /// (a remote store's; 0 for a directory). `published` is then version 1.
    ///
    /// - Parameter lastValid: for invalid outcomes, by position, the item's last valid
    ///   value, kept beside the error as a follower keeps it (a listing to resume from).
    mutating func load(
        _ ids: [String], _ outcomes: [ItemFile.Outcome], badNames: [UTF8Key: InvalidFile],
        conflicts: [UTF8Key: Conflict] = [:], lastValid: [Int: Item] = [:], revision: Int64 = 0
    ) {
        // A source's listing need not come in the ids' byte order (etcd's keys end in
        // `.json`, which sorts after `-`): the positions of the files there, by id.
        var order = ids.indices.filter {
            if case .missing = outcomes[$0] { return false }
            return true
        }
        order.sort { UTF8Key.less(ids[$0], ids[$1]) }
        var load = StoreLoad(badNames: badNames)
        for i in order { load.add(ids[i], outcomes[i], lastValid: lastValid[i]) }
        self.load(load, conflicts: conflicts, revision: revision)
    }

    /// The first load, built while the files were read (see `StoreLoad`). `published` is
    /// then version 1.
    mutating func load(
        _ load: consuming StoreLoad, conflicts: [UTF8Key: Conflict] = [:], revision: Int64 = 0
    ) {
        self.revision = revision
        let (entries, invalid) = load.finish()
        working = StoreSnapshot(version: 1, entries: entries, invalid: invalid)
        working.conflicts = conflicts
        working.origin = origin
        working.revision = revision
        published = working
        changedIDs.removeAll()
        changedInvalid.removeAll()
        deadlines.removeAll()
        isLoaded = true
    }

    /// A full rescan after an overflow or the directory's return (or a remote store's
    /// relisting at `revision`, which may be older after a restore): memory is made equal
    /// to the listing; what is gone is gone at once, and every wait is over.
    ///
    /// - Parameter lastValid: for invalid outcomes, by position, the item's last valid
    ///   value (a remote store's history), which wins over the one kept.
    mutating func resync(
        _ ids: [String], _ outcomes: [ItemFile.Outcome], badNames: [UTF8Key: InvalidFile],
        conflicts: [UTF8Key: Conflict] = [:], lastValid: [Int: Item] = [:], revision: Int64 = 0
    ) {
        self.revision = revision
        working.revision = revision
        let seen = Set(ids.lazy.map(UTF8Key.init))
        var gone: [String] = []
        working.entries.forEach { id, _ in if !seen.contains(id) { gone.append(id.string) } }
        for id in gone { remove(id) }
        for (i, (id, outcome)) in zip(ids, outcomes).enumerated() {
            apply(outcome, to: id, lastValid: lastValid[i])
        }
        // Bad names (no id) no longer listed are gone; item files were handled above.
        for (name, file) in working.invalid where file.id == nil && badNames[name] == nil {
            setInvalid(name, nil)
        }
        for (name, file) in badNames where working.invalid[name] == nil { setInvalid(name, file) }
        for name in working.conflicts.keys where conflicts[name] == nil {
            conflictFile(name.string, nil)
        }
        for (name, conflict) in conflicts { conflictFile(name.string, conflict) }
        deadlines.removeAll()
    }

    // MARK: Single files

    /// The file of `id` holds `outcome` now.
    ///
    /// A missing file starts its deletion grace period, unless `missingIsGone` (that
    /// period is over). An unreadable JSON file that `beingWritten` (modified within the
    /// fallback delay) is read again later: events trail the disk, and a writer may have
    /// truncated it after the event that sent us here.
    ///
    /// - Returns: when to wake up and look again, if it must be looked at again.
    mutating func fileRead(
        _ id: String, _ outcome: ItemFile.Outcome, at now: Double, missingIsGone: Bool = false,
        beingWritten: Bool = false
    ) -> Double? {
        let key = UTF8Key(id)
        if case .missing = outcome {
            if missingIsGone {
                remove(id)
            } else if working.entries[key] != nil {
                // Editors save by removing or renaming the old file first: wait a moment
                // before calling it a deletion.
                return deadlines.startDeletion(key, until: now + timing.deletionGrace)
            }
            return nil
        }
        deadlines.cancelDeletion(key)
        if case .invalid(let error) = outcome, error.code == .invalidJSON, beingWritten {
            return readLater(ItemID.fileName(id), at: now)
        }
        apply(outcome, to: id)
        return nil
    }

    /// A file that is no item's is invalid for the reason `file` says (a file named like
    /// an item but with an invalid id, a broken schema), or no longer (`nil`).
    mutating func badName(_ name: String, _ file: InvalidFile?) {
        let key = UTF8Key(name)
        if working.invalid[key]?.error != file?.error { setInvalid(key, file) }
    }

    /// The conflict copy `name` holds `conflict` now, or is gone (`nil`).
    mutating func conflictFile(_ name: String, _ conflict: Conflict?) {
        let key = UTF8Key(name)
        guard working.conflicts[key] != conflict else { return }
        working.conflicts[key] = conflict
        changedInvalid.insert(key)
    }

    /// The names that are not UTF-8 now, shown by their bytes. A bad name no longer among them
    /// is gone, unless `exists` says a (decodable) file of that name is still there.
    mutating func undecodableNames(_ current: [UTF8Key: InvalidFile], exists: (String) -> Bool) {
        for (name, file) in working.invalid
        where file.id == nil && current[name] == nil && !exists(name.string) {
            setInvalid(name, nil)
        }
        for (name, file) in current where working.invalid[name] == nil { setInvalid(name, file) }
    }

    /// Asks for `name` to be read after the fallback delay, unless a read is due already.
    ///
    /// - Returns: when, if it was asked for.
    mutating func readLater(_ name: String, at now: Double) -> Double? {
        deadlines.readLater(UTF8Key(name), at: now + timing.fallbackDelay)
    }

    /// `name` is about to be read: a later read of it is no longer needed.
    mutating func readingNow(_ name: UTF8Key) { deadlines.cancelRead(name) }

    /// The names to read now: files whose later read is due, and item files whose grace
    /// period is over (in `goneIfMissing`: missing now means deleted).
    mutating func takeDue(at now: Double) -> (names: [String], goneIfMissing: Set<UTF8Key>) {
        let (deletions, reads) = deadlines.takeDue(at: now)
        return (reads.map(\.string) + deletions.map { ItemID.fileName($0.string) }, Set(deletions))
    }

    /// The directory is gone: every wait is over (a rescan follows its return).
    mutating func directoryGone() { deadlines.removeAll() }

    // MARK: Publishing

    /// Cuts a new version if anything observers can see has changed.
    ///
    /// A deletion waits for its grace period: a vim save (the file renamed away, then
    /// written anew) must reach observers as one modification. Other changes wait with it
    /// for at most one grace period, so that a rename or a batch that deletes reaches
    /// observers as one update; after that they are published and only the ids whose
    /// deletion is still pending wait on, each on its own. A steady stream of deletions or
    /// saves thus holds nothing back for longer than the grace period and one batch.
    ///
    /// - Complexity: O(k log n) for k changed ids.
    mutating func publish(at now: Double) -> Publication {
        guard isLoaded else { return .none }
        if !deadlines.deletions.isEmpty, !changedIDs.isEmpty || !changedInvalid.isEmpty {
            if let since = deadlines.heldSince {
                if now < since + timing.deletionGrace { return .none }
            } else {
                deadlines.holdChanges(at: now)
                return .wait(until: now + timing.deletionGrace)
            }
        }
        deadlines.releaseChanges()
        let held = changedIDs.filter(deadlines.isDeletionPending)
        let heldNames = Set(held.map { UTF8Key(ItemID.fileName($0.string)) })
        let ids = changedIDs.subtracting(held)
        let names = changedInvalid.subtracting(heldNames)
        guard !ids.isEmpty || !names.isEmpty else { return .none }
        var snapshot = working
        for id in held {
            snapshot.setEntry(published.entries[id], for: id)
            let name = UTF8Key(ItemID.fileName(id.string))
            snapshot.invalid[name] = published.invalid[name]
        }
        snapshot.version = published.version + 1
        working.version = snapshot.version
        published = snapshot
        changedIDs = held
        changedInvalid = changedInvalid.intersection(heldNames)
        return .publish(snapshot, ids: ids, names: names)
    }

    // MARK: Applying

    /// Applies what the file of `id` holds now to the working snapshot.
    private mutating func apply(_ outcome: ItemFile.Outcome, to id: String, lastValid: Item? = nil)
    {
        let old = working.entries[UTF8Key(id)]
        switch outcome {
        case .item(let item):
            // The same bytes (a touch), or the same value written anew (only whitespace
            // changed): no change at all.
            if let old, old.error == nil, let kept = old.item(id: id),
                kept.fingerprint == item.fingerprint || kept.bytes.sameMembers(as: item.bytes)
            {
                return
            }
            set(id, Entry(item: item, error: nil))
        case .invalid(let error):
            let new = Entry(item: lastValid ?? old?.item(id: id), error: error)
            if let old, old.sameAs(new, id: id) { return }
            set(id, new)
        case .missing:
            if old != nil { remove(id) }
        }
    }

    private mutating func set(_ id: String, _ entry: Entry) {
        working.setEntry(entry, for: UTF8Key(id))
        changedIDs.insert(UTF8Key(id))
        let name = UTF8Key(ItemID.fileName(id))
        if let error = entry.error {
            setInvalid(name, InvalidFile(itemID: id, error: error))
        } else if working.invalid[name] != nil {
            setInvalid(name, nil)
        }
    }

    private mutating func remove(_ id: String) {
        guard working.entries[UTF8Key(id)] != nil else { return }
        working.setEntry(nil, for: UTF8Key(id))
        changedIDs.insert(UTF8Key(id))
        let name = UTF8Key(ItemID.fileName(id))
        if working.invalid[name] != nil { setInvalid(name, nil) }
    }

    private mutating func setInvalid(_ name: UTF8Key, _ file: InvalidFile?) {
        working.invalid[name] = file
        changedInvalid.insert(name)
    }
}
