import Dispatch

extension JSONStore {
    /// Observes the items `query` selects; `onChange` runs on `queue`.
    ///
    /// The first callback is `.initial(results)`, then an `.update` for every batch of edits
    /// that changes the results, whoever made them (this process, another one, a person in
    /// vim). Callbacks run one at a time, in order, even if `queue` is concurrent; reading,
    /// parsing and diffing happen on the store's own queue, never on `queue`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let token = store.observe(on: .main) { change in
    ///     if case .update(let results, let changes) = change {
    ///         print(results.count, "items;", changes.insertions.count, "new")
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: a token; observation stops when it is invalidated or released.
    public func observe(
        _ query: Query = .all, on queue: DispatchQueue,
        _ onChange: @escaping @Sendable (StoreChange) -> Void
    ) -> ObservationToken {
        subscribe(query, delivery: .queue(DispatchQueue(label: "jsonstore.observer", target: queue)), onChange)
    }

    /// Observes the items `query` selects; `onChange` runs on the main actor.
    ///
    /// - Returns: a token; observation stops when it is invalidated or released.
    public func observe(
        _ query: Query = .all, _ onChange: @escaping @MainActor @Sendable (StoreChange) -> Void
    ) -> ObservationToken {
        subscribe(query, delivery: .mainActor) { change in
            MainActor.assumeIsolated { onChange(change) }
        }
    }

    /// The changes of the items `query` selects, as an asynchronous sequence: `.initial`
    /// first, then every update, in order. Ending the iteration stops the observation.
    ///
    /// For example:
    ///
    /// ```swift
    /// for await change in store.changes(Query.all.sorted(by: "priority")) {
    ///     print(change)
    /// }
    /// ```
    public func changes(_ query: Query = .all) -> AsyncStream<StoreChange> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let token = subscribe(query, delivery: .immediate) { continuation.yield($0) }
            continuation.onTermination = { _ in token.invalidate() }
        }
    }

    private func subscribe(
        _ query: Query, delivery: Delivery, _ callback: @escaping @Sendable (StoreChange) -> Void
    ) -> ObservationToken {
        let flag = CancellationFlag()
        let subscription = LiveEngine.Subscription(
            query: query, flag: flag, delivery: delivery, callback: callback)
        let engine = self.engine
        let id = ObjectIdentifier(subscription)
        engine.subscribe(subscription)
        return ObservationToken(flag: flag) { engine.unsubscribe(id) }
    }

    /// What the live store is doing now: loading, live, resyncing or failed.
    ///
    /// `.loading` until something observes the store and the first load is done.
    public var state: StoreState { engine.state }

    /// Follows the store's state; `onChange` runs on `queue`, first with the current state.
    public func observeState(
        on queue: DispatchQueue, _ onChange: @escaping @Sendable (StoreState) -> Void
    ) -> ObservationToken {
        observeState(delivery: .queue(DispatchQueue(label: "jsonstore.state", target: queue)), onChange)
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
        let observer = LiveEngine.StateObserver(flag: flag, delivery: delivery, callback: callback)
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
    /// Deletions are delivered after the deletion grace period, so this can take that
    /// long. Returns at once when nothing observes the store.
    public func synchronize() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            engine.synchronize { continuation.resume() }
        }
    }

    /// Test hook: stalls (or resumes) reading the watcher's events, so that the kernel's
    /// event queue can overflow.
    package func _setWatcherSuspended(_ suspended: Bool) {
        engine.setWatcherSuspended(suspended)
    }
}
