import Dispatch

/// Reading many item files at once: a watcher's batch, a rescan, a first load.
extension ItemFile {
    /// How many files a read takes at least for their bytes to be packed together.
    static let packedAbove = 64

    /// How many files a first load reads between handing their outcomes on: enough that
    /// every core's share is long, few enough that a block's outcomes (64 bytes a file)
    /// stay small beside the store.
    static let loadBlock = 32768

    /// Reads the items `ids`, on every core when there are more than `parallelAbove`.
    ///
    /// - Parameter progress: counts the files read, for a loading indicator.
    static func readMany(
        _ ids: [String], in dir: FileDescriptor, path: String, reader: JSONReader,
        parallelAbove threshold: Int, schema: StoreSchema? = nil,
        progress: ProgressCounter? = nil, keepingIn recent: RecentBytes? = nil
    ) -> [Outcome] {
        // Each worker of a load packs the bytes it reads into chunks of its own; a few
        // files (a watcher's batch) each keep theirs alone, so a chunk is not kept alive
        // for one item.
        let many = ManyFiles(
            dir: dir, path: path, reader: reader, schema: schema, progress: progress,
            recent: recent, packs: ids.count >= Self.packedAbove)
        return many.read(ids[...], parallelAbove: threshold)
    }

    /// Reads the items `ids` a block of `loadBlock` at a time, each block as `readMany`
    /// reads it, and hands each file's outcome to `take` in the order of `ids`, so a load
    /// holds one block's outcomes, never the whole store's. Each worker packs its bytes
    /// into the same chunks from one block to the next.
    static func readInBlocks(
        _ ids: [String], in dir: FileDescriptor, path: String, reader: JSONReader,
        parallelAbove threshold: Int, schema: StoreSchema? = nil,
        progress: ProgressCounter? = nil, blockSize: Int = Self.loadBlock,
        take: (String, Outcome) -> Void
    ) {
        let many = ManyFiles(
            dir: dir, path: path, reader: reader, schema: schema, progress: progress,
            recent: nil, packs: ids.count >= Self.packedAbove)
        let blockSize = max(1, blockSize)
        for lower in stride(from: 0, to: ids.count, by: blockSize) {
            let block = ids[lower..<min(lower + blockSize, ids.count)]
            let outcomes = many.read(block, parallelAbove: threshold)
            for (id, outcome) in zip(block, outcomes) { take(id, outcome) }
        }
    }

    /// What reading many files shares: where they are, how they are read, and each
    /// worker's packer of bytes, kept from one call of `read` to the next.
    private struct ManyFiles: Sendable {
        let dir: FileDescriptor
        let path: String
        let reader: JSONReader
        let schema: StoreSchema?
        let progress: ProgressCounter?
        let recent: RecentBytes?
        let packs: Bool
        /// One packer a worker (a few chunks per core balance uneven file sizes without
        /// much scheduling); each is used by one worker at a time.
        let packers = Slots(count: Cores.count * 4, initial: ByteChunk.Packer())

        func read(_ ids: ArraySlice<String>, parallelAbove threshold: Int) -> [Outcome] {
            guard ids.count >= threshold else {
                var outcomes: [Outcome] = []
                outcomes.reserveCapacity(ids.count)
                readRange(ids, worker: 0) { outcomes.append($1) }
                return outcomes
            }
            let slots = Slots<Outcome>(count: ids.count, initial: .missing)
            let start = ids.startIndex
            ItemFile.inRanges(ids.count, workers: packers.count) { worker, range in
                let part = ids[(start + range.lowerBound)..<(start + range.upperBound)]
                readRange(part, worker: worker) { slots[$0 - start] = $1 }
            }
            return slots.values
        }

        /// Reads `ids` with worker `worker`'s packer, handing `put` each one's index in
        /// `ids` and outcome.
        private func readRange(
            _ ids: ArraySlice<String>, worker: Int, put: (Int, Outcome) -> Void
        ) {
            var packer = packers[worker]
            defer { packers[worker] = packer }
            for i in ids.indices {
                let (outcome, _) = ItemFile.read(
                    id: ids[i], in: dir, path: path, reader: reader, schema: schema,
                    keepingIn: recent, keep: { packs ? packer.pack($0) : ItemBytes($0) })
                put(i, outcome)
                progress?.add(1)
            }
        }
    }

    /// `outcome(i)` for every `i` below `count`, on every core when there are at least
    /// `threshold`: for sources that hold the bytes already (etcd's values).
    package static func outcomes(
        _ count: Int, parallelAbove threshold: Int, _ outcome: @Sendable (Int) -> Outcome
    ) -> [Outcome] {
        parallelMap(count, parallelAbove: threshold, initial: .missing, outcome)
    }

    /// `value(i)` for every `i` below `count`, on every core when there are at least
    /// `threshold`.
    static func parallelMap<Value>(
        _ count: Int, parallelAbove threshold: Int, initial: Value,
        _ value: @Sendable (Int) -> Value
    ) -> [Value] {
        parallelMap(count, parallelAbove: threshold, initial: initial) { _, i in value(i) }
    }

    /// How many workers `parallelMap` shares its work among.
    static let workers = Cores.count * 4

    /// `parallelMap`, `value` told also which of the `workers` asks (0 when one by one), so
    /// each may use what is its own: what two cores would share, they contend for.
    static func parallelMap<Value>(
        _ count: Int, parallelAbove threshold: Int, initial: Value,
        _ value: @Sendable (_ worker: Int, _ i: Int) -> Value
    ) -> [Value] {
        guard count >= threshold else { return (0..<count).map { value(0, $0) } }
        let slots = Slots<Value>(count: count, initial: initial)
        inRanges(count, workers: workers) { worker, range in
            for i in range { slots[i] = value(worker, i) }
        }
        return slots.values
    }

    /// `body` with each of at most `workers` ranges that together cover `0..<count`, in
    /// even shares, each range's worker numbered, on every core (a few shares per core
    /// balance uneven work without much scheduling).
    private static func inRanges(
        _ count: Int, workers: Int, _ body: @Sendable (Int, Range<Int>) -> Void
    ) {
        let workers = min(count, workers)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            body(worker, (count * worker / workers)..<(count * (worker + 1) / workers))
        }
    }
}
