extension StoreHistory {
    /// Where a watcher's last stamp left the journal: the stamp, and the position after
    /// its last entry, where the next look reads on.
    struct StampBase: Sendable {
        var stamp: JournalStamp
        var position: Journal.Position
    }

    /// The heads as a stamp found them, for a start cache: every head known, and the
    /// revision after which every item with an entry is among them
    /// (`JournalHeads.coveredAfter`).
    struct StampHeads: Sendable {
        var known: HeadTable
        var coveredAfter: Int?
    }

    /// What a look at the journal found of a published version.
    enum StampCheck: Sendable {
        /// The journal at this revision holds exactly what the version shows; with the
        /// heads then, when they were asked for.
        case stamped(StampBase, StampHeads?)
        /// The journal holds other versions of these items (the files changed again since
        /// the version was read, or another process recorded what this watcher has not
        /// published yet), as it ended then: the next look compares them, and what
        /// changes after that end, only.
        case differs([String], StampBase)
    }

    /// Whether the journal as it ends now records exactly what `snapshot` shows. Only what
    /// may differ is compared: `changed` (the ids published, or found differing, since
    /// `base`) and the items of the entries appended after `base`; every item when there
    /// is no base, or the journal is another one since.
    ///
    /// Takes no lock: entries are appended as whole lines, and a read stops at the last
    /// whole one, so a follower that may not write the store stamps too. A journal is made
    /// (under the lock) only when there is none.
    ///
    /// A file that is invalid now holds no version the journal records (it keeps the last
    /// valid one): it is taken as recorded.
    func check(
        _ snapshot: StoreSnapshot, changed: Set<UTF8Key>, since base: StampBase?,
        capturingHeads: Bool = false
    ) throws(StoreError) -> StampCheck {
        if let found = try check(snapshot, changed, base, capturingHeads) { return found }
        try beginJournal()  // none yet: an empty store has revisions of a journal too
        guard let found = try check(snapshot, changed, base, capturingHeads) else {
            throw StoreError(code: .io, message: "the journal is gone", file: store)
        }
        return found
    }

    /// `check`, or `nil` when there is no journal.
    private func check(
        _ snapshot: StoreSnapshot, _ changed: Set<UTF8Key>, _ base: StampBase?,
        _ capturingHeads: Bool
    ) throws(StoreError) -> StampCheck? {
        try withCurrentHeads { heads throws(StoreError) -> StampCheck? in
            guard var end = Self.end(of: heads) else { return nil }
            var ids = changed
            var whole = true
            if let base, base.stamp.journal == end.stamp.journal,
                base.stamp.revision <= end.stamp.revision
            {
                if let recent = heads.ids(after: base.stamp.revision) {
                    ids.formUnion(recent)
                    whole = false
                } else {
                    // Up to where the heads were caught up: later entries are the next look's.
                    let report = journal.read(JournalLine.Head.self, from: base.position) {
                        if $0.revision <= end.stamp.revision { ids.insert(UTF8Key($0.id)) }
                    }
                    whole = report.journalID.map { !end.stamp.isOf($0) } ?? false
                }
            }
            var differing: [String] = []
            func compare(_ key: UTF8Key, _ entry: Entry?, _ head: JournalHeads.Head?) {
                if Self.differs(entry, head) { differing.append(key.string) }
            }
            if whole {
                // Every item of the snapshot and every one the journal has as there: walked
                // where they are, not gathered into a set of every id (32 MB at a million).
                heads.readAll(journal, boundTo: snapshot.entries)
                guard let all = Self.end(of: heads) else { return nil }
                end = all
                heads.forEachHead(in: snapshot.entries) { key, entry, head in
                    compare(key, entry, head)
                }
                heads.forEachExisting(notIn: snapshot.entries) { key, head in
                    compare(key, nil, head)
                }
            } else {
                if ids.count > Self.lookupsAtMost { heads.readHeads(of: ids, in: journal) }
                // A start's thousands of changes are compared on every core.
                let keys = Array(ids)
                let found = heads.heads(
                    of: keys, in: journal, parallelAbove: Self.readsInParallelAbove)
                let differs = ItemFile.parallelMap(
                    keys.count, parallelAbove: Self.readsInParallelAbove, initial: false
                ) { Self.differs(snapshot.entries[keys[$0]], found[$0]) }
                for k in keys.indices where differs[k] { differing.append(keys[k].string) }
            }
            // Every item with an entry after the base was compared: it is known now.
            if !whole, let base { heads.cover(after: base.stamp.revision) }
            guard differing.isEmpty else { return .differs(differing, end) }
            let captured =
                capturingHeads
                ? StampHeads(known: heads.knownHeads, coveredAfter: heads.coveredAfter) : nil
            return .stamped(end, captured)
        }
    }

    /// Whether what the snapshot shows of an item (`entry`) is not what the journal's head
    /// of it records. A file that is invalid now is taken as recorded.
    private static func differs(_ entry: Entry?, _ head: JournalHeads.Head?) -> Bool {
        if entry?.error != nil { return false }
        let recorded = head?.exists == true ? head?.fingerprint : nil
        return recorded != entry?.fingerprint
    }

    /// Whether the journal goes on from `base`: the same journal, with the segment `base`
    /// points into still there (not pruned), so what was appended since can be read.
    func continues(from base: StampBase) -> Bool {
        guard let id = journal.journalID(), base.stamp.isOf(id) else { return false }
        return journal.segments().contains(base.position.segment)
    }

    /// Lets the heads go when there are more than `headsKeptAtMost`, once `stamp` no
    /// longer needs them: the stamp itself, for a store that keeps no start cache, or the
    /// start cache stamped there, written with them all. Those of what changed since stay
    /// (`JournalHeads.forget(keepingAfter:)`), so the next cache has every head still.
    /// With `index`, that cache: where an item the heads do not know is looked up before
    /// the journal from now on (after a start from a cache too, whose heads never were
    /// whole), as long as it holds for them (`JournalHeads.index`).
    func forgetHeads(keepingAfter stamp: JournalStamp, index: StartCache.HeadIndex? = nil) {
        _ = try? withHeads { heads throws(StoreError) in
            // Kept (of another journal, too few to let go, or the newest entries read do
            // not reach back to the stamp), they are let go of the snapshot a look bound
            // them to.
            guard let id = heads.journalID, stamp.isOf(id) else { return heads.unbind() }
            if heads.count <= headsKeptAtMost || !heads.forget(keepingAfter: stamp.revision) {
                heads.unbind()
            }
            // An index of an older cache is of no use once this one replaced its file.
            heads.index = heads.isComplete ? nil : index
        }
    }

    /// Lets go of the snapshot a look at the whole store bound the heads to, keeping every
    /// head (`JournalHeads.unbind`): when no start cache is written with them.
    func unbindHeads() {
        _ = try? withHeads { heads throws(StoreError) in heads.unbind() }
    }

    /// Takes in the heads a start cache kept of the items a start found changed, as the
    /// journal had them at `base` (`JournalHeads.seed`).
    func seedHeads(_ recorded: [UTF8Key: JournalHeads.Head?], from base: StampBase) {
        guard !recorded.isEmpty else { return }
        _ = try? withCurrentHeads { heads throws(StoreError) in
            heads.seed(recorded, from: base.position, in: journal)
        }
    }

    /// Where the heads stopped, as a stamp; `nil` without a journal.
    private static func end(of heads: JournalHeads) -> StampBase? {
        guard let end = heads.end else { return nil }
        return StampBase(
            stamp: JournalStamp(revision: end.lastRevision, journalID: end.journalID),
            position: end.position)
    }

    /// Makes the journal, under the store's lock, for a store that has none: an empty
    /// store has revisions of a journal too.
    private func beginJournal() throws(StoreError) {
        try withStoreLock { _ throws(StoreError) in
            try JournalAppender(journal).close()
        }
    }
}
