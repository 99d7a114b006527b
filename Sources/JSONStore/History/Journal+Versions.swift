extension Journal {
    /// Every entry of the item `id`, oldest first, and what the read found wrong.
    ///
    /// - Complexity: O(bytes of the journal).
    func entries(of id: String) -> (entries: [HistoryEntry], report: ReadReport) {
        var found: [HistoryEntry] = []
        let key = UTF8Key(id)
        let report = read { entry in
            if UTF8Key(entry.id) == key { found.append(entry) }
        }
        return (found, report)
    }

    /// The item as it was after `entries` (one item's, oldest first): `nil` when it did not
    /// exist then, or when the journal no longer holds how it came to be.
    static func value(after entries: some BidirectionalCollection<HistoryEntry>) -> JSONObject? {
        // From the newest entry that holds the whole value, the patches after it.
        guard let start = entries.lastIndex(where: { $0.kind != .modified || $0.keyframe != nil })
        else { return nil }
        var value: JSONObject?
        for entry in entries[start...] {
            switch entry.kind {
            case .created: value = entry.value
            case .deleted: value = nil
            case .modified:
                if let keyframe = entry.keyframe {
                    value = keyframe
                } else if let current = value,
                    case .success(.object(let next)) = entry.patch.applied(to: .object(current))
                {
                    value = next
                } else {
                    return nil
                }
            }
        }
        return value
    }
}
