extension LiveEngine {
    // The driver's whole life: started by the first observer, on a directory (its watcher,
    // then a full scan) or a remote source; detached while the directory is gone and
    // attached again when it is back; stopped, with memory forgotten, by the last.

    // MARK: Lifecycle

    func startIfIdle() {
        guard case .idle = phase else { return }
        // A new follower: tokens of an earlier one (or another process) are not resumed.
        reducer = StoreReducer(
            timing: reducer.timing, origin: String(UInt32.random(in: .min ... .max), radix: 16))
        life += 1
        if let remote = configuration.remote { return attach(to: remote) }
        connectRecorder()
        attach(reason: nil)
    }

    /// Stops watching once the last observation has ended, and forgets the store's
    /// contents: an observation that starts later loads them again.
    func stopIfIdle() {
        guard subscriptions.isEmpty, !status.hasObservers else { return }
        switch phase {
        case .idle: return
        case .watching(let watch): watch.watcher.stop()
        case .following(let follow): follow.source.stop()
        case .detached: break
        }
        phase = .idle
        configuration.recorder?.stop()
        history.removeAll()
        resumeRequests.removeAll()
        (stampsFailing, stampsReleased, stampWaiting) = (false, 0, false)
        resumesRebuilding.removeAll()
        resumeWaitStarted.removeAll()
        quiet.withLock { $0 = nil }
        lateStamp.withLock { $0 = nil }
        reducer = StoreReducer(timing: reducer.timing)
        // The next life's versions count afresh: a cache this one was writing (its end
        // told to a life that is gone) or wrote holds none of them back.
        startCache = StartCachePlan()
        status.reset()
        finishSyncIfSettled()
    }

    // MARK: A directory

    /// Starts the watcher, then reads everything. The watcher comes first, so no edit
    /// made during the scan is missed; a first load's start cache is read meanwhile, its
    /// files looked at once the watcher has started (`PendingStartCache`).
    func attach(reason: String?) {
        // A first load's start cache is read while the watcher is set up.
        let pending = reducer.isLoaded ? nil : beginStartCacheRead()
        if let pending { configuration.startCacheBegun?(pending.finished) }
        let watcher: any DirectoryWatcher
        do {
            watcher = try makeWatcher()
        } catch {
            pending?.watcherStarted(false)
            if case .detached = phase { scheduleReattach() } else { watchFailed(error) }
            return
        }
        phase = .watching(
            DirectoryWatch(
                watcher: watcher, git: GitActivity.find(forDirectory: configuration.path)))
        watcher.start()
        pending?.watcherStarted(true)
        rescan(reason: reason, startCache: pending)
    }

    func makeWatcher() throws(InotifySetupError) -> any DirectoryWatcher {
        let handler: @Sendable (WatchBatch) -> Void = { [weak self] batch in
            self?.assumeIsolated { $0.handle(batch) }
        }
        let path = configuration.path
        switch configuration.watchMode {
        case .inotify:
            status.watching = "inotify"
            return try InotifyWatcher(path: path, queue: queue, handler: handler)
        case .polling(let interval):
            status.watching = "polling every \(interval) s, as asked"
            return PollingWatcher(path: path, interval: interval, queue: queue, handler: handler)
        case .inotifyOrPolling(let interval):
            do {
                status.watching = "inotify"
                return try InotifyWatcher(path: path, queue: queue, handler: handler)
            } catch  where error.isLimit {
                status.watching = "polling every \(interval) s: \(error)"
                return PollingWatcher(
                    path: path, interval: interval, queue: queue, handler: handler)
            }
        case .automatic(let interval):
            let system = FileSystemType.of(path)
            if let system, system.missesRemoteWrites {
                status.watching =
                    "polling every \(interval) s: the store is on \(system.name), where inotify misses other machines' writes"
                return PollingWatcher(
                    path: path, interval: interval, queue: queue, handler: handler)
            }
            status.watching = "inotify" + (system.map { " (on \($0.name))" } ?? "")
            return try InotifyWatcher(path: path, queue: queue, handler: handler)
        }
    }

    /// The watcher could not start: the directory is gone, or a limit was reached.
    func watchFailed(_ error: InotifySetupError) {
        if !error.isLimit, error.errno == .noSuchFile || error.errno == .notDirectory {
            return directoryGone()
        }
        detach(error.storeError(path: configuration.path))
    }

    /// Reports the directory gone (once) and waits for it to come back.
    func directoryGone(cause: Errno? = nil) {
        let reason =
            cause.map { "the store directory cannot be watched: \($0)" }
            ?? "the store directory was removed or moved away"
        detach(
            StoreError(
                code: .storeUnavailable, message: reason, file: configuration.path,
                underlying: cause))
    }

    /// Reports `error` (once) and tries to attach again every reattach interval.
    func detach(_ error: StoreError) {
        if case .detached = phase { return }  // reported already; a reattach is scheduled
        if case .watching(let watch) = phase { watch.watcher.stop() }
        phase = .detached
        reducer.directoryGone()
        status.set(.failed(error))
        for id in subscriptions.keys { subscriptions[id]?.fail(error, engine: self) }
        finishSyncIfSettled()
        scheduleReattach()
    }

    func scheduleReattach() {
        wake(at: Self.now() + configuration.reattachInterval) { engine in
            guard case .detached = engine.phase else { return }
            if let dir = try? FileDescriptor.openDirectory(engine.configuration.path) {
                dir.close()
                engine.attach(reason: "the store directory appeared again")
            } else {
                engine.scheduleReattach()
            }
        }
    }

    // MARK: A remote source (etcd)

    /// Starts the remote store's source; its first report, the listing, loads the store.
    func attach(to backend: any RemoteBackend) {
        sourcesStarted += 1
        let generation = sourcesStarted
        let source = backend.makeSource(reader: configuration.reader, keepingIn: recentBytes) {
            [weak self] report in
            // The source's thread waits while its report is taken (see `LiveSource`).
            self?.onPipelineNow { engine in
                // A source stopped and replaced may still have reports on their way.
                guard case .following(let follow) = engine.phase,
                    follow.generation == generation
                else { return }
                engine.handle(report, from: follow)
            }
        }
        phase = .following(RemoteFollow(source: source, generation: generation))
        source.start()
    }
}
