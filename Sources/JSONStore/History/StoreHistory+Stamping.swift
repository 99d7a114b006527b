extension StoreHistory {
    /// Where a watcher's last stamp left the journal: the stamp, and the position after
    /// its last entry, where the next look reads on.
    struct StampBase: Sendable {
        var stamp: JournalStamp
        var position: Journal.Position
    }

    /// What a look at the journal found of a published version.
    enum StampCheck: Sendable {
        /// The journal at this revision holds exactly what the version shows.
        case stamped(StampBase)
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
        _ snapshot: StoreSnapshot, changed: Set<UTF8Key>, since base: StampBase?
    ) throws(StoreError) -> StampCheck {
        if journal.segments().isEmpty { try beginJournal() }
        return try withCurrentHeads { heads throws(StoreError) in
            var ids = changed
            var whole = true
            var end = try Self.end(of: heads, store)
            if let base, base.stamp.journal == end.stamp.journal,
                base.stamp.revision <= end.stamp.revision
            {
                // Up to where the heads were caught up: later entries are the next look's.
                let report = journal.read(JournalLine.Head.self, from: base.position) {
                    if $0.revision <= end.stamp.revision { ids.insert(UTF8Key($0.id)) }
                }
                whole = report.journalID.map { !end.stamp.isOf($0) } ?? false
            }
            if whole {
                heads.readAll(journal)
                end = try Self.end(of: heads, store)
                snapshot.entries.forEach { id, _ in ids.insert(id) }
                for id in heads.existing { ids.insert(UTF8Key(id)) }
            }
            var differing: [String] = []
            for key in ids {
                let entry = snapshot.entries[key]
                if entry?.error != nil { continue }
                let head = heads.head(of: key.string, in: journal)
                let recorded = head?.exists == true ? head?.fingerprint : nil
                if recorded != entry?.item?.fingerprint { differing.append(key.string) }
            }
            return differing.isEmpty ? .stamped(end) : .differs(differing, end)
        }
    }

    /// Where the heads stopped, as a stamp.
    private static func end(of heads: JournalHeads, _ store: String) throws(StoreError)
        -> StampBase
    {
        guard let journalID = heads.journalID, let position = heads.position else {
            throw StoreError(code: .io, message: "the journal is gone", file: store)
        }
        return StampBase(
            stamp: JournalStamp(revision: heads.lastRevision, journalID: journalID),
            position: position)
    }

    /// Makes the journal, under the store's lock, for a store that has none: an empty
    /// store has revisions of a journal too.
    private func beginJournal() throws(StoreError) {
        let dir: FileDescriptor
        do {
            dir = try FileDescriptor.openDirectory(store)
        } catch {
            throw StoreError.system(error, "could not open the store directory", file: store)
        }
        defer { dir.close() }
        let lock = try StoreLock.acquire(in: dir, store: store)
        defer { lock.close() }
        let appender = try JournalAppender(journal)
        appender.close()
    }
}
