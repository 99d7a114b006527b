extension StartCache {
    /// A start cache's journal heads, looked up one id at a time in its file: once a
    /// watcher let its heads go (`JournalHeads.forget`), the cache written with them all is
    /// their index, so an item not touched since is found by a bisection of the cache's
    /// sorted records (a few dozen small reads) instead of a scan of the journal.
    ///
    /// Trusted for no more than it can know: a cache of this store's directory, of the
    /// journal at `stamp`, holding every head (`headsComplete`: an id it has no record of
    /// had no entry), whose records and ids match their checksums when the index is made
    /// (so they are the encoder's, sorted), and its file as it was then (the same
    /// signature: a file replaced or changed in place has another, its change time
    /// included). Any other case answers "not known", and the caller reads the journal.
    /// A head it gives may be of an entry pruned from the journal since, as the heads
    /// kept in memory may be (`HistoryDraft` makes a keyframe then).
    struct HeadIndex: Sendable {
        let store: String
        /// The journal revision the cache's heads are of.
        let stamp: JournalStamp
        private let signature: FileSignature
        private let records: Int
        private let count: Int
        private let names: Int
        private let namesCount: Int

        /// The index of the cache the store at `store` has now, if that cache is of `stamp`
        /// and holds every head. Reads its records and ids once, for their checksums: off
        /// the edit path (the cache's writer makes it).
        init?(store: String, stamp: JournalStamp) {
            guard let dir = try? FileDescriptor.openDirectory(store) else { return nil }
            defer { dir.close() }
            guard let directory = StartCache.directory(of: dir),
                let (fd, source) = StartCache.openFile(store: store)
            else { return nil }
            defer { fd.close() }
            guard let signature = fd.signature(),
                let sections = try? Sections(source, for: directory, terms: nil),
                sections.header.headsComplete, sections.header.stamp == stamp
            else { return nil }
            var recordSection = Window(
                source, at: sections.records, count: sections.count * Layout.record)
            var nameSection = Window(source, at: sections.names, count: sections.namesCount)
            guard (try? recordSection.sum()) == sections.sums[1],
                (try? nameSection.sum()) == sections.sums[2]
            else { return nil }
            self.store = store
            self.stamp = stamp
            self.signature = signature
            (records, count) = (sections.records, sections.count)
            (names, namesCount) = (sections.names, sections.namesCount)
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
