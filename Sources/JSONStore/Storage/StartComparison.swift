/// Which of a store's files differ from what an earlier look at them knew (a start cache):
/// the pass a second start makes instead of reading every file (git's `status` against
/// its index).
///
/// The listing and the cache are walked together, both in the order of the ids' bytes,
/// the cache a block at a time (`StartCache.Cursor`), so a start never holds its records.
/// Each file was looked at with one `fstatat`, not opened, while the directory was listed
/// (`StartCache.Cursor.lookAhead`). It is unchanged when its signature is the one recorded
/// and that signature was settled when recorded (`FileSignature.isSettled`); anything else
/// is read again: a new file, one rewritten (even at the same size with its time put
/// back), replaced by a rename, or changed in the tick the look was made.
struct StartComparison: Sendable {
    /// The positions in the listing of the files to read: new, changed, or not known to be
    /// settled, in the listing's order.
    var toRead: [Int] = []
    /// What the cache recorded of the files to read that it knew.
    var changed: [StartCache.Entry] = []
    /// The ids of the files to read that the cache did not know.
    var new: [String] = []
    /// What the cache recorded of the ids the listing no longer has (that had a file: not
    /// the journal's deleted ones, `FileSignature.absent`).
    var gone: [StartCache.Entry] = []
    /// Whether the cache read back as it was checked, to its end: when not, nothing it
    /// gave may be used, and every file is read.
    var intact = true

    /// What the walk found of a listed file.
    enum Found {
        /// Unchanged since the cache recorded it: the store's entry of it, its bytes the
        /// cache's.
        case unchanged(Entry)
        /// To read: new, changed, or not known to be settled.
        case toRead
    }

    /// Compares the files of `ids` (a listing, in the order of their bytes) with the
    /// entries of `cache` (in the same order, its items' bytes read: `readItems`), recorded
    /// by a look that began at `start` (`FileDescriptor.stamp`), given what the cache's
    /// files were found to be (`looked`: `StartCache.Cursor.lookAhead`'s answers, by the
    /// entries' positions), calling `each` with every listed file's position and what was
    /// found of it, in the listing's order. A file is unchanged when its entry's recorded
    /// signature was settled when recorded (`FileSignature.isSettled`) and the look found
    /// it still has it. `each` is called as the walk goes, before it knows the cache read
    /// back intact: what it was given is used only once `intact` says so. What is found is
    /// handed over, so an item taken goes on without a copy.
    init(
        _ ids: [String], cache: StartCache.Cursor, lookedAt start: Int64, looked: [Bool],
        each: (Int, consuming Found) -> Void
    ) {
        var blocks = [ids]
        self.init(&blocks, cache: cache, lookedAt: start, looked: looked) { each($0, $2) }
    }

    /// The same walk of a listing held in blocks (`blocks`, in order, left empty), each let
    /// go as soon as it is walked: a start does not hold a second copy of every id (its
    /// tree has their keys) while the last of its tree is built. `each` is also handed
    /// the file's id.
    init(
        _ blocks: inout [[String]], cache: StartCache.Cursor, lookedAt start: Int64,
        looked: [Bool], each: (Int, String, consuming Found) -> Void
    ) {
        // The entries before `id` (all that are left, for none) are gone; then `id`'s own.
        func goneBefore(_ id: String?, from k: inout Int) -> StartCache.Record? {
            while k < cache.count {
                if let id {
                    let (order, record) = cache.record(at: k, comparedWith: id)
                    if order > 0 { return nil }
                    if order == 0 { return record }
                }
                if let record = cache.record(at: k), record.signature != .absent,
                    let entry = cache.entry(record, id: cache.id(at: k))
                {
                    gone.append(entry)
                }
                k += 1
            }
            return nil
        }
        // What is found of `id`, at position `i` of the listing, whose entry, if the cache
        // has one, is at `k` or after.
        func find(_ i: Int, _ id: String, _ k: inout Int) -> Found {
            guard let record = goneBefore(id, from: &k) else {
                new.append(id)
                return .toRead
            }
            defer { k += 1 }
            // An entry whose bytes are not there fails the walk (`intact`): read it.
            guard let bytes = cache.bytes(of: record) else { return .toRead }
            if record.signature.isSettled(before: start), k < looked.count, looked[k] {
                return .unchanged(Entry(bytes: bytes, fingerprint: record.fingerprint))
            }
            changed.append(
                StartCache.Entry(
                    id: id, signature: record.signature, fingerprint: record.fingerprint,
                    bytes: bytes, head: record.head))
            return .toRead
        }
        var (i, k) = (0, 0)
        blocks.reverse()
        // Each block moved out of `blocks`, so it goes once walked.
        while let block = blocks.popLast() {
            for id in block {
                let found = find(i, id, &k)
                if case .toRead = found { toRead.append(i) }
                each(i, id, found)
                i += 1
            }
        }
        _ = goneBefore(nil, from: &k)
        intact = cache.walkedIntact()
    }
}
