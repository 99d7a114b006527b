import Dispatch

extension LiveEngine {
    // MARK: The start cache (a directory)
    //
    // A start lists the directory and walks the cache with the listing, both in the order
    // of the ids' bytes: a file whose signature is the one recorded, settled before the
    // look that recorded it, is taken from the cache; every other one is read. The cache
    // is written in the background after a version is stamped (at most every
    // `StartCachePlan.interval` while the store changes), never on the edit path.

    /// The start cache, checked and its items' bytes read on another core from before the
    /// watcher is set up (a watch on a directory of a million files takes a while: the
    /// kernel marks every entry of it that it has cached), and the files of its entries
    /// looked at (`StartCache.Cursor.lookAhead`) once the watcher has started, while a
    /// first load lists the directory; its records are walked with the listing afterwards.
    /// No thread waits for the watcher: the look is begun by `watcherStarted`.
    final class PendingStartCache: Sendable {
        /// The directory the cache is read for.
        let directory: StartCache.Directory
        private let dir: FileDescriptor
        /// The reading of the cache; then `done`, once the look at its files is over too.
        private let reading = DispatchGroup()
        private let done = DispatchGroup()
        /// The cache, read and checked, until its files are looked at.
        private let read = Locked<StartCache.Cursor?>(nil)
        /// Made by the look, then handed over once: `wait` takes it.
        private let cache = Locked<(cursor: StartCache.Cursor, looked: [Bool])?>(nil)

        /// - Parameter dir: the store's directory, which this closes when it is done.
        init(
            store: String, dir: FileDescriptor, directory: StartCache.Directory,
            terms: Fingerprint
        ) {
            (self.directory, self.dir) = (directory, dir)
            done.enter()  // left by the look, which `watcherStarted` begins
            DispatchQueue.global().async(group: reading) { [read] in
                // A cache whose records did not read back as checked is not used.
                guard
                    let cursor = StartCache.Cursor.open(
                        store: store, directory: directory, terms: terms),
                    cursor.readItems()
                else { return }
                read.withLock { $0 = cursor }
            }
        }

        /// The watcher has started (`started`), or will not: the look at the cache's files
        /// begins once the cache is read. No file is looked at before the watcher has
        /// started, so one changed after its look is the watcher's.
        func watcherStarted(_ started: Bool) {
            reading.notify(queue: .global()) { [read, cache, dir, done] in
                defer {
                    dir.close()
                    done.leave()
                }
                guard started, let cursor = read.withLock({ $0.take() }),
                    let looked = cursor.lookAhead(in: dir, lookedAt: cursor.header.lookedAt)
                else { return }
                cache.withLock { $0 = (cursor, looked) }
            }
        }

        /// Whether the reading and the look end within `seconds` (for tests).
        func finished(within seconds: Double) -> Bool {
            done.wait(timeout: .now() + seconds) == .success
        }

        /// The cache, once read, and what its files were found to be; `nil` when there is
        /// none or it was refused. Taken: this holds none of it after.
        func wait() -> (cursor: StartCache.Cursor, looked: [Bool])? {
            done.wait()
            return cache.withLock { $0.take() }
        }
    }

    /// Begins a first load's look (its stamp, which the next cache records) and the
    /// reading of the start cache, on another core, through a descriptor of its own:
    /// `nil` when this store keeps none.
    func beginStartCacheRead() -> PendingStartCache? {
        guard configuration.remote == nil, configuration.keepsStartCache,
            let dir = try? FileDescriptor.openDirectory(configuration.path)
        else { return nil }
        guard let look = StartCache.beginLook(store: configuration.path),
            let directory = StartCache.directory(of: dir)
        else {
            dir.close()
            return nil
        }
        startCache.loadLook = look
        startCache.began = Self.now()
        // The schema in force, for the terms a cache must have been written under (the
        // load checks them again: the schema may change before it reads it).
        _ = loadSchema()
        let terms = StartCache.terms(reader: configuration.reader, schema: schema)
        return PendingStartCache(
            store: configuration.path, dir: dir, directory: directory, terms: terms)
    }

    /// How many listed files a start from its cache walks before it hands them to its
    /// `StartLoader`, which reads those of them that changed and adds them to the load.
    static let readBlock = 16_384

    /// A first load of the files of `ids` (a listing, in order), into `load`: from the
    /// start cache (`pending`) where a file is unchanged since, read where it is not.
    ///
    /// The walk hands the load its items in order as it goes, a block of `readBlock`
    /// listed files at a time, to a `StartLoader` that reads the block's files to read on
    /// every core and builds the tree while the walk goes on; a start holds a few blocks'
    /// outcomes at most beside the tree it builds. The listing is walked a block at a time,
    /// each let go once walked (`ids` is left empty): the blocks carry their ids and the
    /// tree its keys, so the tree is not built beside a second copy of every id (16 MB at
    /// a million). A cache found changed in place by the walk's end has the directory
    /// listed again, and read.
    func startLoad(
        _ ids: inout [String], in dir: FileDescriptor, cache pending: PendingStartCache?,
        progress: ProgressCounter, into load: inout StoreLoad
    ) {
        // A cache of this directory, written under the terms the load reads with.
        guard let pending, pending.directory == StartCache.directory(of: dir),
            let (cache, looked) = pending.wait(),
            cache.header.terms == StartCache.terms(reader: configuration.reader, schema: schema)
        else {
            return readInOrder(ids, in: dir, progress: progress, into: &load)
        }
        configuration.startCacheChecked?()
        let unread = load
        let (path, reader, parallelAbove, schema) = (
            configuration.path, configuration.reader, configuration.parallelAbove, schema
        )
        // The tree is built on another thread as the walk goes on.
        let loader = StartLoader(into: load, progress: progress, blockSize: Self.readBlock) {
            ItemFile.readMany(
                $0, in: dir, path: path, reader: reader, parallelAbove: parallelAbove,
                schema: schema, progress: progress)
        }
        var block = loader.firstBlock()
        let listed = ids.count
        var listing = stride(from: 0, to: listed, by: Self.readBlock).map {
            Array(ids[$0..<min($0 + Self.readBlock, listed)])
        }
        ids = []
        // The items share the cache's chunk of bytes: nothing is copied.
        let comparison = StartComparison(
            &listing, cache: cache, lookedAt: cache.header.lookedAt, looked: looked
        ) { _, id, found in
            switch consume found {
            case .unchanged(let entry): block.append(id, entry)
            case .toRead: block.appendToRead(id)
            }
            if block.count == Self.readBlock { loader.hand(&block) }
        }
        load = loader.finish(handing: &block)
        // A cache changed in place since it was checked: none of it is used.
        guard comparison.intact else {
            load = unread
            progress.reset()
            let again = (try? StoreListing(scanning: dir, path: configuration.path))?.ids ?? []
            return readInOrder(again, in: dir, progress: progress, into: &load)
        }
        // What the recorder compares: the ids read and gone, with the cache's versions of
        // them, which the journal recorded at the cache's stamp, and their heads then.
        var changed: Set<UTF8Key> = []
        var previous: [UTF8Key: Item] = [:]
        var heads: [UTF8Key: JournalHeads.Head?] = [:]
        for id in comparison.new {
            let key = UTF8Key(id)
            changed.insert(key)
            // Not in the cache at all: the journal had no entry of it, if the cache says so.
            if cache.header.headsComplete { heads[key] = .some(nil) }
        }
        for entries in [comparison.changed, comparison.gone] {
            for entry in entries {
                let key = UTF8Key(entry.id)
                changed.insert(key)
                if entry.signature.isFile { previous[key] = entry.item }
                if let recorded = entry.head.recorded { heads[key] = recorded }
            }
        }
        startCache.readAtStart = changed
        startCache.taken = listed - comparison.toRead.count
        startCache.fromCache = true
        startCache.read = comparison.toRead.count
        if let stamp = cache.header.stamp, let position = cache.header.position {
            startCache.base = StoreHistory.StampBase(stamp: stamp, position: position)
            startCache.changed = changed
            startCache.previous = previous
            startCache.heads = heads
        }
    }

    /// A version was stamped at `base` (or, without a journal, loaded): writes the start
    /// cache of it in the background, unless one is being written or was written lately.
    /// With a journal, the cache keeps the heads a stamp found: when a cache is due and
    /// this stamp brought none, the next one is asked for them. After a start from a
    /// cache, the first one is written once the start's first results had time to go
    /// out (as long again as the start took, a second at least), so the two do not
    /// share the cores: that start read little, and its cache is not urgent.
    func startCacheStamped(
        version: Int, _ base: StoreHistory.StampBase?, heads: StoreHistory.StampHeads? = nil
    ) {
        (startCache.base, startCache.changed, startCache.previous) = (nil, [], [:])
        startCache.heads = [:]
        guard let loadLook = startCache.loadLook, !startCache.writing,
            version > startCache.writtenVersion,
            Self.now() - startCache.writtenAt >= StartCachePlan.interval
        else { return }
        if let recorder = configuration.recorder, heads == nil {
            return recorder.captureHeads()
        }
        let snapshot = history.last { $0.version == version } ?? reducer.published
        guard snapshot.version == version else { return }
        startCache.writing = true
        let writer = StartCacheWriter(
            store: configuration.path, snapshot: snapshot, loadLook: loadLook, base: base,
            heads: heads, terms: StartCache.terms(reader: configuration.reader, schema: schema),
            limit: configuration.reader.maxSize, reread: startCache.readAtStart)
        startCache.readAtStart = []
        let delay = startCache.fromCache ? max(1, Self.now() - startCache.began) : 0
        startCache.fromCache = false
        let life = self.life
        // Written with every head, the cache keeps them: the recorder's may go.
        let history = heads != nil ? configuration.recorder?.history : nil
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + delay) {
            [weak self] in
            let placed = writer.write()
            if let placed, let history, let stamp = base?.stamp {
                let index = StartCache.HeadIndex(store: history.store, placed: placed)
                history.forgetHeads(keepingAfter: stamp, index: index)
            } else {
                // Not written: every head stays for the next cache, not their snapshot.
                history?.unbindHeads()
            }
            self?.onPipeline { engine in
                guard engine.life == life else { return }
                engine.startCache.writing = false
                engine.startCache.writtenVersion = version
                engine.startCache.writtenAt = Self.now()
            }
        }
    }
}
