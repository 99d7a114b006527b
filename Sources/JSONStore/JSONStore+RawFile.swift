extension JSONStore {
    /// The bytes of the file `name` in the store directory, as they are on disk, or `nil`
    /// if there is no such file: for showing a person an item's file, valid or not.
    ///
    /// The file is opened as an item file is (`O_NOFOLLOW | O_NONBLOCK`, regular files
    /// only, within the size limit), so a symlink, FIFO or device with an item's name is
    /// reported, never followed or blocked on.
    ///
    /// - Throws: `StoreError` naming the file: not a regular file, too large, unreadable;
    ///   `.invalidID` for a name that is not one entry of the directory.
    package func _fileBytes(named name: String) throws(StoreError) -> [UInt8]? {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0")
        else {
            throw StoreError.invalidID(name, "not a file name in the store directory")
        }
        if let remote {
            guard name.hasSuffix(".json") else { return nil }
            return try remote.rawValue(of: String(name.dropLast(5)), limit: reader.maxSize)?.bytes
        }
        let dir = try openDirectory()
        defer { dir.close() }
        let (read, _) = ItemFile.readBytes(
            named: name, in: dir, file: join(path, name), id: nil, limit: reader.maxSize)
        return try read?.get()
    }

    /// What the server of a store that is not a directory is, and its limits (for
    /// `check`); `nil` for a directory.
    package func _serverSummary() -> String? { remote?.serverSummary() }

    /// Whether the store is not a directory (etcd): its items have no files to open in an
    /// editor, so the list view edits a copy and puts it back with its etag.
    package var _isRemote: Bool { remote != nil }

    /// How the stream names an invalid entry: its file's name in a directory (`b.json`),
    /// its key on etcd (`tasks/b`; also a key that gives no id, `tasks/a/b`).
    package func _entryName(of file: InvalidFile) -> String {
        guard let remote else { return file.name }
        return remote.location(of: file.id ?? file.name)
    }

    /// The value of the item `id` as it is stored, valid or not, with its etag; `nil` if
    /// there is no such item.
    package func _storedValue(of id: String) throws(StoreError) -> (bytes: [UInt8], etag: String)? {
        try ItemID.validate(id)
        if let remote { return try remote.rawValue(of: id, limit: reader.maxSize) }
        guard let bytes = try _fileBytes(named: ItemID.fileName(id)) else { return nil }
        return (bytes, Fingerprint(bytes).etag)
    }
}

extension JSONStore {
    /// Replaces the file at `path` with `bytes` atomically (a private temp file beside it,
    /// synced, renamed over it), keeping the file's mode (0644 for a new one): for the
    /// command's `merge-driver`, which writes git's file.
    package static func _replaceFile(atPath path: String, with bytes: [UInt8]) throws(StoreError) {
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let folder = slash.map { String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        do {
            let dir = try FileDescriptor.openDirectory(folder.isEmpty ? "/" : folder)
            try dir.closeAfter { (dir) throws(Errno) in
                let old = try? dir.linkStatus(of: name)
                let mode = old.flatMap { $0.kind == .regular ? $0.permissions : nil } ?? 0o644
                let temp = try AtomicFile.stage(bytes, permissions: mode, in: dir)
                do throws(Errno) {
                    try dir.rename(temp, to: name)
                } catch {
                    try? dir.unlink(temp)
                    throw error
                }
                try dir.sync()
            }
        } catch {
            throw StoreError.system(error, "could not write", file: path)
        }
    }
}
