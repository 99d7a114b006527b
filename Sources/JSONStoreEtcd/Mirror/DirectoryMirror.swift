import Dispatch
import JSONStore

/// `jsonstore mirror`: keeps a store directory and an etcd prefix equal, both ways, live.
///
/// Local edits come from the directory's own live pipeline (so a save in two steps, a
/// `git checkout`, a network file system are handled as observers see them) and go to
/// etcd as compare-and-swap transactions: one update, one transaction. etcd's changes come
/// from a watch and are written into the directory as the store writes files (atomically,
/// one transaction one batch), byte for byte. `MirrorState` records what was last synced,
/// so nothing is echoed back, and a restart or a reconnection reconciles the two
/// (`MirrorAction`): the files are the queue, nothing is held in memory.
///
/// Everything runs on one serial queue; the watch reads on a thread of its own and hands
/// what it reads to that queue.
package final class DirectoryMirror: @unchecked Sendable {  // state confined to `queue`
    let store: JSONStore
    let layout: EtcdLayout
    let address: EtcdAddress
    let client: EtcdClient
    let credentials: EtcdClient.Credentials?
    let tls: TLSContext?
    /// `1 item`, `2 items`.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// This machine's name, for the conflicts it keeps.
    let host: String
    /// Where messages for people go (stderr).
    let say: @Sendable (String) -> Void
    let queue = DispatchQueue(label: "jsonstore.mirror")
    let watchQueue = DispatchQueue(label: "jsonstore.mirror.watch")

    var state: MirrorState
    /// The directory's private folder, and the mirror's hold on it (`MirrorState.holdFile`):
    /// one mirror a directory, and a way to tell the folder is still this one.
    let folder: PrivateFolder
    let hold: FolderHold
    /// The directory mirrored, as it was when the mirror started: a deletion is only sent
    /// for a file gone from this very directory.
    let directory: PrivateFolder.Identity
    /// Called once when the mirror stops on its own (the directory was replaced): the
    /// mirror does nothing more, the error says why.
    package var onFailure: (@Sendable (StoreError) -> Void)?
    /// Whether it stopped on its own: the state is not written again then.
    var failed = false
    /// The directory's results as last delivered.
    var results = Results<Item>()
    var observation: ObservationToken?
    /// Whether etcd answered last time it was asked; `nil` before the first attempt.
    var online: Bool?
    /// Counts the watches started, so a report of an old one is dropped.
    var generation = 0
    var backoff = 0.05
    /// What was said when syncing last failed, so it is said once.
    var lastProblem: String?
    /// The directory's schema document as last synced or looked at
    /// (`DirectoryMirror+Schema`), and whether it is being looked at.
    var schemaSeen: [UInt8]?
    var watchesSchema = false
    /// The watch running, and the generation it must have to go on: the watch thread
    /// stores its watch here and `lost` moves the generation on, under one lock, so a
    /// watch that connects after it was given up interrupts itself.
    let watching = Locked<(watch: EtcdWatch?, generation: Int)>((nil, 0))
    let stopped = Locked(false)
    /// Called once, from the mirror's queue, when etcd fails in a way trying again cannot
    /// mend (an unknown host, an untrusted certificate, refused credentials): the mirror
    /// has stopped trying, and its owner ends with the error.
    package var onPermanentError: (@Sendable (EtcdError) -> Void)?
    /// What it has done: for messages and tests.
    var tally = Tally()

    package struct Tally: Sendable, Equatable {
        package var sent = 0
        package var received = 0
        package var conflicts = 0
    }

    /// A mirror of the directory store `store` with the etcd store at `address`.
    ///
    /// - Throws: `StoreError` when the directory's mirror state cannot be read, or belongs
    ///   to another address.
    package init(
        store: JSONStore, address: EtcdAddress, credentials: EtcdClient.Credentials?,
        tls: EtcdTLS?, host: String, timeout: Double = 5,
        say: @escaping @Sendable (String) -> Void
    ) throws(StoreError) {
        guard let folder = store._privateFolder else {
            throw StoreError(
                code: .storeUnavailable,
                message: "a mirror keeps a directory; this store is not one",
                file: store.path)
        }
        let context = try address.tlsContext(tls)
        self.store = store
        self.address = address
        layout = EtcdLayout(prefix: address.prefix)
        client = EtcdClient(
            endpoints: address.endpoints, timeout: timeout, credentials: credentials, tls: context,
            transport: address.transport)
        self.credentials = credentials
        self.tls = context
        self.host = host
        self.say = say
        guard let directory = folder.storeIdentity() else {
            throw StoreError(
                code: .storeUnavailable, message: "no such directory", file: store.path)
        }
        do {
            hold = try FolderHold(MirrorState.holdFile, in: folder)
        } catch {
            guard error.code == .conflict else { throw error }
            throw StoreError(
                code: .conflict, message: "mirrored already: the mirror is \(error.message)",
                file: store.path)
        }
        self.folder = folder
        self.directory = directory
        state = try MirrorState(folder: folder, prefix: address.prefix, directory: directory)
        state.address = address.description
        if let setAside = state.setAside { say("mirror: \(setAside)") }
    }

    /// Starts: reconciles the directory with etcd (or says etcd cannot be reached, and
    /// tries again), then follows both sides until `stop`.
    package func start() {
        queue.async { [self] in connect() }
    }

    /// Follows the directory, once the first reconcile is done: its first results bring
    /// what changed since the reconcile read it, and each update what changed then.
    func observeDirectory() {
        guard observation == nil, !isStopped else { return }
        observation = store.observe(on: queue) { [self] change in
            dispatchPrecondition(condition: .onQueue(queue))
            switch change {
            case .initial(let results):
                self.results = results
                localLoaded(results)
            case .update(let results, let changes):
                self.results = results
                let ids =
                    changes.inserted.map(\.id) + changes.modified.map(\.new.id)
                    + changes.deleted.map(\.id)
                localChanged(ids)
            case .error(let error):
                do {
                    try checkDirectory()
                    say("mirror: \(error)")
                } catch {
                    lost(error)
                }
            }
        }
    }

    /// Stops following both sides and folds the state's journal; returns when done.
    package func stop() {
        stopped.withLock { $0 = true }
        watching.withLock { $0.watch?.interrupt() }
        queue.sync {
            observation?.invalidate()
            guard !failed else { return }  // the folder may be another directory's now
            do {
                try state.compact()
            } catch {
                say("mirror: \(error)")
            }
        }
    }

    var isStopped: Bool { stopped.withLock { $0 } }

    /// Reconciles with etcd and starts the watch; when etcd cannot be reached, says so
    /// once and tries again later.
    func connect() {
        guard !isStopped else { return }
        do {
            let before = tally
            let revision = try reconcile()
            try state.compact(sync: false)  // state.json says what is synced (doctor reads it)
            let wasOffline = online == false
            online = true
            backoff = 0.05
            lastProblem = nil
            let sent = tally.sent - before.sent
            let received = tally.received - before.received
            let conflicts = tally.conflicts - before.conflicts
            let unkept = state.unkept.count
            let waiting =
                unkept == 0
                ? ""
                : ", \(unkept) conflict\(unkept == 1 ? "" : "s") could not be kept (see jsonstore check)"
            say(
                "mirror: \(wasOffline ? "etcd is back; " : "")in sync with \(address.description) at revision \(revision): \(Self.count(state.records.values.count { $0.etag != nil }, "item")), \(sent) sent, \(received) received, \(Self.count(conflicts, "conflict"))\(waiting)"
            )
            try startWatch(from: revision + 1)
            observeDirectory()
            if !watchesSchema {
                watchesSchema = true
                watchLocalSchema()
            }
        } catch {
            lost(error)
        }
    }

    /// etcd stopped answering, or a sync failed here: say so once, and try again with a
    /// capped backoff.
    func lost(_ error: any Error) {
        guard !isStopped else { return }
        if let stop = error as? Stop { return fail(stop.error) }
        let etcd = error as? EtcdError ?? (error as? StoreError)?.underlying as? EtcdError
        if let etcd, etcd.kind.isPermanent, let onPermanentError {
            stopped.withLock { $0 = true }
            onPermanentError(etcd)
            return
        }
        let unreachable = (error as? EtcdError).map { !$0.answered } ?? false
        let problem =
            unreachable
            ? "mirror: etcd is unreachable (\(error)); edits stay in \(store.path) and are sent when it is back"
            : "mirror: could not sync (\(error)); trying again"
        if !(unreachable && online == false), problem != lastProblem { say(problem) }
        lastProblem = problem
        online = false
        generation += 1
        let generation = generation
        watching.withLock {
            $0.generation = generation
            $0.watch?.interrupt()
        }
        queue.asyncAfter(deadline: .now() + backoff) { [self] in connect() }
        backoff = min(backoff * 2, 2)
    }
}
