import Dispatch

/// Records in the journal what a watcher saw other programs change, in the background of
/// the live pipeline: its own queue takes the store's lock, reads the files and appends,
/// so observers never wait for the journal.
///
/// Changes that arrive while a recording runs wait and go together in the next one. Every
/// watching process records; the heads make each change recorded once however many do.
///
/// After recording, it stamps: it looks for the journal revision that records exactly the
/// version the watcher published last (`StoreHistory.check`), and reports it, so that
/// version's token is the journal's, valid in every process. When the journal holds other
/// versions of some items (the files changed again, or another process recorded what
/// this watcher has not published yet), it records those items again a little later
/// and looks again, until a version is stamped.
final class HistoryRecorder: Sendable {
    /// What the recorder tells the pipeline.
    enum Report: Sendable {
        /// The journal records the published version `version` exactly at `base`'s stamp;
        /// with the heads then, when they were asked for (`captureHeads`).
        case stamped(version: Int, StoreHistory.StampBase, StoreHistory.StampHeads?)
        /// The journal could not be written (or read): changes are delivered with this
        /// follower's tokens, and recorded once it can be.
        case failed(StoreError)
        /// The look at the whole store the published version `version` waits for has more
        /// to record than a stamp's wait allows (a first start of a big store): what waits
        /// for its stamp is sent now, with this follower's tokens.
        case long(version: Int)
    }

    let history: StoreHistory
    /// As urgent as the pipeline's: stamped observations (the stream) wait for it.
    private let queue = DispatchQueue(label: "jsonstore.history", qos: .userInitiated)

    private struct Pending {
        /// What to record next: the ids a watcher saw change, with the version it knew before.
        var ids: [String] = []
        var previous: [UTF8Key: Item] = [:]
        var seen: Set<UTF8Key> = []
        var source = HistoryEntry.Source.otherProgram
        /// A watcher's first look at the whole store, to compare with the journal.
        var loaded = false
        /// When that look started from a start cache: the stamp its entries agree with,
        /// and the ids that differ from them (read again, new or gone).
        var loadBase: StoreHistory.StampBase?
        var loadChanged: Set<UTF8Key> = []
        var loadPrevious: [UTF8Key: Item] = [:]
        /// The journal's heads of the changed items at `loadBase`, as the cache kept them.
        var loadHeads: [UTF8Key: JournalHeads.Head?] = [:]
        /// The version the watcher published last, to stamp.
        var snapshot: StoreSnapshot?
        var scheduled = false
    }
    private let pending = Locked(Pending())

    /// What stamping knows between turns (used on `queue` only).
    private struct Stamping {
        var snapshot: StoreSnapshot?
        var base: StoreHistory.StampBase?
        /// The ids published since `base`, or found differing at it.
        var changed: Set<UTF8Key> = []
        /// Whether the whole store, as the watcher loaded it, is still to be recorded (a
        /// first recording that failed).
        var loadPending = false
        /// Items the journal holds other versions of, to record again.
        var recheck: [String] = []
        var retryDelay = 0.0
        var retryScheduled = false
        var failing = false
        /// Whether the next stamp's report carries the heads.
        var capturingHeads = false
        /// One more for every `stop`: a turn under way when the watcher stopped keeps
        /// nothing.
        var generation = 0
    }
    private let stamping = Locked(Stamping())
    /// Whether a start cache asks for the heads (`captureHeads`): then the heads are let
    /// go once a cache is written with them all, not by a stamp
    /// (`StoreHistory.forgetHeads`), so a cache that is not written leaves them whole for
    /// the next one.
    private let feedsStartCache = Locked(false)
    /// Where reports go; set and read under `stamping`'s lock with the generation, so a
    /// turn of a stopped watcher never reports to the next one.
    nonisolated(unsafe) private var sink: (@Sendable (Report) -> Void)?

    init(history: StoreHistory) {
        self.history = history
    }

    /// Where reports go: the pipeline, while it watches.
    func connect(_ report: (@Sendable (Report) -> Void)?) {
        stamping.withLock { _ in sink = report }
    }

    /// A watcher loaded the store: what differs from the journal was changed while nothing
    /// watched, and is recorded as seen late.
    ///
    /// - Parameters:
    ///   - base: where the start cache the load began from agrees with the journal; then
    ///     only `changed`, the ids that differ from the cache, and what the journal has
    ///     after `base` are compared, not the whole journal.
    ///   - previous: the cache's versions of the changed items, recorded at `base`.
    ///   - heads: the journal's heads of the changed items at `base`, as the cache kept
    ///     them (those it knew).
    func loaded(
        _ snapshot: StoreSnapshot, since base: StoreHistory.StampBase? = nil,
        changed: Set<UTF8Key> = [], previous: [UTF8Key: Item] = [:],
        heads: [UTF8Key: JournalHeads.Head?] = [:]
    ) {
        schedule {
            $0.loaded = true
            $0.snapshot = snapshot
            if let base {
                $0.loadBase = base
                $0.loadChanged = changed
                $0.loadPrevious = previous
                $0.loadHeads = heads
            }
        }
    }

    /// The next stamp's report carries the journal's heads then, for a start cache.
    func captureHeads() {
        feedsStartCache.withLock { $0 = true }
        stamping.withLock { $0.capturingHeads = true }
    }

    /// A watcher published `snapshot`, changing `ids` (made by `source`), having known
    /// `previous` of them before.
    func changed(
        _ ids: [String], previous: [UTF8Key: Item], source: HistoryEntry.Source,
        snapshot: StoreSnapshot
    ) {
        schedule { pending in
            for id in ids where pending.seen.insert(UTF8Key(id)).inserted {
                pending.ids.append(id)
                if let known = previous[UTF8Key(id)] { pending.previous[UTF8Key(id)] = known }
            }
            // git's changes are git's, whatever else waits with them.
            if source == .git { pending.source = .git }
            pending.snapshot = snapshot
        }
    }

    /// The watcher stopped (its last observer went): what waits is dropped, so no recording
    /// outlives the observation by more than the one under way.
    func stop() {
        pending.withLock { $0 = Pending() }
        stamping.withLock {
            $0 = Stamping(generation: $0.generation + 1)
            sink = nil
        }
        // After the turn under way: no cache will take the heads it may have bound to the
        // watcher's last snapshot, which must not be kept for them.
        queue.async { [history] in history.unbindHeads() }
    }

    /// Blocks until every change handed in so far is recorded: for tests.
    func drain() {
        queue.sync {}
    }

    private func schedule(_ add: (inout Pending) -> Void) {
        let start = pending.withLock { pending -> Bool in
            add(&pending)
            defer { pending.scheduled = true }
            return !pending.scheduled
        }
        guard start else { return }
        queue.async { [self] in record() }
    }

    /// Records what waits, then stamps; what arrives meanwhile waits for the next turn.
    private func record() {
        let work = pending.withLock { pending -> Pending in
            defer { pending = Pending() }
            return pending
        }
        var state = stamping.withLock { $0 }
        var loadedIDs: [String] = []
        if work.loaded {
            if let base = work.loadBase, history.continues(from: base) {
                // The cache's stamp is this journal's: only what differs since is compared.
                state = Stamping(
                    base: base, changed: work.loadChanged, capturingHeads: state.capturingHeads,
                    generation: state.generation)
                loadedIDs = work.loadChanged.map(\.string)
                history.seedHeads(work.loadHeads, from: base)
            } else {
                state = Stamping(
                    loadPending: true, capturingHeads: state.capturingHeads,
                    generation: state.generation)
            }
        }
        if let snapshot = work.snapshot { state.snapshot = snapshot }
        guard let snapshot = state.snapshot else { return }
        state.changed.formUnion(work.seen)
        // History that cannot be written (a folder this user may not write, a full disk)
        // never stops the watcher: it is recorded, as seen late, once it can be.
        var failure: StoreError?
        do throws(StoreError) {
            if state.loadPending {
                let (version, generation) = (snapshot.version, state.generation)
                try history.recordUnrecorded(.loaded(snapshot), seen: .late) { [self] in
                    report(.long(version: version), generation: generation)
                }
                state.loadPending = false
            }
            if !loadedIDs.isEmpty {
                try history.recordUnrecorded(
                    .ids(loadedIDs, previous: work.loadPrevious), seen: .late)
            }
            var ids = work.ids
            var seen = work.seen
            for id in state.recheck where seen.insert(UTF8Key(id)).inserted { ids.append(id) }
            if !ids.isEmpty {
                try history.recordUnrecorded(
                    .ids(ids, previous: work.previous), seen: .live(work.source))
            }
            switch try history.check(
                snapshot, changed: state.changed, since: state.base,
                capturingHeads: state.capturingHeads)
            {
            case .stamped(let end, let heads):
                if !feedsStartCache.withLock({ $0 }) {
                    history.forgetHeads(keepingAfter: end.stamp)
                }
                let next = Stamping(snapshot: snapshot, base: end, generation: state.generation)
                return report(
                    .stamped(version: snapshot.version, end, heads), generation: next.generation,
                    keeping: next)
            case .differs(let ids, let end):
                // What differs is compared again from where this look ended.
                (state.base, state.changed, state.recheck) = (end, Set(ids.map(UTF8Key.init)), ids)
            }
        } catch {
            failure = error
        }
        if let failure, !state.failing {
            state.failing = true
            report(.failed(failure), generation: state.generation, keeping: state)
        }
        // Sooner while the journal only lags the files, later while it cannot be written.
        state.retryDelay = min(state.failing ? 5 : 1, max(0.02, state.retryDelay * 2))
        let retry = !state.retryScheduled
        state.retryScheduled = true
        let delay = state.retryDelay
        guard keep(state), retry else { return }
        queue.asyncAfter(deadline: .now() + delay) { [self] in
            let live = stamping.withLock { stamping -> Bool in
                stamping.retryScheduled = false
                return stamping.snapshot != nil
            }
            if live { schedule { _ in } }
        }
    }

    /// Keeps what a turn learnt, unless the watcher stopped meanwhile.
    private func keep(_ state: Stamping) -> Bool {
        stamping.withLock { stamping in
            guard stamping.generation == state.generation else { return false }
            stamping = state
            return true
        }
    }

    /// Sends `report` (keeping `state` with it, in one step), unless the watcher stopped
    /// since the turn of `generation` began.
    private func report(_ report: Report, generation: Int, keeping state: Stamping? = nil) {
        stamping.withLock { stamping in
            guard stamping.generation == generation else { return }
            if let state { stamping = state }
            sink?(report)  // hands it to the pipeline's queue: it does not wait
        }
    }
}
