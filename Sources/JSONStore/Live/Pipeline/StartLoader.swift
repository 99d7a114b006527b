import Dispatch

/// A start's load from its cache, built a block at a time on a thread of its own while
/// the walk of the listing with the cache (`StartComparison`) goes on: the walk and the
/// building of the tree share the cores instead of taking turns.
///
/// Blocks are taken in the order they are handed over, so the load gets its ids in the
/// listing's order. At most `blocksAhead` blocks wait to be taken in: the walk is held
/// back rather than holding the items of every file it has passed.
final class StartLoader: Sendable {
    /// Positions in the listing, in order, each with the cache's item or none (to read).
    typealias Block = [(i: Int, item: Item?)]

    private let queue = DispatchQueue(label: "jsonstore.start-load")
    private let room: DispatchSemaphore
    private let ids: [String]
    private let load: Locked<StoreLoad>
    private let progress: ProgressCounter
    private let read: @Sendable ([String]) -> [ItemFile.Outcome]

    /// - Parameters:
    ///   - ids: the listing, in order; a block names its files by their positions in it.
    ///   - load: the load the blocks are added to.
    ///   - read: reads the files of the given ids (on every core), in order.
    init(
        ids: [String], into load: StoreLoad, progress: ProgressCounter, blocksAhead: Int = 2,
        read: @escaping @Sendable ([String]) -> [ItemFile.Outcome]
    ) {
        self.ids = ids
        self.load = Locked(load)
        self.progress = progress
        self.read = read
        room = DispatchSemaphore(value: blocksAhead)
    }

    /// Hands over `block`, whose entries without an item are the files to read; waits
    /// while `blocksAhead` blocks wait to be taken in.
    func add(_ block: Block) {
        room.wait()
        queue.async { [self] in
            let toRead = block.compactMap { $0.item == nil ? ids[$0.i] : nil }
            let fresh = read(toRead)
            // Each entry borrowed where it is: copied once, into the tree.
            load.withLock { load in
                block.withUnsafeBufferPointer { block in
                    var n = 0
                    for k in block.indices {
                        if let item = block[k].item {
                            load.add(ids[block[k].i], .item(item))
                        } else {
                            load.add(ids[block[k].i], fresh[n])
                            n += 1
                        }
                    }
                }
            }
            progress.add(block.count - toRead.count)
            room.signal()
        }
    }

    /// The load, once every block handed over is in it.
    func finish() -> StoreLoad {
        queue.sync {}
        // Moved out, not copied: the tree is built in place from here on.
        return load.withLock { load in
            defer { load = StoreLoad(badNames: [:]) }
            return load
        }
    }
}
