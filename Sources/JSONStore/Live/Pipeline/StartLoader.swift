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
    /// A run of listed files, in order: each id with the store's entry of it when it is
    /// unchanged, taken from the cache, and the offsets of those to read. The ids go with
    /// their block, so the loader holds no listing.
    struct Block: Sendable {
        /// One for each listed file; a file to read holds an empty entry.
        fileprivate var elements: [(id: String, entry: Entry)]
        /// The offsets in `elements` of the files to read, ascending.
        fileprivate var toRead: [Int] = []

        /// How many listed files the block holds.
        var count: Int { elements.count }

        /// The next listed file, `id`, is unchanged: `entry` is the cache's.
        mutating func append(_ id: String, _ entry: consuming Entry) {
            elements.append((id, entry))
        }

        /// The next listed file, `id`, is to be read.
        mutating func appendToRead(_ id: String) {
            toRead.append(elements.count)
            elements.append((id, Entry(item: nil, error: nil)))
        }

        /// The entry at `k`, moved out (an empty one left in its place).
        fileprivate mutating func take(_ k: Int) -> Entry {
            var entry = Entry(item: nil, error: nil)
            swap(&entry, &elements[k].entry)
            return entry
        }
    }

    private let queue = DispatchQueue(label: "jsonstore.start-load")
    private let room: DispatchSemaphore
    private let load: Locked<StoreLoad>
    private let progress: ProgressCounter
    private let read: @Sendable ([String]) -> [ItemFile.Outcome]
    private let blockSize: Int
    /// The blocks handed over and not yet taken in, in order.
    private let handed = Locked<[Block]>([])
    /// The storage of blocks taken in, emptied, for the walk's next blocks.
    private let spare = Locked<[[(id: String, entry: Entry)]]>([])

    /// - Parameters:
    ///   - load: the load the blocks are added to.
    ///   - blockSize: how many listed files a block holds before it is handed over.
    ///   - read: reads the files of the given ids (on every core), in order.
    init(
        into load: StoreLoad, progress: ProgressCounter, blockSize: Int, blocksAhead: Int = 2,
        read: @escaping @Sendable ([String]) -> [ItemFile.Outcome]
    ) {
        self.load = Locked(load)
        self.progress = progress
        self.read = read
        self.blockSize = blockSize
        room = DispatchSemaphore(value: blocksAhead)
    }

    /// The walk's first block, empty.
    func firstBlock() -> Block {
        Block(elements: emptyElements())
    }

    /// Hands over `block`, full (its entries without an item are the files to read), and
    /// leaves in its place the next one, empty; waits while `blocksAhead` blocks wait to be
    /// taken in.
    func hand(_ block: inout Block) {
        room.wait()
        enqueue(&block, leaving: emptyElements())
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
    /// taken in, and leaves in its place the next, of storage `elements`.
    private func enqueue(_ block: inout Block, leaving elements: [(id: String, entry: Entry)]) {
        var next = Block(elements: elements)
        swap(&next, &block)
        handed.withLock { handed in
            handed.append(Block(elements: []))
            swap(&handed[handed.count - 1], &next)
        }
        queue.async { [self] in takeIn() }
    }

    /// Takes the oldest block handed over into the load.
    private func takeIn() {
        var block = handed.withLock { $0.removeFirst() }
        let fresh = read(block.toRead.map { block.elements[$0].id })
        load.withLock { load in
            var n = 0
            for k in 0..<block.count {
                if n < block.toRead.count, block.toRead[n] == k {
                    load.add(block.elements[k].id, fresh[n])
                    n += 1
                } else {
                    load.add(UTF8Key(block.elements[k].id), entry: block.take(k))
                }
            }
        }
        progress.add(block.count - block.toRead.count)
        block.elements.removeAll(keepingCapacity: true)
        spare.withLock { spare in
            spare.append([])
            swap(&spare[spare.count - 1], &block.elements)
        }
        room.signal()
    }

    /// A block's storage: one emptied by `takeIn`, or new, with room for a whole block.
    private func emptyElements() -> [(id: String, entry: Entry)] {
        var elements = spare.withLock { $0.popLast() } ?? []
        elements.reserveCapacity(blockSize)
        return elements
    }
}
