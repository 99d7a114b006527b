extension StoreHistory {
    /// The ids a look reads and drafts, handed a chunk at a time (`chunk`): those of a
    /// snapshot's tree by their rank there, in order, then the others.
    ///
    /// A first look at a million items finds every one to record: as strings they took
    /// 16 MB at once (more for ids of 16 bytes or longer), as a bit a rank 125 kB
    /// (issue 28).
    struct Candidates {
        private let tree: SortedTree<UTF8Key, Entry>
        /// A bit a rank of the tree, set for each id added.
        private var ranks: [UInt64] = []
        private var rankCount = 0
        private var ids: [String] = []

        /// The ids `ids`, in their order.
        init(_ ids: [String]) {
            tree = SortedTree()
            self.ids = ids
        }

        /// None yet, some to come from `tree` (`append(rank:)`).
        init(in tree: SortedTree<UTF8Key, Entry>) {
            self.tree = tree
            ranks = [UInt64](repeating: 0, count: (tree.count + 63) / 64)
        }

        var count: Int { rankCount + ids.count }

        /// Adds the id at `rank` in the tree (once).
        mutating func append(rank: Int) {
            let (word, bit) = (rank / 64, UInt64(1) << (rank % 64))
            precondition(ranks[word] & bit == 0, "a rank added once")
            ranks[word] |= bit
            rankCount += 1
        }

        /// Adds `id`, after every rank.
        mutating func append(_ id: String) {
            ids.append(id)
        }

        /// The ids at `range` of the whole sequence: the ranks' (one walk of the tree from
        /// the first, or a descent each when they are far apart), then the others'.
        func chunk(_ range: Range<Int>) -> [String] {
            var chunk: [String] = []
            chunk.reserveCapacity(range.count)
            let ranks = ranks(range.clamped(to: 0..<rankCount))
            if let first = ranks.first, let last = ranks.last, last - first > 16 * ranks.count {
                for rank in ranks { chunk.append(tree.element(at: rank).key.string) }
            } else if let first = ranks.first {
                var (k, rank) = (0, first)
                tree.forEach(from: first) { key, _ in
                    if rank == ranks[k] {
                        chunk.append(key.string)
                        k += 1
                    }
                    rank += 1
                    return k < ranks.count
                }
            }
            let others = range.clamped(to: rankCount..<count)
            chunk += ids[(others.lowerBound - rankCount)..<(others.upperBound - rankCount)]
            return chunk
        }

        /// The ranks added, numbered `range` in their order.
        private func ranks(_ range: Range<Int>) -> [Int] {
            var found: [Int] = []
            guard !range.isEmpty else { return found }
            found.reserveCapacity(range.count)
            var seen = 0
            for (w, word) in ranks.enumerated() {
                let bits = word.nonzeroBitCount
                if seen + bits <= range.lowerBound {
                    seen += bits
                    continue
                }
                var rest = word
                while rest != 0, seen < range.upperBound {
                    if seen >= range.lowerBound { found.append(w * 64 + rest.trailingZeroBitCount) }
                    rest &= rest - 1
                    seen += 1
                }
                if seen >= range.upperBound { break }
            }
            return found
        }
    }
}
