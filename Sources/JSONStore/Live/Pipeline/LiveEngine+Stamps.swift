import Dispatch

extension LiveEngine {
    // MARK: The journal's revisions (a directory that keeps history)
    //
    // The recorder stamps published versions with the journal revision that records each
    // exactly, in the background. Subscriptions that carry revisions other processes
    // resume from (`observe(since:)`, the stream) wait for a version's stamp; the others
    // get it at once, with this follower's token until it is stamped.

    /// How long a subscription that waits for stamps waits for one version's: past it, the
    /// version goes out with this follower's token.
    static let stampWait = 2.0

    /// How long a subscription resuming from a journal revision waits for this follower's
    /// stamps to reach it (another process may be a little ahead).
    static let resumeWait = 10.0

    /// Connects the recorder to this observed life: its reports come to the pipeline.
    func connectRecorder() {
        guard configuration.remote == nil, let recorder = configuration.recorder else { return }
        let life = self.life
        recorder.connect { [weak self] report in
            self?.onPipeline { engine in
                guard engine.life == life else { return }
                engine.recorded(report)
            }
        }
    }

    /// Whether a subscription that waits for stamps waits before it is sent `snapshot`.
    func waitsForStamp(_ snapshot: StoreSnapshot) -> Bool {
        configuration.recorder != nil && configuration.remote == nil && snapshot.stamp == nil
            && !stampsFailing && snapshot.version > stampsReleased
    }

    /// A version was published: what waits for a stamp waits until one comes, or
    /// `stampWait` at most from the first version that waits, when every version published
    /// by then goes out unstamped (so a store written faster than the journal records
    /// still reaches those subscribers, every `stampWait` at least).
    func awaitStamp() {
        guard configuration.recorder != nil, !stampWaiting else { return }
        stampWaiting = true
        stampWaits += 1
        let (life, wait) = (self.life, stampWaits)
        wake(at: Self.now() + Self.stampWait) { engine in
            guard engine.life == life, engine.stampWaits == wait else { return }
            engine.releaseStampWait()
        }
    }

    /// Lets what waits for a stamp go with this follower's tokens: the version published,
    /// if one waits, and every version up to `version` (one the recorder said no stamp
    /// can come for in time, published yet or not).
    func releaseStampWait(through version: Int = 0) {
        let waiting = stampWaiting ? reducer.published.version : 0
        stampsReleased = max(stampsReleased, version, waiting)
        guard stampWaiting else { return }
        stampWaiting = false
        stampsSettled()
    }

    /// What the recorder found.
    func recorded(_ report: HistoryRecorder.Report) {
        guard case .watching = phase else { return }
        switch report {
        case .stamped(let version, let base, let heads):
            let stamp = base.stamp
            stampsFailing = false
            startCacheStamped(version: version, base, heads: heads)
            if let i = history.lastIndex(where: { $0.version == version }) {
                history[i].stamp = stamp
            }
            guard reducer.stamp(stamp, version: version) else { return }
            lateStamp.withLock { $0 = (version, StoreRevision(stamp.description)) }
            stampWaiting = false
            for id in subscriptions.keys {
                subscriptions[id]?.stamped(reducer.published, engine: self)
            }
            startWaitingSubscriptions()
            finishSyncIfSettled()
        case .failed(let error):
            // Said once a failing spell (a report again before a stamp says nothing new),
            // to those that asked for the journal's revisions.
            let first = !stampsFailing
            stampsFailing = true
            guard first else {
                stampsSettled()
                return
            }
            let notice = StoreError(
                code: error.code,
                message:
                    "the history could not record changes (\(error.message)): they are delivered "
                    + "with revisions of this process only, and recorded once the journal can be written",
                file: error.file)
            // Those waiting start (or go on) first, so the notice follows their results.
            stampsSettled()
            for id in subscriptions.keys where subscriptions[id]?.waitsForJournal == true {
                subscriptions[id]?.fail(notice, engine: self)
            }
        case .long(let version):
            // No stamp can come within the wait: the version goes now (and what waits
            // with it), as `stampWait` would let it go later. Told before the version is
            // published, it does not wait at all.
            releaseStampWait(through: version)
        }
    }

    /// Whether the subscription `id`, resuming from `revision`, waits for this follower's
    /// stamps: a journal revision this follower has not stamped yet (none yet, or another
    /// process is ahead), which the journal holds; `resumeWait` at most.
    func resumeWaitsForStamp(_ id: ObjectIdentifier, _ revision: StoreRevision) -> Bool {
        guard let history = configuration.recorder?.history, configuration.remote == nil,
            !stampsFailing, !revision.token.contains(":")
        else { return false }
        let current = reducer.published.stamp
        var waits = current == nil
        if let current, let wanted = JournalStamp(token: revision.token, current: current.journal),
            wanted.journal == current.journal, wanted.revision > current.revision
        {
            // Ahead of this follower: worth waiting for only if the journal has it.
            waits = wanted.revision <= history.journal.end()?.lastRevision ?? 0
        }
        guard waits else {
            resumeWaitStarted[id] = nil
            return false
        }
        let now = Self.now()
        guard let since = resumeWaitStarted[id] else {
            resumeWaitStarted[id] = now
            let life = self.life
            wake(at: now + Self.resumeWait) { engine in
                guard engine.life == life else { return }
                engine.startWaitingSubscriptions()
            }
            return true
        }
        if now - since < Self.resumeWait { return true }
        resumeWaitStarted[id] = nil
        return false
    }

    /// Sends what waited for a stamp that is not coming soon.
    private func stampsSettled() {
        for id in subscriptions.keys { subscriptions[id]?.stampSettled(engine: self) }
        startWaitingSubscriptions()
        finishSyncIfSettled()
    }

    /// Rebuilds the store at the journal's `revision` off the pipeline, from the published
    /// version (stamped), then resumes the subscription `id` from it (its resumption
    /// naming the revision by its full token), or starts it afresh saying why.
    func rebuild(
        at revision: Int, for id: ObjectIdentifier, history: StoreHistory
    ) {
        let current = reducer.published
        guard let stamp = current.stamp else { return }
        let token = StoreRevision(
            JournalStamp(revision: revision, journalID: stamp.journal).description)
        resumesRebuilding.insert(id)
        DispatchQueue.global(qos: .userInitiated).async { [weak self] in
            let result = history.snapshot(at: revision, from: current, recordedAt: stamp)
            self?.onPipeline { engine in
                engine.resumesRebuilding.remove(id)
                guard engine.subscriptions[id]?.isStarted == false else { return }
                switch result {
                case .success(let base):
                    engine.subscriptions[id]?.resume(
                        from: base, to: engine.reducer.published, revision: token, engine: engine)
                case .failure(let error):
                    engine.subscriptions[id]?.start(
                        from: engine.reducer.published, resetReason: error.message, engine: engine)
                }
            }
        }
    }
}
