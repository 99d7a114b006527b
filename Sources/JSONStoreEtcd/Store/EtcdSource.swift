import Dispatch
import JSONStore

/// The live source of a store on etcd: a range of the prefix at revision R, then a watch
/// from R + 1 with previous values, each revision's events one `.changes`, so a
/// transaction reaches observers as one update.
///
/// A lost connection is reported (`.interrupted`), retried with capped backoff on the
/// next endpoint, and the watch resumed from the last revision seen + 1: nothing lost,
/// nothing relisted. A revision etcd has compacted away means one relist, which the
/// reducer reconciles into exactly the real changes.
final class EtcdSource: LiveSource {
    let backend: EtcdBackend
    let reader: JSONReader
    /// Where the values the watch brings are kept, to locate a decoding error in them.
    let recent: RecentBytes
    let report: @Sendable (SourceReport) -> Void
    private let queue = DispatchQueue(label: "jsonstore.etcd.watch")

    /// What the watch thread shares: how far it has reported, how many keys the prefix
    /// had then, the watch to interrupt, and whether to stop.
    struct Shared {
        var revision: Int64?
        var keyCount: Int64 = 0
        var watch: EtcdWatch?
        var stopped = false
        /// The test hook's pause (`setSuspended`).
        var suspended = false
        /// When the watch last heard from etcd (the monotonic clock, in seconds).
        var lastHeard = 0.0
    }
    let shared = Locked(Shared())
    /// Looks for a fresh revision while the watch is quiet (`EtcdSource+CatchingUp`).
    let quietTimer = Locked<(any DispatchSourceTimer)?>(nil)
    /// Signalled by `stop`, so a backoff ends at once.
    private let wakeUp = DispatchSemaphore(value: 0)

    /// The longest wait between two attempts to reconnect, in seconds.
    static let maximumBackoff = 2.0

    init(
        backend: EtcdBackend, reader: JSONReader, recent: RecentBytes,
        report: @escaping @Sendable (SourceReport) -> Void
    ) {
        self.backend = backend
        self.reader = reader
        self.recent = recent
        self.report = report
    }

    func start() {
        queue.async { self.run() }
        startQuietChecks()
    }

    func stop() {
        quietTimer.withLock { $0?.cancel() }
        shared.withLock {
            $0.stopped = true
            $0.watch?.interrupt()
        }
        wakeUp.signal()
    }

    var stopped: Bool { shared.withLock { $0.stopped } }

    /// Waits `seconds` (a backoff, a poll), or less when `stop` wakes it.
    func pause(_ seconds: Double) {
        _ = wakeUp.wait(timeout: .now() + seconds)
    }

    func setSuspended(_ suspended: Bool) {
        shared.withLock {
            $0.suspended = suspended
            if suspended { $0.watch?.interrupt() }
        }
    }

    /// Waits while the test hook holds the source; returns whether it was held.
    private func waitWhileSuspended() -> Bool {
        var held = false
        while shared.withLock({ $0.suspended && !$0.stopped }) {
            held = true
            pause(0.001)
        }
        return held
    }

    // MARK: The watch thread

    /// Lists, then watches until stopped, reconnecting as long as it takes.
    private func run() {
        var revision: Int64?  // the last revision reported
        var relist: String? = nil  // why the next listing is a relist
        var lost: String?  // the connection problem reported, while it lasts
        var backoff = 0.05
        var endpoint = 0
        while !stopped {
            _ = waitWhileSuspended()
            do throws(StoreError) {
                if revision == nil || relist != nil {
                    revision = try list(reason: relist)
                    relist = nil
                }
                let watch = try watch(from: revision! + 1, endpoint: endpoint)
                defer { watch.close() }
                if lost != nil {
                    report(.resumed)
                    lost = nil
                }
                backoff = 0.05
                relist = try follow(watch, revision: &revision)
            } catch {
                if stopped { break }
                if waitWhileSuspended() { continue }  // interrupted by the test hook
                if lost == nil {
                    // Refused credentials are no lost connection: observers are told.
                    let reason = "etcd connection lost: \(error.message)"
                    report(Self.isRefusal(error) ? .failed(error) : .interrupted(reason: reason))
                    lost = reason
                }
                endpoint += 1
                pause(backoff)
                backoff = min(backoff * 2, Self.maximumBackoff)
            }
        }
    }

    /// Whether etcd refused the store's credentials or permissions (rather than a
    /// connection failing): tried again all the same, in case they are given back.
    static func isRefusal(_ error: StoreError) -> Bool {
        guard let etcd = error.underlying as? EtcdError else { return false }
        return etcd.kind == .authenticationFailed || etcd.code?.isRefusal == true
    }

    /// Reads the whole prefix at the newest revision and reports it; returns the revision.
    private func list(reason: String?) throws(StoreError) -> Int64 {
        let listing = try backend.listing(reader: reader, lastValid: true)
        if stopped { return listing.revision }
        report(.listing(listing, reason: reason))
        shared.withLock {
            $0.revision = listing.revision
            // Every key is an item or a bad name.
            $0.keyCount = Int64(listing.ids.count + listing.badNames.count)
        }
        return listing.revision
    }

    /// A watch from `revision` on endpoint `endpoint` (counted round the endpoints): on
    /// gRPC one more stream of a pooled client's connection.
    private func watch(from revision: Int64, endpoint: Int) throws(StoreError) -> EtcdWatch {
        let target = try backend.withClient { client throws(EtcdError) in
            try client.watchTarget(endpoint: endpoint)
        }
        let watch: EtcdWatch
        do {
            watch = try EtcdWatch(
                target, prefix: backend.layout.keyPrefix, from: revision,
                timeout: backend.timeout)
        } catch {
            throw backend.storeError(error)
        }
        let stopped = shared.withLock {
            $0.watch = watch
            return $0.stopped
        }
        if stopped { watch.interrupt() }
        return watch
    }

    /// Reports what `watch` says until it ends; returns why to relist, or throws when the
    /// connection failed.
    private func follow(_ watch: EtcdWatch, revision: inout Int64?) throws(StoreError) -> String? {
        defer { shared.withLock { $0.watch = nil } }
        while true {
            let response: EtcdWatch.Response
            do {
                response = try watch.next(timeout: .infinity)
            } catch {
                throw backend.storeError(error)
            }
            if let compacted = response.compactRevision {
                return
                    "etcd compacted its history up to revision \(compacted), past this follower's \(revision ?? 0)"
            }
            if let reason = response.cancelReason {
                throw backend.storeError(
                    EtcdError(endpoint: "watch", reason: "the watch was cancelled: \(reason)"))
            }
            var created: Int64 = 0
            var schemaChanged = false
            var start = response.events.startIndex
            while start < response.events.endIndex {
                // One revision's events (a transaction's) are one change of the store.
                let at = response.events[start].keyValue.modRevision
                var end = start
                var changes = SourceChanges(revision: at)
                while end < response.events.endIndex,
                    response.events[end].keyValue.modRevision == at
                {
                    let event = response.events[end]
                    add(event, to: &changes)
                    schemaChanged = schemaChanged || event.keyValue.key == backend.layout.schemaKey
                    if event.kind == .delete {
                        created -= 1
                    } else if event.keyValue.version == 1 {
                        created += 1
                    }
                    end += 1
                }
                if !changes.isEmpty { report(.changes(changes)) }
                revision = at
                start = end
            }
            let seen = max(revision ?? 0, response.isProgress ? response.revision : 0)
            revision = seen
            shared.withLock {
                $0.revision = max($0.revision ?? 0, seen)
                $0.keyCount += created
                $0.lastHeard = Self.now()
            }
            if response.isProgress { report(.progress(revision: seen)) }
            // Every item is checked again under a new schema: a listing at its revision,
            // what it makes valid or invalid one update.
            if schemaChanged { return "the store's schema changed" }
        }
    }

    private func add(_ event: EtcdWatch.Event, to changes: inout SourceChanges) {
        let layout = backend.layout
        switch layout.entry(event.keyValue.key) {
        case .item(let id):
            let outcome: ItemFile.Outcome =
                event.kind == .delete
                ? .missing : layout.outcome(of: id, event.keyValue, reader: reader)
            recent.keep(event.keyValue.value, of: outcome)
            changes.items.append((id, outcome))
        case .invalid(let file):
            changes.badNames.append((file.name, event.kind == .delete ? nil : file))
        case .own:
            break
        }
    }
}
