extension JSONStore {
    /// The item `id` as it was right after `revision`: `nil` when it did not exist then
    /// (deleted, or created after it).
    ///
    /// - Throws: `StoreError`: `.notFound` when the history does not reach back to
    ///   `revision` for this item, `.invalidID`, `.unsupported` without history.
    public func item(_ id: String, at revision: Int) throws(StoreError) -> JSONObject? {
        try ItemID.validate(id)
        if let remote { return try remoteItem(id, at: revision, in: remote) }
        let history = try requireHistory()
        try? recordLateChanges([id])  // best effort: reading needs no write access
        try checkNotPruned(revision, history)
        guard let (entry, value) = history.journal.version(of: id, at: revision) else {
            // Nothing by then: made after it, or known only from later on.
            var oldest: HistoryEntry?
            history.journal.entriesNewestFirst(of: id) {
                oldest = $0
                return true
            }
            if let oldest, oldest.kind == .created, !oldest.isBaseline { return nil }
            let begins = oldest.map {
                ": its history begins at \($0.revision)\($0.isBaseline ? ", where it was first seen" : "")"
            }
            throw StoreError(
                code: .notFound,
                message: "no history of \"\(id)\" at revision \(revision)\(begins ?? "")",
                file: filePath(id), id: id)
        }
        if entry.kind != .deleted && value == nil {
            throw StoreError(
                code: .notFound,
                message: "\"\(id)\" at revision \(revision) cannot be rebuilt: the history "
                    + "before it is gone", file: filePath(id), id: id)
        }
        return value
    }

    /// Reverts the change made to `id` at `revision` (by default, its last change) by
    /// applying its inverse, where every member that change touched is still as it left
    /// them; the members it did not touch stay as they are now. Undoing a creation deletes
    /// the item, undoing a deletion brings it back. The undo is a write like any other: a
    /// new revision, which can be undone in turn.
    ///
    /// - Throws: `StoreError`: `.changed` when a member that change touched changed since
    ///   (the message names each: `/title changed since 41`; nothing is written),
    ///   `.notFound` when there is no such change of `id`.
    public func undo(_ id: String, revision: Int? = nil) throws(StoreError) {
        try ItemID.validate(id)
        let entry: HistoryEntry
        if let remote {
            entry = try remoteChange(of: id, at: revision, in: remote)
        } else {
            let history = try requireHistory()
            try recordLateChanges([id])
            entry = try change(of: id, at: revision, in: history)
        }
        try storeErrors {
            try write { tx in
                try revert([entry], in: tx)
            }
        }
    }

    /// Reverts every change of the operation `token` (one jsonstore write: a batch, a
    /// multi-id `delete`) in one batch, all or nothing, each guarded as `undo(_:revision:)`.
    ///
    /// - Throws: `StoreError`: `.changed` naming every member changed since (nothing is
    ///   written), `.notFound` when the history holds no such operation.
    public func undo(operation token: String) throws(StoreError) {
        let entries: [HistoryEntry]
        if let remote {
            entries = try remoteOperation(token, in: remote)
        } else {
            entries = try requireHistory().journal.entries(ofOperation: token)
        }
        guard !entries.isEmpty else {
            throw StoreError(
                code: .notFound, message: "no operation \(token) in the history", file: path)
        }
        try recordLateChanges(entries.map(\.id))
        try storeErrors {
            try write { tx in
                try revert(entries.reversed(), in: tx)
            }
        }
    }

    /// The store's history, or the error that says it keeps none.
    func requireHistory() throws(StoreError) -> StoreHistory {
        guard let history else {
            throw StoreError(
                code: .unsupported,
                message: remote == nil
                    ? "this store keeps no history (Options.keepsHistory is false)"
                    : "history is not kept for this store", file: path)
        }
        return history
    }

    /// Throws when `revision` is older than what the history keeps.
    private func checkNotPruned(_ revision: Int, _ history: StoreHistory) throws(StoreError) {
        let first = history.journal.firstRevision
        guard revision < first else { return }
        throw StoreError(
            code: .notFound,
            message: "revision \(revision) was pruned: the history begins at \(first) "
                + "(Options.historyMaxAge, historyMaxBytes)", file: path)
    }

    /// The change of `id` at `revision`, or its last one.
    private func change(of id: String, at revision: Int?, in history: StoreHistory)
        throws(StoreError) -> HistoryEntry
    {
        guard let revision else {
            var last: HistoryEntry?
            history.journal.entriesNewestFirst(of: id) {
                last = $0
                return false
            }
            guard let last else {
                throw StoreError(
                    code: .notFound, message: "no history of \"\(id)\"", file: filePath(id),
                    id: id)
            }
            return last
        }
        try checkNotPruned(revision, history)
        guard let entry = history.journal.entry(at: revision) else {
            throw StoreError(
                code: .notFound, message: "no revision \(revision) in the history",
                file: filePath(id), id: id)
        }
        guard UTF8Key(entry.id) == UTF8Key(id) else {
            throw StoreError(
                code: .notFound,
                message: "revision \(revision) changed \"\(entry.id)\", not \"\(id)\"",
                file: filePath(id), id: id)
        }
        return entry
    }

    /// Undoes `entries` (newest first) in the batch `tx`, or throws naming what changed.
    private func revert(_ entries: some Sequence<HistoryEntry>, in tx: Transaction) throws {
        var refusals: [String] = []
        for entry in entries {
            if entry.isBaseline {
                // Where the item's history begins: the item as first seen, not a change.
                refusals.append(
                    "revision \(entry.revision) is where the history of \"\(entry.id)\" begins "
                        + "(the item as it was first seen): there is no change to undo")
                continue
            }
            let current = try tx.item(entry.id)?.members
            switch HistoryUndo.reverting(entry, current: current) {
            case .put(let object): try tx.put(entry.id, object)
            case .delete: try tx.delete(entry.id)
            case .unknown:
                refusals.append(
                    "revision \(entry.revision) of \"\(entry.id)\" kept only the value after "
                        + "it: what it was before is not known")
            case .refused(let paths):
                let words = HistoryUndo.refusal(
                    paths, id: entry.id, since: entry.revision, exists: current != nil)
                refusals.append(entries.underestimatedCount > 1 ? "\(entry.id): \(words)" : words)
            }
        }
        guard refusals.isEmpty else {
            let ids = Set(entries.map { UTF8Key($0.id) })
            let only = ids.count == 1 ? ids.first?.string : nil
            throw StoreError(
                code: .changed, message: "not undone: " + refusals.joined(separator: "; "),
                file: only.map(filePath) ?? path, id: only)
        }
    }
}
