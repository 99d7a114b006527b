/// Which of a store's files differ from what an earlier look at them knew (a start cache):
/// the pass a second start makes instead of reading every file (git's `status` against
/// its index).
///
/// The listing and the cache are walked together, both in the order of the ids' bytes,
/// the cache a block at a time (`StartCache.Cursor`), so a start never holds its records.
/// Each file is looked at with one `fstatat`, not opened. It is unchanged when its
/// signature is the one recorded and that signature was settled when recorded
/// (`FileSignature.isSettled`); anything else is read again: a new file, one rewritten
/// (even at the same size with its time put back), replaced by a rename, or changed in the
/// tick the look was made.
struct StartComparison: Sendable {
    /// The positions in the listing of the files to read: new, changed, or not known to be
    /// settled, in the listing's order.
    var toRead: [Int] = []
    /// What the cache recorded of the files to read that it knew.
    var changed: [StartCache.Entry] = []
    /// The positions in the listing of the files to read that the cache did not know.
    var new: [Int] = []
    /// What the cache recorded of the ids the listing no longer has (that had a file: not
    /// the journal's deleted ones, `FileSignature.absent`).
    var gone: [StartCache.Entry] = []
    /// Whether the cache read back as it was checked, to its end: when not, nothing it
    /// gave may be used, and every file is read.
    var intact = true

    /// How many pairs of a listed file and its entry are looked at together, on every core.
    static let batchSize = 16384

    /// Compares the files of `ids` (a listing, in the order of their bytes) in `directory`
    /// with the entries of `cache` (in the same order, its items' bytes read: `readItems`),
    /// recorded by a look that began at `start` (`FileDescriptor.stamp`), calling
    /// `unchanged` with the position in the listing and the entry of each file whose
    /// recorded item can be used as it is. The `fstatat`s of a batch of `batchSize` go on
    /// every core when there are `threshold` of them; none is made when `looked` is given
    /// (the answers of `StartCache.Cursor.lookAhead`, by the entries' positions).
    /// `unchanged` is called as the walk goes, before it knows the cache read back
    /// intact: what it was given is used only once `intact` says so.
    init(
        _ ids: [String], in directory: FileDescriptor, cache: StartCache.Cursor,
        lookedAt start: Int64, looked: [Bool]? = nil, parallelAbove threshold: Int = 4096,
        batchSize: Int = Self.batchSize, unchanged: (Int, StartCache.Entry) -> Void
    ) {
        // The walk pairs each listed id with its entry's record, in order; the pairs whose
        // recorded signature was settled are looked at a batch at a time, one `fstatat`
        // each, on every core.
        var pairs: [(id: Int, record: StartCache.Record)] = []
        func sort(_ i: Int, _ record: StartCache.Record, same: Bool) {
            guard let entry = cache.entry(record, id: ids[i]) else { return }
            if same {
                unchanged(i, entry)
            } else {
                toRead.append(i)
                changed.append(entry)
            }
        }
        func look() {
            let batch = pairs
            let same = ItemFile.parallelMap(batch.count, parallelAbove: threshold, initial: false) {
                let (i, record) = batch[$0]
                return directory.signature(of: ItemID.fileName(ids[i])) == record.signature
            }
            for (n, (i, record)) in batch.enumerated() { sort(i, record, same: same[n]) }
            pairs.removeAll(keepingCapacity: true)
        }
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
        var k = 0
        for (i, id) in ids.enumerated() {
            if let record = goneBefore(id, from: &k) {
                if let looked, record.signature.isSettled(before: start) {
                    sort(i, record, same: looked[k])
                } else if record.signature.isSettled(before: start) {
                    pairs.append((i, record))
                    if pairs.count == batchSize { look() }
                } else if let entry = cache.entry(record, id: id) {
                    toRead.append(i)
                    changed.append(entry)
                }
                k += 1
            } else {
                toRead.append(i)
                new.append(i)
            }
        }
        _ = goneBefore(nil, from: &k)
        look()
        toRead.sort()  // read in the listing's order
        intact = cache.walkedIntact()
    }
}
