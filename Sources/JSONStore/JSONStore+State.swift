import Dispatch

extension JSONStore {
    /// What the live store is doing now: loading, live, resyncing or failed.
    ///
    /// `.loading` until something observes the store (its changes or its state) and the
    /// first load is done; `.loading` again once the last observation has ended.
    public var state: StoreState { engine.state }

    /// How the store is watched, and why: `inotify (on ext4)`, or `polling every 1.0 s:
    /// the store is on nfs, where inotify misses other machines' writes` (the default
    /// `WatchMode.automatic` polls there), or what `Options.watchMode` asked for; for a
    /// store on etcd, its watch. Set when the first observer starts the watcher.
    public var watching: String { remote == nil ? engine.status.watching : "etcd's watch" }

    /// Follows the store's state; `onChange` runs on `queue`, first with the current state.
    public func observeState(
        on queue: DispatchQueue, _ onChange: @escaping @Sendable (StoreState) -> Void
    ) -> ObservationToken {
        observeState(
            delivery: .queue(DispatchQueue(label: "jsonstore.state", target: queue)), onChange)
    }

    /// Follows the store's state on the main actor, first with the current state.
    public func observeState(_ onChange: @escaping @MainActor @Sendable (StoreState) -> Void)
        -> ObservationToken
    {
        observeState(delivery: .mainActor) { state in MainActor.assumeIsolated { onChange(state) } }
    }

    /// The store's states as an asynchronous sequence, starting with the current one.
    public func stateChanges() -> AsyncStream<StoreState> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let token = observeState(delivery: .immediate) { continuation.yield($0) }
            continuation.onTermination = { _ in token.invalidate() }
        }
    }

    private func observeState(
        delivery: Delivery, _ callback: @escaping @Sendable (StoreState) -> Void
    ) -> ObservationToken {
        let flag = CancellationFlag()
        let observer = StatusBoard.Observer(flag: flag, delivery: delivery, callback: callback)
        let engine = self.engine
        let key = ObjectIdentifier(flag)
        engine.observeState(observer, id: key)
        return ObservationToken(flag: flag) { engine.stopObservingState(key) }
    }

    /// Waits until every edit on disk now, including this process's own writes, has been
    /// read and delivered to this process's observers: read-your-writes.
    ///
    /// For example:
    ///
    /// ```swift
    /// try store.put("tea", ["title": "Make tea"])
    /// await store.synchronize()   // every observer has now been told about "tea"
    /// ```
    ///
    /// Deletions are delivered after the deletion grace period, and nothing is delivered
    /// while git holds its index lock in the store's repository (a minute at most), so this
    /// can take that long. Returns at once when nothing observes the store.
    public func synchronize() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            engine.synchronize { continuation.resume() }
        }
    }

    /// Test hook: stalls (or resumes) reading the watcher's events (a directory's, or
    /// etcd's watch), so that the kernel's event queue can overflow or etcd compact past it.
    @_spi(Testing) public func setWatcherSuspended(_ suspended: Bool) {
        engine.setWatcherSuspended(suspended)
    }
}

extension JSONStore {
    /// A revision newer than version `version`'s at which the store is known to still be
    /// as that version shows it (etcd's progress; on a directory, the journal's stamp of a
    /// version sent before it came), for the stream's bookmarks; `nil` when there is none.
    package func _quietRevision(atVersion version: Int) -> StoreRevision? {
        if let stamped = engine.lateStamp.withLock({ $0 }), stamped.version == version {
            return stamped.token
        }
        guard let quiet = engine.quiet.withLock({ $0 }), quiet.version == version else {
            return nil
        }
        return StoreRevision(String(quiet.revision))
    }
}
