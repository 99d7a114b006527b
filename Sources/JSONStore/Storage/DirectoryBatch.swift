import Glibc

/// A batch's storage in a store directory, under the store's lock: every file read once
/// (with its status, so the commit can tell whether a writer that takes no lock replaced
/// it), and a commit that stages, syncs, journals, checks and renames.
final class DirectoryBatch: BatchStorage {
    /// What is on disk for an id, read once under the lock.
    struct OnDisk {
        var outcome: ItemFile.Outcome
        var status: FileStatus?
    }

    let store: JSONStore
    let directory: FileDescriptor
    /// What was read of each id (`DirectoryBatch+Conflicts` compares it), by the id's bytes.
    private(set) var onDisk: [UTF8Key: OnDisk] = [:]

    init(store: JSONStore, directory: FileDescriptor) {
        self.store = store
        self.directory = directory
    }

    func read(_ id: String) -> ItemFile.Outcome { disk(id).outcome }

    /// The etag of an invalid file's bytes (a valid item's is its own): a broken file can be
    /// replaced with compare-and-swap too.
    func storedETag(of id: String) -> String? {
        guard case .invalid = disk(id).outcome else { return nil }
        let (bytes, _) = ItemFile.readBytes(
            named: ItemID.fileName(id), in: directory, file: store.filePath(id), id: id,
            limit: store.reader.maxSize)
        guard case .success(let read)? = bytes else { return nil }
        return Fingerprint(read).etag
    }

    private func disk(_ id: String) -> OnDisk {
        if let known = onDisk[UTF8Key(id)] { return known }
        let (outcome, status) = ItemFile.read(
            id: id, in: directory, path: store.path, reader: store.reader)
        let read = OnDisk(outcome: outcome, status: status)
        onDisk[UTF8Key(id)] = read
        return read
    }

    /// Stages every new file, syncs them (one by one, or all at once for a large batch),
    /// journals a batch of more than one file, checks that nothing it replaces changed,
    /// removes and renames, then syncs the directory once.
    ///
    /// - Complexity: O(k) file writes for k writes, and O(1) syncs for a large batch.
    func commit(_ writes: [StagedWrite], lastAttempt: Bool) throws(StoreError) -> Bool {
        var staged: [(temp: String, name: String, id: String)] = []
        var removals: [String] = []
        var journaled = false
        let syncAtOnce = writes.count { $0.bytes != nil } > Transaction.fileSystemSyncThreshold
        do throws(StoreError) {
            for write in writes {
                guard let bytes = write.bytes else {
                    removals.append(write.id)
                    continue
                }
                let status = disk(write.id).status
                let permissions: mode_t =
                    status.map { $0.kind == .regular ? $0.permissions : 0o644 } ?? 0o644
                let name = ItemID.fileName(write.id)
                do {
                    let temp = try AtomicFile.stage(
                        bytes, permissions: permissions, in: directory, sync: !syncAtOnce)
                    staged.append((temp, name, write.id))
                } catch {
                    throw StoreError.system(
                        error, "could not write the new content (\(name) is unchanged)",
                        file: store.filePath(write.id), id: write.id)
                }
            }
            if syncAtOnce && !staged.isEmpty {
                do {
                    try directory.syncFileSystem()
                } catch {
                    throw StoreError.system(
                        error, "could not sync the new files (no item is changed)", file: store.path
                    )
                }
            }
            // From here the batch changes the store: a journal lets the next opener finish
            // it if this process dies halfway (one file alone is atomic already).
            if removals.count + staged.count > 1 {
                do {
                    try BatchJournal.write(
                        removing: removals.map(ItemID.fileName),
                        renaming: staged.map { ($0.temp, $0.name) },
                        in: directory)
                    journaled = true
                } catch {
                    throw StoreError.system(
                        error, "could not write the batch journal (no item is changed)",
                        file: store.path)
                }
            }
            let replacing = removals + staged.map(\.id)
            if let hook = store.options.beforeReplacing { replacing.forEach(hook) }
            // Last, right before the removals and renames: every file this batch replaces
            // or removes must still be the one it read, or it starts over.
            try checkUnchanged(replacing)
            // Removals first: a watcher that sees the deletion holds its update for the
            // grace period, so the whole batch reaches observers as one update.
            for id in removals {
                do {
                    try directory.unlink(ItemID.fileName(id))
                } catch .noSuchFile {
                    continue
                } catch {
                    throw StoreError.system(
                        error, "could not delete", file: store.filePath(id), id: id)
                }
            }
            for (i, file) in staged.enumerated() {
                do {
                    try directory.rename(file.temp, to: file.name)
                } catch {
                    staged.removeFirst(i)  // the earlier ones are in place already
                    throw StoreError.system(
                        error, "could not replace the file (it is unchanged)",
                        file: store.filePath(file.id), id: file.id)
                }
            }
            staged.removeAll()
        } catch {
            for file in staged { try? directory.unlink(file.temp) }
            if journaled { BatchJournal.remove(in: directory) }
            if error.code == .conflict && !lastAttempt { return false }
            throw error
        }
        if !writes.isEmpty {
            do {
                try directory.sync()
            } catch {
                throw StoreError.system(
                    error, "could not sync the store directory", file: store.path)
            }
        }
        // Every step is durable: the journal has nothing left to finish.
        if journaled { BatchJournal.remove(in: directory) }
        return true
    }
}
