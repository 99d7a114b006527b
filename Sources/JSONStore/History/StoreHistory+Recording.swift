extension StoreHistory {
    /// Which items to look at for changes the journal has not recorded.
    enum Scope {
        /// These, with the version a watcher last knew of each (its patch's start when the
        /// journal last recorded that version).
        case ids([String], previous: [UTF8Key: Item] = [:])
        /// Every file, and every item the journal holds.
        case everything
        /// The items a watcher loaded, where their fingerprints differ from the journal's
        /// (and the items the journal holds that it did not load).
        case loaded(StoreSnapshot)
    }

    /// Records, under the store's lock, what other programs changed that the journal has
    /// not recorded: an entry for each item of `scope` whose file, read now, is not what
    /// the journal last recorded of it (recorded already by another process, or by this
    /// one's own write, it is left alone).
    func recordUnrecorded(_ scope: Scope, seen: HistoryDraft.Seen) throws(StoreError) {
        try withStoreLock { dir throws(StoreError) in try record(scope, seen, dir) }
    }

    private func record(_ scope: Scope, _ seen: HistoryDraft.Seen, _ dir: FileDescriptor)
        throws(StoreError)
    {
        // The entries are made for the newest segment; the appender is opened only when
        // there are some (a reader who may not write the store records nothing), and they
        // are made again for the next segment if it had to begin one.
        let now = WallClock.nanoseconds(WallClock.now())
        var segmentStart = journal.segments().last?.first ?? 1
        var (drafts, known) = try self.drafts(scope, seen, dir, now, segmentStart)
        // A whole look recorded: an item the journal has no entry of is new from now on.
        let whole: Bool
        switch scope {
        case .ids: whole = false
        case .everything, .loaded: whole = true
        }
        guard !drafts.isEmpty else {
            guard whole else { return }
            // An empty store too: its journal is begun, so a file made next is a creation.
            if let id = journal.journalID() {
                journal.markLooked(id)
            } else if let appender = try? JournalAppender(journal) {
                journal.markLooked(appender.journalID)
                appender.close()
            }
            return
        }
        let appender = try JournalAppender(journal, known: known)
        defer { appender.close() }
        if appender.segment.first != segmentStart {
            segmentStart = appender.segment.first
            drafts = try self.drafts(scope, seen, dir, now, segmentStart).entries
        }
        FaultPoint.drafted.reached()
        appended(try appender.append(drafts), by: appender)
        if whole { journal.markLooked(appender.journalID) }
    }

    /// The entries for what `scope` holds that the journal has not recorded.
    private func drafts(
        _ scope: Scope, _ seen: HistoryDraft.Seen, _ dir: FileDescriptor, _ now: Int64,
        _ segmentStart: Int
    ) throws(StoreError) -> (entries: [HistoryEntry], end: JournalHeads.End?) {
        try withCurrentHeads { heads throws(StoreError) in
            let (ids, previous) = try candidates(scope, &heads, dir)
            var predates: Bool?  // asked of the journal for the first item with no entry
            let entries = ids.flatMap { id in
                var draft = HistoryDraft(id: id, source: .otherProgram, operation: nil, now: now)
                draft.segmentStart = segmentStart
                let head = heads.head(of: id, in: journal)
                if head == nil {
                    if predates == nil { predates = journal.mayPredate(heads.journalID) }
                    draft.mayPredate = predates ?? true
                }
                return draft.late(
                    before: HistoryDraft.Before(
                        ItemFile.read(id: id, in: dir, path: store, reader: reader)),
                    head: head,
                    recorded: {
                        // The watcher's last version, when it is the journal's.
                        if let known = previous[UTF8Key(id)],
                            known.fingerprint == head?.fingerprint
                        {
                            return known.members
                        }
                        return recordedValue(of: id)
                    }, seen: seen
                ).entries
            }
            return (entries, heads.end)
        }
    }

    /// How many items' heads are looked up one by one; more are found in one read.
    static let lookupsAtMost = 32

    /// The ids of `scope` to read, with the versions a watcher knew of them.
    private func candidates(
        _ scope: Scope, _ heads: inout JournalHeads, _ dir: FileDescriptor
    ) throws(StoreError) -> (ids: [String], previous: [UTF8Key: Item]) {
        switch scope {
        case .ids(let ids, let previous):
            // Many at once (a start's changes): their heads in one read, not one each.
            if ids.count > Self.lookupsAtMost {
                heads.readHeads(of: Set(ids.map(UTF8Key.init)), in: journal)
            }
            return (ids, previous)
        case .everything:
            heads.readAll(journal)
            let listing: StoreListing
            do {
                listing = try StoreListing(scanning: dir, path: store)
            } catch {
                throw StoreError.system(error, "could not list the store directory", file: store)
            }
            let listed = Set(listing.ids.map(UTF8Key.init))
            return (listing.ids + heads.existing.filter { !listed.contains(UTF8Key($0)) }, [:])
        case .loaded(let snapshot):
            heads.readAll(journal)
            var ids: [String] = []
            var loaded = Set<UTF8Key>()
            snapshot.entries.forEach { key, entry in
                loaded.insert(key)
                guard let item = entry.item else { return }
                if heads.head(of: item.id, in: journal)?.fingerprint != item.fingerprint {
                    ids.append(item.id)
                }
            }
            return (ids + heads.existing.filter { !loaded.contains(UTF8Key($0)) }, [:])
        }
    }
}
