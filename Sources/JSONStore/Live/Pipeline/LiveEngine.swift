import Dispatch

/// The live pipeline of one store, the driver: watch → read → reduce → publish → deliver.
///
/// An actor that runs on its own serial queue, the pipeline queue, where its watcher's
/// sources and its timers fire too; they reach it with `assumeIsolated`, checked by a
/// `dispatchPrecondition` (see `QueueExecutor`). So every step but the last runs in one
/// place, in order, and no observer's executor ever reads, parses or diffs. What the files
/// mean is the pure `StoreReducer`'s business; this type does the I/O, the timers, the
/// lifecycle and the subscribers.
actor LiveEngine {
    struct Configuration: Sendable {
        var path: String
        /// The store when it is not a directory (etcd), which brings its own source.
        var remote: (any RemoteBackend)?
        var reader: JSONReader
        var watchMode: WatchMode
        var deletionGrace: Double
        var fallbackDelay: Double
        var reattachInterval: Double
        /// How long publications wait for git's index lock at most (`LiveEngine+Git`).
        var gitHoldLimit: Double = 60
        var parallelAbove: Int
        /// Records what the watcher sees other programs change in the store's history
        /// (`nil`: the store keeps none, or is not a directory).
        var recorder: HistoryRecorder?
        /// The store's schemas, compiled once for the store and its pipeline.
        var schemas = SchemaCache()
        /// Whether a directory's start reads from, and its pipeline writes, a start cache.
        var keepsStartCache = true
        /// `Options.startCacheChecked`.
        var startCacheChecked: (@Sendable () -> Void)?
        /// `Options.startCacheBegun`.
        var startCacheBegun: (@Sendable (_ finished: @Sendable (Double) -> Bool) -> Void)?
    }

    /// Where the pipeline is in its life, with what that part of it holds.
    enum Phase {
        /// Nobody observes the store: no watcher, nothing in memory.
        case idle
        /// Watching the directory (its contents loaded, or being loaded).
        case watching(DirectoryWatch)
        /// The directory is gone and has been reported; waiting for it to come back.
        case detached
        /// Following a remote store's source (`LiveEngine+Remote`).
        case following(RemoteFollow)
    }

    // MARK: Mutable state
    //
    // All of it is the actor's, changed only on the pipeline queue.
    //
    // - `phase`: where the pipeline is, and what that phase holds: the directory's
    //   watcher and holds (`DirectoryWatch`), or the remote source and its pending
    //   catch-ups and resumes (`RemoteFollow`). Leaving a phase drops its data.
    // - `reducer`: what the files hold and what was published (pure; `StoreReducer`).
    //   Made anew, with a new origin, for each observed life (`startIfIdle`).
    // - `subscriptions`, `syncWaiters`: who is told, and who waits for everything on
    //   disk now to be told.
    // - `history`, `resumeRequests`: the versions kept to resume from, and the revisions
    //   subscriptions asked for until they start (`LiveEngine+Resuming`).
    // - `sourcesStarted`: how many remote sources were started, to tell an old one's
    //   late reports.
    // - `stampsFailing`, `stampsReleased`, `stampWaiting`, `stampWaits`,
    //   `resumeWaitStarted`, `resumesRebuilding`: a directory's journal revisions
    //   (`LiveEngine+Stamps`): whether the journal cannot be written, the newest version
    //   sent without waiting for its stamp, the wait under way, the resumes waiting for
    //   a stamp and those whose store at a journal revision is being rebuilt.
    // - `life`: which observed life this is, so an earlier one's reports are dropped.
    // - `schema`: the schema items are read with (`LiveEngine+Schema`), enforced, or none.
    // - `status` and `quiet`: thread-safe boards others read from any thread;
    //   `recentBytes`, the bytes of the last files read, behind a lock of its own.
    //
    // `stopIfIdle` ends an observed life: the phase, the reducer, the history and the
    // requests are dropped, the boards cleared; subscriptions and waiters are gone by then.

    nonisolated let configuration: Configuration
    nonisolated let queue: DispatchQueue
    private nonisolated let executor: QueueExecutor
    /// The state and its followers, reachable from any thread.
    nonisolated let status = StatusBoard()
    /// The bytes of the files read last, where typed observations locate decoding errors.
    nonisolated let recentBytes = RecentBytes()

    var phase = Phase.idle
    var reducer: StoreReducer
    /// Each subscriber, by its cancellation flag's identity.
    var subscriptions: [ObjectIdentifier: any LiveSubscriber] = [:]
    var syncWaiters: [@Sendable () -> Void] = []
    /// How many remote sources were started: reports of one replaced are dropped.
    var sourcesStarted = 0
    /// The last versions published, to resume subscriptions from (`LiveEngine+Resuming`).
    var history: [StoreSnapshot] = []
    /// The revisions subscriptions asked to start from, until they start.
    var resumeRequests: [ObjectIdentifier: StoreRevision] = [:]
    /// Whether the history's recorder cannot write the journal: nothing waits for stamps.
    var stampsFailing = false
    /// Versions up to this one go out without waiting for their stamps any longer.
    var stampsReleased = 0
    /// Whether a published version waits for its stamp, and how many waits there were
    /// (the timer of each knows its own).
    var stampWaiting = false
    var stampWaits = 0
    /// Since when each subscription resuming from a journal revision has waited for it.
    var resumeWaitStarted: [ObjectIdentifier: Double] = [:]
    /// One more for every observed life: reports and timers of an earlier one are dropped.
    var life = 0
    /// The schema items are read with: the store's, when it is enforced.
    var schema: StoreSchema?
    /// What a directory's start took from the start cache, and when it writes one.
    var startCache = StartCachePlan()
    /// Subscriptions resuming from a journal revision whose store is being rebuilt.
    var resumesRebuilding: Set<ObjectIdentifier> = []
    /// The newest revision known to leave the published version as it is (etcd's
    /// progress), readable from any thread for the stream's bookmarks.
    nonisolated let quiet = Locked<(version: Int, revision: Int64)?>(nil)
    /// A directory's version and the journal's token for it, once stamped: for a version
    /// sent before its stamp came, the stream's bookmarks give the journal's.
    nonisolated let lateStamp = Locked<(version: Int, token: StoreRevision)?>(nil)

    init(configuration: Configuration) {
        self.configuration = configuration
        queue = DispatchQueue(label: "jsonstore.pipeline", qos: .userInitiated)
        executor = QueueExecutor(queue: queue)
        reducer = StoreReducer(
            timing: .init(
                deletionGrace: configuration.deletionGrace,
                fallbackDelay: configuration.fallbackDelay))
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    /// Runs `body` on the pipeline, isolated to it.
    nonisolated func onPipeline(_ body: @escaping @Sendable (isolated LiveEngine) -> Void) {
        queue.async { self.assumeIsolated(body) }
    }

    /// Runs `body` on the pipeline, isolated to it, and returns once it ran: on the
    /// calling thread when the pipeline is idle (no hand-off to another thread). The
    /// caller must not be the pipeline, nor hold anything the pipeline waits for.
    nonisolated func onPipelineNow(_ body: @Sendable (isolated LiveEngine) -> Void) {
        queue.sync { self.assumeIsolated(body) }
    }

    /// Runs `body` on the pipeline after `deadline` (seconds of the monotonic clock),
    /// unless the pipeline is gone by then.
    func wake(at deadline: Double, _ body: @escaping @Sendable (isolated LiveEngine) -> Void) {
        let time = DispatchTime(uptimeNanoseconds: UInt64(max(deadline, 0) * 1e9))
        queue.asyncAfter(deadline: time) { [weak self] in self?.assumeIsolated(body) }
    }

    /// Now, in seconds of the monotonic clock the deadlines use.
    nonisolated static func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

    isolated deinit {
        // The last reference is gone (the store and every token): nothing else can touch
        // the watcher now.
        switch phase {
        case .watching(let watch): watch.watcher.stop()
        case .following(let follow): follow.source.stop()
        case .idle, .detached: break
        }
    }

    // MARK: Subscribing (from any thread)

    /// Adds `subscription`, which starts from the store's revision `since` if it can
    /// (`LiveEngine+Resuming`), else from the current results.
    nonisolated func subscribe(_ subscription: any LiveSubscriber, since: StoreRevision? = nil) {
        onPipeline { engine in
            let id = subscription.id
            engine.subscriptions[id] = subscription
            if let since { engine.resumeRequests[id] = since }
            engine.startIfIdle()  // the first load starts every subscription
            if engine.reducer.isLoaded { engine.startWaitingSubscriptions() }
        }
    }

    nonisolated func unsubscribe(_ id: ObjectIdentifier) {
        onPipeline { engine in
            engine.subscriptions[id] = nil
            engine.resumeWaitStarted[id] = nil
            engine.stopIfIdle()
        }
    }

    nonisolated var state: StoreState { status.state }

    nonisolated func observeState(_ observer: StatusBoard.Observer, id: ObjectIdentifier) {
        status.add(observer, id: id)
        onPipeline { $0.startIfIdle() }
    }

    nonisolated func stopObservingState(_ id: ObjectIdentifier) {
        status.remove(id)
        onPipeline { $0.stopIfIdle() }
    }

    /// Calls `completion` once every change on disk now has been read and delivered to
    /// every subscriber (its callbacks have run, or for streams, been handed over).
    nonisolated func synchronize(_ completion: @escaping @Sendable () -> Void) {
        onPipeline { engine in
            switch engine.phase {
            case .watching(let watch): watch.watcher.pollNow()
            case .following(let follow):
                follow.pendingCatchUps += 1
                follow.source.catchUp()
            case .idle, .detached: return completion()
            }
            engine.syncWaiters.append(completion)
            engine.finishSyncIfSettled()
        }
    }

    /// Test hook: stall or resume reading events, so the kernel's queue can overflow.
    nonisolated func setWatcherSuspended(_ suspended: Bool) {
        queue.sync {
            assumeIsolated { engine in
                switch engine.phase {
                case .watching(let watch):
                    if suspended { watch.watcher.suspend() } else { watch.watcher.resume() }
                case .following(let follow): follow.source.setSuspended(suspended)
                case .idle, .detached: break
                }
            }
        }
    }

    // MARK: Publishing

    /// Cuts a new version if there is one and hands it to every subscription; schedules
    /// the next look when changes wait for a pending deletion.
    ///
    /// - Complexity: O(k log n) per subscription for k changed ids.
    func publish() {
        if holdsForGit() || holdsForBatch() { return }
        endHoldNotice()
        switch reducer.publish(at: Self.now()) {
        case .none:
            // What git left settled to no change: the next edit is not git's.
            if case .watching(let watch) = phase { watch.publishingForGit = false }
        case .wait(let until):
            // What is due by then is settled first: timers due together may fire in any
            // order, and a deletion's own wake-up after this one would make it an update
            // of its own.
            wake(at: until) { engine in
                engine.settleDeadlines(everything: false)
                engine.publish()
            }
        case .publish(let snapshot, let ids, let names):
            let previous = history.last
            awaitStamp()
            recordHistory()
            // Every observer's member diff of an edited item parses its members once.
            ParsedMembers.keeping {
                for id in subscriptions.keys {
                    subscriptions[id]?.publish(
                        ids: ids, names: names, snapshot: snapshot, engine: self)
                }
            }
            // Once the deliveries are on their way: the recorder's turn, on a thread of its
            // own, then takes no core from them.
            journal(snapshot, ids, previous: previous)
        }
        finishSyncIfSettled()
    }

    /// Hands what a directory's publication changed to the history's recorder, which
    /// records it in the background (the whole store on the first one, for what changed
    /// while nothing watched, the changed ids after) and stamps the version: every
    /// publication, even one of invalid files only, so each can be stamped.
    private func journal(_ snapshot: StoreSnapshot, _ ids: Set<UTF8Key>, previous: StoreSnapshot?) {
        guard let recorder = configuration.recorder, case .watching(let watch) = phase else {
            return
        }
        let forGit = watch.publishingForGit
        watch.publishingForGit = false
        guard let previous else {
            return recorder.loaded(
                snapshot, since: startCache.base, changed: startCache.changed,
                previous: startCache.previous, heads: startCache.heads)
        }
        var known: [UTF8Key: Item] = [:]
        for id in ids {
            if let item = previous.entries[id]?.item(id: id.string) { known[id] = item }
        }
        recorder.changed(
            ids.map(\.string), previous: known, source: forGit ? .git : .otherProgram,
            snapshot: snapshot)
    }

    /// A subscriber's callback has returned; send it what waited, if anything did.
    func deliveryFinished(_ id: ObjectIdentifier) {
        subscriptions[id]?.deliveryFinished(engine: self)
        finishSyncIfSettled()
    }

    /// Completes `synchronize` calls once nothing is pending: each waits for a marker to
    /// pass through every subscriber's executor, behind the updates already sent there.
    func finishSyncIfSettled() {
        guard !syncWaiters.isEmpty else { return }
        switch phase {
        case .watching, .following:
            if case .following(let follow) = phase, follow.pendingCatchUps > 0 { return }
            guard reducer.isLoaded, reducer.isSettled,
                !subscriptions.values.contains(where: \.hasBacklog)
            else { return }
        case .idle, .detached: break
        }
        let waiters = syncWaiters
        syncWaiters.removeAll()
        let group = DispatchGroup()
        for subscription in subscriptions.values {
            group.enter()
            subscription.delivery.run { group.leave() }
        }
        group.notify(queue: .global()) {
            for waiter in waiters { waiter() }
        }
    }
}
