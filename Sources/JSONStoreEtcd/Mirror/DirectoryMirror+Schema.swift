import Dispatch
import JSONStore

/// The store's schema, carried both ways: the directory's `.jsonstore/schema.json` and the
/// prefix's `PREFIX/.jsonstore/schema.json` kept equal as an item is.
///
/// The document last synced is kept in `mirror/schema.synced` (empty: synced as none), so
/// the side that changed since is the one sent; when both changed, or nothing was synced
/// yet and both have one, etcd's is the schema everywhere and the directory's is kept
/// beside it as `schema.mine.json`, never lost. etcd's changes come with the watch; the
/// directory's file is looked at every `schemaCheckInterval` seconds.
extension DirectoryMirror {
    static let syncedSchemaFile = "mirror/schema.synced"
    static let keptSchemaFile = "schema.mine.json"
    static let schemaCheckInterval = 0.25

    /// Makes both sides hold one schema, given what etcd holds now.
    func syncSchema(remote: [UInt8]?) throws {
        let local = try folder.read(StoreSchema.fileName)
        let synced = try folder.read(Self.syncedSchemaFile).map { $0.isEmpty ? nil : $0 }
        // What the directory holds, so that the next look sees no change: the document
        // read here, unless etcd's replaces it below.
        schemaSeen = local
        guard local != remote else {
            if synced != .some(local) { try record(local) }
            return
        }
        let localChanged = synced.map { $0 != local } ?? true
        let remoteChanged = synced.map { $0 != remote } ?? true
        if localChanged && !remoteChanged {
            try push(local, over: remote)
            return
        }
        if remote == nil && synced == nil {  // first sync: only the directory has one
            try push(local, over: remote)
            return
        }
        if let local, localChanged {
            try folder.replace(Self.keptSchemaFile, with: local, sync: true)
            say(
                "mirror: the schema changed on both sides: etcd's is in force, the directory's is kept at \(folder.path(of: Self.keptSchemaFile))"
            )
        }
        if let remote {
            try folder.replace(StoreSchema.fileName, with: remote, sync: true)
            try folder.lettingSchemaThrough()
        } else {
            _ = try folder.remove(StoreSchema.fileName)
        }
        schemaSeen = remote
        try record(remote)
    }

    /// Sends the directory's schema (or its removal) to etcd through the writer, if etcd
    /// still holds `remote`; when another writer changed it since, nothing is sent: the
    /// watch brings etcd's change, and the sync after it finds both sides changed.
    private func push(_ local: [UInt8]?, over remote: [UInt8]?) throws {
        let sent = try EtcdWriter(clients: clients).replace(layout.schemaKey, with: local) {
            $0 == remote
        }
        guard case .replaced = sent else { return }
        try record(local)
    }

    private func record(_ document: [UInt8]?) throws {
        try folder.replace(Self.syncedSchemaFile, with: document ?? [], sync: false)
    }

    /// Looks at the directory's schema now and again while the mirror runs, and sends it
    /// when it changed.
    func watchLocalSchema() {
        queue.asyncAfter(deadline: .now() + Self.schemaCheckInterval) { [weak self] in
            self?.assumeIsolated { $0.lookAtLocalSchema() }
        }
    }

    /// Sends the directory's schema when it changed since last looked at; looks again later.
    private func lookAtLocalSchema() {
        guard !isStopped, !failed else { return }
        defer { watchLocalSchema() }
        guard online == true else { return }
        do {
            let local = try folder.read(StoreSchema.fileName)
            guard local != schemaSeen else { return }
            let remote = try etcd { client throws(EtcdError) in
                try client.get(layout.schemaKey)
            }
            try syncSchema(remote: remote.keyValue?.value)
        } catch {
            lost(error)
        }
    }
}
