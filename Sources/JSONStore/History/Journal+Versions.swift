extension Journal {
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

extension Journal {
    /// The item `id` as it was right after `revision` (the newest of its entries at or
    /// before it), with that entry; `nil` when the journal holds no entry of it by then.
    /// The value is `nil` when it was deleted then, or cannot be rebuilt.
    func version(of id: String, at revision: Int) -> (entry: HistoryEntry, value: JSONObject?)? {
        var found: [HistoryEntry] = []
        entriesNewestFirst(of: id) { entry in
            guard entry.revision <= revision else { return true }
            found.append(entry)
            return entry.kind == .modified && entry.keyframe == nil
        }
        guard let entry = found.first else { return nil }
        return (entry, Self.value(after: found.reversed()))
    }

    /// The entry numbered `revision`, or `nil` when the journal does not hold it (pruned,
    /// lost, or not yet made).
    func entry(at revision: Int) -> HistoryEntry? {
        guard let segment = segments().last(where: { $0.first <= revision }),
            let bytes = try? bytes(of: segment, from: 0)
        else { return nil }
        // Within its segment: the heads tell the line, only it is parsed whole.
        return bytes.withUnsafeBufferPointer { all -> HistoryEntry? in
            var lineStart = 0
            while let newline = ByteSearch.first(UInt8(ascii: "\n"), in: all, from: lineStart) {
                let line = UnsafeBufferPointer(rebasing: all[lineStart..<newline])
                if lineStart > 0, JournalLine.head(line)?.revision == revision,
                    case .success(let entry) = JournalLine.decode(line)
                {
                    return entry
                }
                lineStart = newline + 1
            }
            return nil
        }
    }

    /// Every entry of the operation `token`, oldest first.
    func entries(ofOperation token: String) -> [HistoryEntry] {
        var marker = Array(#","op":"#.utf8)
        JSONWriter.appendCompact(.string(token), to: &marker)
        var found: [HistoryEntry] = []
        linesNewestFirst(holding: marker) { line in
            if case .success(let entry) = JournalLine.decode(line), entry.operation == token {
                found.append(entry)
            }
            return true
        }
        return found.reversed()
    }
}
