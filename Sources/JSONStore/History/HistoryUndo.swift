/// What undoing one history entry makes of the item as it is now: its inverse applied,
/// where every member that change touched is still as the change left it.
enum HistoryUndo {
    enum Outcome: Equatable {
        /// The item becomes this.
        case put(JSONObject)
        /// The item is deleted (the change created it).
        case delete
        /// Refused: these members (JSON Pointers) are no longer as the change left them;
        /// `""` is the whole item (deleted, or there again).
        case refused([String])
        /// Refused: the entry does not say what the item was before it.
        case unknown
    }

    /// Undoing `entry` on `current` (the item now, `nil` when there is none).
    static func reverting(_ entry: HistoryEntry, current: JSONObject?) -> Outcome {
        switch entry.kind {
        case .modified:
            guard let current else { return .refused([""]) }
            // Only the value after it was kept (what came before was not known then).
            guard !entry.changes.isEmpty else { return .unknown }
            let changed = entry.changes.filter { change in
                MemberChange.value(at: change.path.dropFirst(), in: .object(current))
                    != change.new
            }
            guard changed.isEmpty else { return .refused(changed.map(\.path)) }
            guard
                case .success(.object(let reverted)) = entry.inversePatch.applied(
                    to: .object(current))
            else { return .refused(entry.changes.map(\.path)) }
            return .put(reverted)
        case .created:
            guard let current else { return .refused([""]) }
            let created = entry.value ?? [:]
            // The members it made, and any added since, must be as it made them.
            let changed = MemberChange.between(created, current).map(\.path)
            return changed.isEmpty ? .delete : .refused(changed)
        case .deleted:
            guard current == nil, let value = entry.value else { return .refused([""]) }
            return .put(value)
        }
    }

    /// The words of a refusal: `/title changed since 41`, or the whole item's.
    static func refusal(_ paths: [String], id: String, since revision: Int, exists: Bool)
        -> String
    {
        if paths == [""] {
            return exists
                ? "\"\(id)\" exists again since \(revision)"
                : "\"\(id)\" was deleted since \(revision)"
        }
        return paths.map { "\($0) changed since \(revision)" }.joined(separator: ", ")
    }
}
