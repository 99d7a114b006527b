/// What the pipeline holds while it watches a directory (`LiveEngine.Phase.watching`):
/// the watcher, and the holds on publications while another writer works in several
/// steps. Made when the watcher starts and dropped with it, so a detach or a stop
/// forgets all of it at once.
///
/// A reference, so the pipeline changes it in place inside its phase. Guarded by the
/// pipeline (the `LiveEngine` actor): made, read and changed only there.
final class DirectoryWatch {
    let watcher: any DirectoryWatcher
    /// The repository's git directory, found when the watcher starts; `nil` outside git.
    let git: GitActivity?
    /// The hold on git's marker (`LiveEngine+Git`). A marker there longer than the hold
    /// limit, or older than that when first seen, is taken for one a crashed git left
    /// behind or a `git commit` waiting on its editor, and no longer waited for.
    var gitHold: MarkerHold
    /// The hold on a store batch's journal (`LiveEngine+Batch`).
    var batchHold = MarkerHold()
    /// Whether the journal's own events were read since the batch hold last decided: a
    /// batch came and went, even if the journal is gone by the next look.
    var batchJournalSeen = false
    /// Whether a hold is ending: what it left is being read, and publications wait until
    /// all of it is in (`settleAfterHold`).
    var settlingHold = false
    /// Since when (monotonic seconds) changes have been waiting: set by the first batch
    /// read while everything was published.
    var unsettledSince: Double?
    /// Whether the next publication is what git left when its hold ended: the history
    /// records those changes as git's.
    var publishingForGit = false

    init(watcher: any DirectoryWatcher, git: GitActivity?) {
        self.watcher = watcher
        self.git = git
        gitHold = MarkerHold()
        gitHold.reset(result: git?.index())
    }
}
