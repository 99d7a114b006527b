extension LiveEngine {
    /// How long a store batch is waited for, in seconds: its renames take milliseconds,
    /// even thousands of them.
    static let batchHoldLimit = 2.0
    /// How often the batch's journal is looked at while a hold lasts, in seconds.
    static let batchRecheckInterval = 0.005

    /// Whether the publication due now must wait for a store batch to finish committing:
    /// its journal (`BatchJournal.fileName`) is there from before its first rename to after
    /// its last, whoever writes it (this process, another one, a mirror pulling one etcd
    /// transaction), so the batch reaches observers as one update, as it was one write.
    /// When it is done, what it left is settled first (`settleAfterHold`); so it is, too,
    /// when the journal came and went between two looks (its events were read: a slow
    /// pipeline may have read the middle of the batch and looked only after it). A journal
    /// older than the limit is a writer's killed halfway (the next write rolls it forward).
    func holdsForBatch() -> Bool {
        guard case .watching(let watch) = phase, reducer.hasUnpublishedChanges else {
            return false
        }
        let journal = join(configuration.path, BatchJournal.fileName)
        let marker = FileStatus.of(atPath: journal, followingSymlinks: false)
        let now = Self.now()
        let verdict = watch.batchHold.decide(marker: marker, now: now, limit: Self.batchHoldLimit)
        let cameAndWent = marker == nil && watch.batchJournalSeen
        if marker == nil { watch.batchJournalSeen = false }
        switch verdict {
        case .free where cameAndWent, .ended:
            settleAfterHold()
            // Another batch may have begun while what this one left was read.
            return FileStatus.of(atPath: journal, followingSymlinks: false) != nil
                && holdsForBatch()
        case .free, .stale:
            return false
        case .holding(let recheck):
            announceHold(
                since: watch.batchHold.since, now: now, reason: "a store batch is being written")
            if recheck { lookAgain(at: now + Self.batchRecheckInterval, hold: \.batchHold) }
            return true
        }
    }
}
