import Dispatch

/// A subscriber as the pipeline sees it, whatever the element type of its results.
///
/// A value kept by the pipeline (`LiveEngine`), so its state is isolated to it.
protocol LiveSubscriber: Sendable {
    /// Its identity: its cancellation flag's.
    var id: ObjectIdentifier { get }
    /// Where its callbacks run.
    var delivery: Delivery { get }
    /// Whether it has been sent `.initial`.
    var isStarted: Bool { get }
    /// Counts the results it keeps that are not the store's own tree.
    func countResults(into usage: inout MemoryUsage)
    /// Whether changes are waiting for an update in flight that `synchronize` must wait
    /// for: not for an async sequence, whose consumer pulls them (its next update will
    /// hold them), and may be the very task that waits.
    var hasBacklog: Bool { get }
    /// Whether it carries revisions every process resumes from: on a directory that keeps
    /// history, each version goes out once the journal has stamped it.
    var waitsForJournal: Bool { get }
    mutating func start(
        from snapshot: StoreSnapshot, resetReason: String?, engine: isolated LiveEngine)
    mutating func resume(
        from base: StoreSnapshot, to current: StoreSnapshot, revision: StoreRevision,
        engine: isolated LiveEngine)
    mutating func publish(
        ids: Set<UTF8Key>, names: Set<UTF8Key>, snapshot: StoreSnapshot, engine: isolated LiveEngine
    )
    mutating func fail(_ error: StoreError, engine: isolated LiveEngine)
    /// The journal stamped `snapshot`, the version published last.
    mutating func stamped(_ snapshot: StoreSnapshot, engine: isolated LiveEngine)
    /// A version will go out unstamped (its stamp is late, or the journal cannot be
    /// written): send what waited for it.
    mutating func stampSettled(engine: isolated LiveEngine)
    mutating func deliveryFinished(engine: isolated LiveEngine)
    /// The time its delivery policy set has come.
    mutating func dueTimePassed(engine: isolated LiveEngine)
}

/// A query's subscriber, and what it has been sent.
///
/// At most one update is on its way to the subscriber's executor at a time. Changes
/// published while one is in flight wait here as a set of ids and file names, and go out
/// as one update (the change set from what the subscriber last received to the newest
/// snapshot) once its callback has returned. A subscriber that falls behind therefore
/// costs memory in proportion to its results, never to the number of edits, and when it
/// catches up it has converged, Realm's index spaces still exact.
struct Subscription<Element: Sendable>: LiveSubscriber {
    let query: Query
    let coder: ElementCoder<Element>
    let flag: CancellationFlag
    let delivery: Delivery
    /// How often it is told (`DeliveryPolicy`).
    let policy: DeliveryPolicy
    /// The members it cares about, as JSON Pointers; `nil` for every member.
    let watched: [String]?
    let waitsForJournal: Bool
    /// Hands a change to the subscriber and calls its second argument once the subscriber
    /// has taken it.
    let deliver: @Sendable (StoreChange<Element>, @escaping @Sendable () -> Void) -> Void

    /// The results in the last update handed to the subscriber's executor.
    private var results: Results<Element>?
    /// Whether an update was handed to the executor and its callback has not returned.
    private var inFlight = false
    /// Ids and invalid-file names changed since `results`, waiting for `inFlight`.
    private var backlogIDs: Set<UTF8Key> = []
    private var backlogNames: Set<UTF8Key> = []
    /// An error to send once the backlog before it has gone out.
    private var deferredError: StoreError?
    /// The newest snapshot the backlog leads to.
    private var newest: StoreSnapshot?
    /// The revision this subscription resumes from, until its first update goes out.
    private var resumingFrom: StoreRevision?
    /// For the policy: when the changes waiting began and last grew, when the last
    /// update went out, and the wake-up scheduled, if one is (the monotonic clock).
    private var pendingSince: Double?
    private var lastChange = 0.0
    private var lastSent: Double?
    private var wakeAt: Double?

    init(
        query: Query, coder: ElementCoder<Element>, flag: CancellationFlag, delivery: Delivery,
        policy: DeliveryPolicy = .everyBatch, watched: [String]? = nil,
        waitsForJournal: Bool = false,
        deliver: @escaping @Sendable (StoreChange<Element>, @escaping @Sendable () -> Void) -> Void
    ) {
        self.query = query
        self.coder = coder
        self.flag = flag
        self.delivery = delivery
        self.policy = policy
        self.watched = watched
        self.waitsForJournal = waitsForJournal
        self.deliver = deliver
    }

    var id: ObjectIdentifier { ObjectIdentifier(flag) }

    var isStarted: Bool { results != nil }

    func countResults(into usage: inout MemoryUsage) {
        results?.countOwnMemory(into: &usage)
    }

    var hasBacklog: Bool {
        if case .immediate = delivery { return false }
        return newest != nil || deferredError != nil
    }

    /// Builds this subscription's results from `snapshot` and sends `.initial`; with a
    /// reason, the observation asked for a revision it could not resume from.
    mutating func start(
        from snapshot: StoreSnapshot, resetReason: String? = nil, engine: isolated LiveEngine
    ) {
        var initial = Results.initial(query, snapshot, coder: coder)
        if let resetReason { initial.resumption = .reset(reason: resetReason) }
        results = initial
        send(.initial(initial), engine: engine)
    }

    /// Builds this subscription's results from `base`, the store at `revision`, without
    /// sending them (the subscriber kept them), and sends the changes from there to
    /// `current` as its first update, even if there are none.
    mutating func resume(
        from base: StoreSnapshot, to current: StoreSnapshot, revision: StoreRevision,
        engine: isolated LiveEngine
    ) {
        results = Results.initial(query, base, coder: coder)
        let (ids, names) = current.differences(from: base)
        backlogIDs = ids
        backlogNames = names
        newest = current
        resumingFrom = revision
        if !inFlight { flush(engine: engine) }
    }

    /// Tells the subscriber that `ids` and the invalid files `names` changed in
    /// `snapshot`, now or, if an update is in flight, once it has been taken.
    ///
    /// - Complexity: O(k log n) for k changed ids.
    mutating func publish(
        ids: Set<UTF8Key>, names: Set<UTF8Key>, snapshot: StoreSnapshot,
        engine: isolated LiveEngine
    ) {
        guard results != nil else { return }
        backlogIDs.formUnion(ids)
        backlogNames.formUnion(names)
        newest = snapshot
        let now = LiveEngine.now()
        if pendingSince == nil { pendingSince = now }
        lastChange = now
        if !inFlight { flushWhenDue(engine: engine) }
    }

    /// Sends `error`, after any update still waiting.
    mutating func fail(_ error: StoreError, engine: isolated LiveEngine) {
        if inFlight || newest != nil {
            deferredError = error
        } else {
            send(.error(error), engine: engine)
        }
    }

    mutating func stamped(_ snapshot: StoreSnapshot, engine: isolated LiveEngine) {
        guard waitsForJournal, newest?.version == snapshot.version else { return }
        newest = snapshot
        if !inFlight { flushWhenDue(engine: engine) }
    }

    mutating func stampSettled(engine: isolated LiveEngine) {
        if waitsForJournal, !inFlight { flushWhenDue(engine: engine) }
    }

    /// The subscriber's callback has returned: send what waited meanwhile.
    mutating func deliveryFinished(engine: isolated LiveEngine) {
        inFlight = false
        flushWhenDue(engine: engine)
    }

    mutating func dueTimePassed(engine: isolated LiveEngine) {
        wakeAt = nil
        if !inFlight { flushWhenDue(engine: engine) }
    }

    /// Sends what waits now if the policy lets it go, else wakes up when it does.
    private mutating func flushWhenDue(engine: isolated LiveEngine) {
        guard newest != nil, let first = pendingSince, policy != .everyBatch else {
            return flush(engine: engine)
        }
        let due = policy.due(first: first, last: lastChange, sent: lastSent)
        if due <= LiveEngine.now() { return flush(engine: engine) }
        guard wakeAt.map({ due < $0 }) ?? true else { return }
        wakeAt = due
        let id = self.id
        engine.wake(at: due) { $0.subscriptions[id]?.dueTimePassed(engine: $0) }
    }

    private mutating func flush(engine: isolated LiveEngine) {
        if waitsForJournal, let snapshot = newest, engine.waitsForStamp(snapshot) { return }
        if let snapshot = newest, let base = results {
            newest = nil
            let changes = backlogIDs.map {
                EntryChange(
                    id: $0.string, old: base.snapshot.entries[$0], new: snapshot.entries[$0])
            }
            let names = backlogNames
            backlogIDs.removeAll()
            backlogNames.removeAll()
            var (next, changeSet) = base.applying(
                changes, names: names, snapshot: snapshot, watched: watched)
            pendingSince = nil
            if let revision = resumingFrom {
                resumingFrom = nil
                next.resumption = .resumed(from: revision)
                results = next
                return send(.update(next, changeSet), engine: engine)
            }
            results = next
            if !changeSet.isEmpty { return send(.update(next, changeSet), engine: engine) }
        }
        if let error = deferredError {
            deferredError = nil
            send(.error(error), engine: engine)
        }
    }

    private mutating func send(_ change: StoreChange<Element>, engine: isolated LiveEngine) {
        inFlight = true
        if case .update = change { lastSent = LiveEngine.now() }
        let (flag, deliver, id) = (flag, deliver, id)
        let done: @Sendable () -> Void = { engine.onPipeline { $0.deliveryFinished(id) } }
        delivery.run {
            if flag.isCancelled { return done() }
            deliver(change, done)
        }
    }
}
