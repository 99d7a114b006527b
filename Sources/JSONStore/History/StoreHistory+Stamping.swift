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
        /// published yet).
        case differs([String])
    }

    /// Whether the journal as it ends now records exactly what `snapshot` shows, under the
    /// store's lock. Only what may differ is compared: `changed` (the ids the watcher
    /// published since `base`) and the items of the entries appended after `base`; every
    /// item when there is no base, or the journal is another one since.
    ///
    /// A file that is invalid now holds no version the journal records (it keeps the last
    /// valid one): it is taken as recorded.
    func check(
        _ snapshot: StoreSnapshot, changed: Set<UTF8Key>, since base: StampBase?
    ) throws(StoreError) -> StampCheck {
        let dir: FileDescriptor
        do {
            dir = try FileDescriptor.openDirectory(store)
        } catch {
            throw StoreError.system(error, "could not open the store directory", file: store)
        }
        defer { dir.close() }
        let lock = try StoreLock.acquire(in: dir, store: store)
        defer { lock.close() }
        // The appender gives the journal's end (making the journal when there is none, so
        // even an empty store has revisions of a journal).
        let appender = try JournalAppender(journal)
        defer { appender.close() }
        let end = StampBase(
            stamp: JournalStamp(revision: appender.lastRevision, journalID: appender.journalID),
            position: appender.end)
        return try withCurrentHeads { heads in
            var ids = changed
            var whole = true
            if let base, base.stamp.journal == end.stamp.journal,
                base.stamp.revision <= end.stamp.revision
            {
                let report = journal.read(JournalLine.Head.self, from: base.position) {
                    ids.insert(UTF8Key($0.id))
                }
                whole = report.journalID.map { !end.stamp.isOf($0) } ?? false
            }
            if whole {
                heads.readAll(journal)
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
            return differing.isEmpty ? .stamped(end) : .differs(differing)
        }
    }
}
