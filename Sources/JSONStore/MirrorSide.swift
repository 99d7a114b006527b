/// What a mirror of a directory store (`JSONStoreEtcd`'s `DirectoryMirror`) needs of the
/// store beyond its public API, in one named place: its files as they are (exact bytes and
/// their etags, valid or not), writes of exact bytes under expectations, conflicts kept
/// beside an item, and the private folder. Nothing but the mirror uses it.
package struct MirrorSide: Sendable {
    package let store: JSONStore
    /// The store's private folder (`.jsonstore/`), where the mirror keeps its state.
    package let folder: PrivateFolder

    /// The mirror's side of `store`; `nil` unless it is a directory store.
    package init?(_ store: JSONStore) {
        guard let folder = store._privateFolder else { return nil }
        self.store = store
        self.folder = folder
    }

    /// The etag a directory gives a file of `bytes` (their length and hash): to tell
    /// whether another store's value is the file's.
    package static func etag(of bytes: [UInt8]) -> String { Fingerprint(bytes).etag }

    /// Whether `id` names an item, not another sync tool's conflict copy of one.
    package func isItemName(_ id: String) -> Bool {
        guard case .item = EntryName(ItemID.fileName(id)) else { return false }
        return true
    }

    /// The file of `id` as it is, valid or not, with its etag; `nil` if there is none.
    package func storedValue(of id: String) throws(StoreError) -> (bytes: [UInt8], etag: String)? {
        try store._storedValue(of: id)
    }

    /// One item file as it is: its bytes and their etag, and whether it is a valid item.
    package struct StoredFile: Sendable {
        package let id: String
        package let bytes: [UInt8]
        package let etag: String
        package let isValid: Bool
    }

    /// Every item file of the directory as it is, in id order, read on every core (the
    /// mirror sends files' exact bytes). A file that cannot be read (a FIFO, too large) is
    /// there but not valid; one gone meanwhile is left out.
    package func storedFiles() throws(StoreError) -> [StoredFile] {
        let dir = try store.openDirectory()
        defer { dir.close() }
        let listing = try store.listing(of: dir)
        let (ids, path, reader) = (listing.ids, store.path, store.reader)
        let files = ItemFile.parallelMap(
            ids.count, parallelAbove: store.options.parallelLoadThreshold, initial: nil
        ) { i -> StoredFile? in
            let (id, name) = (ids[i], ItemID.fileName(ids[i]))
            let file = join(path, name)
            let (read, _) = ItemFile.readBytes(
                named: name, in: dir, file: file, id: id, limit: reader.maxSize)
            guard let read else { return nil }  // gone meanwhile
            guard case .success(let bytes) = read else {
                // A FIFO, a symlink, too large: there, but never sent.
                return StoredFile(id: id, bytes: [], etag: "", isValid: false)
            }
            var isValid = false
            if case .item = ItemFile.parse(bytes, id: id, file: file, reader: reader) {
                isValid = true
            }
            return StoredFile(id: id, bytes: bytes, etag: Fingerprint(bytes).etag, isValid: isValid)
        }
        return files.compactMap { $0 }
    }

    /// A write of exact bytes (`nil`: a deletion), if the file has the etag `expected`
    /// (`nil`: no file).
    package struct Write: Sendable {
        package let id: String
        package let bytes: [UInt8]?
        package let expected: String?
        package init(id: String, bytes: [UInt8]?, expected: String?) {
            self.id = id
            self.bytes = bytes
            self.expected = expected
        }
    }

    /// Makes `writes` as one batch: all of them, or none when a file is not as expected
    /// (`StoreError.Code.changed`).
    package func write(_ writes: some Sequence<Write>) throws {
        try store.write { tx in
            for write in writes {
                try tx.expect(write.id, write.expected.map { .etag($0) } ?? .absent)
                if let bytes = write.bytes {
                    try tx.putStored(write.id, bytes)
                } else {
                    try tx.delete(write.id)
                }
            }
        }
    }

    /// Keeps `bytes` as a conflict of `id` that came from `origin` (a host's name), beside
    /// the item (`JSONStore.conflicts(of:)` lists it).
    package func keepConflict(of id: String, _ bytes: [UInt8], from origin: String)
        throws(StoreError) -> Conflict
    {
        try store._keepConflict(of: id, bytes, from: origin)
    }
}
