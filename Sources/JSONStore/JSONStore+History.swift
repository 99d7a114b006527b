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
    /// On etcd, the history is etcd's: each key's versions since it last compacted (see
    /// `historyBegins()`), with no times, every change of one transaction at its revision.
    ///
    /// - Throws: `StoreError`: `.invalidID`, `.unsupported` on a store that keeps no
    ///   history, or the file system's (or the server's) error.
    public func history(of id: String? = nil, after revision: Int = 0, limit: Int? = nil)
        throws(StoreError) -> [HistoryEntry]
    {
        if let id { try ItemID.validate(id) }
        if let remote {
            let from = revision < Int.max ? max(revision, 0) + 1 : revision
            var entries = try remote.history(of: id, from: from, reader: reader).entries
            entries.reverse()
            if let limit, entries.count > limit { entries.removeLast(entries.count - limit) }
            return entries
        }
        let history = try requireHistory()
        // Best effort: a reader who may not write the store reads the history as it is.
        try? recordLateChanges(id.map { [$0] })
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
        return history.journal.newest(limit, after: revision)
    }

    /// The oldest revision the store's history holds: 1 unless older changes were pruned
    /// (a directory's journal, past `Options.historyMaxAge` or `historyMaxBytes`) or
    /// compacted away (etcd: the revision of its last compaction, whose change it keeps).
    ///
    /// - Throws: `StoreError`: `.unsupported` on a store that keeps no history, or the
    ///   server's error.
    public func historyBegins() throws(StoreError) -> Int {
        if let remote { return try max(remote.compactedRevision(), 1) }
        return max(try requireHistory().journal.firstRevision, 1)
    }

    /// Records, under the lock, what other programs changed while nothing recorded it: one
    /// late entry for each of `ids` (every file, and every item the journal holds, when
    /// `nil`) whose file is not what the journal last recorded.
    func recordLateChanges(_ ids: [String]?) throws(StoreError) {
        try history?.recordUnrecorded(ids.map { .ids($0) } ?? .everything, seen: .late)
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

/// What a store's journal holds, for `check` and `doctor`.
package struct HistorySummary: Sendable {
    /// How many entries, and the revisions they span (0 when none).
    package var entries = 0
    package var firstRevision = 0
    package var lastRevision = 0
    package var segments = 0
    package var bytes = 0
    /// Each damaged place: `FILE: at byte N: reason`.
    package var damage: [String] = []
}

extension JSONStore {
    /// The journal read whole: what it holds and what is damaged; `nil` for a store that
    /// keeps no history.
    package func _historySummary() -> HistorySummary? {
        guard let history else { return nil }
        var summary = HistorySummary()
        let segments = history.journal.segments()
        summary.segments = segments.count
        summary.bytes = segments.reduce(0) { total, segment in
            total
                + (FileStatus.of(
                    atPath: history.journal.path(of: segment), followingSymlinks: false)?
                    .size ?? 0)
        }
        var first = 0
        let report = history.journal.read { entry in
            if first == 0 { first = entry.revision }
            summary.entries += 1
        }
        (summary.firstRevision, summary.lastRevision) = (first, report.lastRevision)
        summary.damage = report.damage.map(\.description)
        return summary
    }
}
