import Dispatch
import JSONStore

/// Follows the keys under an etcd prefix: a listing at revision R, then a watch from R + 1
/// with previous values, each revision's events (one transaction) handed on together. The
/// store's live source (`EtcdSource`) and the mirror (`DirectoryMirror`) both follow etcd
/// with one of these, each listing the prefix its own way (`Consumer.list`).
///
/// A lost connection is handed on (`Consumer.failed`), tried again with capped backoff on
/// the next endpoint, and the watch resumed from the last revision handed on + 1: nothing
/// lost, nothing listed again. A revision etcd has compacted away means one listing again,
/// which the consumer reconciles with what it holds. While the watch is quiet the follower
/// asks for progress (`EtcdFollower+Quiet`).
///
/// Everything the consumer is told, it is told on the follower's thread, in order (but a
/// progress the quiet check finds on the gateway), and nothing once `stop` was called (but
/// what a listing under way reports itself).
package final class EtcdFollower: Sendable {
    /// What the follower asks of its consumer and tells it.
    package struct Consumer: Sendable {
        /// Lists the prefix (as the consumer keeps it) at etcd's revision now; returns that
        /// revision and how many keys the prefix had. `reason` says why it is listed again
        /// (`nil`: the first listing).
        package var list: @Sendable (_ reason: String?) throws -> (revision: Int64, keys: Int64)
        /// One revision's events, in order; returns why the prefix must be listed again
        /// before the watch goes on (the store's schema changed), if it must.
        package var changed:
            @Sendable (_ events: ArraySlice<EtcdWatch.Event>, _ revision: Int64) -> String?
        /// Nothing under the prefix changed after the events handed on, up to `revision`
        /// (from the follower's thread, or the quiet check's on the gateway).
        package var progressed: @Sendable (_ revision: Int64) -> Void = { _ in }
        /// A listing or a watch failed; `first` when it is the first failure since the
        /// follower last followed. It tries again after a backoff, on the next endpoint.
        package var failed: @Sendable (_ error: any Error, _ first: Bool) -> Void = { _, _ in }
        /// About to follow again after failures, from the revision after the last one
        /// handed on: nothing is handed on before it returns. It returns why the prefix must
        /// be listed again first (etcd is not the one the consumer followed), if it must, or
        /// throws to try again later (a failure like any other).
        package var resuming: @Sendable () throws -> String? = { nil }
        /// Whether it wants `progressed`: if not, the follower does not look for progress
        /// while the watch is quiet (on the gateway, that is a count of the prefix).
        package var wantsProgress = true

        package init(
            list: @escaping @Sendable (_ reason: String?) throws -> (revision: Int64, keys: Int64),
            changed:
                @escaping @Sendable (_ events: ArraySlice<EtcdWatch.Event>, _ revision: Int64)
                -> String?
        ) {
            self.list = list
            self.changed = changed
        }
    }

    let clients: EtcdClients
    /// The keys followed: everything from `prefix` up to `rangeEnd(ofPrefix:)`.
    let prefix: [UInt8]
    let consumer: Consumer
    private let queue = DispatchQueue(label: "jsonstore.etcd.follower")

    /// What the follower's thread shares with the others.
    struct Shared {
        /// The newest revision handed on (or known unchanged up to), and how many keys the
        /// prefix had then.
        var revision: Int64?
        var keyCount: Int64 = 0
        var watch: EtcdWatch?
        var stopped = false
        /// The test hook's pause (`setSuspended`).
        var suspended = false
        /// When the watch last heard from etcd (the monotonic clock, in seconds).
        var lastHeard = 0.0
        /// Asked by the consumer (`restart`): follow again, after listing again for this
        /// reason if there is one.
        var restart: (asked: Bool, relist: String?) = (false, nil)
    }
    let shared = Locked(Shared())
    /// Looks for a fresh revision while the watch is quiet (`EtcdFollower+Quiet`).
    let quietTimer = Locked<(any DispatchSourceTimer)?>(nil)
    /// Signalled by `stop`, so a backoff ends at once.
    private let wakeUp = DispatchSemaphore(value: 0)

    /// The longest wait between two attempts to reconnect, in seconds.
    static let maximumBackoff = 2.0

    package init(clients: EtcdClients, prefix: [UInt8], consumer: Consumer) {
        self.clients = clients
        self.prefix = prefix
        self.consumer = consumer
    }

    /// Lists, then follows until `stop`.
    package func start() {
        queue.async { self.run() }
        if consumer.wantsProgress { startQuietChecks() }
    }

    /// Stops following: the consumer hears nothing more once the call it is in returns.
    package func stop() {
        quietTimer.withLock { $0?.cancel() }
        shared.withLock {
            $0.stopped = true
            $0.watch?.interrupt()
        }
        wakeUp.signal()
    }

    package var isStopped: Bool { shared.withLock { $0.stopped } }

    /// Ends the watch and follows again: from the listing for `reason` when there is one
    /// (etcd is not the one the consumer synced with), else after a backoff from the next
    /// revision, with `resumed` when it does (a request of the consumer's found etcd
    /// unreachable).
    package func restart(relisting reason: String? = nil) {
        shared.withLock {
            $0.restart = (true, $0.restart.relist ?? reason)
            $0.watch?.interrupt()
        }
        wakeUp.signal()
    }

    /// Holds the follower off etcd (a test's etcd outage) until called with `false`.
    package func setSuspended(_ suspended: Bool) {
        shared.withLock {
            $0.suspended = suspended
            if suspended { $0.watch?.interrupt() }
        }
    }

    /// Waits `seconds` (a backoff), or less when `stop` or `restart` wakes it.
    private func pause(_ seconds: Double) {
        _ = wakeUp.wait(timeout: .now() + seconds)
        // Signals given while nothing paused do not cut a later backoff short.
        while wakeUp.wait(timeout: .now()) == .success {}
    }

    /// Waits while the test hook holds the follower; returns whether it was held.
    private func waitWhileSuspended() -> Bool {
        var held = false
        while shared.withLock({ $0.suspended && !$0.stopped }) {
            held = true
            pause(0.001)
        }
        return held
    }

    // MARK: The follower's thread

    /// Lists, then watches until stopped, reconnecting as long as it takes.
    private func run() {
        var revision: Int64?  // the last revision handed on
        var relist: String? = nil  // why the next listing is one again
        var lost = false  // a failure was handed on, and no watch runs since
        var backoff = 0.05
        var endpoint = 0
        while !isStopped {
            _ = waitWhileSuspended()
            let asked = takeRestart()
            if asked.asked {
                relist = relist ?? asked.relist
                lost = true  // `resuming` before following again
            }
            let began = Self.now()
            do {
                if revision == nil || relist != nil {
                    let listed = try consumer.list(relist)
                    relist = nil
                    revision = listed.revision
                    shared.withLock {
                        $0.revision = listed.revision
                        $0.keyCount = listed.keys
                    }
                }
                let watch = try watch(from: revision! + 1, endpoint: endpoint)
                defer { watch.close() }
                if lost {
                    if isStopped { break }
                    if let reason = try consumer.resuming() {
                        relist = reason  // listed before anything is handed on
                        continue
                    }
                    lost = false
                }
                relist = try follow(watch, revision: &revision)
            } catch is CancellationError {
                break  // the consumer is gone
            } catch {
                if isStopped { break }
                if waitWhileSuspended() { continue }  // interrupted by the test hook
                let asked = takeRestart()
                if asked.asked, let reason = asked.relist {
                    relist = reason  // listed again now, no backoff
                    continue
                }
                if !asked.asked { consumer.failed(error, !lost) }
                lost = true
                endpoint += 1
                // Back to the shortest wait only once etcd was heard from since, or a watch
                // lasted: a consumer that fails again at once, or a watch that ends at
                // once, waits longer each time.
                if shared.withLock({ $0.lastHeard }) > began || Self.now() - began > 1 {
                    backoff = 0.05
                }
                pause(backoff)
                backoff = min(backoff * 2, Self.maximumBackoff)
            }
        }
    }

    /// What `restart` asked, cleared.
    private func takeRestart() -> (asked: Bool, relist: String?) {
        shared.withLock { shared in
            defer { shared.restart = (false, nil) }
            return shared.restart
        }
    }

    /// A watch from `revision` on endpoint `endpoint` (counted round the endpoints): on
    /// gRPC one more stream of a pooled client's connection.
    private func watch(from revision: Int64, endpoint: Int) throws(EtcdError) -> EtcdWatch {
        let target = try clients.withClient { client throws(EtcdError) in
            try client.watchTarget(endpoint: endpoint)
        }
        let watch = try EtcdWatch(target, prefix: prefix, from: revision, timeout: clients.timeout)
        let interrupted = shared.withLock {
            $0.watch = watch
            return $0.stopped || $0.restart.asked || $0.suspended
        }
        if interrupted { watch.interrupt() }
        return watch
    }

    /// Hands on what `watch` says until it ends; returns why to list again, or throws when
    /// the connection failed.
    private func follow(_ watch: EtcdWatch, revision: inout Int64?) throws(EtcdError) -> String? {
        defer { shared.withLock { $0.watch = nil } }
        while true {
            let response = try watch.next(timeout: .infinity)
            if let compacted = response.compactRevision {
                return
                    "etcd compacted its history up to revision \(compacted), past this follower's \(revision ?? 0)"
            }
            if let reason = response.cancelReason {
                throw EtcdError(endpoint: "watch", reason: "the watch was cancelled: \(reason)")
            }
            var created: Int64 = 0
            var relist: String?
            var start = response.events.startIndex
            while start < response.events.endIndex {
                // One revision's events: one transaction's.
                let at = response.events[start].keyValue.modRevision
                var end = start
                while end < response.events.endIndex,
                    response.events[end].keyValue.modRevision == at
                {
                    let event = response.events[end]
                    if event.kind == .delete {
                        created -= 1
                    } else if event.keyValue.version == 1 {
                        created += 1
                    }
                    end += 1
                }
                if isStopped { return nil }  // nothing more is handed on
                if let reason = consumer.changed(response.events[start..<end], at) {
                    relist = relist ?? reason
                }
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
            if response.isProgress, !isStopped { consumer.progressed(seen) }
            if let relist { return relist }
        }
    }
}
