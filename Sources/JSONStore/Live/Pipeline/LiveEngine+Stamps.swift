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

    /// Connects the recorder to this observed life: its reports come to the pipeline.
    func connectRecorder() {
        guard configuration.remote == nil, let recorder = configuration.recorder else { return }
        recorder.connect { [weak self] report in
            self?.onPipeline { $0.recorded(report) }
        }
    }

    /// Whether a subscription that waits for stamps waits before it is sent `snapshot`.
    func waitsForStamp(_ snapshot: StoreSnapshot) -> Bool {
        configuration.recorder != nil && configuration.remote == nil && snapshot.stamp == nil
            && !stampsFailing && snapshot.version > stampsReleased
    }

    /// The version `version` was published: what waits for its stamp waits until it comes,
    /// or `stampWait` at most.
    func awaitStamp(of version: Int) {
        guard configuration.recorder != nil else { return }
        wake(at: Self.now() + Self.stampWait) { engine in
            guard version > engine.stampsReleased else { return }
            engine.stampsReleased = version
            engine.stampsSettled()
        }
    }

    /// What the recorder found.
    func recorded(_ report: HistoryRecorder.Report) {
        guard case .watching = phase else { return }
        switch report {
        case .stamped(let version, let stamp):
            stampsFailing = false
            if let i = history.lastIndex(where: { $0.version == version }) {
                history[i].stamp = stamp
            }
            guard reducer.stamp(stamp, version: version) else { return }
            for id in subscriptions.keys {
                subscriptions[id]?.stamped(reducer.published, engine: self)
            }
            startWaitingSubscriptions()
            finishSyncIfSettled()
        case .failed(let error):
            stampsFailing = true
            // Said once, to those that asked for the journal's revisions.
            let notice = StoreError(
                code: error.code,
                message:
                    "the history could not record changes (\(error.message)): they are delivered "
                    + "with revisions of this process only, and recorded once the journal can be written",
                file: error.file)
            for id in subscriptions.keys where subscriptions[id]?.waitsForJournal == true {
                subscriptions[id]?.fail(notice, engine: self)
            }
            stampsSettled()
        }
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
