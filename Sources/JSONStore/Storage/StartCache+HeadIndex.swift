extension StartCache {
    /// A start cache's journal heads, looked up one id at a time in its file: once a
    /// watcher let its heads go (`JournalHeads.forget`), the cache written with them all is
    /// their index, so an item not touched since is found by a bisection of the cache's
    /// sorted records (a few dozen small reads) instead of a scan of the journal.
    ///
    /// Trusted for no more than it can know: the cache its writer has just put in place
    /// (`Placed`), of this store's directory, of the journal at `stamp`, holding every
    /// head (`headsComplete`: an id it has no record of had no entry), and only while its
    /// file keeps the signature it had then (a file replaced or changed in place has
    /// another, its change time included). Any other case answers "not known", and the
    /// caller reads the journal. A head it gives may be of an entry pruned from the journal
    /// since, as the heads kept in memory may be (`HistoryDraft` makes a keyframe then).
    struct HeadIndex: Sendable {
        let store: String
        /// The journal revision the cache's heads are of.
        let stamp: JournalStamp
        private let signature: FileSignature
        private let records: Int
        private let count: Int
        private let names: Int
        private let namesCount: Int

        /// The index of the cache `placed`, just written for the store at `store`, if it
        /// is of a stamp, holds every head, and is still the file in place.
        init?(store: String, placed: Placed) {
            guard placed.header.headsComplete, let stamp = placed.header.stamp,
                let signature = placed.signature
            else { return nil }
            self.store = store
            self.stamp = stamp
            self.signature = signature
            (records, count) = (placed.records, placed.count)
            (names, namesCount) = (placed.names, placed.namesCount)
        }

        /// The head of `id` as the cache keeps it: `.some(nil)` when the journal had no
        /// entry of it at the stamp; `nil` when that is not known here (the file is not the
        /// one indexed any more, or cannot be read, or says something out of bounds).
        func head(of id: String) -> JournalHeads.Head?? {
            guard let (fd, source) = StartCache.openFile(store: store) else { return nil }
            defer { fd.close() }
            guard fd.signature() == signature else { return nil }
            let target = Array(id.utf8)
            var record = [UInt8](repeating: 0, count: Layout.record)
            var (low, high) = (0, count)
            while low < high {
                let middle = low + (high - low) / 2
                let read = record.withUnsafeMutableBytes { buffer in
                    (try? source.fill(buffer, at: records + middle * Layout.record)) != nil
                }
                guard read else { return nil }
                let (offset, length) = record.withUnsafeBytes {
                    (
                        Int($0.little(Layout.nameOffset, as: UInt32.self)),
                        Int($0.little(Layout.nameCount, as: UInt32.self))
                    )
                }
                guard length <= Layout.longestName, offset + length <= namesCount,
                    let name = try? source.bytes(count: length, at: names + offset)
                else { return nil }
                if name == target {
                    return record.withUnsafeBytes { Layout.head($0) }.recorded
                }
                if name.lexicographicallyPrecedes(target) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            return .some(nil)
        }
    }
}
