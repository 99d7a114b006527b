extension StartCache {
    /// What a one-shot look at every file (the history's catch-up before `log`, `diff` or
    /// `undo`) may take from the start cache instead of reading a file, as `git status`
    /// takes a file's hash from its index: the fingerprint of each file of `ids` (a
    /// listing, in the order of the ids' bytes) that the cache's look recorded and that
    /// still has the signature it recorded, settled then (`lookAhead`); `nil` for a file
    /// to read (new, changed, touched, or changed in the tick the look was made).
    ///
    /// - Returns: one fingerprint or `nil` a listed file, by its position; `nil` when the
    ///   store keeps no cache of this directory, or its records did not read back as
    ///   checked (nothing of it is used then).
    static func unchangedFingerprints(
        of ids: [String], store: String, in dir: FileDescriptor
    ) -> [Fingerprint?]? {
        // Any terms: a fingerprint is of the file's bytes, whatever reads them.
        guard let directory = directory(of: dir),
            let cursor = Cursor.open(store: store, directory: directory, terms: nil),
            let looked = cursor.lookAhead(in: dir, lookedAt: cursor.header.lookedAt)
        else { return nil }
        var known = [Fingerprint?](repeating: nil, count: ids.count)
        var k = 0
        for (i, id) in ids.enumerated() {
            // The entries before `id` are of files gone; an entry after it, a file new.
            while k < cursor.count {
                let (order, record) = cursor.record(at: k, comparedWith: id)
                if order > 0 { break }
                k += 1
                guard order == 0 else { continue }
                if let record, looked[k - 1] { known[i] = record.fingerprint }
                break
            }
        }
        return cursor.walkedIntact() ? known : nil
    }
}
