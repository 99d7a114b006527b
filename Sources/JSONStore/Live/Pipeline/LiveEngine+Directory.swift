import Dispatch

extension LiveEngine {
    // MARK: Full scans

    /// Opens the store directory for one step of work; `nil` (and the directory is
    /// reported gone) when it cannot be opened.
    ///
    /// The descriptor is not kept between steps: an open descriptor would keep a removed
    /// directory's inode alive, and the kernel would never report it removed.
    func openDirectory() -> FileDescriptor? {
        do {
            return try .openDirectory(configuration.path)
        } catch {
            directoryGone(cause: error == .noSuchFile ? nil : error)
            return nil
        }
    }

    /// Reads the whole directory and makes memory equal to it: the first load, or a
    /// resync after an overflow or the directory's return, delivering only real changes.
    ///
    /// - Parameter pending: a first load's start cache, being read (`attach`).
    func rescan(reason: String?, startCache pending: PendingStartCache? = nil) {
        guard let dir = openDirectory() else { return }
        defer { dir.close() }
        if let reason { status.set(.resyncing(reason: reason)) }
        let starting = !reducer.isLoaded
        let schemaProblem = loadSchema().problem
        // The listing, the names and the files' outcomes live only in this block, so the
        // store is not held twice while the subscriptions build their first results.
        do {
            // A first load's start cache is read while the directory is listed.
            let cache = starting ? pending : nil
            var listing: StoreListing
            do {
                listing = try StoreListing(scanning: dir, path: configuration.path)
            } catch {
                return directoryGone(cause: error)
            }
            let listed = listing.ids.count
            let progress = ProgressCounter()
            var reporter: DispatchSourceTimer?
            if starting {
                let (status, total) = (status, listed)
                status.set(.loading(done: 0, total: total))
                let timer = DispatchSource.makeTimerSource(queue: .global())
                timer.schedule(deadline: .now() + .milliseconds(50), repeating: .milliseconds(50))
                timer.setEventHandler { status.set(.loading(done: progress.value, total: total)) }
                timer.resume()
                reporter = timer
            }
            var badNames = listing.badNames
            badNames[Self.schemaName] = schemaProblem
            var conflicts: [UTF8Key: Conflict] = [:]
            for name in listing.conflictNames {
                conflicts[UTF8Key(name)] = readConflict(name, in: dir)
            }
            if starting {
                var load = StoreLoad(badNames: badNames)
                // A start from its cache lets the listing's ids go as it walks them.
                startLoad(&listing.ids, in: dir, cache: cache, progress: progress, into: &load)
                reporter?.cancel()
                // Every file is read; what is left (the list built) is told by a full count.
                status.set(.loading(done: listed, total: listed))
                reducer.load(load, conflicts: conflicts)
            } else {
                let outcomes = read(listing.ids, in: dir, progress: progress)
                reducer.resync(listing.ids, outcomes, badNames: badNames, conflicts: conflicts)
            }
        }
        if starting {
            recordHistory()
            // The first stamp brings the journal's heads, for the start cache.
            if startCache.loadLook != nil { configuration.recorder?.captureHeads() }
            // What changed while nothing watched is found against the journal, apart.
            configuration.recorder?.loaded(
                reducer.published, since: startCache.base, changed: startCache.changed,
                previous: startCache.previous, heads: startCache.heads)
            awaitStamp()
            startWaitingSubscriptions()
        }
        status.set(.live)
        publish()
        // Without a journal there is no stamp to wait for: the cache of the load now.
        if starting, configuration.recorder == nil {
            startCacheStamped(version: reducer.published.version, nil)
        }
    }

    // MARK: Incremental batches

    func handle(_ batch: WatchBatch) {
        guard case .watching(let watch) = phase, reducer.isLoaded else { return }
        if reducer.isSettled { watch.unsettledSince = Self.now() }
        let journal = UTF8Key(BatchJournal.fileName)
        if batch.readNow.contains(journal) || batch.readLater.contains(journal) {
            watch.batchJournalSeen = true
        }
        if batch.directoryGone { return directoryGone() }
        if batch.overflow { return rescan(reason: "inotify queue overflow") }
        if let error = batch.readError {
            return rescan(reason: "reading the inotify events failed: \(error)")
        }
        if batch.schemaChanged {
            // Every item is read again under a new schema, what it makes valid or invalid
            // published as one update; a broken document is reported, the schema kept.
            let (changed, problem) = loadSchema()
            if changed { return rescan(reason: nil) }
            reducer.badName(Self.schemaName.string, problem)
        }
        if batch.directoryChanged {
            // A chmod of the directory itself: if it can no longer be read, say so now.
            guard let dir = openDirectory() else { return }
            dir.close()
        }
        let now = Self.now()
        for name in batch.readLater where !batch.readNow.contains(name) {
            if let time = reducer.readLater(name.string, at: now) {
                wake(at: time) { $0.deadlinesPassed() }
            }
        }
        for name in batch.readNow { reducer.readingNow(name) }
        readNames(batch.readNow.map(\.string))
        if !batch.undecodable.isEmpty { refreshUndecodableNames() }
        publish()
    }

    /// Reads the given directory entries and hands the reducer what they hold now.
    ///
    /// - Parameter goneIfMissing: item ids whose grace period is over: missing now means
    ///   deleted.
    private func readNames(_ names: [String], goneIfMissing: Set<UTF8Key> = []) {
        guard !names.isEmpty, let dir = openDirectory() else { return }
        defer { dir.close() }
        var ids: [String] = []
        for name in names {
            switch EntryName(name) {
            case .ignored: continue
            case .conflict: reducer.conflictFile(name, readConflict(name, in: dir))
            case .item(let id): ids.append(id)
            case .invalid(let id, let why):
                let exists = (try? dir.linkStatus(of: name)) != nil
                reducer.badName(
                    name,
                    exists ? .badName(name, id: id, reason: why, path: configuration.path) : nil)
            }
        }
        let now = Self.now()
        for (id, outcome) in zip(ids, read(ids, in: dir, keeping: true)) {
            var beingWritten = false
            if case .invalid(let error) = outcome, error.code == .invalidJSON {
                beingWritten = isBeingWritten(ItemID.fileName(id), in: dir)
            }
            let wake = reducer.fileRead(
                id, outcome, at: now, missingIsGone: goneIfMissing.contains(UTF8Key(id)),
                beingWritten: beingWritten)
            if let wake { self.wake(at: wake) { $0.deadlinesPassed() } }
        }
    }

    /// The conflict copy `name` as it is now; `nil` when it is gone.
    private func readConflict(_ name: String, in dir: FileDescriptor) -> Conflict? {
        JSONStore.readConflict(
            named: name, in: dir, path: configuration.path, limit: configuration.reader.maxSize)
    }

    /// Reads `ids` with the store's reader, in parallel when there are many; with
    /// `keeping`, the bytes of the items read are kept in `recentBytes` (a batch's changed
    /// files, not a whole load), where a decoding error is located.
    func read(
        _ ids: [String], in dir: FileDescriptor, progress: ProgressCounter? = nil,
        keeping: Bool = false
    ) -> [ItemFile.Outcome] {
        ItemFile.readMany(
            ids, in: dir, path: configuration.path, reader: configuration.reader,
            parallelAbove: configuration.parallelAbove, schema: schema, progress: progress,
            keepingIn: keeping ? recentBytes : nil)
    }

    /// A first load of the files of `ids` (a listing, in order), read a block at a time
    /// into `load`.
    func readInOrder(
        _ ids: [String], in dir: FileDescriptor, progress: ProgressCounter,
        into load: inout StoreLoad
    ) {
        ItemFile.readInBlocks(
            ids, in: dir, path: configuration.path, reader: configuration.reader,
            parallelAbove: configuration.parallelAbove, schema: schema, progress: progress
        ) { load.add($0, $1) }
    }

    /// Whether `name` was modified within the fallback delay, so that a writer may still
    /// be at work on it.
    private func isBeingWritten(_ name: String, in dir: FileDescriptor) -> Bool {
        guard let status = try? dir.linkStatus(of: name) else { return false }
        let age = WallClock.secondsSince(status.modificationTime)
        return age >= 0 && age < configuration.fallbackDelay  // a future mtime (skew) is not "now"
    }

    /// Names that are not UTF-8 cannot be opened by their shown form; list them again.
    private func refreshUndecodableNames() {
        guard let dir = openDirectory() else { return }
        defer { dir.close() }
        guard let names = try? DirectoryScan.names(in: dir) else { return }
        var current: [UTF8Key: InvalidFile] = [:]
        for case .notUTF8(let bytes) in names {
            if let file = InvalidFile.undecodableName(bytes, path: configuration.path) {
                current[UTF8Key(file.name)] = file
            }
        }
        reducer.undecodableNames(current) { (try? dir.linkStatus(of: $0)) != nil }
    }

    /// Resolves the deletions whose grace period is over and reads the files whose
    /// writers never closed them.
    func deadlinesPassed() {
        guard settleDeadlines(everything: false) else { return }
        publish()
    }

    /// Resolves the deletions and reads that are due (or all of them, with `everything`);
    /// whether there were any.
    @discardableResult
    func settleDeadlines(everything: Bool) -> Bool {
        guard case .watching = phase, reducer.isLoaded else { return false }
        let (names, goneIfMissing) = reducer.takeDue(at: everything ? .infinity : Self.now())
        guard !names.isEmpty else { return false }
        readNames(names, goneIfMissing: goneIfMissing)
        return true
    }
}
