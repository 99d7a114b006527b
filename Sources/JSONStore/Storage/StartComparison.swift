/// Which of a store's files differ from what an earlier look at them knew (a start cache):
/// the pass a second start makes instead of reading every file (git's `status` against
/// its index).
///
/// The listing and the cache are walked together, both in the order of the ids' bytes.
/// Each file is looked at with one `fstatat`, not opened. It is unchanged when its
/// signature is the one recorded and that signature was settled when recorded
/// (`FileSignature.isSettled`); anything else is read again: a new file, one rewritten
/// (even at the same size with its time put back), replaced by a rename, or changed in the
/// tick the look was made.
struct StartComparison: Sendable {
    /// The positions in the listing of the files whose recorded item can be used as it is,
    /// each with its entry's position in the cache.
    var unchanged: [(id: Int, entry: Int)] = []
    /// The positions in the listing of the files to read: new, changed, or not known to be
    /// settled.
    var toRead: [Int] = []
    /// The positions in the cache of the ids the listing no longer has (that had a file:
    /// not the journal's deleted ones, `FileSignature.absent`).
    var gone: [Int] = []

    /// Compares the files of `ids` (a listing, in the order of their bytes) in `directory`
    /// with `entries` (a cache's, in the same order), recorded by a look that began at
    /// `start` (`FileDescriptor.stamp`).
    init(
        _ ids: [String], in directory: FileDescriptor, entries: StartCache.Entries,
        lookedAt start: Int64, parallelAbove threshold: Int = 4096
    ) {
        // First the walk, in order, pairing each listed id with its entry; then one
        // `fstatat` a pair whose recorded signature was settled, on every core.
        var pairs: [(id: Int, entry: Int)] = []
        pairs.reserveCapacity(min(ids.count, entries.count))
        var k = 0
        for (i, id) in ids.enumerated() {
            var order = k < entries.count ? entries.compare(k, id) : 1
            while order < 0 {
                if entries.signature(at: k) != .absent { gone.append(k) }
                k += 1
                order = k < entries.count ? entries.compare(k, id) : 1
            }
            if order == 0 {
                if entries.signature(at: k).isSettled(before: start) {
                    pairs.append((i, k))
                } else {
                    toRead.append(i)
                }
                k += 1
            } else {
                toRead.append(i)
            }
        }
        gone.append(
            contentsOf: (k..<entries.count).filter { entries.signature(at: $0) != .absent })
        let candidates = pairs
        let same = ItemFile.parallelMap(candidates.count, parallelAbove: threshold, initial: false)
        {
            let (i, k) = candidates[$0]
            return directory.signature(of: ItemID.fileName(ids[i])) == entries.signature(at: k)
        }
        for (n, pair) in candidates.enumerated() {
            if same[n] { unchanged.append(pair) } else { toRead.append(pair.id) }
        }
        toRead.sort()  // read in the listing's order
    }
}
