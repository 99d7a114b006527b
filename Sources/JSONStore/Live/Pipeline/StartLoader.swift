import Dispatch

/// A start's load from its cache, built a block at a time on a thread of its own while
/// the walk of the listing with the cache (`StartComparison`) goes on: the walk and the
/// building of the tree share the cores instead of taking turns.
///
/// Blocks are taken in the order they are handed over, so the load gets its ids in the
/// listing's order. At most `blocksAhead` blocks wait to be taken in: the walk is held
/// back rather than holding the items of every file it has passed. An entry goes from the
/// walk into the tree by moves, never copied, and a block's storage, emptied, is the walk's
/// again: a million items would otherwise pay a count taken and given back on their shared
/// chunk each, from both cores at once, and fresh pages for every block.
final class StartLoader: Sendable {
    /// A run of listed files, from position `first` in the listing on: the store's entry
    /// of each unchanged one, taken from the cache, and the offsets of those to read.
    struct Block: Sendable {
        var first: Int
        /// One for each listed file; a file to read holds an empty entry.
        fileprivate var entries: [Entry]
        /// The offsets in `entries` of the files to read, ascending.
        fileprivate var toRead: [Int] = []

        /// How many listed files the block holds.
        var count: Int { entries.count }

        /// The next listed file is unchanged: `entry` is the cache's.
        mutating func append(_ entry: consuming Entry) {
            entries.append(entry)
        }

        /// The next listed file is to be read.
        mutating func appendToRead() {
            toRead.append(entries.count)
            entries.append(Entry(item: nil, error: nil))
        }

        /// The entry at `k`, moved out (an empty one left in its place).
        fileprivate mutating func take(_ k: Int) -> Entry {
            var entry = Entry(item: nil, error: nil)
            swap(&entry, &entries[k])
            return entry
        }
    }

    private let queue = DispatchQueue(label: "jsonstore.start-load")
    private let room: DispatchSemaphore
    private let ids: [String]
    private let load: Locked<StoreLoad>
    private let progress: ProgressCounter
    private let read: @Sendable ([String]) -> [ItemFile.Outcome]
    private let blockSize: Int
    /// The blocks handed over and not yet taken in, in order.
    private let handed = Locked<[Block]>([])
    /// The storage of blocks taken in, emptied, for the walk's next blocks.
    private let spare = Locked<[[Entry]]>([])

    /// - Parameters:
    ///   - ids: the listing, in order; a block names its files by their positions in it.
    ///   - load: the load the blocks are added to.
    ///   - blockSize: how many listed files a block holds before it is handed over.
    ///   - read: reads the files of the given ids (on every core), in order.
    init(
        ids: [String], into load: StoreLoad, progress: ProgressCounter, blockSize: Int,
        blocksAhead: Int = 2, read: @escaping @Sendable ([String]) -> [ItemFile.Outcome]
    ) {
        self.ids = ids
        self.load = Locked(load)
        self.progress = progress
        self.read = read
        self.blockSize = blockSize
        room = DispatchSemaphore(value: blocksAhead)
    }

    /// The walk's first block, empty.
    func firstBlock() -> Block {
        Block(first: 0, entries: emptyEntries())
    }

    /// Hands over `block`, full (its entries without an item are the files to read), and
    /// leaves in its place the next one, empty; waits while `blocksAhead` blocks wait to be
    /// taken in.
    func hand(_ block: inout Block) {
        room.wait()
        enqueue(&block, leaving: emptyEntries())
    }

    /// The load, once `last` (the walk's last block, full or not) and every block handed
    /// over before it are in it. The blocks' storage is let go.
    func finish(handing last: inout Block) -> StoreLoad {
        if last.count > 0 {
            room.wait()
            enqueue(&last, leaving: [])
        }
        queue.sync {}
        spare.withLock { $0 = [] }
        // Moved out, not copied: the tree is built in place from here on.
        return load.withLock { load in
            defer { load = StoreLoad(badNames: [:]) }
            return load
        }
    }

    /// Moves `block` to the blocks handed over, so its storage has one owner when it is
    /// taken in, and leaves in its place the next, of storage `entries`.
    private func enqueue(_ block: inout Block, leaving entries: [Entry]) {
        var next = Block(first: block.first + block.count, entries: entries)
        swap(&next, &block)
        handed.withLock { handed in
            handed.append(Block(first: 0, entries: []))
            swap(&handed[handed.count - 1], &next)
        }
        queue.async { [self] in takeIn() }
    }

    /// Takes the oldest block handed over into the load.
    private func takeIn() {
        var block = handed.withLock { $0.removeFirst() }
        let fresh = read(block.toRead.map { ids[block.first + $0] })
        load.withLock { load in
            var n = 0
            for k in 0..<block.count {
                let id = ids[block.first + k]
                if n < block.toRead.count, block.toRead[n] == k {
                    load.add(id, fresh[n])
                    n += 1
                } else {
                    load.add(id, entry: block.take(k))
                }
            }
        }
        progress.add(block.count - block.toRead.count)
        block.entries.removeAll(keepingCapacity: true)
        spare.withLock { spare in
            spare.append([])
            swap(&spare[spare.count - 1], &block.entries)
        }
        room.signal()
    }

    /// A block's storage: one emptied by `takeIn`, or new, with room for a whole block.
    private func emptyEntries() -> [Entry] {
        var entries = spare.withLock { $0.popLast() } ?? []
        entries.reserveCapacity(blockSize)
        return entries
    }
}
