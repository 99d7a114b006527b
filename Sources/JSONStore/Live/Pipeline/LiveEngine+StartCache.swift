import Dispatch

extension LiveEngine {
    // MARK: The start cache (a directory)
    //
    // A start lists the directory and walks the cache with the listing, both in the order
    // of the ids' bytes: a file whose signature is the one recorded, settled before the
    // look that recorded it, is taken from the cache; every other one is read. The cache
    // is written in the background after a version is stamped (at most every
    // `StartCachePlan.interval` while the store changes), never on the edit path.

    /// The start cache, read on another core while a first load lists the directory.
    final class PendingStartCache: Sendable {
        private let done = DispatchGroup()
        private let cache = Locked<StartCache?>(nil)

        init(store: String, directory: StartCache.Directory, terms: Fingerprint) {
            DispatchQueue.global().async(group: done) { [cache] in
                let read = StartCache.read(store: store, directory: directory, terms: terms)
                cache.withLock { $0 = read }
            }
        }

        /// The cache, once read; `nil` when there is none or it was refused.
        func wait() -> StartCache? {
            done.wait()
            return cache.withLock { $0 }
        }
    }

    /// Begins a first load's look (its stamp, which the next cache records) and the
    /// reading of the start cache, on another core: `nil` when this store keeps none.
    func beginStartCacheRead(of dir: FileDescriptor) -> PendingStartCache? {
        guard configuration.remote == nil, configuration.keepsStartCache,
            let look = StartCache.beginLook(store: configuration.path),
            let directory = StartCache.directory(of: dir)
        else { return nil }
        startCache.loadLook = look
        let terms = StartCache.terms(reader: configuration.reader, schema: schema)
        return PendingStartCache(store: configuration.path, directory: directory, terms: terms)
    }

    /// The outcomes of the files of `ids` (a listing, in order) for a first load: from the
    /// start cache (`pending`) where a file is unchanged since, read where it is not.
    func startOutcomes(
        _ ids: [String], in dir: FileDescriptor, cache pending: PendingStartCache?,
        progress: ProgressCounter
    ) -> [ItemFile.Outcome] {
        guard let cache = pending?.wait() else { return read(ids, in: dir, progress: progress) }
        let entries = cache.entries
        let comparison = StartComparison(ids, in: dir, entries: entries, lookedAt: cache.lookedAt)
        var outcomes = [ItemFile.Outcome](repeating: .missing, count: ids.count)
        // The items share the cache's chunk of bytes: nothing is copied.
        for (i, k) in comparison.unchanged { outcomes[i] = .item(entries.item(at: k, id: ids[i])) }
        progress.add(comparison.unchanged.count)
        let toRead = comparison.toRead
        let fresh = read(toRead.map { ids[$0] }, in: dir, progress: progress)
        for (n, i) in toRead.enumerated() { outcomes[i] = fresh[n] }
        // What the recorder compares: the ids read and gone, with the cache's versions of
        // them, which the journal recorded at the cache's stamp, and their heads then.
        var changed: Set<UTF8Key> = []
        var previous: [UTF8Key: Item] = [:]
        var heads: [UTF8Key: JournalHeads.Head?] = [:]
        func note(_ key: UTF8Key, at k: Int?) {
            changed.insert(key)
            guard let k else {
                // Not there at all: the journal had no entry of it, if the cache says so.
                if cache.headsComplete { heads[key] = .some(nil) }
                return
            }
            if entries.signature(at: k).isFile {
                previous[key] = entries.item(at: k, id: key.string)
            }
            if let recorded = entries.head(at: k).recorded { heads[key] = recorded }
        }
        for i in toRead { note(UTF8Key(ids[i]), at: entries.position(of: ids[i])) }
        for k in comparison.gone { note(UTF8Key(entries.id(at: k)), at: k) }
        startCache.readAtStart = changed
        startCache.taken = ids.count - toRead.count
        startCache.read = toRead.count
        if let stamp = cache.stamp, let position = cache.position {
            startCache.base = StoreHistory.StampBase(stamp: stamp, position: position)
            startCache.changed = changed
            startCache.previous = previous
            startCache.heads = heads
        }
        return outcomes
    }

    /// A version was stamped at `base` (or, without a journal, loaded): writes the start
    /// cache of it in the background, unless one is being written or was written lately.
    /// With a journal, the cache keeps the heads a stamp found: when a cache is due and
    /// this stamp brought none, the next one is asked for them.
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
        let life = self.life
        DispatchQueue.global(qos: .utility).async { [weak self] in
            writer.write()
            self?.onPipeline { engine in
                guard engine.life == life else { return }
                engine.startCache.writing = false
                engine.startCache.writtenVersion = version
                engine.startCache.writtenAt = Self.now()
            }
        }
    }
}
