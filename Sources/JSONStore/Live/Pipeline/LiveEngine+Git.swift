extension LiveEngine {
    /// How often git is looked at while a hold lasts, in seconds.
    static let gitRecheckInterval = 0.01

    /// Since when publications have waited for git, while they do.
    var gitHeldSince: Double? {
        guard case .watching(let watch) = phase else { return nil }
        return watch.gitHold.since
    }

    /// Whether the publication due now must wait because git is at work (its index lock,
    /// or a merge, rebase or cherry-pick in progress): a checkout, a pull or a rebase then
    /// reaches observers as one update, however slowly git writes, and a file git removes
    /// and writes anew is a modification. When git is done, what it left is settled first
    /// (`settleAfterHold`), so all of it joins that update; so it is, too, when git began
    /// and ended between two looks (its `index` was replaced), for what was read may have
    /// come from the middle of its operation. A marker older than the hold
    /// limit (a minute) is not waited for, and `JSONStore.watching` says so.
    func holdsForGit() -> Bool {
        guard case .watching(let watch) = phase else { return false }
        if watch.settlingHold { return true }
        guard let git = watch.git, reducer.hasUnpublishedChanges else { return false }
        let current = git.current()
        let index = current == nil ? git.index() : nil
        let (now, limit) = (Self.now(), configuration.gitHoldLimit)
        switch watch.gitHold.decide(marker: current?.status, result: index, now: now, limit: limit)
        {
        case .free:
            return false
        case .ended:
            settleAfterHold()
            // git may have begun again while what it left was read.
            return git.current() != nil && holdsForGit()
        case .stale:
            let marker = current?.marker ?? "marker"
            status.gitNote =
                "git's \(marker) has been there over \(limit == 60 ? "a minute" : "\(limit) s"), so edits are no longer held for git"
            return false
        case .holding(let recheck):
            status.gitNote = nil
            if recheck {
                wake(at: now + Self.gitRecheckInterval) { engine in
                    if case .watching(let current) = engine.phase {
                        current.gitHold.recheckScheduled = false
                    }
                    engine.publish()
                }
            }
            return true
        }
    }

    /// git (or a store batch, `LiveEngine+Batch`) is done: the events it left queued are
    /// read, and every wait they started is over at once (a file it removed is removed, a
    /// file it wrote is written: no grace period, no later read), so the whole operation
    /// is one update. Before, a deletion read only in this last drain waited out its grace
    /// period on its own and reached observers as a second update when the machine was
    /// slow (ThreadSanitizer, a loaded CI): the pipeline had fallen behind git's events.
    func settleAfterHold() {
        guard case .watching(let watch) = phase else { return }
        watch.settlingHold = true
        defer { watch.settlingHold = false }
        watch.watcher.pollNow()
        settleDeadlines(everything: true)
    }
}
