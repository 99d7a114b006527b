import Dispatch
import JSONStore

/// The live source of a store on etcd: the store's `EtcdFollower`, its listings parsed
/// into items and each revision's events into one `.changes`, so a transaction reaches
/// observers as one update.
///
/// A lost connection is reported (`.interrupted`, or `.failed` when etcd refused the
/// store's credentials), and `.resumed` once the follower follows again: nothing lost,
/// nothing relisted. A revision etcd has compacted away, or a new schema, means one
/// relist, which the reducer reconciles into exactly the real changes.
final class EtcdSource: LiveSource {
    let backend: EtcdBackend
    let report: @Sendable (SourceReport) -> Void
    let follower: EtcdFollower
    /// Set by `stop`: a listing read meanwhile is not reported (the follower tells nothing
    /// else after it).
    private let stopped: Locked<Bool>

    init(
        backend: EtcdBackend, reader: JSONReader, recent: RecentBytes,
        report: @escaping @Sendable (SourceReport) -> Void
    ) {
        let stopped = Locked(false)
        var consumer = EtcdFollower.Consumer(
            list: { reason throws(StoreError) in
                let listing = try backend.listing(reader: reader, lastValid: true)
                if !stopped.withLock({ $0 }) { report(.listing(listing, reason: reason)) }
                // Every key is an item or a bad name.
                return (listing.revision, Int64(listing.ids.count + listing.badNames.count))
            },
            changed: { events, revision in
                Self.report(
                    events, at: revision, of: backend, reader: reader, recent: recent, to: report)
            })
        consumer.progressed = { revision in report(.progress(revision: revision)) }
        consumer.failed = { error, first in
            guard first else { return }
            let error = backend.storeError(of: error)
            // Refused credentials are no lost connection: observers are told.
            report(
                Self.isRefusal(error)
                    ? .failed(error)
                    : .interrupted(reason: "etcd connection lost: \(error.message)"))
        }
        consumer.resuming = {
            report(.resumed)
            return nil
        }
        self.backend = backend
        self.report = report
        self.stopped = stopped
        follower = EtcdFollower(
            clients: backend.clients, prefix: backend.layout.keyPrefix, consumer: consumer)
    }

    func start() { follower.start() }

    func stop() {
        stopped.withLock { $0 = true }
        follower.stop()
    }

    func setSuspended(_ suspended: Bool) { follower.setSuspended(suspended) }

    /// Whether etcd refused the store's credentials or permissions (rather than a
    /// connection failing): tried again all the same, in case they are given back.
    static func isRefusal(_ error: StoreError) -> Bool {
        guard let etcd = error.underlying as? EtcdError else { return false }
        return etcd.kind == .authenticationFailed || etcd.code?.isRefusal == true
    }

    /// Reports one revision's events as one change of the store; a new schema means every
    /// item is checked again: a listing at its revision, what it makes valid or invalid
    /// one update.
    private static func report(
        _ events: ArraySlice<EtcdWatch.Event>, at revision: Int64, of backend: EtcdBackend,
        reader: JSONReader, recent: RecentBytes, to report: (SourceReport) -> Void
    ) -> String? {
        let layout = backend.layout
        var changes = SourceChanges(revision: revision)
        var schemaChanged = false
        for event in events {
            schemaChanged = schemaChanged || event.keyValue.key == layout.schemaKey
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
        if !changes.isEmpty { report(.changes(changes)) }
        return schemaChanged ? "the store's schema changed" : nil
    }

    /// How long `catchUp` waits for the watch at most, in seconds: a member that stopped
    /// answering its watch must not hold `synchronize` for ever.
    var catchUpLimit: Double { max(10, backend.timeout * 4) }

    /// Reports `.caughtUp` once the watch has reported everything in etcd now, or etcd
    /// cannot be asked (nothing newer can be had then), or after `catchUpLimit`.
    ///
    /// The wait is on a queue of its own (a thread of its own while it waits), never on a
    /// global queue: those have a thread per core, and a few waits held them from
    /// everything else in the process for as long as `catchUpLimit`.
    func catchUp() {
        DispatchQueue(label: "jsonstore.etcd.catch-up").async { [self] in
            let deadline = EtcdFollower.now() + catchUpLimit
            let nap = DispatchSemaphore(value: 0)  // its own: `stop`'s signal is the watch's
            var tries = 0
            loop: while !follower.isStopped, EtcdFollower.now() < deadline {
                switch follower.lag() {
                case .caughtUp, .unknown: break loop
                case .behind:
                    tries += 1
                    _ = nap.wait(timeout: .now() + (tries < 50 ? 0.001 : 0.01))
                }
            }
            report(.caughtUp)
        }
    }
}
