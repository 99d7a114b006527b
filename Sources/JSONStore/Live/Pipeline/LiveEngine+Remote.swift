extension LiveEngine {
    // MARK: A remote source's reports (etcd)

    /// Applies what the source reported: the reducer decides what changed, as for files,
    /// but a remote store has no saves in two steps, so a deletion is one at once.
    func handle(_ report: SourceReport, from follow: RemoteFollow) {
        switch report {
        case .listing(var listing, let reason):
            checkAgainstSchema(&listing)
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
                let checked = schema?.applied(to: outcome, bytes: nil, file: location(of: id))
                _ = reducer.fileRead(id, checked ?? outcome, at: now, missingIsGone: true)
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

extension LiveEngine {
    /// Takes the schema of `listing`'s revision and checks its items with it: one that
    /// breaks it is invalid; a broken document is reported under its name, the last valid
    /// schema kept.
    func checkAgainstSchema(_ listing: inout SourceListing) {
        let file = configuration.remote?.schemaLocation ?? Self.schemaName.string
        let state = configuration.schemas.state(of: listing.schemaDocument, file: file)
        schema = state.enforced
        if let problem = state.problem {
            listing.badNames[Self.schemaName] = InvalidFile(
                name: Self.schemaName.string, id: nil, error: problem)
        }
        guard let schema else { return }
        for index in listing.outcomes.indices {
            let id = listing.ids[index]
            listing.outcomes[index] = schema.applied(
                to: listing.outcomes[index], bytes: nil, file: location(of: id))
        }
    }

    /// Where the store keeps `id`, for an error: its key.
    private func location(of id: String) -> String {
        configuration.remote?.location(of: id) ?? id
    }
}
