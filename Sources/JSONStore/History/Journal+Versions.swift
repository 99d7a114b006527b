extension Journal {
    /// The item as it was after `entries` (one item's, oldest first): `nil` when it did not
    /// exist then, or when the journal no longer holds how it came to be.
    static func value(after entries: some BidirectionalCollection<HistoryEntry>) -> JSONObject? {
        // From the newest entry that holds the whole value, the patches after it.
        guard let start = entries.lastIndex(where: \.keepsWhole)
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
            return !entry.keepsWhole
        }
        guard let entry = found.first else { return nil }
        return (entry, Self.value(after: found.reversed()))
    }

    /// The entry numbered `revision`, or `nil` when the journal does not hold it (pruned,
    /// lost, or not yet made).
    func entry(at revision: Int) -> HistoryEntry? {
        guard let segment = segments().last(where: { $0.first <= revision }) else { return nil }
        // Within its segment: the heads tell the line, only it is parsed whole.
        var found: HistoryEntry?
        forEachEntryLine(of: segment) { line in
            guard JournalLine.head(line)?.revision == revision,
                case .success(let entry) = JournalLine.decode(line)
            else { return true }
            found = entry
            return false
        }
        return found
    }

    /// Calls `body` with each whole entry line of `segment` (its header left out), oldest
    /// first, until it returns `false`; nothing when the segment cannot be read.
    private func forEachEntryLine(
        of segment: Segment, _ body: (UnsafeBufferPointer<UInt8>) -> Bool
    ) {
        guard let bytes = try? bytes(of: segment, from: 0) else { return }
        bytes.withUnsafeBufferPointer { all in
            var lineStart = 0
            while let newline = ByteSearch.first(UInt8(ascii: "\n"), in: all, from: lineStart) {
                defer { lineStart = newline + 1 }
                guard lineStart > 0 else { continue }
                if !body(UnsafeBufferPointer(rebasing: all[lineStart..<newline])) { return }
            }
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

extension Journal {
    /// The items of `wanted` as the journal last recorded them, as `lastValue(of:)` gives
    /// each, with one read of the journal instead of a search of it each: for many at once
    /// (a look at a whole store that found thousands changed while nothing ran, where a
    /// search each read a big journal back to the items' creation thousands of times).
    ///
    /// `wanted` gives each id the revision of its newest entry that keeps the whole value
    /// (0 when not known); the read begins at the oldest of them, and an item whose whole
    /// value is not found from there is searched for alone. An item deleted, with no
    /// entry, or that cannot be rebuilt has no value.
    ///
    /// - Complexity: O(bytes of the segments from the oldest revision wanted): each line's
    ///   head is read, only the wanted items' entries are parsed whole.
    func lastValues(of wanted: [UTF8Key: Int]) -> [UTF8Key: JSONObject] {
        guard let from = wanted.values.min() else { return [:] }
        let all = segments()
        let first = all.lastIndex { $0.first <= max(from, 1) } ?? 0
        // Each item's entries from its newest whole one on: a few, as keyframes are kept.
        var since: [UTF8Key: [HistoryEntry]] = [:]
        for segment in all.dropFirst(first) {
            forEachEntryLine(of: segment) { line in
                guard let head = JournalLine.head(line) else { return true }
                let key = UTF8Key(head.id)
                guard let start = wanted[key], head.revision >= start,
                    case .success(let entry) = JournalLine.decode(line)
                else { return true }
                if head.whole {
                    since[key] = [entry]
                } else {
                    since[key, default: []].append(entry)
                }
                return true
            }
        }
        // Whose mark is at or before the oldest revision kept, every line kept was read.
        let oldest = all.first?.first ?? 1
        var values: [UTF8Key: JSONObject] = [:]
        for (key, start) in wanted {
            guard let entries = since[key], entries.first?.keepsWhole == true else {
                // Its whole value is older than it was said to be: searched for alone.
                // Unless every line was read and none is of it: its entries were pruned (a
                // mark older than the journal), and a search of the whole journal, newest
                // first, would find none (a second each at a million items).
                let pruned = start <= oldest && since[key] == nil
                if !pruned, let value = lastValue(of: key.string) { values[key] = value }
                continue
            }
            if let value = Self.value(after: entries) { values[key] = value }
        }
        return values
    }
}
