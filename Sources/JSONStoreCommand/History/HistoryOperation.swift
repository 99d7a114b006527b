import JSONStore

/// The entries of one operation: one jsonstore command's write (a batch, a multi-id
/// `delete`), or one change by another program, for `log --ops`.
struct HistoryOperation {
    /// Newest first, as `log` lists them.
    var entries: [HistoryEntry]

    var newest: HistoryEntry { entries[0] }
    var oldest: HistoryEntry { entries[entries.count - 1] }

    /// `entries` (newest first) grouped by operation: an operation's entries are
    /// consecutive, the journal being written under the store's lock.
    static func group(_ entries: [HistoryEntry]) -> [HistoryOperation] {
        var groups: [HistoryOperation] = []
        for entry in entries {
            if let operation = entry.operation, groups.last?.newest.operation == operation {
                groups[groups.count - 1].entries.append(entry)
            } else {
                groups.append(HistoryOperation(entries: [entry]))
            }
        }
        return groups
    }
}
