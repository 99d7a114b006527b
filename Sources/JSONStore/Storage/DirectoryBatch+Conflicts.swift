extension DirectoryBatch {
    /// How recent a modification time must be for the bytes to be compared too: file
    /// systems stamp times from a clock that ticks every few milliseconds (some every
    /// second or two), so a same-size rewrite within a tick keeps the time.
    static let coarseTimeWindow = 2.5

    /// Checks that every file of `ids` is still the one this batch read: a writer that
    /// takes no lock (an editor's save, `sed -i`, `cp`) may have replaced it since.
    ///
    /// Called last before the removals and renames (after the journal, for a batch), so a
    /// save is missed only if it lands between this check and the rename of its file.
    ///
    /// - Throws: `StoreError` with code `.conflict`, so that `JSONStore.write` runs the
    ///   batch again from a fresh read (nothing has been replaced yet).
    func checkUnchanged(_ ids: [String]) throws(StoreError) {
        for id in ids where !isAsRead(id) {
            throw StoreError(
                code: .conflict,
                message:
                    "was replaced by a program that takes no lock while it was being written, again and again; nothing was written",
                file: store.filePath(id), id: id)
        }
    }

    /// Whether the file of `id` is still the one this batch read: the same device, inode,
    /// size, mode and modification time and, when that time is recent enough that a
    /// coarse clock could hide a rewrite, the same bytes.
    private func isAsRead(_ id: String) -> Bool {
        guard let read = onDisk[UTF8Key(id)] else { return true }
        let name = ItemID.fileName(id)
        let now = try? directory.linkStatus(of: name)
        if case .missing = read.outcome { return now == nil }
        guard let before = read.status else { return true }  // not had: nothing to compare
        guard let now, now == before else { return false }
        guard case .item(let item) = read.outcome,
            WallClock.secondsSince(before.modificationTime) < Self.coarseTimeWindow
        else { return true }
        let (bytes, _) = ItemFile.readBytes(
            named: name, in: directory, file: store.filePath(id), id: id,
            limit: store.reader.maxSize)
        guard case .success(let current)? = bytes else { return false }
        return Fingerprint(current) == item.fingerprint
    }
}
