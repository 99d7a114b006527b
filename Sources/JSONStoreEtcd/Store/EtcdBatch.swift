import JSONStore

/// One attempt of a batch on etcd: every item it reads is read once with its
/// `mod_revision`, and the commit is one transaction that writes everything only if none
/// of them changed since (compare-and-swap on each), so a batch is all or nothing and
/// atomically visible, and a read-modify-write loses no concurrent update.
final class EtcdBatch: BatchStorage {
    let backend: EtcdBackend
    let reader: JSONReader
    /// What was read of each id, with the `mod_revision` it had (0: no such key).
    private var seen: [UTF8Key: (outcome: ItemFile.Outcome, modRevision: Int64)] = [:]
    /// The ids in the order they were first read, for the transaction's compares.
    private var order: [String] = []
    /// A read that failed: the batch cannot commit on what it did not see.
    private var readError: StoreError?

    init(backend: EtcdBackend, reader: JSONReader) {
        self.backend = backend
        self.reader = reader
    }

    func read(_ id: String) -> ItemFile.Outcome {
        if let known = seen[UTF8Key(id)] { return known.outcome }
        let key = backend.layout.key(of: id)
        var entry: (outcome: ItemFile.Outcome, modRevision: Int64)
        do {
            let found = try backend.withClient { client throws(EtcdError) in try client.get(key) }
            if let keyValue = found.keyValue {
                entry = (
                    backend.layout.outcome(of: id, keyValue, reader: reader),
                    keyValue.modRevision
                )
            } else {
                entry = (.missing, 0)
            }
        } catch {
            readError = readError ?? error
            entry = (.invalid(error), -1)
        }
        seen[UTF8Key(id)] = entry
        order.append(id)
        return entry.outcome
    }

    /// Any value's `mod_revision`, valid or not: an invalid value can be replaced with
    /// compare-and-swap too (the list view's edit of a broken item).
    func storedETag(of id: String) -> String? {
        _ = read(id)
        guard let revision = seen[UTF8Key(id)]?.modRevision, revision > 0 else { return nil }
        return String(revision)
    }

    func commit(_ writes: [StagedWrite], lastAttempt: Bool) throws(StoreError) -> Bool {
        if let readError { throw readError }
        guard !writes.isEmpty else { return true }
        let layout = backend.layout
        let expected = order.map {
            (key: layout.key(of: $0), modRevision: seen[UTF8Key($0)]!.modRevision)
        }
        let operations = writes.map {
            EtcdClient.Operation(key: layout.key(of: $0.id), value: $0.bytes)
        }
        let outcome: EtcdWriter.Outcome
        do {
            outcome = try EtcdWriter(clients: backend.clients).write(
                expecting: expected, operations)
        } catch {
            throw refusal(error, writes) ?? backend.storeError(error)
        }
        if case .written = outcome { return true }
        guard lastAttempt else { return false }
        let id = writes.first!.id
        throw StoreError(
            code: .conflict,
            message:
                "was changed in etcd by other writers on every try for 30 s; nothing was written",
            file: layout.location(of: id), id: id)
    }

    /// etcd's limits, named (`EtcdWriter.limit`): a request over its size limit, a
    /// transaction over its number of operations. Nothing was written; the batch is never
    /// split.
    private func refusal(_ etcd: EtcdError, _ writes: [StagedWrite]) -> StoreError? {
        guard let limit = EtcdWriter.limit(of: etcd) else { return nil }
        let single = writes.count == 1 && etcd.code == .requestTooLarge ? writes.first!.id : nil
        let size = writes.reduce(0) { $0 + ($1.bytes?.count ?? 0) }
        let what: String
        if etcd.code == .requestTooLarge {
            // etcd's own limit, or the gateway's (2 MiB) in front of it.
            what =
                single != nil
                ? "is \(ItemFile.byteCount(size)), larger than etcd at \(etcd.endpoint) takes in one request"
                : "the batch's \(writes.count) writes are \(ItemFile.byteCount(size)), larger than etcd at \(etcd.endpoint) takes in one request"
        } else {
            what =
                "the batch reads or writes \(max(order.count, writes.count)) items, more than etcd at \(etcd.endpoint) takes in one transaction"
        }
        let never = etcd.code == .tooManyOperations ? ", and a batch is never split" : ""
        return StoreError(
            code: .tooLarge, message: "\(what) (\(limit)); nothing was written\(never)",
            file: single.map(backend.layout.location) ?? backend.address, id: single,
            underlying: etcd)
    }
}
