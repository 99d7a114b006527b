extension LiveEngine {
    /// Publications held while a store batch commits in the directory (its journal,
    /// `BatchJournal.fileName`, is there from before its first rename to after its last),
    /// whoever writes it: this process, another one, a mirror pulling one etcd
    /// transaction. The batch then reaches observers as one update, as it was one write.
    ///
    /// Guarded by the pipeline (the `LiveEngine` actor), like the rest of its state.
    struct BatchHold {
        /// When the current hold began, while one lasts.
        var since: Double?
        /// A journal there longer than `limit`, or older than that when first seen: left by
        /// a writer killed halfway (the next write rolls it forward), not waited for.
        var stale: FileStatus?
        /// Whether a wake-up to look at the journal again is scheduled.
        var recheckScheduled = false

        /// How long a batch is waited for, in seconds: a batch's renames take
        /// milliseconds, even thousands of them.
        static let limit = 2.0
        /// How often the journal is looked at while a hold lasts, in seconds.
        static let recheckInterval = 0.005
    }

    /// Whether the publication due now must wait for a store batch to finish committing;
    /// when it has, what it left is settled first (`settleAfterHold`), so all of it joins.
    func holdsForBatch() -> Bool {
        guard case .watching = phase, reducer.hasUnpublishedChanges else { return false }
        let journal = join(configuration.path, BatchJournal.fileName)
        guard let status = FileStatus.of(atPath: journal, followingSymlinks: false),
            status != batchHold.stale
        else {
            if batchHold.since != nil {
                batchHold.since = nil
                settleAfterHold()
            }
            return false
        }
        let now = Self.now()
        let since = batchHold.since ?? now
        let age = WallClock.secondsSince(status.modificationTime)
        guard now - since < BatchHold.limit, batchHold.since != nil || age < BatchHold.limit
        else {
            batchHold.stale = status
            batchHold.since = nil
            return false
        }
        batchHold.since = since
        if !batchHold.recheckScheduled {
            batchHold.recheckScheduled = true
            wake(at: now + BatchHold.recheckInterval) { engine in
                engine.batchHold.recheckScheduled = false
                engine.publish()
            }
        }
        return true
    }
}
