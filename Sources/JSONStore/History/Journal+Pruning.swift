extension Journal {
    /// Removes the oldest segments the retention does not keep: those whose last entry is
    /// older than its age, and the oldest while the journal is larger than its size. The
    /// newest segment always stays. Called under the store's lock, when a segment is begun.
    ///
    /// A revision pruned is said to be so (`firstRevision`), never taken for another: the
    /// revisions go on from where they were.
    func prune() {
        let all = segments()
        guard all.count > 1, let dir = try? openFolder(create: false) else { return }
        defer { dir.close() }
        var sizes = all.map { (try? dir.linkStatus(of: $0.name)) ?? nil }
        var total = sizes.reduce(0) { $0 + ($1?.size ?? 0) }
        for (i, segment) in all.dropLast().enumerated() {
            let status = sizes[i]
            let old = status.map { WallClock.secondsSince($0.modificationTime) > retention.maxAge }
            guard total > retention.maxBytes || old == true else { break }
            guard (try? dir.unlink(segment.name)) != nil else { break }
            total -= status?.size ?? 0
            sizes[i] = nil
        }
    }

    /// The oldest revision the journal still holds (the first of its oldest segment); 1
    /// when nothing was ever pruned.
    var firstRevision: Int { segments().first?.first ?? 1 }
}
