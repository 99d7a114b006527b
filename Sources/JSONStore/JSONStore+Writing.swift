extension JSONStore {
    /// Runs `body` as one batch of writes under the store's lock, then writes the files.
    ///
    /// Writers that take no lock (an editor's save, `sed -i`, `cp`) are noticed: right
    /// before the renames, every file the batch replaces or removes is checked to be the
    /// one it read (device, inode, size, time and, when the time is recent, the bytes). If
    /// one was replaced, the batch starts over from a fresh read, so `body` may run more
    /// than once; such a save is then lost only if it lands in the microseconds between
    /// that check and its rename (for a batch, the check comes after the journal, right
    /// before the removals and renames).
    ///
    /// Reads in the batch see its own earlier writes. Nothing is written until `body`
    /// returns; if it throws, nothing is written at all. Then every new file is written to
    /// a temp file and synced first, and only when all of them are ready are they renamed
    /// into place and the directory synced once. Each file is replaced atomically; a crash
    /// during the renames can leave some files of the batch new and others old.
    ///
    /// For example:
    ///
    /// ```swift
    /// try store.write { tx in
    ///     try tx.delete("done-1")
    ///     try tx.put("next", ["title": "Write the report"])
    /// }
    /// ```
    ///
    /// - Throws: what `body` throws, or a `StoreError` naming the file that could not be
    ///   written (the old file is then intact): `.conflict` when a file was replaced by a
    ///   writer that takes no lock on every one of 20 tries (on etcd: when other writers
    ///   changed what it read on every try for 30 s, with a growing pause between tries).
    @discardableResult
    public func write<R>(_ body: (Transaction) throws -> R) throws -> R {
        if let remote { return try remoteAttempts(body, remote) }
        let dir = try openDirectory()
        defer { dir.close() }
        let lock = try StoreLock.acquire(in: dir, store: path)
        defer { lock.close() }
        // A batch another writer left half done is finished first, so this one starts
        // from a store where every batch is whole.
        do {
            try BatchJournal.recover(in: dir)
        } catch {
            throw StoreError.system(
                error, "could not finish an interrupted batch",
                file: join(path, BatchJournal.fileName))
        }
        if !staleFilesSwept.exchange(true, ordering: .relaxed) {
            // Under the lock, so no live writer's temp file is taken for a dead one's.
            AtomicFile.removeStale(in: dir, olderThan: options.staleTemporaryFileAge)
        }
        // A file replaced meanwhile by a writer that takes no lock: run the batch again
        // from a fresh read, so that writer's save is built on, never overwritten.
        return try attempts(body) { DirectoryBatch(store: self, directory: dir) }
    }

    /// Runs the batch `body` on a fresh storage until it commits: again when something it
    /// read changed before its commit, at most `conflictAttempts` times.
    private func attempts<R>(_ body: (Transaction) throws -> R, _ storage: () -> any BatchStorage)
        throws -> R
    {
        var attempt = 1
        while true {
            let transaction = Transaction(store: self, storage: storage())
            let result = try body(transaction)
            if try transaction.commit(lastAttempt: attempt == Self.conflictAttempts) {
                return result
            }
            attempt += 1
        }
    }

    /// Runs the batch `body` on a fresh storage of `remote` until it commits: again when
    /// another writer changed what it read, after a pause with jitter, for 30 s at most
    /// (`ConflictBackoff`).
    private func remoteAttempts<R>(_ body: (Transaction) throws -> R, _ remote: any RemoteBackend)
        throws -> R
    {
        var backoff = ConflictBackoff()
        while true {
            let transaction = Transaction(store: self, storage: remote.makeBatch(reader: reader))
            let result = try body(transaction)
            if try transaction.commit(lastAttempt: backoff.isLastTry) { return result }
            WallClock.pause(backoff.nextPause())
        }
    }

    /// How many times a batch is tried when files keep changing under it.
    static let conflictAttempts = 20

    /// Creates or replaces the item `id` with `object`.
    ///
    /// If the file exists, its member order is kept and new members are appended. An
    /// `"id"` member, if present, must equal `id`; it is not written to the file.
    ///
    /// - Throws: `StoreError`: `.invalidID` before anything is touched, `.invalidItem` for
    ///   a mismatched `"id"`, or the file system's error (the old file is then intact).
    /// - Parameter expected: what the item must be for the write to happen
    ///   (compare-and-swap; see `ItemExpectation`); `nil` for any.
    public func put(_ id: String, _ object: JSONObject, expecting expected: ItemExpectation? = nil)
        throws(StoreError)
    {
        try ItemID.validate(id)
        try storeErrors {
            try write { tx in
                if let expected { try tx.expect(id, expected) }
                try tx.put(id, object)
            }
        }
    }

    /// Creates or replaces the item `id` with `value` encoded.
    ///
    /// Disfavoured, so that a dictionary literal (`["title": "Tea"]`) is a `JSONObject`,
    /// which keeps the order it is written in, rather than an unordered `Dictionary`.
    @_disfavoredOverload
    public func put<T: Encodable>(
        _ id: String, _ value: T, expecting expected: ItemExpectation? = nil
    ) throws(StoreError) {
        try ItemID.validate(id)
        try storeErrors {
            try write { tx in
                if let expected { try tx.expect(id, expected) }
                try tx.put(id, value)
            }
        }
    }

    /// Creates or replaces the item `value.id` with `value` encoded.
    public func put<T: Encodable & Identifiable>(
        _ value: T, expecting expected: ItemExpectation? = nil
    ) throws(StoreError) where T.ID == String {
        try put(value.id, value, expecting: expected)
    }

    /// Reads the item `id`, lets `body` change it, and writes it back, all under the lock:
    /// concurrent updates from other threads and processes are never lost.
    ///
    /// Nothing is written if `body` throws or leaves the item as it was. If a program
    /// that takes no lock (an editor's save) replaces the file between the read and the
    /// write, the update starts over from the new file, so `body` may run more than once
    /// (at most 20 times).
    ///
    /// - Parameters:
    ///   - id: the item to change.
    ///   - initial: the object to start from when the item does not exist; when `nil`, a
    ///     missing item is an error.
    ///   - body: changes the object (which has its `"id"` member).
    /// - Returns: the item as written.
    /// - Throws: `StoreError` (`.invalidID`, `.notFound`, the file's own error when it is
    ///   not a valid item, `.conflict` when the file was replaced on every try) or what
    ///   `body` throws.
    @discardableResult
    public func update(
        _ id: String, orCreate initial: JSONObject? = nil, _ body: (inout JSONObject) throws -> Void
    ) throws -> Item {
        try ItemID.validate(id)
        return try write { try $0.update(id, orCreate: initial, body) }
    }

    /// Reads the item `id` as a `T`, lets `body` change it, and writes it back, under the
    /// lock; like `update(_:orCreate:_:)`, `body` may run more than once.
    ///
    /// - Returns: the value as written.
    @discardableResult
    public func update<T: Codable>(_ id: String, as type: T.Type, _ body: (inout T) throws -> Void)
        throws -> T
    {
        try ItemID.validate(id)
        return try write { tx in
            guard let item = try tx.item(id) else { throw tx.notFound(id) }
            var value: T = try decode(item, as: type)
            try body(&value)
            try tx.put(id, value)
            return value
        }
    }

    /// Deletes the item `id`.
    ///
    /// - Returns: whether the item existed.
    /// - Throws: `StoreError`: `.invalidID` before anything is touched, or the file
    ///   system's error.
    /// - Parameter expected: what the item must be for the deletion to happen
    ///   (compare-and-swap; see `ItemExpectation`); `nil` for any.
    @discardableResult
    public func delete(_ id: String, expecting expected: ItemExpectation? = nil)
        throws(StoreError) -> Bool
    {
        try ItemID.validate(id)
        return try storeErrors {
            try write { tx in
                if let expected { try tx.expect(id, expected) }
                return try tx.delete(id)
            }
        }
    }

    /// Runs `body`, whose only errors are `StoreError`s, as a typed-throwing call.
    func storeErrors<R>(_ body: () throws -> R) throws(StoreError) -> R {
        do {
            return try body()
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError(code: .io, message: "\(error)", file: path, underlying: error)
        }
    }
}
