/// The start cache in the store's private folder, beside the journal: `.jsonstore/start`,
/// and the marker whose stamp is a look's start, `.jsonstore/start.look`.
extension StartCache {
    static let fileName = "start"
    static let lookName = "start.look"

    /// The terms items are read under: the reader's limits and the enforced schema's
    /// bytes. A cache written under other terms is not used.
    static func terms(reader: JSONReader, schema: StoreSchema?) -> Fingerprint {
        var text = Array("depth \(reader.maxDepth) size \(reader.maxSize) schema ".utf8)
        if let schema { text += Array(schema.fingerprint.etag.utf8) }
        return Fingerprint(text)
    }

    /// The identity of the open store directory `dir`, as a cache names it.
    static func directory(of dir: FileDescriptor) -> Directory? {
        guard let status = try? dir.status() else { return nil }
        return Directory(device: status.device, inode: status.inode)
    }

    /// The cache the store at `store` keeps for the directory `directory`, read under
    /// `terms`; `nil` when there is none or it is refused (damaged, another format,
    /// another directory, other terms), which is never an error: it is written again.
    static func read(store: String, directory: Directory, terms: Fingerprint) -> StartCache? {
        guard let bytes = try? PrivateFolder(store: store).read(fileName, limit: Int(UInt32.max))
        else { return nil }
        guard let cache = try? StartCache(decoding: bytes, for: directory), cache.terms == terms
        else { return nil }
        return cache
    }

    /// Begins a look at the store at `store`: the marker stamped now, in the file system's
    /// clock (`FileDescriptor.stamp`). `nil` when the private folder cannot be written (a
    /// reader who may not write the store keeps no cache).
    static func beginLook(store: String) -> Int64? {
        guard let folder = try? PrivateFolder(store: store).openFolder("", create: true) else {
            return nil
        }
        defer { folder.close() }
        return try? folder.stamp(lookName)
    }

    /// Writes this cache for the store at `store`, replacing the last one; best effort:
    /// a cache that cannot be written is simply not there next time.
    func write(store: String) {
        try? PrivateFolder(store: store).replace(Self.fileName, with: encoded())
    }
}
