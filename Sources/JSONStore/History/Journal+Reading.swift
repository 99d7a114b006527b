import Glibc

extension Journal {
    /// Where a read of the journal stopped: the segment and the offset after its last whole
    /// line, where the next read goes on.
    struct Position: Sendable, Hashable {
        var segment: Segment
        var offset: Int
    }

    /// What a read of the journal found besides its entries.
    struct ReadReport: Sendable {
        /// The journal's name (from its first segment's header); `nil` when it has none.
        var journalID: String?
        /// The newest revision read, 0 when there is none.
        var lastRevision = 0
        /// The oldest revision the journal still holds, 0 when it holds none.
        var firstRevision = 0
        /// Where the read stopped.
        var end: Position?
        var damage: [Damage] = []
    }

    /// Calls `body` with every entry after `revision`, oldest first, reading from `start`
    /// when given (a position an earlier read ended at), else from the first segment that
    /// may hold them.
    ///
    /// - Complexity: O(bytes of the segments read).
    func read(
        after revision: Int = 0, from start: Position? = nil, _ body: (HistoryEntry) -> Void
    ) -> ReadReport {
        read(HistoryEntry.self, after: revision, from: start, body)
    }

    /// `read(after:from:_:)`, making `Record`s of the lines (only the heads of the entries,
    /// for `JournalHeads`).
    func read<Record: JournalRecord>(
        _ type: Record.Type, after revision: Int = 0, from start: Position? = nil,
        _ body: (Record) -> Void
    ) -> ReadReport {
        var report = ReadReport()
        let all = segments()
        guard let oldest = all.first else { return report }
        report.firstRevision = oldest.first
        // Skip the segments wholly before where the read begins.
        var from = 0
        if let start, let i = all.firstIndex(of: start.segment) {
            from = i
        } else if revision > 0 {
            from = max(0, (all.lastIndex { $0.first <= revision + 1 } ?? 0))
        }
        for (i, segment) in all.enumerated().dropFirst(from) {
            let offset = start?.segment == segment ? start!.offset : 0
            let isLast = i == all.count - 1
            read(segment, from: offset, isLast: isLast, after: revision, &report, body)
            if i + 1 < all.count, report.lastRevision > 0,
                all[i + 1].first > report.lastRevision + 1
            {
                report.damage.append(
                    Damage(
                        file: path(of: all[i + 1]), offset: 0,
                        reason:
                            "revisions \(report.lastRevision + 1) to \(all[i + 1].first - 1) "
                            + "are missing (a segment was removed)"))
            }
        }
        // A read that began past the first header names the journal from it.
        if report.journalID == nil { report.journalID = headerID(all[0]) }
        return report
    }

    /// The newest `limit` entries after `revision`, newest first, read from the newest
    /// segment back only as far as they reach: a `log -n 20` of a million entries parsed
    /// and held every one (400 MB) to keep twenty.
    func newest(_ limit: Int, after revision: Int) -> [HistoryEntry] {
        let all = segments()
        var found: [HistoryEntry] = []
        for (i, segment) in all.enumerated().reversed() where found.count < limit {
            var report = ReadReport()
            var these: [HistoryEntry] = []
            read(segment, from: 0, isLast: i == all.count - 1, after: revision, &report) {
                these.append($0)
            }
            found += these.reversed().prefix(limit - found.count)
            // Older segments hold only revisions up to this one's first: none is wanted.
            if segment.first <= revision + 1 { break }
        }
        return found
    }

    /// Reads one segment from `offset` (0: its header first).
    private func read<Record: JournalRecord>(
        _ segment: Segment, from offset: Int, isLast: Bool, after revision: Int,
        _ report: inout ReadReport, _ body: (Record) -> Void
    ) {
        let file = path(of: segment)
        let bytes: [UInt8]
        do {
            guard let read = try self.bytes(of: segment, from: offset) else { return }
            bytes = read
        } catch {
            report.damage.append(Damage(file: file, offset: offset, reason: "\(error)"))
            return
        }
        var end = offset
        bytes.withUnsafeBufferPointer { all in
            var lineStart = 0
            func at(_ index: Int) -> Int { offset + index }
            while lineStart < all.count {
                guard let newline = ByteSearch.first(UInt8(ascii: "\n"), in: all, from: lineStart)
                else {
                    // A line not yet whole: a writer mid-append, or one killed there.
                    if !isLast {
                        report.damage.append(
                            Damage(file: file, offset: at(lineStart), reason: "a line cut short"))
                    }
                    break
                }
                let line = UnsafeBufferPointer(rebasing: all[lineStart..<newline])
                if at(lineStart) == 0 {
                    header(line, of: segment, file: file, &report)
                } else {
                    entry(line, at: at(lineStart), file: file, after: revision, &report, body)
                }
                lineStart = newline + 1
                end = at(lineStart)
            }
        }
        report.end = Position(segment: segment, offset: end)
    }

    private func header(
        _ line: UnsafeBufferPointer<UInt8>, of segment: Segment, file: String,
        _ report: inout ReadReport
    ) {
        guard let id = Self.journalID(inHeader: line) else {
            report.damage.append(
                Damage(file: file, offset: 0, reason: "not a journal segment's header"))
            return
        }
        if report.journalID == nil { report.journalID = id }
        if report.journalID != id {
            report.damage.append(
                Damage(file: file, offset: 0, reason: "a segment of another journal (\(id))"))
        }
    }

    private func entry<Record: JournalRecord>(
        _ line: UnsafeBufferPointer<UInt8>, at offset: Int, file: String, after revision: Int,
        _ report: inout ReadReport, _ body: (Record) -> Void
    ) {
        switch Record.decode(line) {
        case .failure(let damage):
            report.damage.append(Damage(file: file, offset: offset, reason: damage.reason))
        case .success(let entry):
            guard entry.revision > report.lastRevision else {
                report.damage.append(
                    Damage(
                        file: file, offset: offset,
                        reason: "revision \(entry.revision) after \(report.lastRevision)"))
                return
            }
            report.lastRevision = entry.revision
            if entry.revision > revision { body(entry) }
        }
    }

    /// A segment's bytes from `offset` to its end; `nil` when it is gone.
    func bytes(of segment: Segment, from offset: Int) throws(Errno) -> [UInt8]? {
        guard let dir = try? openFolder(create: false) else { return nil }
        defer { dir.close() }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(
                segment.name, relativeTo: dir, flags: O_RDONLY | O_NOFOLLOW)
        } catch .noSuchFile {
            return nil
        }
        defer { fd.close() }
        let size = try fd.status().size
        return size > offset ? try fd.read(count: size - offset, at: offset) : []
    }

    /// The journal's name, from its oldest segment's header.
    func journalID() -> String? { segments().first.flatMap(headerID) }

    /// The journal a segment's header names.
    private func headerID(_ segment: Segment) -> String? {
        guard let dir = try? openFolder(create: false) else { return nil }
        defer { dir.close() }
        guard
            let fd = try? FileDescriptor.open(
                segment.name, relativeTo: dir, flags: O_RDONLY | O_NOFOLLOW)
        else { return nil }
        defer { fd.close() }
        return Self.journalID(inHeaderOf: fd)
    }

    /// The journal the header of the segment open as `file` names.
    static func journalID(inHeaderOf file: FileDescriptor) -> String? {
        guard let head = try? file.read(count: 256, at: 0),
            let newline = head.firstIndex(of: UInt8(ascii: "\n"))
        else { return nil }
        return head.withUnsafeBufferPointer {
            journalID(inHeader: UnsafeBufferPointer(rebasing: $0[..<newline]))
        }
    }
}

/// What a read of the journal makes of a line: a whole entry, or only its head.
protocol JournalRecord {
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<Self, JournalLine.Damage>
    var revision: Int { get }
    var id: String { get }
}

extension HistoryEntry: JournalRecord {
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<Self, JournalLine.Damage> {
        JournalLine.decode(line)
    }
}

extension JournalLine.Head: JournalRecord {
    static func decode(_ line: UnsafeBufferPointer<UInt8>) -> Result<Self, JournalLine.Damage> {
        JournalLine.head(line).map { .success($0) }
            ?? .failure(JournalLine.Damage(reason: "not an entry"))
    }
}
