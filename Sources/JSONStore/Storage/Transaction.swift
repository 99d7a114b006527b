import Glibc

/// A batch of writes, given to the body of `JSONStore.write(_:)`.
///
/// It holds the store's lock while it exists. Reads see the batch's own writes; the files
/// are written when the body returns. Use it only inside that body, on that thread.
public final class Transaction {
    private enum Change {
        case put(JSONObject)
        case delete
    }

    /// What is on disk for an id, read once under the lock.
    struct OnDisk {
        var outcome: ItemFile.Outcome
        var status: FileStatus?
    }

    let store: JSONStore
    let directory: FileDescriptor
    // By the ids' bytes (see `UTF8Key`), so twin ids are two items.
    private var changes: [UTF8Key: Change] = [:]
    private var order: [String] = []
    /// What was read of each id, under the lock (`Transaction+Conflicts` compares it).
    private(set) var onDisk: [UTF8Key: OnDisk] = [:]

    init(store: JSONStore, directory: FileDescriptor) {
        self.store = store
        self.directory = directory
    }

    private func disk(_ id: String) -> OnDisk {
        if let known = onDisk[UTF8Key(id)] { return known }
        let (outcome, status) = ItemFile.read(
            id: id, in: directory, path: store.path, reader: store.reader)
        let read = OnDisk(outcome: outcome, status: status)
        onDisk[UTF8Key(id)] = read
        return read
    }

    private func record(_ id: String, _ change: Change) {
        if changes.updateValue(change, forKey: UTF8Key(id)) == nil { order.append(id) }
    }

    func notFound(_ id: String) -> StoreError {
        StoreError(code: .notFound, message: "no item \"\(id)\"", file: store.filePath(id), id: id)
    }

    /// The item `id` as this batch sees it, or `nil` if there is none.
    ///
    /// - Throws: `StoreError`: `.invalidID`, or the file's error when it is not a valid item.
    public func item(_ id: String) throws(StoreError) -> Item? {
        try ItemID.validate(id)
        switch changes[UTF8Key(id)] {
        case .put(let object):
            let bytes = JSONWriter.pretty(.object(fileObject(object)))
            return Item(id: id, object: object, fingerprint: Fingerprint(bytes))
        case .delete: return nil
        case nil:
            switch disk(id).outcome {
            case .item(let item): return item
            case .invalid(let error): throw error
            case .missing: return nil
            }
        }
    }

    /// The item `id` as this batch sees it, decoded as `T`, or `nil` if there is none.
    ///
    /// - Throws: `StoreError`: `.invalidID`, the file's error, or `.invalidItem` when it
    ///   does not decode as `T` (naming the member at fault).
    public func item<T: Decodable>(_ id: String, as type: T.Type) throws(StoreError) -> T? {
        guard let item = try item(id) else { return nil }
        return try store.decode(item, as: type)
    }

    /// Creates or replaces the item `id` with `object`. See `JSONStore.put(_:_:)`.
    public func put(_ id: String, _ object: JSONObject) throws(StoreError) {
        try ItemID.validate(id)
        if let member = object["id"], member != .string(id) {
            throw StoreError(
                code: .invalidItem,
                message: "member \"id\" is \(member) but the item's id is \"\(id)\"",
                file: store.filePath(id), id: id)
        }
        record(id, .put(object))
    }

    /// Creates or replaces the item `id` with `value` encoded.
    ///
    /// Disfavoured, so that a dictionary literal (`["title": "Tea"]`) is a `JSONObject`,
    /// which keeps the order it is written in, rather than an unordered `Dictionary`.
    @_disfavoredOverload
    public func put<T: Encodable>(_ id: String, _ value: T) throws(StoreError) {
        let encoded: JSONValue
        do {
            encoded = try JSONValueEncoder().encode(value)
        } catch {
            throw StoreError(
                code: .invalidItem, message: "could not encode \(T.self): \(error)",
                file: store.filePath(id), id: id, underlying: error)
        }
        guard case .object(let object) = encoded else {
            throw StoreError(
                code: .invalidItem,
                message: "\(T.self) encodes as \(encoded.typeName), but an item must be an object",
                file: store.filePath(id), id: id)
        }
        try put(id, object)
    }

    /// Changes the item `id` with `body`. See `JSONStore.update(_:orCreate:_:)`.
    @discardableResult
    public func update(
        _ id: String, orCreate initial: JSONObject? = nil, _ body: (inout JSONObject) throws -> Void
    ) throws -> Item {
        var object: JSONObject
        if let item = try item(id) {
            object = item.object
        } else if let initial {
            object = initial
        } else {
            throw notFound(id)
        }
        try body(&object)
        try put(id, object)
        return try item(id)!
    }

    /// Deletes the item `id`; returns whether it existed.
    @discardableResult
    public func delete(_ id: String) throws(StoreError) -> Bool {
        try ItemID.validate(id)
        let existed: Bool
        switch changes[UTF8Key(id)] {
        case .put: existed = true
        case .delete: existed = false
        case nil:
            if case .missing = disk(id).outcome { existed = false } else { existed = true }
        }
        record(id, .delete)
        return existed
    }

    /// The object as written to the file: without `"id"`, in the order of the file it
    /// replaces.
    private func fileObject(_ object: JSONObject) -> JSONObject {
        var written = object
        written.removeValue(forKey: "id")
        return written
    }

    /// A batch that puts more items than this syncs its new files with one `syncfs` of
    /// the store's file system instead of one `fsync` each. Either way every new file is on
    /// the disk before it is renamed over its item. (`package` so the benchmark can compare
    /// the two.) nonisolated(unsafe): a tuning knob set by the single-threaded benchmark
    /// between batches, never while one runs.
    package nonisolated(unsafe) static var fileSystemSyncThreshold = 8

    /// Writes the batch: stage every new file, sync them (one by one, or all at once for a
    /// large batch), then rename them all, then sync the directory once.
    ///
    /// - Parameter lastAttempt: whether a file changed since the batch read it is an error
    ///   (`.conflict`) rather than a reason to try again.
    /// - Returns: `false` when a file changed since the batch read it and nothing was
    ///   written, so the batch should run again from a fresh read.
    /// - Complexity: O(k) file writes for k changes, and O(1) syncs for a large batch.
    func commit(lastAttempt: Bool = true) throws(StoreError) -> Bool {
        var staged: [(temp: String, name: String, id: String)] = []
        var removals: [String] = []
        var touched = false
        var journaled = false
        let puts = changes.values.count { if case .put = $0 { true } else { false } }
        let syncAtOnce = puts > Self.fileSystemSyncThreshold
        do throws(StoreError) {
            for id in order {
                let name = ItemID.fileName(id)
                switch changes[UTF8Key(id)]! {
                case .delete:
                    if case .missing = disk(id).outcome { continue }
                    removals.append(id)
                case .put(let object):
                    let current = disk(id)
                    var written = fileObject(object)
                    if case .item(let existing) = current.outcome {
                        written = written.ordered(like: existing.object)
                    }
                    let bytes = JSONWriter.pretty(.object(written))
                    if case .item(let existing) = current.outcome,
                        existing.fingerprint == Fingerprint(bytes)
                    {
                        continue  // identical bytes: no write, no change
                    }
                    let permissions: mode_t =
                        current.status.map { $0.kind == .regular ? $0.permissions : 0o644 } ?? 0o644
                    do {
                        let temp = try AtomicFile.stage(
                            bytes, permissions: permissions, in: directory, sync: !syncAtOnce)
                        staged.append((temp, name, id))
                    } catch {
                        throw StoreError.system(
                            error, "could not write the new content (\(name) is unchanged)",
                            file: store.filePath(id), id: id)
                    }
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
            touched = !staged.isEmpty || !removals.isEmpty
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
        if touched {
            do {
                try directory.sync()
            } catch {
                throw StoreError.system(
                    error, "could not sync the store directory", file: store.path)
            }
        }
        // Every step is durable: the journal has nothing left to finish.
        if journaled { BatchJournal.remove(in: directory) }
        changes.removeAll()
        order.removeAll()
        onDisk.removeAll()
        return true
    }
}
