import Glibc

extension StartCache.Cursor {
    /// How many files `lookAhead` looks at together, on every core.
    static let lookBatch = 16384

    /// Looks at the file of every entry whose recorded signature was settled when it was
    /// recorded (`FileSignature.isSettled`), one `fstatat` each, on every core: whether
    /// each still has that signature, by the entry's position. A start does this while
    /// its own thread lists the directory, so the two kernel-bound passes share the
    /// cores; the walk of the listing with the cache then only reads the answers
    /// (`StartComparison`).
    ///
    /// Nothing here depends on the listing: a file looked at is named by its entry, and
    /// one gone, new or changed since is found by the walk, or by the watcher, which
    /// started first. The answers hold for the records read here; they are given only
    /// when what was read checked out against the cache's checksums
    /// (`walkedIntact`), the same ones the walk checks what it reads against, so both
    /// read the same records. The cursor is rewound for the walk either way.
    ///
    /// - Parameters:
    ///   - directory: the store's directory.
    ///   - start: when the look that wrote the cache began (`Header.lookedAt`).
    /// - Returns: one answer an entry, in the cache's order (`false` for an entry not
    ///   looked at); `nil` when the records did not read back intact.
    func lookAhead(
        in directory: FileDescriptor, lookedAt start: Int64,
        parallelAbove threshold: Int = 4096, batchSize: Int = lookBatch
    ) -> [Bool]? {
        var same = [Bool](repeating: false, count: count)
        // The directory opened again for each worker: one descriptor shared by every
        // core has its count taken and given back by each `fstatat`, from both cores.
        let own = (0..<ItemFile.workers).map { _ in
            try? FileDescriptor.open(".", relativeTo: directory, flags: O_RDONLY | O_DIRECTORY)
        }
        defer { for dir in own { dir?.close() } }
        // A batch: the positions and signatures of the entries to look at, and their file
        // names, NUL-terminated, one after another.
        var batch: [(k: Int, signature: FileSignature, name: Int)] = []
        var names: [CChar] = []
        let suffix = Array(".json".utf8CString)
        func look() {
            let (entries, text) = (batch, names)
            let found = ItemFile.parallelMap(
                entries.count, parallelAbove: threshold, initial: false
            ) { worker, n in
                let (entry, dir) = (entries[n], own[worker] ?? directory)
                return text.withUnsafeBufferPointer {
                    dir.signature(ofName: $0.baseAddress! + entry.name) == entry.signature
                }
            }
            for (n, entry) in entries.enumerated() { same[entry.k] = found[n] }
            batch.removeAll(keepingCapacity: true)
            names.removeAll(keepingCapacity: true)
        }
        for k in 0..<count {
            guard let record = record(at: k) else { break }
            guard record.signature.isSettled(before: start) else { continue }
            batch.append((k, record.signature, names.count))
            withName(k, ()) { name in
                names.append(contentsOf: UnsafeRawBufferPointer(name).bindMemory(to: CChar.self))
            }
            names.append(contentsOf: suffix)
            if batch.count == batchSize { look() }
        }
        look()
        let intact = walkedIntact()
        rewind()
        return intact ? same : nil
    }
}
