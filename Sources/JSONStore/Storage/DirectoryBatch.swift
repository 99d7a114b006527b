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

    /// A new file written beside the item it replaces, not yet renamed over it.
    private struct StagedFile {
        var temp: String
        var name: String
        var id: String
    }

    /// What a commit has left on disk so far, for undoing it if a step fails: the temp
    /// files not yet renamed, and whether the journal is written.
    private struct Progress {
        var staged: [StagedFile] = []
        var journaled = false
    }

    /// Stages every new file, syncs them (one by one, or all at once for a large batch),
    /// journals a batch of more than one file, checks that nothing it replaces changed,
    /// removes and renames, then syncs the directory once.
    ///
    /// - Complexity: O(k) file writes for k writes, and O(1) syncs for a large batch.
    func commit(_ writes: [StagedWrite], lastAttempt: Bool) throws(StoreError) -> Bool {
        let removals = writes.filter { $0.bytes == nil }.map(\.id)
        var progress = Progress()
        var history: PreparedHistory?
        do throws(StoreError) {
            let syncAtOnce = writes.count { $0.bytes != nil } > Transaction.fileSystemSyncThreshold
            progress.staged = try stage(writes, syncEach: !syncAtOnce)
            if syncAtOnce { try syncStaged(progress.staged) }
            progress.journaled = try journal(removals, progress.staged)
            try checkReplaceable(removals + progress.staged.map(\.id))
            history = try prepareHistory(writes)
            FaultPoint.prepared.reached()
            try remove(removals)
            try rename(&progress.staged)
            FaultPoint.placed.reached()
        } catch {
            discard(progress)
            // Removals or renames made before a failure are found unrecorded and recorded
            // late by the next reader.
            history?.discard()
            if error.code == .conflict && !lastAttempt { return false }
            throw error
        }
        if let history {
            try history.record { () throws(StoreError) in try syncDirectory() }
        } else if !writes.isEmpty {
            try syncDirectory()
        }
        // Every step is durable: the journal has nothing left to finish.
        if progress.journaled { BatchJournal.remove(in: directory) }
        return true
    }

    /// Writes each new content to a temp file in the directory, with the mode of the file
    /// it replaces (0644 for a new one); fsyncs each one when `syncEach`.
    private func stage(_ writes: [StagedWrite], syncEach: Bool) throws(StoreError) -> [StagedFile] {
        var staged: [StagedFile] = []
        for write in writes {
            guard let bytes = write.bytes else { continue }
            let status = disk(write.id).status
            let permissions: mode_t =
                status.map { $0.kind == .regular ? $0.permissions : 0o644 } ?? 0o644
            let name = ItemID.fileName(write.id)
            do {
                let temp = try AtomicFile.stage(
                    bytes, permissions: permissions, in: directory, sync: syncEach)
                staged.append(StagedFile(temp: temp, name: name, id: write.id))
            } catch {
                discard(Progress(staged: staged))  // the ones staged before it
                throw StoreError.system(
                    error, "could not write the new content (\(name) is unchanged)",
                    file: store.filePath(write.id), id: write.id)
            }
        }
        return staged
    }

    /// Syncs every staged file with one `syncfs`, for a batch too large to fsync each.
    private func syncStaged(_ staged: [StagedFile]) throws(StoreError) {
        guard !staged.isEmpty else { return }
        do {
            try directory.syncFileSystem()
        } catch {
            throw StoreError.system(
                error, "could not sync the new files (no item is changed)", file: store.path)
        }
    }

    /// From here the batch changes the store: a journal lets the next opener finish it if
    /// this process dies halfway (one file alone is atomic already). Returns whether it
    /// wrote one.
    private func journal(_ removals: [String], _ staged: [StagedFile]) throws(StoreError) -> Bool {
        guard removals.count + staged.count > 1 else { return false }
        do {
            try BatchJournal.write(
                removing: removals.map(ItemID.fileName),
                renaming: staged.map { ($0.temp, $0.name) },
                in: directory)
            return true
        } catch {
            throw StoreError.system(
                error, "could not write the batch journal (no item is changed)", file: store.path)
        }
    }

    /// Last, right before the removals and renames: every file this batch replaces or
    /// removes must still be the one it read, or it starts over (`.conflict`).
    private func checkReplaceable(_ replacing: [String]) throws(StoreError) {
        if let hook = store.options.beforeReplacing { replacing.forEach(hook) }
        try checkUnchanged(replacing)
    }

    /// Removals first: a watcher that sees the deletion holds its update for the grace
    /// period, so the whole batch reaches observers as one update.
    private func remove(_ removals: [String]) throws(StoreError) {
        for id in removals {
            do {
                try directory.unlink(ItemID.fileName(id))
            } catch .noSuchFile {
                continue
            } catch {
                throw StoreError.system(error, "could not delete", file: store.filePath(id), id: id)
            }
        }
    }

    /// Renames each staged file over its item; on a failure `staged` keeps only the files
    /// not yet in place (the failed one included), and is empty on success.
    private func rename(_ staged: inout [StagedFile]) throws(StoreError) {
        for (i, file) in staged.enumerated() {
            do {
                try directory.rename(file.temp, to: file.name)
                FaultPoint.renamed.reached()
            } catch {
                staged.removeFirst(i)  // the earlier ones are in place already
                throw StoreError.system(
                    error, "could not replace the file (it is unchanged)",
                    file: store.filePath(file.id), id: file.id)
            }
        }
        staged.removeAll()
    }

    /// Undoes what a failed commit left: its temp files, and its journal.
    private func discard(_ progress: Progress) {
        for file in progress.staged { try? directory.unlink(file.temp) }
        if progress.journaled { BatchJournal.remove(in: directory) }
    }

    /// Makes the renames and removals durable.
    private func syncDirectory() throws(StoreError) {
        do {
            try directory.sync()
        } catch {
            throw StoreError.system(error, "could not sync the store directory", file: store.path)
        }
    }
}
