import Glibc

/// Writes the start cache of one published version, in the background: each item with a
/// signature its file had when it held the version's bytes.
///
/// An item whose bytes the last cache had, with a signature, keeps that signature: a file
/// with it held those bytes, and can have it again only by a clock set back (its change
/// time was before that cache's look). Of the others, a file whose times are before the
/// load's look has not changed since the load read it. One changed since is read again,
/// after a look of the writer's own began: kept when it holds the version's bytes and was
/// settled before that look. Every other id (changed again, invalid, gone) is written as
/// one to read again, so a start knows it was there.
struct StartCacheWriter: Sendable {
    let store: String
    let snapshot: StoreSnapshot
    /// When the load that began the pipeline's knowledge started.
    let loadLook: Int64
    let base: StoreHistory.StampBase?
    /// The journal's heads at `base`'s stamp: each entry keeps its item's.
    let heads: StoreHistory.StampHeads?
    let terms: Fingerprint
    /// The largest item file read.
    let limit: Int
    /// The ids whose files the start read, not taking them from its cache: the last
    /// cache's signatures of them are not theirs now, whatever the bytes.
    var reread: Set<UTF8Key> = []

    /// Writes the cache; what was written, `nil` when nothing was.
    @discardableResult
    func write() -> StartCache.Placed? {
        guard let dir = try? FileDescriptor.openDirectory(store) else { return nil }
        defer { dir.close() }
        guard let directory = StartCache.directory(of: dir),
            let look = StartCache.beginLook(store: store, create: false)
        else { return nil }
        // The last cache: its records and names read forward, a block at a time, not its
        // items' bytes; walked once to count what is written, then again to write it.
        let last = StartCache.Cursor.open(store: store, directory: directory, terms: terms)
        let earlier = HeadsSince(heads: heads, base: base, last: last)
        let walk = Walk(
            last: last, heads: earlier, known: earlier.known(notIn: snapshot), reread: reread)
        // What is written: the snapshot's ids, and among them the ids the journal has a head
        // of that have no item now (deleted, or invalid since they appeared).
        var (count, namesCount) = (0, 0)
        walk.each(snapshot) { entry, _ in
            count += 1
            namesCount += entry.id.utf8.count
        }
        guard last?.failed != true else { return nil }
        last?.rewind()
        var header = StartCache.Header(
            directory: directory, lookedAt: look, stamp: base?.stamp, position: base?.position,
            terms: terms)
        header.headsComplete = earlier.isComplete
        return StartCache.write(
            store: store, header: header, count: count, namesCount: namesCount
        ) {
            (encoder) throws(Errno) in
            var failure: Errno?
            walk.each(snapshot) { entry, item in
                guard failure == nil else { return }
                var entry = entry
                if let item, let signature = signature(of: item, in: dir, look: look) {
                    (entry.signature, entry.fingerprint, entry.bytes) =
                        (signature, item.fingerprint, item.bytes)
                }
                do throws(Errno) { try encoder.append(entry) } catch { failure = error }
            }
            if let failure { throw failure }
            // A read of the last cache that failed gave a fallback: nothing is written.
            if last?.failed == true { throw .ioError }
        }
    }

    /// The snapshot's ids and the others, in order, walked with the last cache's.
    private struct Walk {
        let last: StartCache.Cursor?
        let heads: HeadsSince
        let known: [(id: String, head: StartCache.Head)]
        let reread: Set<UTF8Key>

        /// Calls `body` with each entry to write, in order: the snapshot's (with its item,
        /// to be given its signature, unless the last cache's holds) and the others'.
        func each(_ snapshot: StoreSnapshot, _ body: (StartCache.Entry, Item?) -> Void) {
            let unknown = ItemBytes([UInt8]())
            let empty = Fingerprint([UInt8]())
            var (k, n) = (0, 0)
            func other(_ id: String, _ head: StartCache.Head) {
                body(
                    StartCache.Entry(
                        id: id, signature: .absent, fingerprint: empty, bytes: unknown,
                        head: head), nil)
            }
            // The others before `key` (all that are left when `nil`): the recorder's, and
            // the last cache's ids that have no item now; `k` is left at `key`'s entry.
            func others(before key: String?) {
                while let last, k < last.count, key.map({ last.compare(k, $0) < 0 }) ?? true {
                    if let (id, head) = heads.carried(k) {
                        while n < known.count, UTF8Key.less(known[n].id, id) {
                            other(known[n].id, known[n].head)
                            n += 1
                        }
                        other(id, head)
                    }
                    k += 1
                }
                while n < known.count, key.map({ UTF8Key.less(known[n].id, $0) }) ?? true {
                    other(known[n].id, known[n].head)
                    n += 1
                }
            }
            snapshot.entries.forEach { key, entry in
                others(before: key.string)
                let at = last.flatMap { k < $0.count && $0.compare(k, key.string) == 0 ? k : nil }
                var kept = StartCache.Entry(
                    id: key.string, signature: .unknown, fingerprint: empty, bytes: unknown,
                    head: heads.head(of: key, lastAt: at))
                let item = entry.error == nil ? entry.item(id: key.string) : nil
                if let item, let at, let last, Self.holds(last, at, item.fingerprint),
                    !reread.contains(key)
                {
                    (kept.signature, kept.fingerprint, kept.bytes) =
                        (last.signature(at: at), item.fingerprint, item.bytes)
                }
                if at != nil { k += 1 }
                body(kept, kept.signature == .unknown ? item : nil)
            }
            others(before: nil)
        }

        /// Whether the last cache's entry `k` is of a file that held the bytes of
        /// `fingerprint`.
        static func holds(
            _ last: StartCache.Cursor, _ k: Int, _ fingerprint: Fingerprint
        )
            -> Bool
        {
            last.signature(at: k).isFile && last.fingerprint(at: k) == fingerprint
        }
    }

    /// The signature of `item`'s file when the file is known to hold the item's bytes.
    private func signature(of item: Item, in dir: FileDescriptor, look: Int64)
        -> FileSignature?
    {
        let name = item.fileName
        guard let now = dir.signature(of: name) else { return nil }
        if now.isSettled(before: loadLook) { return now }
        guard
            let file = try? FileDescriptor.open(
                name, relativeTo: dir, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        else { return nil }
        defer { file.close() }
        guard let signature = file.signature(), signature.isSettled(before: look),
            let bytes = try? file.readAll(sizeHint: Int(signature.size), limit: limit),
            Fingerprint(bytes) == item.fingerprint
        else { return nil }
        return signature
    }
}
