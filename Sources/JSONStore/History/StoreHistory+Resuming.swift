extension StoreHistory {
    /// The store as the journal recorded it at `revision`, rebuilt from `current`, a
    /// version the journal records exactly at `stamp`: every item changed after `revision`
    /// is put back as it was then, by the inverse of its changes since (or, when one of
    /// them kept no patch, from the journal's versions). Fails with the reason to start
    /// afresh: the revision was pruned, or the journal is damaged there.
    ///
    /// An item invalid now stays as it is, and the invalid files and conflicts are left
    /// out, so the changes from it list every one there is now: the journal keeps valid
    /// versions only.
    ///
    /// - Complexity: O(bytes of the journal after `revision`).
    func snapshot(
        at revision: Int, from current: StoreSnapshot, recordedAt stamp: JournalStamp
    ) -> Result<StoreSnapshot, StoreError> {
        var byID: [UTF8Key: [HistoryEntry]] = [:]
        var order: [UTF8Key] = []
        let report = journal.read(after: revision) { entry in
            guard entry.revision <= stamp.revision else { return }
            let key = UTF8Key(entry.id)
            if byID[key] == nil { order.append(key) }
            byID[key, default: []].append(entry)
        }
        let fail = { (reason: String) in
            Result<StoreSnapshot, StoreError>.failure(
                StoreError(code: .unsupported, message: reason, file: self.journal.folder.path))
        }
        guard let id = report.journalID, stamp.isOf(id) else {
            return fail("revision \(revision) is of a journal that is gone")
        }
        if revision + 1 < report.firstRevision {
            return fail(
                "revision \(revision) was pruned from the journal (it keeps \(report.firstRevision) on)"
            )
        }
        if let damage = report.damage.first {
            return fail("the journal is damaged after revision \(revision): \(damage)")
        }
        // Invalid files and conflicts are not in the journal: the update lists every one
        // there is now.
        var base = current
        base.invalid = [:]
        base.conflicts = [:]
        for key in order {
            guard let entries = byID[key], base.entries[key]?.error == nil else { continue }
            let now = current.entries[key]?.item(id: key.string)
            let value: JSONObject?
            if let rebuilt = Self.value(before: entries, now: now?.members) {
                value = rebuilt
            } else if let found = journal.version(of: key.string, at: revision) {
                guard found.entry.kind == .deleted || found.value != nil else {
                    return fail("the journal cannot rebuild \(key.string) as it was at \(revision)")
                }
                value = found.value
            } else if entries.first?.kind == .created, entries.first?.isBaseline == false {
                value = nil  // made after it
            } else {
                return fail("the journal cannot rebuild \(key.string) as it was at \(revision)")
            }
            guard let value else {
                base.setEntry(nil, for: key)
                continue
            }
            let fingerprint =
                now.flatMap { $0.members == value ? $0.fingerprint : nil }
                ?? Fingerprint(JSONWriter.compact(.object(value)))
            let item = Item(id: key.string, object: value, fingerprint: fingerprint)
            base.setEntry(Entry(item: item, error: nil), for: key)
        }
        base.stamp = JournalStamp(revision: revision, journalID: stamp.journal)
        return .success(base)
    }

    /// An item's value before `entries` (its entries after a revision, oldest first), from
    /// `now`, its value after them: `.some(nil)` when it did not exist, `nil` when the
    /// entries cannot tell (a change that kept no patch, or one that does not apply).
    static func value(before entries: [HistoryEntry], now: JSONObject?) -> JSONObject?? {
        var value = now
        for entry in entries.reversed() {
            switch entry.kind {
            case .created:
                // First seen: it was there before, as what is not known.
                if entry.isBaseline { return nil }
                value = nil
            case .deleted:
                guard let deleted = entry.value else { return nil }  // what it was is not known
                value = deleted
            case .modified:
                if entry.changes.isEmpty && entry.keyframe != nil { return nil }
                guard let after = value,
                    case .success(.object(let before)) = entry.inversePatch.applied(
                        to: .object(after))
                else { return nil }
                value = before
            }
        }
        return .some(value)
    }
}
