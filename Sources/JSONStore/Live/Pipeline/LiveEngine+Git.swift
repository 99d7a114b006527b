extension LiveEngine {
    /// Publications held while git is at work in the store's repository (`GitActivity`).
    ///
    /// Guarded by the pipeline (the `LiveEngine` actor), like the rest of its state.
    struct GitHold {
        /// The repository's git directory, found when the watcher starts; `nil` outside git.
        var git: GitActivity?
        /// When the current hold began, while one lasts.
        var since: Double?
        /// A marker there longer than the hold limit, or older than that when first seen:
        /// taken for one a crashed git left behind, a `git commit` waiting on its editor or
        /// a rebase stopped for the user, and no longer waited for, across attaches too (a
        /// new one, with another inode or time, is).
        var stale: FileStatus?
        /// Whether a wake-up to look at git again is scheduled.
        var recheckScheduled = false
        /// Whether the hold is ending: what git left is being read, and publications wait
        /// until all of it is in.
        var settling = false

        /// How often git is looked at while a hold lasts, in seconds.
        static let recheckInterval = 0.01
    }

    /// Whether the publication due now must wait because git is at work (its index lock,
    /// or a merge, rebase or cherry-pick in progress): a checkout, a pull or a rebase then
    /// reaches observers as one update, however slowly git writes, and a file git removes
    /// and writes anew is a modification. When git is done, what it left is settled first
    /// (`settleAfterHold`), so all of it joins that update. A marker older than the hold
    /// limit (a minute) is not waited for, and `JSONStore.watching` says so.
    func holdsForGit() -> Bool {
        if gitHold.settling { return true }
        guard let git = gitHold.git, reducer.hasUnpublishedChanges else { return false }
        guard let (marker, status) = git.current(), status != gitHold.stale else {
            if gitHold.since != nil {
                gitHold.since = nil
                settleAfterHold()
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
            let limit = configuration.gitHoldLimit
            self.status.gitNote =
                "git's \(marker) has been there over \(limit == 60 ? "a minute" : "\(limit) s"), so edits are no longer held for git"
            return false
        }
        gitHold.since = since
        self.status.gitNote = nil
        if !gitHold.recheckScheduled {
            gitHold.recheckScheduled = true
            wake(at: now + GitHold.recheckInterval) { engine in
                engine.gitHold.recheckScheduled = false
                engine.publish()
            }
        }
        return true
    }

    /// git (or a store batch, `LiveEngine+Batch`) is done: the events it left queued are
    /// read, and every wait they started is over at once (a file it removed is removed, a
    /// file it wrote is written: no grace period, no later read), so the whole operation
    /// is one update. Before, a deletion
    /// read only in this last drain waited out its grace period on its own and reached
    /// observers as a second update when the machine was slow (ThreadSanitizer, a loaded
    /// CI): the pipeline had fallen behind git's events.
    func settleAfterHold() {
        guard case .watching(let watcher) = phase else { return }
        gitHold.settling = true
        defer { gitHold.settling = false }
        watcher.pollNow()
        settleDeadlines(everything: true)
    }
}
