extension LiveEngine {
    /// Publications held while git holds its index lock in the store's repository.
    ///
    /// Guarded by the pipeline (the `LiveEngine` actor), like the rest of its state.
    struct GitHold {
        /// The repository's index lock, found when the watcher starts; `nil` outside git.
        var lock: GitIndexLock?
        /// When the current hold began, while one lasts.
        var since: Double?
        /// A lock held longer than the hold limit, or older than that when first seen: taken
        /// for one a crashed git left behind (or a `git commit` waiting on its editor),
        /// and no longer waited for, across attaches too (a new lock, with another inode
        /// or time, is).
        var stale: FileStatus?
        /// Whether a wake-up to look at the lock again is scheduled.
        var recheckScheduled = false

        /// How often the lock is looked at while it is held, in seconds.
        static let recheckInterval = 0.01
    }

    /// Whether the publication due now must wait because git is at work (its index lock
    /// exists): a checkout, a pull or a merge then reaches observers as one update,
    /// however slowly git writes, and a file git removes and writes anew is a modification.
    /// When the lock goes, the events git left queued are read first, so they join it. A
    /// lock already older than the hold limit (10 s) when first seen is not waited for.
    func holdsForGit() -> Bool {
        guard let lock = gitHold.lock, reducer.hasUnpublishedChanges else { return false }
        guard let status = lock.status(), status != gitHold.stale else {
            if gitHold.since != nil {
                gitHold.since = nil
                if case .watching(let watcher) = phase { watcher.pollNow() }
            }
            return false
        }
        let now = Self.now()
        let since = gitHold.since ?? now
        let age = WallClock.secondsSince(status.modificationTime)
        guard now - since < configuration.gitHoldLimit,
            gitHold.since != nil || age < configuration.gitHoldLimit
        else {
            gitHold.stale = status
            gitHold.since = nil
            return false
        }
        gitHold.since = since
        if !gitHold.recheckScheduled {
            gitHold.recheckScheduled = true
            wake(at: now + GitHold.recheckInterval) { engine in
                engine.gitHold.recheckScheduled = false
                engine.publish()
            }
        }
        return true
    }
}
