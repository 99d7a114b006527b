import Dispatch
import JSONStore

/// `jsonstore mirror`: keeps a store directory and an etcd prefix equal, both ways, live.
///
/// Local edits come from the directory's own live pipeline (so a save in two steps, a
/// `git checkout`, a network file system are handled as observers see them) and go to
/// etcd as compare-and-swap transactions: one update, one transaction. etcd's changes come
/// from the mirror's `EtcdFollower` and are written into the directory as the store writes
/// files (atomically, one transaction one batch), byte for byte. `MirrorState` records
/// what was last synced, so nothing is echoed back; a start (or a listing again after etcd
/// compacted past the follower) reconciles the two (`MirrorAction`), and a lost connection
/// resumes: etcd's changes from the revision after the last one taken, the directory's
/// from what differs from the records. The files are the queue, nothing is held in memory.
///
/// An actor on its own serial queue (a `QueueExecutor`, as `LiveEngine` is): the
/// follower reads on a thread of its own and hands what it reads to that queue, the
/// directory's observer and the schema's look run on it, and each enters the actor there
/// with `assumeIsolated`; the compiler checks every other access.
package actor DirectoryMirror {
    let store: JSONStore
    /// All the mirror does with the store beyond its public API.
    let side: MirrorSide
    let layout: EtcdLayout
    let address: EtcdAddress
    /// The clients of every request the mirror makes and of its follower.
    let clients: EtcdClients
    /// `1 item`, `2 items`.
    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }

    /// This machine's name, for the conflicts it keeps.
    let host: String
    /// Where messages for people go (stderr).
    let say: @Sendable (String) -> Void
    nonisolated let queue: DispatchQueue
    private nonisolated let executor: QueueExecutor
    package nonisolated var unownedExecutor: UnownedSerialExecutor {
        executor.asUnownedSerialExecutor()
    }

    var state: MirrorState
    /// The directory's private folder, and the mirror's hold on it (`MirrorState.holdFile`):
    /// one mirror a directory, and a way to tell the folder is still this one.
    var folder: PrivateFolder { side.folder }
    let hold: FolderHold
    /// The directory mirrored, as it was when the mirror started: a deletion is only sent
    /// for a file gone from this very directory.
    let directory: PrivateFolder.Identity
    /// Called once when the mirror stops on its own (the directory was replaced): the
    /// mirror does nothing more, the error says why (given to `start`).
    var onFailure: (@Sendable (StoreError) -> Void)?
    /// Whether it stopped on its own: the state is not written again then.
    var failed = false
    /// The directory's results as last delivered.
    var results = Results<Item>()
    var observation: ObservationToken?
    /// Whether etcd answered last time it was asked; `nil` before the first attempt.
    var online: Bool?
    /// Why the follower lists again, asked after it resumed on an etcd that is not the one
    /// synced with: its changes are not taken until the listing's reconcile.
    var relisting: String?
    /// What was said when syncing last failed, so it is said once.
    var lastProblem: String?
    /// The directory's schema document as last synced or looked at
    /// (`DirectoryMirror+Schema`), and whether it is being looked at.
    var schemaSeen: [UInt8]?
    var watchesSchema = false
    /// The follower, from `start` on.
    let following = Locked<EtcdFollower?>(nil)
    let stopped = Locked(false)
    /// Called once, from the mirror's queue, when etcd fails in a way trying again cannot
    /// mend (an unknown host, an untrusted certificate, refused credentials): the mirror
    /// has stopped trying, and its owner ends with the error (given to `start`).
    var onPermanentError: (@Sendable (EtcdError) -> Void)?
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
        guard let side = MirrorSide(store) else {
            throw StoreError(
                code: .storeUnavailable,
                message: "a mirror keeps a directory; this store is not one",
                file: store.path)
        }
        let context = try address.tlsContext(tls)
        queue = DispatchQueue(label: "jsonstore.mirror")
        executor = QueueExecutor(queue: queue)
        self.store = store
        self.side = side
        let folder = side.folder
        self.address = address
        layout = EtcdLayout(prefix: address.prefix)
        clients = EtcdClients(
            endpoints: address.endpoints, timeout: timeout, credentials: credentials, tls: context,
            transport: address.transport)
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
        self.directory = directory
        state = try MirrorState(folder: folder, prefix: address.prefix, directory: directory)
        state.address = address.description
        if let setAside = state.setAside { say("mirror: \(setAside)") }
    }

    /// Starts: reconciles the directory with etcd (or says etcd cannot be reached, and
    /// tries again), then follows both sides until `stop`. `onFailure` is called once if
    /// the mirror stops on its own (the directory was replaced), `onPermanentError` if etcd
    /// fails in a way trying again cannot mend.
    package nonisolated func start(
        onFailure: (@Sendable (StoreError) -> Void)? = nil,
        onPermanentError: (@Sendable (EtcdError) -> Void)? = nil
    ) {
        queue.async {
            self.assumeIsolated {
                $0.onFailure = onFailure
                $0.onPermanentError = onPermanentError
            }
        }
        var consumer = EtcdFollower.Consumer(
            list: { [weak self] reason in
                guard let self else { throw CancellationError() }
                return try queue.sync { try assumeIsolated { try $0.listed(reason) } }
            },
            changed: { [weak self] events, _ in
                guard let self else { return nil }
                let events = Array(events)
                queue.async { self.assumeIsolated { $0.remoteChanged(events) } }
                return nil
            })
        consumer.failed = { [weak self] error, _ in
            guard let self else { return }
            queue.async { self.assumeIsolated { $0.lost(error, following: true) } }
        }
        consumer.resuming = { [weak self] in
            guard let self else { throw CancellationError() }
            return try queue.sync { try assumeIsolated { try $0.resuming() } }
        }
        consumer.wantsProgress = false
        let follower = EtcdFollower(clients: clients, prefix: layout.keyPrefix, consumer: consumer)
        following.withLock { $0 = follower }
        follower.start()
    }

    /// Follows the directory, once the first reconcile is done: its first results bring
    /// what changed since the reconcile read it, and each update what changed then.
    func observeDirectory() {
        guard observation == nil, !isStopped else { return }
        observation = store.observe(on: queue) { [weak self] change in
            self?.assumeIsolated { $0.observed(change) }
        }
    }

    /// What the directory's observer delivered.
    private func observed(_ change: StoreChange<Item>) {
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

    /// Stops following both sides and folds the state's journal; returns when done.
    package nonisolated func stop() {
        stopped.withLock { $0 = true }
        following.withLock { $0?.stop() }
        queue.sync { assumeIsolated { $0.folded() } }
    }

    /// Stops observing the directory and folds the state's journal.
    private func folded() {
        observation?.invalidate()
        guard !failed else { return }  // the folder may be another directory's now
        do {
            try state.compact()
        } catch {
            say("mirror: \(error)")
        }
    }

    nonisolated var isStopped: Bool { stopped.withLock { $0 } }

    /// Runs `body` with one of the mirror's clients.
    nonisolated func etcd<R>(_ body: (EtcdClient) throws(EtcdError) -> R) throws(EtcdError) -> R {
        try clients.withClient(body)
    }
}
