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
        _ ids: [String], in directory: FileDescriptor, entries: [StartCache.Entry],
        lookedAt start: Int64
    ) {
        var k = 0
        for (i, id) in ids.enumerated() {
            while k < entries.count, UTF8Key.less(entries[k].id, id) {
                if entries[k].signature != .absent { gone.append(k) }
                k += 1
            }
            if k < entries.count, UTF8Key.equal(entries[k].id, id) {
                let recorded = entries[k].signature
                k += 1
                if recorded.isSettled(before: start),
                    directory.signature(of: ItemID.fileName(id)) == recorded
                {
                    unchanged.append((i, k - 1))
                    continue
                }
            }
            toRead.append(i)
        }
        gone.append(contentsOf: (k..<entries.count).filter { entries[$0].signature != .absent })
    }
}
