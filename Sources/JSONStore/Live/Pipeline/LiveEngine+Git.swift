extension LiveEngine {
    /// How often git is looked at while a hold lasts, in seconds.
    static let gitRecheckInterval = 0.01

    /// Since when publications have waited for git, while they do.
    var gitHeldSince: Double? {
        guard case .watching(let watch) = phase else { return nil }
        return watch.gitHold.since
    }

    /// Whether the publication due now must wait because git is writing (its index lock):
    /// a checkout, a pull or each step of a rebase then reaches observers as one update,
    /// however slowly git writes, and a file git removes and writes anew is a modification.
    /// A merge or a rebase stopped for the user holds nothing back. When git is done, what
    /// it left is settled first (`settleAfterHold`), so all of it joins that update; so it
    /// is, too, when git began and ended between two looks (its `index` was replaced), for
    /// what was read may have come from the middle of its operation. A lock older than the
    /// hold limit (a minute) is not waited for, and `JSONStore.watching` says so. A hold
    /// that lasts is told in the store's state (`announceHold`).
    func holdsForGit() -> Bool {
        guard case .watching(let watch) = phase else { return false }
        if watch.settlingHold { return true }
        guard let git = watch.git, reducer.hasUnpublishedChanges else { return false }
        let current = git.current()
        let index = current == nil ? git.index() : nil
        let (now, limit) = (Self.now(), configuration.gitHoldLimit)
        // An index replaced before the changes waiting now began (a `git status` or a
        // `git add` between edits, a second of clock slack) says nothing of them.
        let waiting = watch.unsettledSince.map { now - $0 } ?? .infinity
        let counts =
            index.map { WallClock.secondsSince($0.modificationTime) <= waiting + 1 } ?? true
        switch watch.gitHold.decide(
            marker: current?.status, result: index, resultCounts: counts, now: now, limit: limit)
        {
        case .free:
            return false
        case .ended:
            watch.publishingForGit = true
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
            announceHold(
                since: watch.gitHold.since, now: now, reason: "git is writing (index.lock)")
            if recheck { lookAgain(at: now + Self.gitRecheckInterval, hold: \.gitHold) }
            return true
        }
    }

    /// Publishes (or holds) again at `time`, the hold's look again done by then.
    func lookAgain(
        at time: Double, hold: ReferenceWritableKeyPath<DirectoryWatch, MarkerHold> & Sendable
    ) {
        wake(at: time) { engine in
            if case .watching(let watch) = engine.phase {
                watch[keyPath: hold].recheckScheduled = false
            }
            engine.publish()
        }
    }

    /// How long a hold lasts before the store's state says so, in seconds: a checkout held
    /// for a few milliseconds is no news, a hold a person can see is.
    static let holdNoticeDelay = 0.15

    /// Says in the store's state (`.held`) that publications are held, and why, once the
    /// hold that began at `since` has lasted `holdNoticeDelay`.
    func announceHold(since: Double?, now: Double, reason: String) {
        guard let since, now - since >= Self.holdNoticeDelay else { return }
        switch status.state {
        case .live, .held: status.set(.held(reason: reason))
        case .loading, .resyncing, .failed: break
        }
    }

    /// Nothing is held any more: the store's state is live again if it said otherwise.
    func endHoldNotice() {
        if case .held = status.state { status.set(.live) }
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
