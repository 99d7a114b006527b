import Dispatch
import Glibc

extension Journal {
    /// What marks a line as an entry of `id`: its `"id"` member as the journal writes it,
    /// between the members written before and after it (`,"id":"tea","kind":"`).
    static func marker(of id: String) -> [UInt8] {
        var marker = Array(#","id":"#.utf8)
        JSONWriter.appendCompact(.string(id), to: &marker, escapingUnicodeLineBreaks: true)
        marker += Array(#","kind":""#.utf8)
        return marker
    }

    /// The entries of `id`, newest first, found by their marker rather than by parsing
    /// every line: `more` is called with each until it returns `false`.
    ///
    /// - Complexity: O(bytes of the segments read), at the speed of `memmem`, plus the
    ///   parsing of the entries found.
    func entriesNewestFirst(of id: String, while more: (HistoryEntry) -> Bool) {
        entriesNewestFirst(of: id, as: HistoryEntry.self, while: more)
    }

    /// `entriesNewestFirst(of:while:)`, making `Record`s of the lines.
    func entriesNewestFirst<Record: JournalRecord>(
        of id: String, as type: Record.Type, while more: (Record) -> Bool
    ) {
        let key = UTF8Key(id)
        linesNewestFirst(holding: Self.marker(of: id)) { line in
            guard case .success(let entry) = Record.decode(line), UTF8Key(entry.id) == key
            else { return true }
            return more(entry)
        }
    }

    /// Calls `body` with each whole entry line that holds `marker`, newest first, found with
    /// `memmem` in windows read from each segment's end (a line holding it twice, once),
    /// until `body` returns `false`.
    ///
    /// The newest segment is read first, alone, a window at a time from its end: a recent
    /// change is found there (a write's head lookup stops in its first windows). Past it,
    /// two older segments at a time (on two cores, where there are) are read whole, their
    /// lines kept, then handed on in order: a lookup that goes far back takes the time of
    /// about half the bytes, and one that stops there reads one segment too many.
    func linesNewestFirst(holding marker: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        guard let dir = try? openFolder(create: false) else { return }
        defer { dir.close() }
        let newestFirst = Array(segments().reversed())
        guard let newest = newestFirst.first else { return }
        var left: [(segment: Segment, end: Int?)] = []
        switch scan(newest, in: dir, holding: marker, body) {
        case .stopped: return
        case .readBackTo(let end): if end > 0 { left.append((newest, end)) }
        }
        left += newestFirst.dropFirst().map { ($0, nil) }
        var next = 0
        while next < left.count {
            let batch = Array(left[next..<min(left.count, next + min(Cores.count, 2))])
            next += batch.count
            let found = Slots<[[UInt8]]>(count: batch.count, initial: [])
            DispatchQueue.concurrentPerform(iterations: batch.count) { k in
                var lines: [[UInt8]] = []
                _ = scan(batch[k].segment, in: dir, holding: marker, before: batch[k].end) {
                    lines.append(Array($0))
                    return true
                }
                found[k] = lines
            }
            for lines in found.values {
                for line in lines where !line.withUnsafeBufferPointer(body) { return }
            }
        }
    }

    /// How far a scan of one segment went.
    private enum Scan {
        /// `body` asked for no more.
        case stopped
        /// What is left unread ends here (0: nothing is).
        case readBackTo(Int)
    }

    /// Calls `body` with each whole entry line of `segment` before `end` (its end when
    /// `nil`) that holds `marker`, newest first.
    private func scan(
        _ segment: Segment, in dir: FileDescriptor, holding marker: [UInt8], before end: Int? = nil,
        _ body: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Scan {
        guard
            let fd = try? FileDescriptor.open(
                segment.name, relativeTo: dir, flags: O_RDONLY | O_NOFOLLOW)
        else { return .readBackTo(0) }
        defer { fd.close() }
        guard let size = try? fd.status().size else { return .readBackTo(0) }
        // From the end back, a window at a time: a recent change is found in the first.
        var (end, window) = (min(end ?? size, size), 256 << 10)
        while end > 0 {
            let start = max(0, end - window)
            guard let bytes = try? fd.read(count: end - start, at: start) else { break }
            let newline = UInt8(ascii: "\n")
            // Where the window's first whole line begins: after its first newline but for
            // its last byte (a line ending there begins before the window).
            let whole: Int? = bytes.withUnsafeBufferPointer { all in
                start == 0
                    ? 0
                    : ByteSearch.first(
                        newline, in: UnsafeBufferPointer(rebasing: all[..<(all.count - 1)])
                    ).map { $0 + 1 }
            }
            guard let whole else {
                window *= 4  // one line longer than the window
                continue
            }
            let done = bytes.withUnsafeBufferPointer { all -> Bool in
                let lines = UnsafeBufferPointer(rebasing: all[whole...])
                var handled = -1  // a line that holds the marker twice is one entry
                for offset in ByteSearch.offsets(of: marker, in: lines).reversed() {
                    let from =
                        ByteSearch.last(newline, in: lines, before: offset).map { $0 + 1 } ?? 0
                    guard from != handled else { continue }
                    handled = from
                    // Not the header; not a line cut short at the end.
                    guard let to = ByteSearch.first(newline, in: lines, from: offset),
                        start + whole + from > 0
                    else { continue }
                    if !body(UnsafeBufferPointer(rebasing: lines[from..<to])) { return true }
                }
                return false
            }
            if done { return .stopped }
            end = start + whole
        }
        return .readBackTo(end)
    }

    /// What the journal last recorded of `id`, read from the heads of its entries; `nil`
    /// when it has none.
    func head(of id: String) -> JournalHeads.Head? {
        var found: [JournalLine.Head] = []
        entriesNewestFirst(of: id, as: JournalLine.Head.self) { head in
            found.append(head)
            return !head.whole
        }
        guard let newest = found.first else { return nil }
        return JournalHeads.Head(
            revision: newest.revision, kind: newest.kind, fingerprint: newest.fingerprint,
            sinceKeyframe: found.prefix { !$0.whole }.count,
            wholeAt: found.first(where: \.whole)?.revision ?? 0)
    }

    /// The item `id` as the journal last recorded it: `nil` when it was deleted, has no
    /// entry, or cannot be rebuilt.
    func lastValue(of id: String) -> JSONObject? {
        var found: [HistoryEntry] = []
        entriesNewestFirst(of: id) { entry in
            found.append(entry)
            return !entry.keepsWhole
        }
        return Self.value(after: found.reversed())
    }

    /// Where the journal's whole lines end now (the newest segment, after its last
    /// newline), and the revision of the last of them (its segment's first less one when
    /// it holds none).
    func end() -> (position: Position, lastRevision: Int)? {
        guard let newest = segments().last, let dir = try? openFolder(create: false) else {
            return nil
        }
        defer { dir.close() }
        guard
            let fd = try? FileDescriptor.open(
                newest.name, relativeTo: dir, flags: O_RDONLY | O_NOFOLLOW)
        else { return nil }
        defer { fd.close() }
        guard let size = try? fd.status().size else { return nil }
        let newline = UInt8(ascii: "\n")
        var window = min(size, 64 << 10)
        while true {
            guard let tail = try? fd.read(count: window, at: size - window) else { return nil }
            let found = tail.withUnsafeBufferPointer {
                all -> (end: Int, revision: Int?, isFirst: Bool)? in
                guard let last = ByteSearch.last(newline, in: all, before: all.count) else {
                    return nil
                }
                guard let before = ByteSearch.last(newline, in: all, before: last) else {
                    // The line is the window's first: whole only when the window is the file.
                    let line = UnsafeBufferPointer(rebasing: all[..<last])
                    return window == size ? (last + 1, JournalLine.head(line)?.revision, true) : nil
                }
                let line = UnsafeBufferPointer(rebasing: all[(before + 1)..<last])
                return (last + 1, JournalLine.head(line)?.revision, false)
            }
            if let found {
                let position = Position(segment: newest, offset: size - window + found.end)
                if let revision = found.revision { return (position, revision) }
                if found.isFirst { return (position, newest.first - 1) }  // the header alone
                // A damaged last line: the whole segment tells.
                let report = read(
                    JournalLine.Head.self, from: Position(segment: newest, offset: 0)
                ) { _ in }
                return (position, max(report.lastRevision, newest.first - 1))
            }
            if window == size { return (Position(segment: newest, offset: 0), newest.first - 1) }
            window = min(size, window * 4)
        }
    }
}
