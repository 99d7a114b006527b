/// A batch of writes, given to the body of `JSONStore.write(_:)`.
///
/// It holds the store's lock while it exists. Reads see the batch's own writes; the files
/// are written when the body returns. Use it only inside that body, on that thread.
public final class Transaction {
    private enum Change {
        case put(JSONObject)
        /// Bytes written as they are (a mirror's copy of another store's value).
        case stored([UInt8])
        case delete
    }

    let store: JSONStore
    /// Where the batch reads and commits (the directory under the lock, or etcd).
    let storage: any BatchStorage
    // By the ids' bytes (see `UTF8Key`), so twin ids are two items.
    private var changes: [UTF8Key: Change] = [:]
    private var order: [String] = []

    init(store: JSONStore, storage: any BatchStorage) {
        self.store = store
        self.storage = storage
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
        switch seen(id) {
        case .item(let item): return item
        case .invalid(let error): throw error
        case .missing: return nil
        }
    }

    /// What this batch sees of `id`: its own write, else what the store holds.
    private func seen(_ id: String) -> ItemFile.Outcome {
        switch changes[UTF8Key(id)] {
        case .put(let object):
            let bytes = JSONWriter.pretty(.object(fileObject(object)))
            return .item(Item(id: id, object: object, fingerprint: Fingerprint(bytes)))
        case .stored(let bytes):
            return ItemFile.parse(bytes, id: id, file: store.filePath(id), reader: store.reader)
        case .delete: return .missing
        case nil: return storage.read(id)
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

    /// Requires the item `id` to be as `expected` when the batch commits (compare-and-swap):
    /// checked now against what the batch sees, and again at the commit, which writes
    /// nothing if the item changed in between.
    ///
    /// - Throws: `StoreError` with code `.changed` when it is not (the message gives the
    ///   etag now), `.invalidID`, or the item's error when it is not a valid item.
    public func expect(_ id: String, _ expected: ItemExpectation) throws(StoreError) {
        try ItemID.validate(id)
        let outcome = seen(id)
        // The broken value expected (only a stored one can be broken): replacing it is the
        // point.
        if case .invalid = outcome, case .etag(let etag) = expected,
            storage.storedETag(of: id) == etag
        {
            return
        }
        try expected.check(outcome, id: id, file: store.filePath(id))
    }

    /// Creates or replaces the item `id` with exactly `bytes`, which must be a valid item:
    /// for a mirror, whose two sides must hold the same bytes.
    func putStored(_ id: String, _ bytes: [UInt8]) throws(StoreError) {
        try ItemID.validate(id)
        if case .invalid(let error) = ItemFile.parse(
            bytes, id: id, file: store.filePath(id), reader: store.reader)
        {
            throw error
        }
        record(id, .stored(bytes))
    }

    /// Deletes the item `id`; returns whether it existed.
    @discardableResult
    public func delete(_ id: String) throws(StoreError) -> Bool {
        try ItemID.validate(id)
        let existed: Bool
        switch changes[UTF8Key(id)] {
        case .put, .stored: existed = true
        case .delete: existed = false
        case nil:
            if case .missing = storage.read(id) { existed = false } else { existed = true }
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

    /// Writes the batch: works out what each change writes (an item's bytes in the
    /// member order of the value it replaces; nothing when the bytes are the same, or the
    /// item to delete is not there) and hands that to the storage.
    ///
    /// - Parameter lastAttempt: whether a file changed since the batch read it is an error
    ///   (`.conflict`) rather than a reason to try again.
    /// - Returns: `false` when something changed since the batch read it and nothing was
    ///   written, so the batch should run again from a fresh read.
    func commit(lastAttempt: Bool = true) throws(StoreError) -> Bool {
        var writes: [StagedWrite] = []
        let schema = store.enforcedSchema
        for id in order {
            let current = storage.read(id)
            switch changes[UTF8Key(id)]! {
            case .delete:
                if case .missing = current { continue }
                writes.append(StagedWrite(id: id, bytes: nil))
            case .put(let object):
                var written = fileObject(object)
                if case .item(let existing) = current {
                    written = written.ordered(like: existing.object)
                }
                let bytes = JSONWriter.pretty(.object(written))
                if case .item(let existing) = current, existing.fingerprint == Fingerprint(bytes) {
                    continue  // identical bytes: no write, no change
                }
                if let schema,
                    let refusal = SchemaGate.refusal(
                        of: written, bytes: bytes, id: id, replacing: current, schema: schema,
                        file: store.filePath(id))
                {
                    throw refusal  // the whole batch: nothing is written
                }
                writes.append(StagedWrite(id: id, bytes: bytes, object: written))
            case .stored(let bytes):
                if case .item(let existing) = current, existing.fingerprint == Fingerprint(bytes) {
                    continue
                }
                writes.append(StagedWrite(id: id, bytes: bytes))
            }
        }
        guard try storage.commit(writes, lastAttempt: lastAttempt) else { return false }
        changes.removeAll()
        order.removeAll()
        return true
    }
}
