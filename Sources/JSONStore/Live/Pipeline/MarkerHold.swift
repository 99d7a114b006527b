/// Publications held while a marker file says another writer is at work on the store in
/// several steps (git's `index.lock`, a store batch's journal), so that all it does
/// reaches observers as one update: since when, the marker taken for one left behind, and
/// whether a look again is scheduled. `LiveEngine` looks at the marker and acts on the
/// verdict (`LiveEngine+Git`, `LiveEngine+Batch`).
///
/// A slow pipeline may look only after a short operation is over, while what it read
/// came from its middle: the file the writer replaces when done (git's `index`) then
/// differs from the last look, and the hold ends as if it had been seen.
///
/// Guarded by the pipeline (the `LiveEngine` actor), like the rest of its state.
struct MarkerHold {
    /// What to do with the publication due now.
    enum Verdict: Equatable {
        /// No marker, and no hold: publish.
        case free
        /// The marker is gone: the hold is over, or an operation began and ended between
        /// two looks; settle what it left, then publish.
        case ended
        /// The marker has been there longer than the limit, or was older than that when
        /// first seen: left behind by a writer that died or waits for a person; publish.
        case stale
        /// Hold; `recheck`: schedule a look again (none is scheduled yet).
        case holding(recheck: Bool)
    }

    /// When the current hold began, while one lasts.
    private(set) var since: Double?
    /// A marker taken for one left behind, no longer waited for (a new one, with another
    /// inode or time, is).
    private(set) var stale: FileStatus?
    /// Whether a look again is scheduled.
    var recheckScheduled = false
    /// The file the writer replaces when done, as the last look without a marker saw it.
    private(set) var result: FileStatus?

    /// The verdict for `marker` (its status, `nil` when there is none) at `now`, waiting
    /// for one `limit` seconds at most. `result`: the status of the file the writer
    /// replaces when it is done, looked at after the marker (`nil` for a writer that
    /// leaves none); `resultCounts`: whether it was replaced late enough to be the end of
    /// what is waiting (not a `git status` before the first of those changes).
    mutating func decide(
        marker: FileStatus?, result: FileStatus? = nil, resultCounts: Bool = true, now: Double,
        limit: Double
    ) -> Verdict {
        guard let marker, marker != stale else {
            let written = resultCounts && result != self.result
            self.result = result
            guard since != nil || written else { return .free }
            since = nil
            return .ended
        }
        let start = since ?? now
        let age = WallClock.secondsSince(marker.modificationTime)
        guard now - start < limit, since != nil || age < limit else {
            stale = marker
            since = nil
            return .stale
        }
        since = start
        guard !recheckScheduled else { return .holding(recheck: false) }
        recheckScheduled = true
        return .holding(recheck: true)
    }

    /// Forgets a hold under way (the watcher starts again); `result` is the writer's
    /// result file now.
    mutating func reset(result: FileStatus? = nil) {
        since = nil
        self.result = result
    }
}
