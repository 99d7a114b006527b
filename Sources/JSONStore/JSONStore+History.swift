extension JSONStore {
    /// The store's history, newest first: every change of the item `id`, or of every item
    /// when `id` is `nil`, as the journal recorded them (see `HistoryEntry`).
    ///
    /// Changes another program made while no jsonstore process watched are recorded first,
    /// one late entry for each item they changed.
    ///
    /// - Parameters:
    ///   - id: the item, or `nil` for the whole store.
    ///   - revision: only the changes after it.
    ///   - limit: at most this many, the newest.
    /// - Throws: `StoreError`: `.invalidID`, `.unsupported` on a store that keeps no
    ///   history, or the file system's error.
    public func history(of id: String? = nil, after revision: Int = 0, limit: Int? = nil)
        throws(StoreError) -> [HistoryEntry]
    {
        if let id { try ItemID.validate(id) }
        guard let history else {
            throw StoreError(
                code: .unsupported,
                message: remote == nil
                    ? "this store keeps no history (Options.keepsHistory is false)"
                    : "history is not kept for this store", file: path)
        }
        try recordLateChanges(id.map { [$0] })
        var entries: [HistoryEntry] = []
        let limit = limit ?? .max
        if let id {
            // Found by its marker, newest first, without parsing the other items' lines.
            history.journal.entriesNewestFirst(of: id) { entry in
                guard entry.revision > revision else { return false }
                entries.append(entry)
                return entries.count < limit
            }
            return entries
        }
        _ = history.journal.read(after: revision) { entries.append($0) }
        entries.reverse()
        if entries.count > limit { entries.removeLast(entries.count - limit) }
        return entries
    }

    /// Records, under the lock, what other programs changed while nothing recorded it: one
    /// late entry for each of `ids` (every file, and every item the journal holds, when
    /// `nil`) whose file is not what the journal last recorded.
    func recordLateChanges(_ ids: [String]?) throws(StoreError) {
        guard let history else { return }
        let dir = try openDirectory()
        defer { dir.close() }
        let lock: FileDescriptor
        do {
            lock = try StoreLock.acquire(in: dir)
        } catch {
            throw StoreError.system(
                error, "could not take the store lock", file: join(path, StoreLock.fileName))
        }
        defer { lock.close() }
        let now = WallClock.nanoseconds(WallClock.now())
        let drafts = try history.withCurrentHeads { heads throws(StoreError) in
            var names = ids ?? []
            if ids == nil {
                heads.readAll(history.journal)
                names = try listing(of: dir).ids
                let listed = Set(names.map(UTF8Key.init))
                names += heads.existing.filter { !listed.contains(UTF8Key($0)) }
            }
            return names.flatMap { id in
                let draft = HistoryDraft(id: id, source: .otherProgram, operation: nil, now: now)
                return draft.late(
                    before: HistoryDraft.Before(
                        ItemFile.read(id: id, in: dir, path: path, reader: reader)),
                    head: heads.head(of: id, in: history.journal),
                    recorded: { history.recordedValue(of: id) }
                ).entries
            }
        }
        guard !drafts.isEmpty else { return }
        let appender = try JournalAppender(history.journal)
        defer { appender.close() }
        history.appended(try appender.append(drafts), by: appender)
    }
}

extension HistoryDraft.Before {
    /// What a read under the lock found.
    init(_ read: (ItemFile.Outcome, FileStatus?)) {
        switch read.0 {
        case .item(let item):
            let modified = read.1.map { WallClock.nanoseconds($0.modificationTime) } ?? 0
            self = .item(item.members, item.fingerprint, modified: modified)
        case .invalid: self = .invalid
        case .missing: self = .missing
        }
    }
}
