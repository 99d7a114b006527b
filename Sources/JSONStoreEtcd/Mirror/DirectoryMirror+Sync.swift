import JSONStore

extension DirectoryMirror {
    /// One item's decision, with what it was made from.
    struct Step {
        let id: String
        let action: MirrorAction
        let local: MirrorAction.Local
        let localBytes: [UInt8]?
        /// etcd's key, when it has one.
        let remote: EtcdClient.KeyValue?
        /// The revision etcd's side is known at (a deletion's, or the listing's).
        let revision: Int64
    }

    var reader: JSONReader {
        JSONReader(maxDepth: store.options.maxDepth, maxSize: store.options.maxFileSize)
    }

    /// What the file of `id` holds now. `valid` is the etag of a valid item the
    /// directory's results hold for it: bytes with that etag are not parsed again.
    func readLocal(_ id: String, valid: String? = nil) -> (MirrorAction.Local, [UInt8]?) {
        let stored: (bytes: [UInt8], etag: String)?
        do {
            stored = try side.storedValue(of: id)
        } catch {
            return (.invalid, nil)  // unreadable (a FIFO, too large): left as it is
        }
        guard let (bytes, etag) = stored else { return (.absent, nil) }
        if let valid, valid == etag { return (.file(etag: etag), bytes) }
        guard case .item = ItemFile.parse(bytes, id: id, file: id, reader: reader) else {
            return (.invalid, nil)
        }
        return (.file(etag: etag), bytes)
    }

    /// What etcd's `keyValue` is as one side of a decision: a value that is not a valid
    /// item is never pulled.
    func remoteSide(_ keyValue: EtcdClient.KeyValue?, id: String) -> MirrorAction.Remote {
        guard let keyValue else { return .absent }
        guard case .item = ItemFile.parse(keyValue.value, id: id, file: id, reader: reader) else {
            return .invalid
        }
        return .value(
            revision: keyValue.modRevision, etag: MirrorSide.etag(of: keyValue.value))
    }

    /// The item the key `key` holds, if it is an item's key (not a bad name, not another
    /// sync tool's conflict copy).
    func itemID(of key: [UInt8]) -> String? {
        guard case .item(let id) = layout.entry(key) else { return nil }
        return side.isItemName(id) ? id : nil
    }

    /// The step for `id`, from etcd's `remote` and the file read now.
    func step(_ id: String, remote: EtcdClient.KeyValue?, at revision: Int64) -> Step {
        let valid =
            results.error(for: id) == nil ? results.index(ofID: id).map { results[$0].etag } : nil
        return step(id, local: readLocal(id, valid: valid), remote: remote, at: revision)
    }

    /// The step for `id` from what each side holds.
    func step(
        _ id: String, local: (MirrorAction.Local, [UInt8]?), remote: EtcdClient.KeyValue?,
        at revision: Int64
    ) -> Step {
        let side = remoteSide(remote, id: id)
        let known: (Int64, String)? = if case .value(let r, let e) = side { (r, e) } else { nil }
        let etag: String? = if case .file(let etag) = local.0 { etag } else { nil }
        let record = state.record(of: id, remote: known, local: etag)
        return Step(
            id: id, action: MirrorAction.decide(local: local.0, remote: side, record: record),
            local: local.0, localBytes: local.1, remote: remote, revision: revision)
    }

    /// Reads etcd's whole prefix and every file, and makes both sides equal; returns the
    /// revision etcd was read at and the number of keys it had.
    ///
    /// Records synced with another etcd are set aside first (`check`), and again when a
    /// key the records would delete here has no trace in etcd's history at the revision
    /// it was synced at (`vanished`): an etcd wiped and written past that revision since.
    func reconcile() throws -> (revision: Int64, keys: Int64) {
        let (revision, cluster, keyValues) = try etcd { client throws(EtcdError) in
            try client.listing(prefix: layout.keyPrefix)
        }
        let origin = MirrorState.Origin(cluster: cluster, revision: revision)
        try check(origin)
        var remote: [UTF8Key: EtcdClient.KeyValue] = [:]
        for keyValue in keyValues {
            if let id = itemID(of: keyValue.key) { remote[UTF8Key(id)] = keyValue }
        }
        var local: [UTF8Key: MirrorSide.StoredFile] = [:]
        for file in try side.storedFiles() { local[UTF8Key(file.id)] = file }
        var steps = self.steps(remote: remote, local: local, at: revision)
        if let deletion = steps.first(where: { $0.action == .deleteLocal }),
            let why = try vanished(deletion.id)
        {
            try check(origin, foreign: why)
            steps = self.steps(remote: remote, local: local, at: revision)
        }
        try execute(steps, since: revision)
        try syncSchema(remote: keyValues.first { $0.key == layout.schemaKey }?.value)
        state.dropDeletions(before: revision)
        return (revision, Int64(keyValues.count))
    }

    /// The steps that make both sides equal, from all of etcd's items and every file.
    private func steps(
        remote: [UTF8Key: EtcdClient.KeyValue], local: [UTF8Key: MirrorSide.StoredFile],
        at revision: Int64
    ) -> [Step] {
        let ids = Set(remote.keys).union(local.keys).union(state.records.keys)
        var steps: [Step] = []
        for key in ids.sorted(by: { UTF8Key.less($0.string, $1.string) }) {
            let file = local[key]
            let mine: MirrorAction.Local =
                file.map { $0.isValid ? .file(etag: $0.etag) : .invalid } ?? .absent
            let step = step(
                key.string, local: (mine, file?.bytes), remote: remote[key], at: revision)
            if step.action != .none { steps.append(step) }
        }
        return steps
    }

    /// Why etcd is not the one the record of `id` was synced with, if its history shows
    /// it: the key did not hold that value at the revision it was synced at. `nil` when
    /// it did, or when that revision was compacted away (nothing to tell by).
    func vanished(_ id: String) throws -> String? {
        guard let record = state[id], record.etag != nil, record.revision > 0 else { return nil }
        let found: EtcdClient.KeyValue?
        do {
            found = try etcd { client throws(EtcdError) in
                try client.read(layout.key(of: id), revision: record.revision)
            }.keyValue
        } catch {
            guard !error.answered else { return nil }  // compacted: history cannot tell
            throw error
        }
        guard found?.modRevision != record.revision else { return nil }
        return
            "its history has no trace of \(Display.escaped(id)) at revision \(record.revision), where it was synced"
    }

    /// The directory's first results: what changed in it since the reconcile read it goes
    /// out now.
    func localLoaded(_ results: Results<Item>) {
        var changed: [String] = []
        for item in results where state[item.id]?.etag != item.etag { changed.append(item.id) }
        for (id, record) in state.records where record.etag != nil {
            if results.index(ofID: id.string) == nil { changed.append(id.string) }
        }
        localChanged(changed)
    }

    /// The directory changed these items: send what changed to etcd.
    func localChanged(_ ids: [String]) {
        // Sent when the follower resumes, or by the listing's reconcile.
        guard online == true, relisting == nil, !isStopped else { return }
        var steps: [Step] = []
        for id in ids {
            // etcd is taken to hold what was last synced; the compare of the write says
            // when it does not, and that item is then settled from a fresh read.
            let record = state[id]
            let (local, bytes) = readLocal(id)
            let assumed: MirrorAction.Remote =
                record.flatMap { record in
                    record.etag.map { .value(revision: record.revision, etag: $0) }
                } ?? .absent
            let action = MirrorAction.decide(local: local, remote: assumed, record: record)
            switch action {
            case .push, .deleteRemote:
                steps.append(
                    Step(
                        id: id, action: action, local: local, localBytes: bytes, remote: nil,
                        revision: 0))
            default: continue
            }
        }
        do {
            try execute(steps)
        } catch {
            lost(error)
        }
    }

    /// etcd changed these keys, in one transaction: bring them into the directory.
    func remoteChanged(_ events: [EtcdWatch.Event]) {
        guard relisting == nil, !isStopped else { return }  // the listing's reconcile takes them
        var steps: [Step] = []
        var schema: [UInt8]??
        for event in events {
            if event.keyValue.key == layout.schemaKey {
                schema = .some(event.kind == .delete ? nil : event.keyValue.value)
            }
            guard let id = itemID(of: event.keyValue.key) else { continue }
            let revision = event.keyValue.modRevision
            if let record = state[id], revision <= record.revision { continue }  // ours, or old
            steps.append(
                step(id, remote: event.kind == .delete ? nil : event.keyValue, at: revision))
        }
        do {
            try execute(steps)
            if let schema { try syncSchema(remote: schema) }
        } catch {
            lost(error, relist: true)
        }
    }
}
