extension JSONStore {
    /// The folder a store directory keeps its own files in (`.jsonstore/`); `nil` on etcd.
    package var _privateFolder: PrivateFolder? {
        remote == nil ? PrivateFolder(store: path) : nil
    }

    /// Where the private folder keeps the versions a mirror kept as conflicts: one folder
    /// per item, one file per version.
    static let conflictsFolder = "conflicts"

    /// Every conflict of the store, by item id, then by file.
    ///
    /// A conflict is another version of an item, kept because two places changed it at
    /// once: the copies Syncthing, Dropbox, Nextcloud and ownCloud leave beside the file
    /// (`tea.sync-conflict-….json`, `tea (conflicted copy …).json`), a merge's
    /// `tea.json.orig`, and the versions `jsonstore mirror` kept when etcd had accepted
    /// another edit first. None of them is ever an item of its own.
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
            guard let (id, origin) = ConflictName.parse(name) else { continue }
            let file = join(path, name)
            let (read, _) = ItemFile.readBytes(
                named: name, in: dir, file: file, id: id, limit: reader.maxSize)
            guard let bytes = try read?.get() else { continue }
            found.append(
                Conflict(
                    id: id, file: file, origin: origin, bytes: bytes, location: .beside(name: name))
            )
        }
        let folder = PrivateFolder(store: path)
        for id in folder.names(in: Self.conflictsFolder) where ItemID.problem(with: id) == nil {
            let kept = Self.conflictsFolder + "/" + id
            for name in folder.names(in: kept) where name.hasSuffix(".json") {
                let relative = kept + "/" + name
                guard let bytes = try folder.read(relative, limit: reader.maxSize) else { continue }
                found.append(
                    Conflict(
                        id: id, file: folder.path(of: relative), origin: Self.keptOrigin(name),
                        bytes: bytes, location: .kept(relative: relative)))
            }
        }
        return found.sorted {
            UTF8Key.equal($0.id, $1.id)
                ? UTF8Key.less($0.file, $1.file) : UTF8Key.less($0.id, $1.id)
        }
    }

    /// The conflicts of the item `id`.
    public func conflicts(of id: String) throws(StoreError) -> [Conflict] {
        try ItemID.validate(id)
        return try conflicts().filter { UTF8Key.equal($0.id, id) }
    }

    /// Keeps `bytes` as a conflict of `id` that came from `origin` (a host's name), in the
    /// private folder: `.jsonstore/conflicts/<id>/<UTC time>-<origin>.json`.
    @discardableResult
    package func _keepConflict(of id: String, _ bytes: [UInt8], from origin: String)
        throws(StoreError) -> Conflict
    {
        try ItemID.validate(id)
        let folder = PrivateFolder(store: path)
        let kept = Self.conflictsFolder + "/" + id
        let slug = String(origin.unicodeScalars.map { Self.isPlain($0) ? Character($0) : "_" })
        let stem = WallClock.stamp() + "-" + (slug.isEmpty ? "here" : slug)
        let taken = Set(folder.names(in: kept))
        var name = stem + ".json"
        var copy = 2
        while taken.contains(name) {
            name = "\(stem).\(copy).json"
            copy += 1
        }
        try folder.replace(kept + "/" + name, with: bytes, sync: true)
        return Conflict(
            id: id, file: folder.path(of: kept + "/" + name), origin: Self.keptOrigin(name),
            bytes: bytes, location: .kept(relative: kept + "/" + name))
    }

    /// Ends the conflicts of the item `id`: the item becomes `choice` (the item as it is,
    /// the conflict's version, or a version merged by hand), then every version kept of
    /// it is removed. A crash in between leaves the conflicts, never a lost version.
    ///
    /// - Returns: the conflicts it ended.
    /// - Throws: `StoreError`: `.notFound` when the item has no conflicts, `.conflict` for
    ///   `.theirs` when it has more than one (name the version to keep), the new
    ///   version's error when it is not a valid item, or the file system's error.
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
        switch choice {
        case .mine: keep = nil
        case .merged(let bytes): keep = bytes
        case .theirs:
            guard ended.count == 1 else {
                throw StoreError(
                    code: .conflict,
                    message:
                        "\"\(id)\" has \(ended.count) conflicts; name the version to keep: \(ended.map(\.file).joined(separator: ", "))",
                    file: filePath(id), id: id)
            }
            keep = ended[0].bytes
        }
        if let keep {
            try storeErrors { try write { tx in try tx._putStored(id, keep) } }
        }
        let dir = try openDirectory()
        defer { dir.close() }
        let folder = PrivateFolder(store: path)
        for conflict in ended {
            switch conflict.location {
            case .kept(let relative): try folder.remove(relative)
            case .beside(let name):
                do {
                    try dir.unlink(name)
                } catch .noSuchFile {
                    continue
                } catch {
                    throw StoreError.system(error, "could not remove", file: conflict.file)
                }
            }
        }
        return ended
    }

    /// Where a version a mirror kept came from, from its name `20261201-161500-host.json`.
    private static func keptOrigin(_ name: String) -> String {
        let parts = name.dropLast(5).split(separator: "-", maxSplits: 2)
        guard parts.count == 3, parts[0].count == 8, parts[1].count == 6,
            parts[0].allSatisfy(\.isNumber), parts[1].allSatisfy(\.isNumber)
        else { return "a mirror (\(name))" }
        return "the mirror on \(parts[2]) at \(ConflictName.timestamp(parts[0], parts[1])) UTC"
    }

    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "_": true
        default: false
        }
    }
}
