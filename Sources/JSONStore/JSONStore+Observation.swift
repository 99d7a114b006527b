import Dispatch

extension JSONStore {
    /// Observes the items `query` selects, decoded as `T`; `onChange` runs on `queue`.
    ///
    /// The first callback is `.initial(results)`, then an `.update` for every batch of edits
    /// that changes the results, whoever made them (this process, another one, a person in
    /// vim). Callbacks run one at a time, in order, even if `queue` is concurrent; reading,
    /// parsing, decoding and diffing happen on the store's own queue, never on `queue`.
    /// An item that does not decode as `T` is an invalid file for this observation (see
    /// `Results.error(for:)`).
    ///
    /// For example:
    ///
    /// ```swift
    /// let token = store.observe(Todo.self, Query.all.sorted(by: \Todo.priority), on: .main) { change in
    ///     if case .update(let tasks, let changes) = change {
    ///         for task in changes.inserted { print("new:", task.title, "of", tasks.count) }
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: a token; observation stops when it is invalidated or released. The token
    ///   keeps the store's pipeline alive: releasing this `JSONStore` stops nothing.
    public func observe<T: Decodable & Sendable>(
        _ type: T.Type, _ query: Query = .all, since revision: StoreRevision? = nil,
        policy: DeliveryPolicy = .everyBatch, members: [String]? = nil, on queue: DispatchQueue,
        _ onChange: @escaping @Sendable (StoreChange<T>) -> Void
    ) -> ObservationToken {
        observe(
            query, decoding(type), since: revision, policy: policy, members: members, on: queue,
            onChange)
    }

    /// Observes the items `query` selects, decoded as `T`; `onChange` runs on the main
    /// actor.
    public func observe<T: Decodable & Sendable>(
        _ type: T.Type, _ query: Query = .all, since revision: StoreRevision? = nil,
        policy: DeliveryPolicy = .everyBatch, members: [String]? = nil,
        _ onChange: @escaping @MainActor @Sendable (StoreChange<T>) -> Void
    ) -> ObservationToken {
        observeOnMainActor(
            query, decoding(type), since: revision, policy: policy, members: members, onChange)
    }

    /// The changes of the items `query` selects, decoded as `T`, as an asynchronous
    /// sequence. Ending the iteration or cancelling its task stops the observation.
    public func changes<T: Decodable & Sendable>(
        _ type: T.Type, _ query: Query = .all, since revision: StoreRevision? = nil,
        policy: DeliveryPolicy = .everyBatch, members: [String]? = nil
    ) -> StoreChanges<T> {
        changes(query, decoding(type), since: revision, policy: policy, members: members)
    }

    /// Observes the items `query` selects, as `Item`s; `onChange` runs on `queue`.
    ///
    /// For example:
    ///
    /// ```swift
    /// let token = store.observe(on: .main) { change in
    ///     if case .update(let results, let changes) = change {
    ///         print(results.count, "items;", changes.inserted.count, "new")
    ///     }
    /// }
    /// ```
    ///
    /// With `since`, a revision kept from earlier results (`Results.revision`), the
    /// observation resumes from it: its first callback is an `.update` relative to the
    /// results at that revision (possibly with no changes), so a subscriber that kept them
    /// is current once it applies it; on etcd the store is read as it was at that
    /// revision, on a directory rebuilt from its journal. A revision that cannot be
    /// resumed from (compacted away on etcd, pruned from a directory's journal, or of a
    /// journal that was removed) gives `.initial` instead, and `Results.resumption` of
    /// the first results says which happened, and why. `since: .now` starts from the
    /// current results; with any `since`, a directory's revisions are its journal's,
    /// valid in every process, each version sent once the journal has recorded it (see
    /// `StoreRevision`).
    ///
    /// With `members`, the observation hears only of the members it names (names, dotted
    /// paths like `owner.name`, or JSON Pointers into the item's JSON): an item entering or
    /// leaving the results, or one of those members changing; an edit of any other member
    /// (a member the query filters or sorts by moves or removes the item, and is heard)
    /// brings no update, though the results hold the current values at each update.
    /// `policy` says how often updates come (`DeliveryPolicy`).
    public func observe(
        _ query: Query = .all, since revision: StoreRevision? = nil,
        policy: DeliveryPolicy = .everyBatch, members: [String]? = nil, on queue: DispatchQueue,
        _ onChange: @escaping @Sendable (StoreChange<Item>) -> Void
    ) -> ObservationToken {
        observe(
            query, .items, since: revision, policy: policy, members: members, on: queue, onChange)
    }

    /// Observes the items `query` selects, as `Item`s; `onChange` runs on the main actor.
    public func observe(
        _ query: Query = .all, since revision: StoreRevision? = nil,
        policy: DeliveryPolicy = .everyBatch, members: [String]? = nil,
        _ onChange: @escaping @MainActor @Sendable (StoreChange<Item>) -> Void
    ) -> ObservationToken {
        observeOnMainActor(
            query, .items, since: revision, policy: policy, members: members, onChange)
    }

    /// The changes of the items `query` selects, as `Item`s, as an asynchronous sequence.
    public func changes(
        _ query: Query = .all, since revision: StoreRevision? = nil,
        policy: DeliveryPolicy = .everyBatch, members: [String]? = nil
    ) -> StoreChanges<Item> {
        changes(query, .items, since: revision, policy: policy, members: members)
    }

    private func decoding<T: Decodable & Sendable>(_ type: T.Type) -> ElementCoder<T> {
        let (remote, path) = (self.remote, self.path)
        // A directory's file may be read again when no bytes were kept; etcd's never is.
        let reread: (@Sendable (Item) -> [UInt8]?)? =
            remote == nil ? { @Sendable item in ItemFile.bytes(of: item, in: path) } : nil
        return .decoding(
            type,
            location: { id in remote?.location(of: id) ?? join(path, ItemID.fileName(id)) },
            recent: engine.recentBytes, reread: reread)
    }

    private func changes<T>(
        _ query: Query, _ coder: ElementCoder<T>, since: StoreRevision?, policy: DeliveryPolicy,
        members: [String]?
    ) -> StoreChanges<T> {
        StoreChanges { [engine] mailbox in
            Self.subscribe(
                engine, query, coder, delivery: .immediate, since: since, policy: policy,
                members: members
            ) {
                change, done in
                mailbox.put(change, taken: done)
            }
        }
    }

    /// Callbacks on a serial queue of ours that targets `queue`, so they never overlap even
    /// if `queue` is concurrent.
    private func observe<T>(
        _ query: Query, _ coder: ElementCoder<T>, since: StoreRevision?, policy: DeliveryPolicy,
        members: [String]?,
        on queue: DispatchQueue, _ onChange: @escaping @Sendable (StoreChange<T>) -> Void
    ) -> ObservationToken {
        let delivery = Delivery.queue(DispatchQueue(label: "jsonstore.observer", target: queue))
        return Self.subscribe(
            engine, query, coder, delivery: delivery, since: since, policy: policy, members: members
        ) {
            change, done in
            onChange(change)
            done()
        }
    }

    private func observeOnMainActor<T>(
        _ query: Query, _ coder: ElementCoder<T>, since: StoreRevision?, policy: DeliveryPolicy,
        members: [String]?,
        _ onChange: @escaping @MainActor @Sendable (StoreChange<T>) -> Void
    ) -> ObservationToken {
        Self.subscribe(
            engine, query, coder, delivery: .mainActor, since: since, policy: policy,
            members: members
        ) {
            change, done in
            MainActor.assumeIsolated { onChange(change) }
            done()
        }
    }

    /// Subscribes to `engine`; the token it returns keeps `engine` alive.
    private static func subscribe<T>(
        _ engine: LiveEngine, _ query: Query, _ coder: ElementCoder<T>, delivery: Delivery,
        since: StoreRevision?, policy: DeliveryPolicy, members: [String]?,
        _ deliver: @escaping @Sendable (StoreChange<T>, @escaping @Sendable () -> Void) -> Void
    ) -> ObservationToken {
        let flag = CancellationFlag()
        let subscription = Subscription(
            query: query, coder: coder, flag: flag, delivery: delivery, policy: policy,
            watched: members.map { $0.map(MemberChange.pointer) }, waitsForJournal: since != nil,
            deliver: deliver)
        let id = subscription.id
        engine.subscribe(subscription, since: since == .now ? nil : since)
        return ObservationToken(flag: flag) { engine.unsubscribe(id) }
    }
}
