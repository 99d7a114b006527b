/// The history of a store on etcd: what `item(_:at:)` and `undo` read there, from the
/// versions etcd keeps of each key (`RemoteBackend.history`).
extension JSONStore {
    /// The item `id` as it was right after `revision`, read at that revision.
    func remoteItem(_ id: String, at revision: Int, in remote: any RemoteBackend)
        throws(StoreError) -> JSONObject?
    {
        switch try remote.read(id, at: revision, reader: reader) {
        case .item(let item): return item.members
        case .missing: return nil
        case .invalid(let error): throw error
        }
    }

    /// The change of `id` at `revision`, or its last one.
    func remoteChange(of id: String, at revision: Int?, in remote: any RemoteBackend)
        throws(StoreError) -> HistoryEntry
    {
        let history = try remote.history(of: id, from: revision ?? 1, reader: reader)
        try checkNotCompacted(revision, history)
        guard let revision else {
            guard let last = history.entries.last else {
                let since = history.compacted.map { " since etcd compacted at \($0)" } ?? ""
                throw StoreError(
                    code: .notFound, message: "no history of \"\(id)\"\(since)",
                    file: filePath(id), id: id)
            }
            return last
        }
        guard let entry = history.entries.first(where: { $0.revision == revision }) else {
            throw StoreError(
                code: .notFound, message: "revision \(revision) did not change \"\(id)\"",
                file: filePath(id), id: id)
        }
        return entry
    }

    /// The changes of the transaction at revision `token`: an operation on etcd.
    func remoteOperation(_ token: String, in remote: any RemoteBackend) throws(StoreError)
        -> [HistoryEntry]
    {
        guard let revision = Int(token), revision > 0 else {
            throw StoreError(
                code: .notFound,
                message: "no operation \(token): on etcd, an operation is the revision of a "
                    + "transaction", file: path)
        }
        let history = try remote.history(of: nil, from: revision, reader: reader)
        try checkNotCompacted(revision, history)
        return history.entries.filter { $0.revision == revision }
    }

    /// Throws when `revision` is one etcd compacted away.
    private func checkNotCompacted(_ revision: Int?, _ history: RemoteHistory)
        throws(StoreError)
    {
        guard let revision, let compacted = history.compacted, revision < compacted else {
            return
        }
        throw StoreError(
            code: .notFound,
            message: "revision \(revision) is compacted away: etcd keeps no changes before "
                + "\(compacted) (compacted at \(compacted))", file: path)
    }
}
