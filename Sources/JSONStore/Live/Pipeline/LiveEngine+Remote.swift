extension LiveEngine {
    // MARK: A remote source's reports (etcd)

    /// Applies what the source reported: the reducer decides what changed, as for files,
    /// but a remote store has no saves in two steps, so a deletion is one at once.
    func handle(_ report: SourceReport, from follow: RemoteFollow) {
        switch report {
        case .listing(let listing, let reason):
            if reducer.isLoaded {
                if let reason { status.set(.resyncing(reason: reason)) }
                // The versions kept stand for revisions before a gap this follower never
                // saw: a revision in that gap must be read from etcd, not taken from them.
                history.removeAll()
                reducer.resync(
                    listing.ids, listing.outcomes, badNames: listing.badNames,
                    lastValid: listing.lastValid, revision: listing.revision)
            } else {
                reducer.load(
                    listing.ids, listing.outcomes, badNames: listing.badNames,
                    lastValid: listing.lastValid, revision: listing.revision)
                recordHistory()
                startWaitingSubscriptions()
            }
            status.set(.live)
            publish()
            noteQuiet(at: listing.revision)
        case .changes(let changes):
            guard reducer.isLoaded else { return }
            reducer.advance(to: changes.revision)
            let now = Self.now()
            for (id, outcome) in changes.items {
                _ = reducer.fileRead(id, outcome, at: now, missingIsGone: true)
            }
            for (name, file) in changes.badNames { reducer.badName(name, file) }
            publish()
        case .progress(let revision):
            guard reducer.isLoaded, reducer.advance(to: revision) else { return }
            noteQuiet(at: revision)
        case .interrupted(let reason):
            status.set(.resyncing(reason: reason))
        case .resumed:
            status.set(.live)
        case .caughtUp:
            follow.pendingCatchUps = max(0, follow.pendingCatchUps - 1)
            finishSyncIfSettled()
        case .failed(let error):
            status.set(.failed(error))
            for id in subscriptions.keys { subscriptions[id]?.fail(error, engine: self) }
            finishSyncIfSettled()
        }
    }
}
