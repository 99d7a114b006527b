import Glibc

/// Writes the start cache of one published version, in the background: each item with the
/// signature its file has now, when the file is known to hold the version's bytes.
///
/// A file whose times are before the load's look has not changed since the load read it.
/// One changed since is read again, after a look of the writer's own began: kept when it
/// holds the version's bytes and was settled before that look. Every other id (changed
/// again, invalid, gone) is written as one to read again, so a start knows it was there.
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

    func write() {
        guard let dir = try? FileDescriptor.openDirectory(store) else { return }
        defer { dir.close() }
        guard let directory = StartCache.directory(of: dir),
            let look = StartCache.beginLook(store: store)
        else { return }
        var earlier = HeadsSince(heads: heads, base: base) {
            // Its heads alone: its items' bytes are not read.
            StartCache.read(store: store, directory: directory, terms: terms, withBytes: false)
        }
        // The ids the journal knows that have no item now (deleted, or invalid since they
        // appeared), with their heads, written in their places among the snapshot's.
        let others = earlier.others(notIn: snapshot)
        var (count, namesCount) = (others.count, others.reduce(0) { $0 + $1.id.utf8.count })
        snapshot.entries.forEach { key, _ in
            count += 1
            namesCount += key.string.utf8.count
        }
        var header = StartCache.Header(
            directory: directory, lookedAt: look, stamp: base?.stamp, position: base?.position,
            terms: terms)
        header.headsComplete = earlier.isComplete
        let unknown = ItemBytes([UInt8]())
        let empty = Fingerprint([UInt8]())
        StartCache.write(store: store, header: header, count: count, namesCount: namesCount) {
            (encoder) throws(Errno) in
            var failure: Errno?
            var next = 0
            func add(_ entry: StartCache.Entry) {
                guard failure == nil else { return }
                do throws(Errno) { try encoder.append(entry) } catch { failure = error }
            }
            func addOthers(before key: UTF8Key?) {
                while next < others.count,
                    key.map({ UTF8Key.less(others[next].id, $0.string) }) ?? true
                {
                    add(
                        StartCache.Entry(
                            id: others[next].id, signature: .absent, fingerprint: empty,
                            bytes: unknown, head: others[next].head))
                    next += 1
                }
            }
            snapshot.entries.forEach { key, entry in
                addOthers(before: key)
                var kept = StartCache.Entry(
                    id: key.string, signature: .unknown, fingerprint: empty, bytes: unknown,
                    head: earlier.head(of: key))
                if entry.error == nil, let item = entry.item,
                    let signature = signature(of: item, in: dir, look: look)
                {
                    (kept.signature, kept.fingerprint, kept.bytes) =
                        (signature, item.fingerprint, item.bytes)
                }
                add(kept)
            }
            addOthers(before: nil)
            if let failure { throw failure }
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
