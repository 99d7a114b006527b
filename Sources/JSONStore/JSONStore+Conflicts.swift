extension JSONStore {
    /// The folder a store directory keeps its own files in (`.jsonstore/`); `nil` on etcd.
    package var _privateFolder: PrivateFolder? {
        remote == nil ? PrivateFolder(store: path) : nil
    }

    /// Every conflict of the store, by item id, then by file.
    ///
    /// A conflict is another version of an item, kept because two places changed it at
    /// once: the copies Syncthing, Dropbox, Nextcloud and ownCloud leave beside the file
    /// (`tea.sync-conflict-….json`, `tea (conflicted copy …).json`), a merge's
    /// `tea.json.orig`, and the versions `jsonstore mirror` kept when etcd had accepted
    /// another edit first (`tea.jsonstore-conflict-….json`). None of them is ever an item
    /// of its own.
    ///
    /// - Throws: `StoreError` when the store directory cannot be listed.
    public func conflicts() throws(StoreError) -> [Conflict] {
        guard remote == nil else { return [] }
        var found: [Conflict] = []
        let dir = try openDirectory()
        defer { dir.close() }
        let names: [DirectoryScan.Name]
        do {
            names = try DirectoryScan.names(in: dir)
        } catch {
            throw StoreError.system(error, "could not list the store directory", file: path)
        }
        for case .text(let name) in names {
            if let conflict = Self.readConflict(
                named: name, in: dir, path: path, limit: reader.maxSize)
            {
                found.append(conflict)
            }
        }
        return found.sorted(by: Conflict.ordered)
    }

    /// The conflict copy `name` of the directory `dir` (at `path`), if `name` is one and
    /// it can be read (a copy too large or gone meanwhile is no conflict to show).
    static func readConflict(named name: String, in dir: FileDescriptor, path: String, limit: Int)
        -> Conflict?
    {
        guard let (named, origin, isMirrors) = ConflictName.read(name),
            let id = ConflictStem.item(of: named, in: path)
        else { return nil }
        let file = join(path, name)
        let (read, _) = ItemFile.readBytes(named: name, in: dir, file: file, id: id, limit: limit)
        guard let bytes = try? read?.get() else { return nil }
        return Conflict(
            id: id, name: name, file: file, origin: origin, bytes: bytes,
            isMine: isMirrors)
    }

    /// The conflicts of the item `id`.
    public func conflicts(of id: String) throws(StoreError) -> [Conflict] {
        try ItemID.validate(id)
        return try conflicts().filter { UTF8Key.equal($0.id, id) }
    }

    /// Keeps `bytes` as a conflict of `id` that came from `origin` (a host's name), beside
    /// the item: `<id>.jsonstore-conflict-<UTC time>-<origin>.json`, a name that is never
    /// an item, synced to the disk, with the item file's mode; a name that would not fit
    /// in 255 bytes is shortened (`ConflictStem`).
    @discardableResult
    package func _keepConflict(of id: String, _ bytes: [UInt8], from origin: String)
        throws(StoreError) -> Conflict
    {
        try ItemID.validate(id)
        let slug = String(origin.unicodeScalars.map { Self.isPlain($0) ? Character($0) : "_" })
        let stem = ConflictStem.stem(
            id: id, host: slug.isEmpty ? "here" : slug, stamp: WallClock.stamp())
        let dir = try openDirectory()
        defer { dir.close() }
        var name = stem + ".json"
        var copy = 2
        while (try? dir.linkStatus(of: name)) != nil {
            name = "\(stem).\(copy).json"
            copy += 1
        }
        let file = join(path, name)
        do {
            // The item's mode: a 0600 item's other version is as private as it.
            let item = try? dir.linkStatus(of: id + ".json")
            let mode = item.flatMap { $0.kind == .regular ? $0.permissions : nil } ?? 0o644
            let temp = try AtomicFile.stage(bytes, permissions: mode, in: dir)
            try dir.rename(temp, to: name)
            try dir.sync()
        } catch {
            throw StoreError.system(error, "could not keep the conflict", file: file, id: id)
        }
        let origin = ConflictName.parse(name)?.origin ?? origin
        return Conflict(id: id, name: name, file: file, origin: origin, bytes: bytes, isMine: true)
    }

    /// Ends the conflicts of the item `id`: the item becomes `choice` (the item as it is,
    /// this machine's version or the other's, or a version merged by hand), then every
    /// version kept of it is removed. A crash in between leaves the conflicts, never a lost
    /// version.
    ///
    /// - Returns: the conflicts it ended.
    /// - Throws: `StoreError`: `.notFound` when the item has no conflicts, `.ambiguous`
    ///   for `.mine` or `.theirs` when the kept versions' names cannot tell which that is
    ///   (another tool's copies, or several of the mirror's for `.mine`: name the version
    ///   with `.merged`; nothing is changed), the new version's error when it is not a
    ///   valid item, or the file system's error.
    @discardableResult
    public func resolve(_ id: String, keeping choice: ConflictResolution) throws(StoreError)
        -> [Conflict]
    {
        let ended = try conflicts(of: id)
        guard !ended.isEmpty else {
            throw StoreError(
                code: .notFound, message: "no conflicts of \"\(id)\"", file: filePath(id), id: id)
        }
        var keep: [UInt8]?
        if case .merged(let bytes) = choice {
            keep = bytes
        } else {
            switch choice.version(among: ended) {
            case .item: keep = nil
            case .kept(let conflict): keep = conflict.bytes
            case nil:
                let word = choice == .mine ? "mine" : "theirs"
                throw StoreError(
                    code: .ambiguous,
                    message:
                        "which version of \"\(id)\" is \(word) cannot be told from its \(ended.count == 1 ? "conflict" : "\(ended.count) conflicts"); name the version to keep: \(([filePath(id)] + ended.map(\.file)).joined(separator: ", "))",
                    file: filePath(id), id: id)
            }
        }
        if let keep {
            try storeErrors { try write { tx in try tx.putStored(id, keep) } }
        }
        let dir = try openDirectory()
        defer { dir.close() }
        for conflict in ended {
            do {
                try dir.unlink(conflict.name)
            } catch .noSuchFile {
                continue
            } catch {
                throw StoreError.system(error, "could not remove", file: conflict.file)
            }
        }
        return ended
    }

    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "_": true
        default: false
        }
    }
}
