import Dispatch

extension LiveEngine {
    /// A query's subscriber, and what it has been sent.
    ///
    /// At most one update is on its way to the subscriber's executor at a time. Changes
    /// published while one is in flight wait here as a set of ids and file names, and go
    /// out as one update (the change set from what the subscriber last received to the
    /// newest snapshot) once its callback has returned. A subscriber that falls behind
    /// therefore costs memory in proportion to its results, never to the number of edits,
    /// and when it catches up it has converged, Realm's index spaces still exact.
    ///
    /// `@unchecked Sendable`: made on the subscriber's thread and handed to the pipeline
    /// queue once; every `var` is used on the pipeline queue alone.
    final class Subscription: @unchecked Sendable {
        let query: Query
        let flag: CancellationFlag
        let delivery: Delivery
        let callback: @Sendable (StoreChange) -> Void

        /// The results in the last update handed to the subscriber's executor.
        private(set) var results: Results?
        /// Whether an update was handed to the executor and its callback has not returned.
        private var inFlight = false
        /// Ids and invalid-file names changed since `results`, waiting for `inFlight`.
        private var backlogIDs: Set<UTF8Key> = []
        private var backlogNames: Set<UTF8Key> = []
        /// An error to send once the backlog before it has gone out.
        private var deferredError: StoreError?
        /// The newest snapshot the backlog leads to.
        private var newest: StoreSnapshot?

        init(query: Query, flag: CancellationFlag, delivery: Delivery,
             callback: @escaping @Sendable (StoreChange) -> Void)
        {
            self.query = query
            self.flag = flag
            self.delivery = delivery
            self.callback = callback
        }

        /// Whether changes are waiting for an update in flight.
        var hasBacklog: Bool { newest != nil || deferredError != nil }

        /// Builds this subscription's results from `snapshot` and sends `.initial`.
        func start(from snapshot: StoreSnapshot, engine: LiveEngine) {
            let initial = Results.initial(query, snapshot)
            results = initial
            send(.initial(initial), engine: engine)
        }

        /// Tells the subscriber that `ids` and the invalid files `names` changed in
        /// `snapshot`, now or, if an update is in flight, once it has been taken.
        ///
        /// - Complexity: O(k log n) for k changed ids.
        func publish(ids: some Sequence<UTF8Key>, names: some Sequence<UTF8Key>,
                     snapshot: StoreSnapshot, engine: LiveEngine)
        {
            guard results != nil else { return }
            backlogIDs.formUnion(ids)
            backlogNames.formUnion(names)
            newest = snapshot
            if !inFlight { flush(engine: engine) }
        }

        /// Sends `error`, after any update still waiting.
        func fail(_ error: StoreError, engine: LiveEngine) {
            if inFlight || newest != nil {
                deferredError = error
            } else {
                send(.error(error), engine: engine)
            }
        }

        /// The subscriber's callback has returned: send what waited meanwhile.
        func deliveryFinished(engine: LiveEngine) {
            inFlight = false
            flush(engine: engine)
        }

        private func flush(engine: LiveEngine) {
            if let snapshot = newest, let base = results {
                newest = nil
                let changes = backlogIDs.map {
                    EntryChange(id: $0.string, old: base.snapshot.entries[$0], new: snapshot.entries[$0])
                }
                var invalid: [InvalidFile] = []
                var resolved: [String] = []
                for name in backlogNames.sorted() {
                    if let file = snapshot.invalid[name] {
                        invalid.append(file)
                    } else if base.snapshot.invalid[name] != nil {
                        resolved.append(name.string)
                    }
                }
                backlogIDs.removeAll()
                backlogNames.removeAll()
                let (next, changeSet) = base.applying(
                    changes, snapshot: snapshot, invalid: invalid, resolved: resolved)
                results = next
                if !changeSet.isEmpty { return send(.update(next, changeSet), engine: engine) }
            }
            if let error = deferredError {
                deferredError = nil
                send(.error(error), engine: engine)
            }
        }

        private func send(_ change: StoreChange, engine: LiveEngine) {
            inFlight = true
            let flag = flag
            let callback = callback
            delivery.run {
                if !flag.isCancelled { callback(change) }
                engine.queue.async { engine.deliveryFinished(self) }
            }
        }
    }
}
