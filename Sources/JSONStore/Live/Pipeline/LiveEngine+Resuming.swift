import Dispatch

extension LiveEngine {
    // MARK: Starting subscriptions, from a revision when they ask

    /// How many published versions are kept to resume subscriptions from. The versions
    /// share every node an edit did not touch, so this costs little.
    static let historyLimit = 64

    /// Keeps the version just published (or loaded) for subscriptions that resume.
    func recordHistory() {
        history.append(reducer.published)
        if history.count > Self.historyLimit {
            history.removeFirst(history.count - Self.historyLimit)
        }
    }

    /// Records that the published version stays as it is up to `revision`.
    func noteQuiet(at revision: Int64) {
        guard !reducer.hasUnpublishedChanges else { return }
        let version = reducer.published.version
        quiet.withLock { $0 = (version, revision) }
    }

    /// Starts every subscription that has not started: from the current results, or, for
    /// one that asked for a revision, from the results at it.
    func startWaitingSubscriptions() {
        for id in subscriptions.keys where subscriptions[id]?.isStarted == false {
            if case .following(let follow) = phase, follow.pendingResumes.contains(id) {
                continue
            }
            // One that carries the journal's revisions starts from a stamped version; one
            // resuming from a journal revision, from one stamped at it or later.
            if resumesRebuilding.contains(id)
                || (subscriptions[id]?.waitsForJournal == true && waitsForStamp(reducer.published))
                || resumeRequests[id].map({ resumeWaitsForStamp(id, $0) }) == true
            {
                continue
            }
            guard let revision = resumeRequests.removeValue(forKey: id) else {
                subscriptions[id]?.start(from: reducer.published, resetReason: nil, engine: self)
                continue
            }
            switch base(at: revision) {
            case .snapshot(let base):
                // A journal's revision as its full token, however it was asked for.
                let journal = base.stamp != nil && !revision.token.contains(":")
                let token = journal ? StoreRevision(base.stamp!.description) : revision
                subscriptions[id]?.resume(
                    from: base, to: reducer.published, revision: token, engine: self)
            case .reset(let reason):
                subscriptions[id]?.start(from: reducer.published, resetReason: reason, engine: self)
            case .remote(let number, let backend):
                fetch(number, from: backend, for: id, revision: revision)
            case .journal(let number, let history):
                rebuild(at: number, for: id, history: history)
            }
        }
    }

    /// Where the results at a revision come from.
    private enum Base {
        case snapshot(StoreSnapshot)
        case remote(Int64, any RemoteBackend)
        /// Rebuilt from the journal (`LiveEngine+Stamps`).
        case journal(Int, StoreHistory)
        case reset(reason: String)
    }

    private func base(at revision: StoreRevision) -> Base {
        let token = revision.token
        let published = reducer.published
        if let backend = configuration.remote {
            guard let number = Int64(token), number > 0 else {
                return .reset(reason: "\"\(token)\" is not a revision of this store")
            }
            let known = max(published.revision, quiet.withLock { $0?.revision } ?? 0)
            if number > known {
                return .reset(reason: "revision \(number) is newer than the store's (\(known))")
            }
            // The newest version at or before it is the store at it: every change of the
            // store is published as it comes.
            if let oldest = history.first?.revision, number >= oldest,
                let kept = history.last(where: { $0.revision <= number })
            {
                return .snapshot(kept)
            }
            return .remote(number, backend)
        }
        if !token.contains(":") { return journalBase(at: token) }
        let parts = token.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let version = Int(parts[1]) else {
            return .reset(reason: "\"\(token)\" is not a revision of this store")
        }
        guard parts[0] == reducer.origin else {
            return .reset(
                reason:
                    "revision \(token) is another follower's (a directory's revisions are this process's own; this follower is \(reducer.origin))"
            )
        }
        guard let kept = history.first(where: { $0.version == version }) else {
            return .reset(
                reason: "revision \(token) is older than the \(Self.historyLimit) versions kept")
        }
        return .snapshot(kept)
    }

    /// Where the results at a journal revision (`"41@tag"`, or a bare `"41"` of this
    /// store's journal) come from: a version kept that it stamps, else the journal.
    private func journalBase(at token: String) -> Base {
        guard let history = configuration.recorder?.history else {
            return .reset(
                reason: "revision \(token) is of a journal, and this store keeps no history")
        }
        guard let now = reducer.published.stamp else {
            return .reset(
                reason:
                    "the history cannot record the store now, so revision \(token) cannot be resumed from"
            )
        }
        guard let stamp = JournalStamp(token: token, current: now.journal) else {
            return .reset(reason: "\"\(token)\" is not a revision of this store")
        }
        guard stamp.journal == now.journal else {
            return .reset(
                reason:
                    "revision \(token) is of another journal (the store's journal was removed, or this is another copy of the store)"
            )
        }
        if stamp.revision > now.revision {
            return .reset(
                reason: "revision \(stamp.revision) is newer than the journal's (\(now.revision))")
        }
        if let kept = self.history.last(where: { $0.stamp == stamp }) { return .snapshot(kept) }
        return .journal(stamp.revision, history)
    }

    /// Reads the store at `number` off the pipeline, then resumes the subscription `id`
    /// from it (or starts it afresh, saying why, when the store cannot give it).
    private func fetch(
        _ number: Int64, from backend: any RemoteBackend, for id: ObjectIdentifier,
        revision: StoreRevision
    ) {
        guard case .following(let follow) = phase else { return }
        follow.pendingResumes.insert(id)
        let reader = configuration.reader
        let timing = reducer.timing
        DispatchQueue.global(qos: .userInitiated).async { [weak self] in
            let result = Result { () throws(StoreError) in
                try backend.listing(at: number, reader: reader)
            }
            self?.onPipeline { engine in
                if case .following(let current) = engine.phase {
                    current.pendingResumes.remove(id)
                }
                guard engine.subscriptions[id]?.isStarted == false else { return }
                switch result {
                case .success(let listing):
                    var old = StoreReducer(timing: timing)
                    old.load(
                        listing.ids, listing.outcomes, badNames: listing.badNames,
                        lastValid: listing.lastValid, revision: number)
                    engine.subscriptions[id]?.resume(
                        from: old.published, to: engine.reducer.published, revision: revision,
                        engine: engine)
                case .failure(let error):
                    engine.subscriptions[id]?.start(
                        from: engine.reducer.published, resetReason: error.message, engine: engine)
                }
            }
        }
    }
}
