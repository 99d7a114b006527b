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
    /// one's own write, it is left alone). `whenLong` is called, before anything is
    /// recorded, when there are more than `longLookAbove` items to record.
    func recordUnrecorded(
        _ scope: Scope, seen: HistoryDraft.Seen, whenLong: (() -> Void)? = nil
    ) throws(StoreError) {
        try withStoreLock { dir throws(StoreError) in try record(scope, seen, dir, whenLong) }
    }

    private func record(
        _ scope: Scope, _ seen: HistoryDraft.Seen, _ dir: FileDescriptor,
        _ whenLong: (() -> Void)?
    ) throws(StoreError) {
        // The entries are made for the newest segment; the appender is opened only when
        // there are some (a reader who may not write the store records nothing), and they
        // are made again for the next segment if it had to begin one.
        let now = WallClock.nanoseconds(WallClock.now())
        var segmentStart = journal.segments().last?.first ?? 1
        let (ids, previous, end) = try withCurrentHeads { heads throws(StoreError) in
            let (ids, previous) = try candidates(scope, &heads, dir)
            heads.reserve(adding: ids.count)
            return (ids, previous, heads.end)
        }
        if ids.count > longLookAbove { whenLong?() }
        // A whole look recorded: an item the journal has no entry of is new from now on.
        let whole: Bool
        switch scope {
        case .ids: whole = false
        case .everything, .loaded: whole = true
        }
        // A chunk of ids at a time: a first look at a million items would otherwise hold
        // every entry, with its value, and every line at once (over a gigabyte). A look
        // cut short records the rest at the next one, which finds it unrecorded.
        var appender: JournalAppender?
        defer { appender?.close() }
        var predates: Bool?
        for start in stride(from: 0, to: ids.count, by: Self.idsPerAppend) {
            let chunk = ids.chunk(start..<min(start + Self.idsPerAppend, ids.count))
            if let appender {
                // A segment at a time: its entries are drafted for the segment they go in.
                try appender.rollOverIfFull()
                segmentStart = appender.segment.first
            }
            func draft() throws(StoreError) -> [HistoryEntry] {
                try self.drafts(chunk, previous, seen, now, segmentStart, &predates, dir)
            }
            var drafts = try draft()
            guard !drafts.isEmpty else { continue }
            if appender == nil {
                let opened = try JournalAppender(journal, known: end)
                appender = opened
                if opened.segment.first != segmentStart {
                    // Begun anew (and pruned): whether an item may predate the journal is
                    // asked again, as every later chunk then finds it.
                    segmentStart = opened.segment.first
                    predates = nil
                    drafts = try draft()
                }
                FaultPoint.drafted.reached()
            }
            if let appender {
                // The lines' bodies (a start's changes may be thousands) on every core.
                let ready = drafts
                let bodies = ItemFile.parallelMap(
                    ready.count, parallelAbove: Self.readsInParallelAbove, initial: [UInt8]()
                ) { JournalLine.body(ready[$0]) }
                appended(try appender.append(drafts, bodies: bodies), by: appender)
            }
        }
        guard whole else { return }
        if let appender {
            journal.markLooked(appender.journalID)
        } else if let id = journal.journalID() {
            // Nothing to record: the look is marked all the same.
            journal.markLooked(id)
        } else if let begun = try? JournalAppender(journal) {
            // An empty store too: its journal is begun, so a file made next is a creation.
            journal.markLooked(begun.journalID)
            begun.close()
        }
    }

    /// How many ids a look drafts and appends at a time.
    static let idsPerAppend = 4096

    /// The entries for what `ids` hold that the journal has not recorded. The heads were
    /// caught up when the look began and have taken in what it appended since, under the
    /// one lock: a catch-up each chunk would read the journal back for nothing.
    private func drafts(
        _ ids: [String], _ previous: [UTF8Key: Item], _ seen: HistoryDraft.Seen,
        _ now: Int64, _ segmentStart: Int, _ predates: inout Bool?, _ dir: FileDescriptor
    ) throws(StoreError) -> [HistoryEntry] {
        // The files are read on every core first (a start's changes may be thousands, and
        // its first results wait for their stamp); the drafts, which look up the heads,
        // are made in order after.
        let (store, reader) = (store, reader)
        let files = ItemFile.parallelMap(
            ids.count, parallelAbove: Self.readsInParallelAbove,
            initial: HistoryDraft.Before.missing
        ) { i in
            HistoryDraft.Before(ItemFile.read(id: ids[i], in: dir, path: store, reader: reader))
        }
        // The heads are looked up under the lock (those known on every core, the others in
        // order); the drafts, which compare each file with what the journal recorded, are
        // made on every core.
        return try withHeads { heads throws(StoreError) in
            let found = heads.heads(
                of: ids.map(UTF8Key.init), in: journal, parallelAbove: Self.readsInParallelAbove)
            // Asked of the journal once, for the first item with no entry.
            if predates == nil, found.contains(where: { $0 == nil }) {
                predates = journal.mayPredate(heads.journalID)
            }
            let mayPredate = predates ?? true
            let recorded = recordedValues(ids, files, found, previous)
            let entries = ItemFile.parallelMap(
                ids.count, parallelAbove: Self.readsInParallelAbove, initial: [HistoryEntry]()
            ) { i in
                let (id, head) = (ids[i], found[i])
                var draft = HistoryDraft(id: id, source: .otherProgram, operation: nil, now: now)
                draft.segmentStart = segmentStart
                if head == nil { draft.mayPredate = mayPredate }
                return draft.late(
                    before: files[i], head: head,
                    recorded: {
                        // The watcher's last version, when it is the journal's.
                        if let known = previous[UTF8Key(id)],
                            known.fingerprint == head?.fingerprint
                        {
                            return known.members
                        }
                        if let recorded, let value = recorded[UTF8Key(id)] { return value }
                        return self.recordedValue(of: id)
                    }, seen: seen
                ).entries
            }
            return Array(entries.joined())
        }
    }

    /// What the journal last recorded of the items of `ids` whose drafts will ask for it
    /// (the file is not the version the journal recorded, and the watcher did not know
    /// that version), found with one read of the journal when they are more than
    /// `lookupsAtMost`; `nil` when they are fewer, each then searched for as it is asked.
    /// A first look that found thousands changed otherwise searched a big journal for each,
    /// back to its creation: hours at a million entries.
    private func recordedValues(
        _ ids: [String], _ files: [HistoryDraft.Before], _ heads: [JournalHeads.Head?],
        _ previous: [UTF8Key: Item]
    ) -> [UTF8Key: JSONObject?]? {
        var wanted: [UTF8Key: Int] = [:]
        for i in ids.indices {
            guard let head = heads[i], files[i].asksRecorded(head) else { continue }
            let key = UTF8Key(ids[i])
            if previous[key]?.fingerprint == head.fingerprint { continue }
            wanted[key] = head.wholeAt
        }
        guard wanted.count > Self.lookupsAtMost else { return nil }
        let values = journal.lastValues(of: wanted)
        return Dictionary(uniqueKeysWithValues: wanted.keys.map { ($0, values[$0]) })
    }

    /// Of `ids` (every file listed), those the journal does not hold as they are (an
    /// item whose fingerprint is not its head's), read a block at a time on every core,
    /// only whether each differs kept: a look at the whole store then drafts, and asks
    /// the journal what it last held of, those few alone (read again), not every file in
    /// blocks that each ask the journal. An invalid file is no version: nothing to record;
    /// a file the journal has no entry of is new, drafted without a first read.
    private func differing(
        _ ids: [String], _ heads: inout JournalHeads, _ dir: FileDescriptor
    ) -> [String] {
        let (store, reader) = (store, reader)
        // A file unchanged since the start cache's look is known by its fingerprint there,
        // not read: a look after a follower ran reads only what changed since.
        let cached =
            usesStartCache ? StartCache.unchangedFingerprints(of: ids, store: store, in: dir) : nil
        var differing: [String] = []
        for start in stride(from: 0, to: ids.count, by: Self.idsPerAppend) {
            let block = Array(ids[start..<min(start + Self.idsPerAppend, ids.count)])
            let found = heads.heads(
                of: block.map(UTF8Key.init), in: journal, parallelAbove: Self.readsInParallelAbove)
            let recorded = ItemFile.parallelMap(
                block.count, parallelAbove: Self.readsInParallelAbove, initial: true
            ) { i in
                // No entry of it yet (a store's first look): drafted, not read twice.
                guard let head = found[i] else { return false }
                if let fingerprint = cached?[start + i] {
                    return head.exists && head.fingerprint == fingerprint
                }
                switch ItemFile.read(id: block[i], in: dir, path: store, reader: reader).0 {
                case .item(let item): return head.exists && head.fingerprint == item.fingerprint
                case .invalid: return true
                case .missing: return !head.exists
                }
            }
            for i in block.indices where !recorded[i] { differing.append(block[i]) }
        }
        return differing
    }

    /// How many files a chunk reads and drafts one by one; more are on every core.
    static let readsInParallelAbove = 64

    /// How many items' heads are looked up one by one; more are found in one read.
    static let lookupsAtMost = 32

    /// The ids of `scope` to read, with the versions a watcher knew of them.
    private func candidates(
        _ scope: Scope, _ heads: inout JournalHeads, _ dir: FileDescriptor
    ) throws(StoreError) -> (ids: Candidates, previous: [UTF8Key: Item]) {
        switch scope {
        case .ids(let ids, let previous):
            // Many at once (a start's changes): their heads in one read, not one each.
            if ids.count > Self.lookupsAtMost {
                heads.readHeads(of: Set(ids.map(UTF8Key.init)), in: journal)
            }
            return (Candidates(ids), previous)
        case .everything:
            heads.readAll(journal)
            let listing: StoreListing
            do {
                listing = try StoreListing(scanning: dir, path: store)
            } catch {
                throw StoreError.system(error, "could not list the store directory", file: store)
            }
            let listed = Set(listing.ids.map(UTF8Key.init))
            let gone = heads.existing.filter { !listed.contains(UTF8Key($0)) }
            return (Candidates(differing(listing.ids, &heads, dir) + gone), [:])
        case .loaded(let snapshot):
            // Every head held by its rank in the snapshot (8 bytes an item, not 56), and the
            // items found changed kept as ranks (4 bytes, not a string of 16).
            heads.readAll(journal, boundTo: snapshot.entries)
            var ids = Candidates(in: snapshot.entries)
            var rank = 0
            heads.forEachHead(in: snapshot.entries) { key, entry, head in
                defer { rank += 1 }
                guard let fingerprint = entry.fingerprint else { return }
                if head?.fingerprint != fingerprint { ids.append(rank: rank) }
            }
            // Recorded as there but not loaded: gone while nothing watched. Looked up in
            // the snapshot's tree, not a set of every id (32 MB at a million), nor an
            // array of every one recorded.
            heads.forEachExisting(notIn: snapshot.entries) { key, _ in ids.append(key.string) }
            return (ids, [:])
        }
    }
}
