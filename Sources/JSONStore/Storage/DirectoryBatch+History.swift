extension DirectoryBatch {
    /// A commit's entries, and the journal's end opened with room made for them.
    struct PreparedHistory {
        let history: StoreHistory
        let appender: JournalAppender
        let drafts: [HistoryEntry]
        /// Each draft's line but for its revision.
        let bodies: [[UInt8]]

        /// Appends the entries, once every file is in place, around `sync` (the directory's):
        /// before it, their own writing to the disk begun beside it; or, when each write
        /// syncs them, after it (even when it fails), so no entry is durable before its
        /// renames are. A failure to append is not the write's (its files are in place):
        /// the next reader finds them unrecorded and records them late.
        func record(around sync: () throws(StoreError) -> Void) throws(StoreError) {
            guard history.syncsEachWrite else {
                append()
                return try sync()
            }
            defer { append() }
            try sync()
        }

        private func append() {
            defer { appender.close() }
            let entries = try? appender.append(
                drafts, bodies: bodies, syncing: history.syncsEachWrite)
            guard let entries else { return }
            history.appended(entries, by: appender)
        }

        /// Gives up: the write failed before any file changed.
        func discard() { appender.close() }
    }

    /// Under the lock, before any item file changes: the entries `writes` make (behind a
    /// late one for each file not as the journal last recorded it), with room for them
    /// reserved in the journal, so a full disk refuses the write now.
    func prepareHistory(_ writes: [StagedWrite]) throws(StoreError) -> PreparedHistory? {
        guard let history = store.history, !writes.isEmpty else { return nil }
        let appender: JournalAppender
        do {
            appender = try JournalAppender(
                history.journal, known: try history.withCurrentHeads { $0.end })
        } catch {
            // History that cannot be written (a folder this user may not write) never
            // refuses a write: a reader that may write it records the change late.
            if error.code == .noSpace { throw error }
            return nil
        }
        do {
            let (drafts, bodies) = try self.drafts(writes, history, appender.segment.first)
            guard !drafts.isEmpty else {
                appender.close()
                return nil
            }
            // Room for the lines, with their revision numbers yet to come.
            try appender.reserve(bodies.reduce(0) { $0 + $1.count + 32 })
            return PreparedHistory(
                history: history, appender: appender, drafts: drafts, bodies: bodies)
        } catch {
            appender.close()
            if error.code == .noSpace { throw error }
            return nil
        }
    }

    /// The entries of `writes`, the late ones first so the operation's own are one run of
    /// revisions, and their lines but for the revisions.
    private func drafts(_ writes: [StagedWrite], _ history: StoreHistory, _ segmentStart: Int)
        throws(StoreError) -> ([HistoryEntry], [[UInt8]])
    {
        let operation = StoreHistory.newOperation()
        let now = WallClock.nanoseconds(WallClock.now())
        // The heads were caught up for the appender just now, under the same lock.
        let (late, own) = try history.withHeads { heads throws(StoreError) in
            var (late, own): ([HistoryEntry], [HistoryEntry]) = ([], [])
            var predates: Bool?  // asked of the journal for the first item with no entry
            if writes.count > 1 {
                // One read of the journal for the heads of all the batch's items, rather
                // than one each (a look for an item the journal has not seen reads all of
                // it: a mirror's download of many new items was quadratic).
                heads.readHeads(of: Set(writes.map { UTF8Key($0.id) }), in: history.journal)
            }
            for write in writes {
                var draft = HistoryDraft(
                    id: write.id, source: history.source, operation: operation, now: now)
                draft.segmentStart = segmentStart
                let head = heads.head(of: write.id, in: history.journal)
                if head == nil {
                    if predates == nil {
                        predates = history.journal.mayPredate(heads.journalID)
                    }
                    draft.mayPredate = predates ?? true
                }
                let entries = draft.entries(
                    before: before(write.id), after: after(write), head: head,
                    recorded: { history.recordedValue(of: write.id) })
                late += entries.late
                if let entry = entries.own { own.append(entry) }
            }
            return (late, own)
        }
        let drafts = late + own
        return (drafts, drafts.map(JournalLine.body))
    }

    /// What the write replaces, as read under the lock.
    private func before(_ id: String) -> HistoryDraft.Before {
        switch read(id) {
        case .item(let item):
            let modified = onDisk[UTF8Key(id)]?.status.map {
                WallClock.nanoseconds($0.modificationTime)
            }
            return .item(item.members, item.fingerprint, modified: modified ?? 0)
        case .invalid: return .invalid
        case .missing: return .missing
        }
    }

    /// What the write makes: the item's members and the fingerprint of its bytes.
    private func after(_ write: StagedWrite) -> (object: JSONObject, fingerprint: Fingerprint)? {
        guard let bytes = write.bytes else { return nil }
        if let object = write.object { return (object, Fingerprint(bytes)) }
        guard case .object(let object)? = try? store.reader.read(bytes) else { return nil }
        return (object, Fingerprint(bytes))
    }
}
