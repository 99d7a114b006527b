import Glibc

/// The journal opened at its end for appending, by a holder of the store's lock: the
/// newest segment, its last revision, and room made for what comes next.
///
/// Opening cuts off a line left cut short by a writer killed mid-append (it was never an
/// entry) and begins a new segment when the newest is full. Room for a write's entries is
/// reserved before the write changes any item file (`reserve`), so a full disk refuses the
/// write rather than leaving it unrecorded; the entries are appended once the files are in
/// place, and synced with one `fdatasync`, or only sent on their way to the disk
/// (`append(_:bodies:syncing:)`).
final class JournalAppender {
    let journal: Journal
    private let dir: FileDescriptor
    private var file: FileDescriptor
    private(set) var journalID: String
    private(set) var segment: Journal.Segment
    private var size: Int
    /// The newest revision in the journal; the next entry gets one more.
    private(set) var lastRevision: Int
    /// Whether the newest segment's header is damaged: the next entry begins a new one.
    private var headerDamaged = false

    /// Where the journal ends now.
    var end: Journal.Position { Journal.Position(segment: segment, offset: size) }

    /// Opens the journal's end, making the journal (a new name, revision 1) when there is
    /// none. `known` is where a reader under the same lock found it ends (`JournalHeads`):
    /// when the newest segment still ends there, its tail is not read again.
    init(_ journal: Journal, known: JournalHeads.End? = nil) throws(StoreError) {
        self.journal = journal
        guard let dir = try journal.openFolder(create: true) else {
            throw StoreError(code: .io, message: "no journal folder", file: journal.folder.path)
        }
        self.dir = dir
        do throws(StoreError) {
            if let newest = journal.segments().last {
                segment = newest
                let (opened, openedSize) = try Self.open(newest, in: dir, journal: journal)
                let end = try opened.closeIfThrows { opened throws(StoreError) in
                    try Self.tail(
                        of: opened, size: openedSize, segment: newest, journal: journal,
                        known: known)
                }
                (file, size) = (opened, end.size)
                (journalID, lastRevision) = (end.journalID, end.lastRevision)
                headerDamaged = end.damaged
            } else {
                (journalID, segment, lastRevision) = (Journal.newID(), Journal.Segment(first: 1), 0)
                (file, size) = try Self.begin(segment, journalID: journalID, in: dir, journal)
            }
        } catch {
            dir.close()
            throw error
        }
        // A full segment is closed now, before entries are made for the next: an item's
        // first entry in a segment keeps its whole value (`HistoryDraft.segmentStart`).
        if size >= journal.segmentLimit || headerDamaged {
            do {
                try rollOver()
            } catch {
                close()
                throw error
            }
        }
    }

    func close() {
        file.close()
        dir.close()
    }

    /// Makes sure `bytes` more can be appended whatever the disk holds by then: a full disk
    /// fails here, before anything is written.
    func reserve(_ bytes: Int) throws(StoreError) {
        do {
            try file.reserve(from: size, length: bytes)
        } catch .notSupported {
            // A file system without fallocate: the append itself finds a full disk.
        } catch {
            throw StoreError.system(
                error, "no room for the history of this write (nothing is written)",
                file: journal.path(of: segment))
        }
    }

    /// Numbers `drafts` from the next revision, appends them and syncs the segment.
    ///
    /// - Parameters:
    ///   - bodies: each draft's `JournalLine.body`, when made already.
    ///   - syncing: whether to wait for the lines to reach the disk (`fdatasync`). When
    ///     not, their writing is begun, and the file system commits it within seconds
    ///     (`JSONStore.Options.historySyncsEachWrite`).
    func append(_ drafts: [HistoryEntry], bodies: [[UInt8]]? = nil, syncing: Bool = true)
        throws(StoreError) -> [HistoryEntry]
    {
        guard !drafts.isEmpty else { return [] }
        var bytes: [UInt8] = []
        var numbered: [HistoryEntry] = []
        for (i, draft) in drafts.enumerated() {
            let entry = draft.numbered(lastRevision + numbered.count + 1)
            bytes += JournalLine.line(
                revision: entry.revision, body: bodies?[i] ?? JournalLine.body(entry))
            numbered.append(entry)
        }
        do {
            try bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try file.writeAll(raw) }
            }
            .get()
            FaultPoint.appended.reached()
            if syncing {
                try file.syncData()
            } else {
                // In the page cache, the lines are already what every process reads.
                try? file.startWriteback(from: size, count: bytes.count)
            }
            FaultPoint.synced.reached()
        } catch {
            // What was written of it is a line cut short: cut off by the next opener.
            try? file.truncate(to: size)
            throw StoreError.system(
                error, "could not record the history of this write", file: journal.path(of: segment)
            )
        }
        size += bytes.count
        lastRevision += numbered.count
        return numbered
    }

    /// Begins the next segment when this one is full: for an appender that appends many
    /// times (a look at a whole store), so no segment outgrows the limit by more than one
    /// append, and no reader of the journal holds more than that at once.
    ///
    /// Nothing is pruned meanwhile: the look's own first entries would go before it ends,
    /// and its stamp would find their items unrecorded. The next appender prunes.
    func rollOverIfFull() throws(StoreError) {
        if size >= journal.segmentLimit { try rollOver(pruning: false) }
    }

    /// Closes the full segment and begins the next, named by the next revision, then
    /// prunes what retention lets go.
    private func rollOver(pruning: Bool = true) throws(StoreError) {
        let next = Journal.Segment(first: lastRevision + 1)
        if next == segment {
            // A segment with no entry, its header damaged: begun again in place.
            do {
                try file.truncate(to: 0)
                let header = Journal.header(journal: journalID)
                try header.withUnsafeBytes { raw in
                    Result { () throws(Errno) in try file.writeAll(raw) }
                }
                .get()
                try file.syncData()
                (size, headerDamaged) = (header.count, false)
                return
            } catch {
                throw StoreError.system(error, "could not begin", file: journal.path(of: segment))
            }
        }
        let (newFile, newSize) = try Self.begin(next, journalID: journalID, in: dir, journal)
        file.close()
        (file, size, segment, headerDamaged) = (newFile, newSize, next, false)
        if pruning { journal.prune() }
    }

    /// Creates a segment with its header, and syncs the folder so its name is durable.
    private static func begin(
        _ segment: Journal.Segment, journalID: String, in dir: FileDescriptor, _ journal: Journal
    ) throws(StoreError) -> (FileDescriptor, Int) {
        let header = Journal.header(journal: journalID)
        do throws(Errno) {
            let fd = try FileDescriptor.open(
                segment.name, relativeTo: dir,
                flags: O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o644)
            try fd.closeIfThrows { fd throws(Errno) in
                try header.withUnsafeBytes { raw in
                    Result { () throws(Errno) in try fd.writeAll(raw) }
                }
                .get()
                try fd.syncData()
                try dir.sync()
            }
            return (fd, header.count)
        } catch {
            throw StoreError.system(error, "could not begin", file: journal.path(of: segment))
        }
    }

    /// Where a segment's whole lines end, the journal its header names, its last revision,
    /// and whether its header is damaged: read from its last line, found in a window at
    /// its end that grows until it holds the line, or from the whole segment when that
    /// line is not an entry.
    private static func end(
        of file: FileDescriptor, size: Int, segment: Journal.Segment, journal: Journal
    ) throws(StoreError) -> (journalID: String, lastRevision: Int, size: Int, damaged: Bool) {
        let newline = UInt8(ascii: "\n")
        var window = min(size, 64 << 10)
        while true {
            let tail: [UInt8]
            do {
                tail = try file.read(count: window, at: size - window)
            } catch {
                throw StoreError.system(error, "could not read", file: journal.path(of: segment))
            }
            let found = tail.withUnsafeBufferPointer { all -> (whole: Int, line: Range<Int>)? in
                guard let last = ByteSearch.last(newline, in: all, before: all.count) else {
                    return nil
                }
                guard let before = ByteSearch.last(newline, in: all, before: last) else {
                    return window == size ? (last + 1, 0..<last) : nil
                }
                return (last + 1, before + 1..<last)
            }
            guard let found else {
                if window == size { break }
                window = min(size, window * 4)
                continue
            }
            let whole = size - window + found.whole
            let head = tail.withUnsafeBufferPointer {
                JournalLine.head(UnsafeBufferPointer(rebasing: $0[found.line]))
            }
            if let head, let id = Journal.journalID(inHeaderOf: file) {
                return (id, head.revision, whole, false)
            }
            // The header, or a damaged line: the whole segment tells.
            let report = journal.read(
                JournalLine.Head.self, from: Journal.Position(segment: segment, offset: 0)
            ) { _ in }
            let last = max(report.lastRevision, segment.first - 1)
            guard let id = Journal.journalID(inHeaderOf: file) else {
                // A header damaged by hand: the entries go on in a segment of their own,
                // under the name of the journal's first segment.
                return (journal.journalID() ?? Journal.newID(), last, whole, true)
            }
            return (id, last, whole, false)
        }
        // Not one whole line: a header cut short.
        return (journal.journalID() ?? Journal.newID(), segment.first - 1, 0, true)
    }

    /// Where the newest segment, open as `file` (`size` bytes), ends: as `known` says when
    /// it still ends there and its header is the same (one edited by hand begins a new
    /// segment), else read from its tail; a line cut short at its end is cut off.
    private static func tail(
        of file: FileDescriptor, size: Int, segment: Journal.Segment, journal: Journal,
        known: JournalHeads.End?
    ) throws(StoreError) -> (journalID: String, lastRevision: Int, size: Int, damaged: Bool) {
        if let known, known.position == Journal.Position(segment: segment, offset: size),
            Journal.journalID(inHeaderOf: file) == known.journalID
        {
            return (known.journalID, known.lastRevision, size, false)
        }
        let end = try Self.end(of: file, size: size, segment: segment, journal: journal)
        guard end.size < size else { return end }
        do {
            try file.truncate(to: end.size)
        } catch {
            throw StoreError.system(
                error, "could not cut off a line cut short", file: journal.path(of: segment))
        }
        return end
    }

    private static func open(_ segment: Journal.Segment, in dir: FileDescriptor, journal: Journal)
        throws(StoreError) -> (FileDescriptor, Int)
    {
        do throws(Errno) {
            let fd = try FileDescriptor.open(
                segment.name, relativeTo: dir, flags: O_RDWR | O_APPEND | O_NOFOLLOW)
            return (fd, try fd.closeIfThrows { fd throws(Errno) in try fd.status().size })
        } catch {
            throw StoreError.system(error, "could not open", file: journal.path(of: segment))
        }
    }
}
