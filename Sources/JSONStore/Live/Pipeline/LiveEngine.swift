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
    }

    /// Where the pipeline is in its life.
    enum Phase {
        /// Nobody observes the store: no watcher, nothing in memory.
        case idle
        /// Watching the directory (its contents loaded, or being loaded).
        case watching(any DirectoryWatcher)
        /// The directory is gone and has been reported; waiting for it to come back.
        case detached
        /// Following a remote store's source (`LiveEngine+Remote`).
        case following(any LiveSource)
    }

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
    /// `catchUp()` calls a remote source has not answered yet.
    var pendingCatchUps = 0
    /// Which remote source is current: reports of an earlier one are dropped.
    var sourceGeneration = 0
    /// The last versions published, to resume subscriptions from (`LiveEngine+Resuming`).
    var history: [StoreSnapshot] = []
    /// The revisions subscriptions asked to start from, until they start.
    var resumeRequests: [ObjectIdentifier: StoreRevision] = [:]
    /// Subscriptions waiting for the store at their revision, read from a remote store.
    var pendingResumes: Set<ObjectIdentifier> = []
    /// The newest revision known to leave the published version as it is (etcd's
    /// progress), readable from any thread for the stream's bookmarks.
    nonisolated let quiet = Locked<(version: Int, revision: Int64)?>(nil)
    /// Publications held while git works in the store's repository (`LiveEngine+Git`).
    var gitHold = GitHold()
    /// Publications held while a store batch commits (`LiveEngine+Batch`).
    var batchHold = MarkerHold()
    /// Whether a hold is ending: what it left is being read, and publications wait until
    /// all of it is in (`settleAfterHold`).
    var settlingHold = false

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
        case .watching(let watcher): watcher.stop()
        case .following(let source): source.stop()
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
            case .watching(let watcher): watcher.pollNow()
            case .following(let source):
                engine.pendingCatchUps += 1
                source.catchUp()
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
                case .watching(let watcher):
                    if suspended { watcher.suspend() } else { watcher.resume() }
                case .following(let source): source.setSuspended(suspended)
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
        switch reducer.publish(at: Self.now()) {
        case .none:
            break
        case .wait(let until):
            // What is due by then is settled first: timers due together may fire in any
            // order, and a deletion's own wake-up after this one would make it an update
            // of its own.
            wake(at: until) { engine in
                engine.settleDeadlines(everything: false)
                engine.publish()
            }
        case .publish(let snapshot, let ids, let names):
            recordHistory()
            for id in subscriptions.keys {
                subscriptions[id]?.publish(ids: ids, names: names, snapshot: snapshot, engine: self)
            }
        }
        finishSyncIfSettled()
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
            guard pendingCatchUps == 0, reducer.isLoaded, reducer.isSettled,
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
