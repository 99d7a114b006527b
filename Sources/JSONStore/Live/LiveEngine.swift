import Dispatch
import Glibc

/// The live pipeline of one store: watch → read → reduce → publish → deliver.
///
/// One serial queue, the pipeline queue, runs every step but the last, so changes are
/// published in the order they happened and no observer's executor ever reads or parses.
/// Each subscription's callbacks then run on the executor its subscriber chose.
///
/// `@unchecked Sendable`: every `var` below is read and written only on `queue`, except
/// the state and its observers, which `status` guards.
final class LiveEngine: @unchecked Sendable {
    struct Configuration: Sendable {
        var path: String
        var reader: JSONReader
        var watchMode: WatchMode
        var deletionGrace: Double
        var fallbackDelay: Double
        var reattachInterval: Double
        var parallelAbove: Int
    }

    struct StateObserver {
        let flag: CancellationFlag
        let delivery: Delivery
        let callback: @Sendable (StoreState) -> Void

        func send(_ state: StoreState) {
            delivery.send(state, to: callback, unless: flag)
        }
    }

    let configuration: Configuration
    let queue = DispatchQueue(label: "jsonstore.pipeline", qos: .userInitiated)

    // Pipeline state: on `queue` only.
    private var started = false
    private var loaded = false
    private var watcher: DirectoryWatcher?
    /// The directory is gone and has been reported; waiting for it to come back.
    private var detached = false
    private var working = StoreSnapshot()
    private var published = StoreSnapshot()
    // Ids and file names by their bytes (see `UTF8Key`).
    private var changedIDs: Set<UTF8Key> = []
    private var changedInvalid: Set<UTF8Key> = []
    private var pendingDeletions: [UTF8Key: DispatchTime] = [:]
    private var laterReads: [UTF8Key: DispatchTime] = [:]
    /// Since when changes have waited for a pending deletion, if they are waiting.
    private var heldSince: DispatchTime?
    private var subscriptions: [ObjectIdentifier: any LiveSubscriber] = [:]
    private var syncWaiters: [@Sendable () -> Void] = []

    /// The store state and who follows it; guarded by this lock so progress can be
    /// reported while the pipeline queue is busy loading.
    private let status = Locked<(state: StoreState, observers: [ObjectIdentifier: StateObserver])>(
        (.loading(done: 0, total: 0), [:]))

    init(configuration: Configuration) {
        self.configuration = configuration
    }

    // MARK: Subscribing

    func subscribe(_ subscription: any LiveSubscriber) {
        queue.async { [self] in
            subscriptions[ObjectIdentifier(subscription)] = subscription
            startIfNeeded()  // the first load sends `.initial` to every subscription
            if loaded && !subscription.isStarted { subscription.start(from: published, engine: self) }
        }
    }

    func unsubscribe(_ id: ObjectIdentifier) {
        queue.async { [self] in
            subscriptions[id] = nil
            stopIfIdle()
        }
    }

    var state: StoreState { status.withLock { $0.state } }

    func observeState(_ observer: StateObserver, id: ObjectIdentifier) {
        status.withLock { status in
            status.observers[id] = observer
            observer.send(status.state)
        }
        queue.async { [self] in startIfNeeded() }
    }

    func stopObservingState(_ id: ObjectIdentifier) {
        _ = status.withLock { $0.observers.removeValue(forKey: id) }
        queue.async { [self] in stopIfIdle() }
    }

    private func setState(_ state: StoreState) {
        status.withLock { status in
            guard status.state != state else { return }
            // A late progress report must not overwrite what the pipeline set after it.
            if case .loading = state, !isLoading(status.state) { return }
            status.state = state
            for observer in status.observers.values { observer.send(state) }
        }
    }

    private func isLoading(_ state: StoreState) -> Bool {
        if case .loading = state { return true }
        return false
    }

    /// Calls `completion` once every change on disk now has been read and delivered to
    /// every subscriber (its callbacks have run, or for streams, been handed over).
    func synchronize(_ completion: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            guard started else { return completion() }
            watcher?.pollNow()
            syncWaiters.append(completion)
            finishSyncIfSettled()
        }
    }

    /// Stops watching once the last observation has ended, and forgets the store's
    /// contents: an observation that starts later loads them again.
    private func stopIfIdle() {
        guard started, subscriptions.isEmpty, status.withLock({ $0.observers.isEmpty }) else { return }
        watcher?.stop()
        watcher = nil
        started = false
        loaded = false
        detached = false
        working = StoreSnapshot()
        published = StoreSnapshot()
        changedIDs.removeAll()
        changedInvalid.removeAll()
        pendingDeletions.removeAll()
        laterReads.removeAll()
        heldSince = nil
        status.withLock { $0.state = .loading(done: 0, total: 0) }
        let waiters = syncWaiters
        syncWaiters.removeAll()
        for waiter in waiters { waiter() }
    }

    deinit {
        // The last reference is gone (the store and every token): nothing else can touch
        // the watcher now.
        watcher?.stop()
    }

    /// Test hook: stall or resume reading events, so the kernel's queue can overflow.
    func setWatcherSuspended(_ suspended: Bool) {
        queue.sync {
            if suspended { watcher?.suspend() } else { watcher?.resume() }
        }
    }

    // MARK: Attaching and full scans

    private func startIfNeeded() {
        guard !started else { return }
        started = true
        attach(reason: nil)
    }

    /// Starts the watcher, then reads everything. The watcher comes first, so no edit
    /// made during the scan is missed.
    private func attach(reason: String?) {
        do {
            let newWatcher = try makeWatcher()
            watcher = newWatcher
            newWatcher.start()
        } catch {
            if detached { scheduleReattach() } else { directoryGone(cause: error) }
            return
        }
        detached = false
        rescan(reason: reason)
    }

    /// Opens the store directory for one step of work; `nil` (and the directory is
    /// reported gone) when it cannot be opened.
    ///
    /// The descriptor is not kept between steps: an open descriptor would keep a removed
    /// directory's inode alive, and the kernel would never report it removed.
    private func openDirectory() -> FileDescriptor? {
        do {
            return try .openDirectory(configuration.path)
        } catch {
            directoryGone(cause: error == .noSuchFile ? nil : error)
            return nil
        }
    }

    private func makeWatcher() throws(Errno) -> DirectoryWatcher {
        let handler: @Sendable (WatchBatch) -> Void = { [weak self] batch in self?.handle(batch) }
        switch configuration.watchMode {
        case .inotify:
            return try InotifyWatcher(path: configuration.path, queue: queue, handler: handler)
        case .polling(let interval):
            return PollingWatcher(path: configuration.path, interval: interval, queue: queue, handler: handler)
        }
    }

    /// Reads the whole directory and makes memory equal to it: the first load, or a
    /// resync after an overflow or the directory's return, delivering only real changes.
    private func rescan(reason: String?) {
        guard let dir = openDirectory() else { return }
        defer { dir.close() }
        if let reason { setState(.resyncing(reason: reason)) }
        let names: [DirectoryScan.Name]
        do {
            names = try DirectoryScan.names(in: dir)
        } catch {
            directoryGone(cause: error)
            return
        }
        let listing = StoreListing(names, path: configuration.path)
        let (ids, badNames) = (listing.ids, listing.badNames)

        let progress = ProgressCounter()
        var reporter: DispatchSourceTimer?
        if reason == nil {
            setState(.loading(done: 0, total: ids.count))
            let timer = DispatchSource.makeTimerSource(queue: .global())
            let total = ids.count
            timer.schedule(deadline: .now() + .milliseconds(50), repeating: .milliseconds(50))
            timer.setEventHandler { [weak self] in
                self?.setState(.loading(done: progress.value, total: total))
            }
            timer.resume()
            reporter = timer
        }
        let outcomes = read(ids, in: dir, progress: progress)
        reporter?.cancel()

        if !loaded {
            // The first load: build the snapshot in one pass, then send `.initial`.
            var elements: [(UTF8Key, Entry)] = []
            elements.reserveCapacity(ids.count)
            var invalid = badNames
            for (id, outcome) in zip(ids, outcomes) {
                switch outcome {
                case .item(let item): elements.append((UTF8Key(id), Entry(item: item, error: nil)))
                case .invalid(let error):
                    elements.append((UTF8Key(id), Entry(item: nil, error: error)))
                    let file = InvalidFile(itemID: id, error: error)
                    invalid[UTF8Key(file.name)] = file
                case .missing: continue
                }
            }
            elements.sort { $0.0 < $1.0 }
            working = StoreSnapshot(version: 1, entries: SortedTree(sortedDistinct: elements), invalid: invalid)
            published = working
            loaded = true
            for subscription in subscriptions.values { subscription.start(from: published, engine: self) }
        } else {
            // A resync: compare with memory; what is gone now is gone at once.
            let seen = Set(ids.lazy.map(UTF8Key.init))
            var gone: [String] = []
            working.entries.forEach { id, _ in if !seen.contains(id) { gone.append(id.string) } }
            for id in gone { remove(id) }
            for (id, outcome) in zip(ids, outcomes) { apply(outcome, to: id) }
            // Bad names (no id) no longer listed are gone; item files were handled above.
            for name in Set(working.invalid.keys).subtracting(badNames.keys) where working.invalid[name]?.id == nil {
                working.invalid[name] = nil
                changedInvalid.insert(name)
            }
            for (name, file) in badNames where working.invalid[name] == nil {
                working.invalid[name] = file
                changedInvalid.insert(name)
            }
            pendingDeletions.removeAll()
            laterReads.removeAll()
        }
        setState(.live)
        publish()
    }

    private func directoryGone(cause: Errno? = nil) {
        guard !detached else { return }  // reported already; a reattach is scheduled
        detached = true
        watcher?.stop()
        watcher = nil
        pendingDeletions.removeAll()
        laterReads.removeAll()
        let reason = cause.map { "the store directory cannot be watched: \($0)" }
            ?? "the store directory was removed or moved away"
        let error = StoreError(code: .storeUnavailable, message: reason, file: configuration.path, underlying: cause)
        setState(.failed(error))
        for subscription in subscriptions.values { subscription.fail(error, engine: self) }
        finishSyncIfSettled()
        scheduleReattach()
    }

    private func scheduleReattach() {
        queue.asyncAfter(deadline: .now() + configuration.reattachInterval) { [weak self] in
            guard let self, self.started, self.detached else { return }
            var status = stat()
            if stat(self.configuration.path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR {
                self.attach(reason: "the store directory appeared again")
            } else {
                self.scheduleReattach()
            }
        }
    }

    // MARK: Incremental batches

    private func handle(_ batch: WatchBatch) {
        guard loaded else { return }
        if batch.directoryGone {
            return directoryGone()
        }
        if batch.overflow {
            return rescan(reason: "inotify queue overflow")
        }
        for name in batch.readLater where !batch.readNow.contains(name) { readLater(name.string) }
        for name in batch.readNow { laterReads[name] = nil }
        readNames(batch.readNow.lazy.map(\.string))
        if !batch.undecodable.isEmpty { refreshUndecodableNames() }
        publish()
    }

    /// Reads the given directory entries and applies what they hold now.
    ///
    /// A missing item file starts its deletion grace period, unless its id is in
    /// `missingIsGone`: those periods are over, and missing now means deleted.
    private func readNames<S: Sequence>(_ names: S, missingIsGone: Set<UTF8Key> = [])
    where S.Element == String {
        let names = Array(names)
        guard !names.isEmpty, let dir = openDirectory() else { return }
        defer { dir.close() }
        var ids: [String] = []
        for name in names {
            switch EntryName(name) {
            case .ignored: continue
            case .item(let id): ids.append(id)
            case .invalid(let id, let why):
                let exists = (try? dir.linkStatus(of: name)) != nil
                let key = UTF8Key(name)
                if exists != (working.invalid[key] != nil) {
                    working.invalid[key] = exists ? .badName(name, id: id, reason: why, path: configuration.path) : nil
                    changedInvalid.insert(key)
                }
            }
        }
        for (id, outcome) in zip(ids, read(ids, in: dir)) {
            let key = UTF8Key(id)
            if case .missing = outcome {
                if missingIsGone.contains(key) {
                    remove(id)
                } else if working.entries[key] != nil, pendingDeletions[key] == nil {
                    // Editors save by removing or renaming the old file first: wait a
                    // moment before calling it a deletion.
                    let deadline = DispatchTime.now() + configuration.deletionGrace
                    pendingDeletions[key] = deadline
                    wake(at: deadline)
                }
                continue
            }
            pendingDeletions[key] = nil
            if case .invalid(let error) = outcome, error.code == .invalidJSON,
                isBeingWritten(ItemID.fileName(id), in: dir)
            {
                // Events trail the disk: a writer may have truncated the file after the
                // event that sent us here. Look again once it has had time to finish.
                readLater(ItemID.fileName(id))
                continue
            }
            apply(outcome, to: id)
        }
    }

    /// Reads `ids` with the store's reader, in parallel when there are many.
    private func read(_ ids: [String], in dir: FileDescriptor, progress: ProgressCounter? = nil)
        -> [ItemFile.Outcome]
    {
        ItemFile.readMany(
            ids, in: dir, path: configuration.path, reader: configuration.reader,
            parallelAbove: configuration.parallelAbove, progress: progress)
    }

    /// Reads `name` after the fallback delay, unless a read is due already.
    private func readLater(_ name: String) {
        let key = UTF8Key(name)
        guard laterReads[key] == nil else { return }
        let deadline = DispatchTime.now() + configuration.fallbackDelay
        laterReads[key] = deadline
        wake(at: deadline)
    }

    /// Whether `name` was modified within the fallback delay, so that a writer may still
    /// be at work on it.
    private func isBeingWritten(_ name: String, in dir: FileDescriptor) -> Bool {
        guard let status = try? dir.linkStatus(of: name) else { return false }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let age = Double(now.tv_sec - status.modificationTime.tv_sec)
            + Double(now.tv_nsec - status.modificationTime.tv_nsec) / 1e9
        return age >= 0 && age < configuration.fallbackDelay  // a future mtime (skew) is not "now"
    }

    /// Names that are not UTF-8 cannot be opened by their repaired form; list them again.
    private func refreshUndecodableNames() {
        guard let dir = openDirectory() else { return }
        defer { dir.close() }
        guard let names = try? DirectoryScan.names(in: dir) else { return }
        var current: [UTF8Key: InvalidFile] = [:]
        for case .notUTF8(let repaired) in names {
            if let file = InvalidFile.undecodableName(repaired, path: configuration.path) {
                current[UTF8Key(repaired)] = file
            }
        }
        // A bad name no longer listed as undecodable is gone, unless it is a (decodable)
        // name that still exists.
        for (name, file) in working.invalid where file.id == nil && current[name] == nil
            && (try? dir.linkStatus(of: name.string)) == nil
        {
            working.invalid[name] = nil
            changedInvalid.insert(name)
        }
        for (name, file) in current where working.invalid[name] == nil {
            working.invalid[name] = file
            changedInvalid.insert(name)
        }
    }

    private func wake(at deadline: DispatchTime) {
        queue.asyncAfter(deadline: deadline) { [weak self] in self?.deadlinesPassed() }
    }

    /// Resolves the deletions whose grace period is over and reads the files whose
    /// writers never closed them.
    private func deadlinesPassed() {
        guard loaded else { return }
        let now = DispatchTime.now()
        let deletions = pendingDeletions.filter { $0.value <= now }.map(\.key)
        let reads = laterReads.filter { $0.value <= now }.map(\.key)
        guard !deletions.isEmpty || !reads.isEmpty else { return }
        for name in reads { laterReads[name] = nil }
        for id in deletions { pendingDeletions[id] = nil }
        readNames(
            (reads + deletions.map { UTF8Key(ItemID.fileName($0.string)) }).map(\.string),
            missingIsGone: Set(deletions))
        publish()
    }

    // MARK: Reducing

    /// Applies what the file of `id` holds now to the working snapshot.
    private func apply(_ outcome: ItemFile.Outcome, to id: String) {
        let old = working.entries[UTF8Key(id)]
        switch outcome {
        case .item(let item):
            if let old, old.error == nil, old.item?.fingerprint == item.fingerprint { return }
            set(id, Entry(item: item, error: nil))
        case .invalid(let error):
            let new = Entry(item: old?.item, error: error)
            if let old, old.sameAs(new) { return }
            set(id, new)
        case .missing:
            if old != nil { remove(id) }
        }
    }

    private func set(_ id: String, _ entry: Entry) {
        working.entries.updateValue(entry, forKey: UTF8Key(id))
        changedIDs.insert(UTF8Key(id))
        let name = UTF8Key(ItemID.fileName(id))
        if let error = entry.error {
            working.invalid[name] = InvalidFile(itemID: id, error: error)
            changedInvalid.insert(name)
        } else if working.invalid.removeValue(forKey: name) != nil {
            changedInvalid.insert(name)
        }
    }

    private func remove(_ id: String) {
        guard working.entries.removeValue(forKey: UTF8Key(id)) != nil else { return }
        changedIDs.insert(UTF8Key(id))
        let name = UTF8Key(ItemID.fileName(id))
        if working.invalid.removeValue(forKey: name) != nil {
            changedInvalid.insert(name)
        }
    }

    // MARK: Publishing

    /// Turns the changes since the last version into one new version and hands it to
    /// every subscription. An update with nothing in it is not sent.
    ///
    /// A deletion waits for its grace period: a vim save (the file renamed away, then
    /// written anew) must reach observers as one modification. Other changes wait with it
    /// for at most one grace period, so that a rename or a batch that deletes reaches
    /// observers as one update; after that they are published and only the ids whose
    /// deletion is still pending wait on, each on its own. A steady stream of deletions or
    /// saves thus holds nothing back for longer than the grace period and one batch.
    ///
    /// - Complexity: O(k log n) per subscription for k changed ids.
    private func publish() {
        guard loaded else { return finishSyncIfSettled() }
        if !pendingDeletions.isEmpty, !changedIDs.isEmpty || !changedInvalid.isEmpty {
            let now = DispatchTime.now()
            let waitingSince = heldSince ?? now
            if heldSince == nil {
                heldSince = now
                let deadline = now + configuration.deletionGrace
                queue.asyncAfter(deadline: deadline) { [weak self] in self?.publishHeld() }
            }
            if now < waitingSince + configuration.deletionGrace { return finishSyncIfSettled() }
        }
        heldSince = nil
        let held = changedIDs.filter { pendingDeletions[$0] != nil }
        let heldNames = Set(held.map { UTF8Key(ItemID.fileName($0.string)) })
        let ids = changedIDs.subtracting(held)
        let names = changedInvalid.subtracting(heldNames)
        guard !ids.isEmpty || !names.isEmpty else { return finishSyncIfSettled() }
        var snapshot = working
        for id in held {
            if let entry = published.entries[id] {
                snapshot.entries.updateValue(entry, forKey: id)
            } else {
                snapshot.entries.removeValue(forKey: id)
            }
            let name = UTF8Key(ItemID.fileName(id.string))
            snapshot.invalid[name] = published.invalid[name]
        }
        snapshot.version = published.version + 1
        working.version = snapshot.version
        for subscription in subscriptions.values {
            subscription.publish(ids: ids, names: names, snapshot: snapshot, engine: self)
        }
        published = snapshot
        changedIDs = held
        changedInvalid = changedInvalid.intersection(heldNames)
        finishSyncIfSettled()
    }

    /// The changes that waited for a pending deletion have waited a grace period.
    private func publishHeld() {
        guard let since = heldSince, DispatchTime.now() >= since + configuration.deletionGrace
        else { return }
        publish()
    }

    /// A subscriber's callback has returned; send it what waited, if anything did.
    func deliveryFinished(_ subscription: any LiveSubscriber) {
        guard subscriptions[ObjectIdentifier(subscription)] != nil else { return }
        subscription.deliveryFinished(engine: self)
        finishSyncIfSettled()
    }

    /// Completes `synchronize` calls once nothing is pending: each waits for a marker to
    /// pass through every subscriber's executor, behind the updates already sent there.
    private func finishSyncIfSettled() {
        guard !syncWaiters.isEmpty else { return }
        let settled = watcher == nil
            || (loaded && pendingDeletions.isEmpty && laterReads.isEmpty && changedIDs.isEmpty
                && changedInvalid.isEmpty && !subscriptions.values.contains { $0.hasBacklog })
        guard settled else { return }
        let waiters = syncWaiters
        syncWaiters.removeAll()
        let group = DispatchGroup()
        for subscription in subscriptions.values {
            group.enter()
            subscription.delivery.run { group.leave() }
        }
        group.notify(queue: .global()) {
            for waiter in waiters { waiter() }
        }
    }
}
